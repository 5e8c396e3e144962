/* core/event.h: the simulator's event queue.
 * Events are intrusive records embedded in the objects that own them (units, DMA engines,
 * arbiters, vsync timers), so scheduling never allocates. The queue is a binary min-heap
 * ordered by (when, prio, seq): equal times are broken by priority, then by insertion order,
 * which makes every run deterministic. The heap array is sized when events are registered
 * (set-up time), never while the simulation runs. */
#ifndef XPUSIM_EVENT_H
#define XPUSIM_EVENT_H
#include <stdint.h>
#include <stddef.h>

#define EV_NEVER UINT64_MAX

typedef struct ev_event ev_event;
typedef void (*ev_fn)(ev_event *e, void *ctx);

struct ev_event {
    uint64_t when;      /* cycle at which fn runs */
    uint64_t seq;       /* insertion order, assigned by ev_schedule */
    int32_t prio;       /* lower runs first among equal times */
    int32_t heap_index; /* -1 when not queued */
    ev_fn fn;
    void *ctx;
    const char *name;   /* for the debugger's "events" listing */
};

typedef struct ev_queue {
    ev_event **heap;
    uint32_t n, cap;    /* cap = number of registered events */
    uint32_t alloc;     /* heap slots allocated (>= cap: registering thousands of units is not a realloc each) */
    uint64_t next_seq;
} ev_queue;

void ev_init(ev_event *e, const char *name, ev_fn fn, void *ctx, int prio);
void ev_queue_init(ev_queue *q);
void ev_queue_free(ev_queue *q);
/* Reserve heap room for one more event; the only call that allocates. 0 ok, -1 no memory. */
int ev_register(ev_queue *q);
/* Queue e at 'when' (or move it there if already queued). -1 if the queue is full
 * (more events queued than registered: a programming error). */
int ev_schedule(ev_queue *q, ev_event *e, uint64_t when);
/* Queue e at 'when' with the insertion number seq it was given earlier (ev_schedule took it
 * from next_seq), so that it keeps its place among equal (when, prio) events: for an owner
 * that kept e off the queue for a while (core/run.c's ring of cycle-coupled units). */
int ev_schedule_seq(ev_queue *q, ev_event *e, uint64_t when, uint64_t seq);
void ev_cancel(ev_queue *q, ev_event *e);
ev_event *ev_pop(ev_queue *q);

/* The queue's order: a runs before b (earlier time, then lower priority, then inserted first). */
static inline int ev_before(const ev_event *a, const ev_event *b)
{
    if (a->when != b->when)
        return a->when < b->when;
    if (a->prio != b->prio)
        return a->prio < b->prio;
    return a->seq < b->seq;
}

static inline ev_event *ev_peek(const ev_queue *q) { return q->n ? q->heap[0] : NULL; }
static inline uint64_t ev_next_time(const ev_queue *q) { return q->n ? q->heap[0]->when : EV_NEVER; }
static inline int ev_pending(const ev_event *e) { return e->heap_index >= 0; }

#endif
