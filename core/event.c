/* core/event.c: binary min-heap of intrusive events keyed by (when, prio, seq).
 * The seq number is taken at each (re)schedule, so two events at the same cycle and priority
 * run in the order they were scheduled: the tie-break that makes runs reproducible. */
#include <stdlib.h>
#include "event.h"

void ev_init(ev_event *e, const char *name, ev_fn fn, void *ctx, int prio)
{
    e->when = EV_NEVER;
    e->seq = 0;
    e->prio = prio;
    e->heap_index = -1;
    e->fn = fn;
    e->ctx = ctx;
    e->name = name;
}

void ev_queue_init(ev_queue *q)
{
    q->heap = NULL;
    q->n = q->cap = q->alloc = 0;
    q->next_seq = 0;
}

void ev_queue_free(ev_queue *q)
{
    free(q->heap);
    ev_queue_init(q);
}

int ev_register(ev_queue *q)
{
    if (q->cap == q->alloc) {
        if (q->alloc > UINT32_MAX / 2)
            return -1;
        uint32_t a = q->alloc ? 2 * q->alloc : 16;
        ev_event **h = realloc(q->heap, a * sizeof *h);
        if (!h)
            return -1;
        q->heap = h;
        q->alloc = a;
    }
    q->cap++;
    return 0;
}

static inline int ev_less(const ev_event *a, const ev_event *b) { return ev_before(a, b); }

static void ev_place(ev_queue *q, uint32_t i, ev_event *e)
{
    q->heap[i] = e;
    e->heap_index = (int32_t)i;
}

static void ev_sift_up(ev_queue *q, uint32_t i)
{
    ev_event *e = q->heap[i];
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (!ev_less(e, q->heap[p]))
            break;
        ev_place(q, i, q->heap[p]);
        i = p;
    }
    ev_place(q, i, e);
}

static void ev_sift_down(ev_queue *q, uint32_t i)
{
    ev_event *e = q->heap[i];
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= q->n)
            break;
        if (c + 1 < q->n && ev_less(q->heap[c + 1], q->heap[c]))
            c++;
        if (!ev_less(q->heap[c], e))
            break;
        ev_place(q, i, q->heap[c]);
        i = c;
    }
    ev_place(q, i, e);
}

static void ev_remove_at(ev_queue *q, uint32_t i)
{
    ev_event *e = q->heap[i];
    e->heap_index = -1;
    q->n--;
    if (i == q->n)
        return;
    ev_event *moved = q->heap[q->n];
    ev_place(q, i, moved);
    ev_sift_down(q, i);
    ev_sift_up(q, (uint32_t)moved->heap_index);
}

int ev_schedule(ev_queue *q, ev_event *e, uint64_t when)
{
    if (e->heap_index >= 0)
        ev_remove_at(q, (uint32_t)e->heap_index);
    if (q->n >= q->cap)
        return -1;
    return ev_schedule_seq(q, e, when, q->next_seq++);
}

int ev_schedule_seq(ev_queue *q, ev_event *e, uint64_t when, uint64_t seq)
{
    if (e->heap_index >= 0)
        ev_remove_at(q, (uint32_t)e->heap_index);
    if (q->n >= q->cap)
        return -1;
    e->when = when;
    e->seq = seq;
    ev_place(q, q->n++, e);
    ev_sift_up(q, q->n - 1);
    return 0;
}

void ev_cancel(ev_queue *q, ev_event *e)
{
    if (e->heap_index >= 0)
        ev_remove_at(q, (uint32_t)e->heap_index);
}

ev_event *ev_pop(ev_queue *q)
{
    if (!q->n)
        return NULL;
    ev_event *e = q->heap[0];
    ev_remove_at(q, 0);
    return e;
}
