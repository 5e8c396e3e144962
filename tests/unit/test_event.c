/* tests/unit/test_event.c: the intrusive event heap (core/event.c).
 * Checks the documented order (time, then priority, then the order of (re)scheduling),
 * rescheduling and cancelling of queued events, the "queue full" error, and heap integrity
 * over thousands of random operations against a naive reference model kept in the test:
 * the model stores (when, prio, seq) per event and finds the minimum by a linear scan. */
#include "../testlib.h"
#include "../../core/event.h"

static void nop_fn(ev_event *e, void *ctx)
{
    (void)e;
    (void)ctx;
}

/* Build a queue with n registered events e[0..n) of the given priorities. */
static void setup(ev_queue *q, ev_event *e, int n, const int *prio)
{
    ev_queue_init(q);
    for (int i = 0; i < n; i++) {
        ev_init(&e[i], "e", nop_fn, NULL, prio ? prio[i] : 0);
        assert_int_equal(ev_register(q), 0);
    }
    assert_int_equal(q->cap, (uint32_t)n);
    assert_int_equal(q->n, 0);
}

static void test_empty_queue(void **state)
{
    (void)state;
    ev_queue q;
    ev_event e[1];
    setup(&q, e, 1, NULL);
    assert_null(ev_peek(&q));
    assert_null(ev_pop(&q));
    assert_true(ev_next_time(&q) == EV_NEVER);
    /* a freshly initialised event is not queued, and cancelling it is harmless */
    assert_false(ev_pending(&e[0]));
    ev_cancel(&q, &e[0]);
    assert_int_equal(q.n, 0);
    ev_queue_free(&q);
}

static void test_order_by_time(void **state)
{
    (void)state;
    ev_queue q;
    ev_event e[5];
    setup(&q, e, 5, NULL);
    /* scheduled out of time order; they must pop in increasing time */
    const uint64_t when[5] = {10, 50, 3, 1000000000000ull, 7};
    for (int i = 0; i < 5; i++)
        assert_int_equal(ev_schedule(&q, &e[i], when[i]), 0);
    assert_int_equal(q.n, 5);
    assert_true(ev_next_time(&q) == 3);
    /* expected order by time: 3 (e2), 7 (e4), 10 (e0), 50 (e1), 1e12 (e3) */
    const int order[5] = {2, 4, 0, 1, 3};
    for (int k = 0; k < 5; k++) {
        ev_event *p = ev_pop(&q);
        assert_ptr_equal(p, &e[order[k]]);
        assert_true(p->when == when[order[k]]);
        assert_false(ev_pending(p));
    }
    assert_null(ev_pop(&q));
    ev_queue_free(&q);
}

static void test_order_by_priority_then_insertion(void **state)
{
    (void)state;
    ev_queue q;
    ev_event e[6];
    /* all at time 100; priorities chosen so that lower prio runs first, ties by the order of
     * the ev_schedule calls */
    const int prio[6] = {5, -3, 5, 0, -3, 5};
    setup(&q, e, 6, prio);
    /* schedule in order 2, 0, 5, 4, 3, 1 */
    const int sched_order[6] = {2, 0, 5, 4, 3, 1};
    for (int k = 0; k < 6; k++)
        assert_int_equal(ev_schedule(&q, &e[sched_order[k]], 100), 0);
    /* prio -3: e4 (scheduled 4th), e1 (6th) -> e4, e1
     * prio  0: e3
     * prio  5: e2 (1st), e0 (2nd), e5 (3rd) -> e2, e0, e5 */
    const int expect[6] = {4, 1, 3, 2, 0, 5};
    for (int k = 0; k < 6; k++)
        assert_ptr_equal(ev_pop(&q), &e[expect[k]]);
    ev_queue_free(&q);
}

static void test_earlier_time_beats_priority(void **state)
{
    (void)state;
    ev_queue q;
    ev_event e[2];
    const int prio[2] = {100, -100};
    setup(&q, e, 2, prio);
    /* e0 has the worst priority but the earliest time: time is compared first */
    ev_schedule(&q, &e[1], 11);
    ev_schedule(&q, &e[0], 10);
    assert_ptr_equal(ev_pop(&q), &e[0]);
    assert_ptr_equal(ev_pop(&q), &e[1]);
    ev_queue_free(&q);
}

static void test_reschedule_moves_and_takes_new_seq(void **state)
{
    (void)state;
    ev_queue q;
    ev_event e[3];
    setup(&q, e, 3, NULL);
    ev_schedule(&q, &e[0], 20);
    ev_schedule(&q, &e[1], 20);
    ev_schedule(&q, &e[2], 30);
    /* move e2 earlier than everything */
    assert_int_equal(ev_schedule(&q, &e[2], 5), 0);
    assert_int_equal(q.n, 3); /* moved, not duplicated */
    assert_ptr_equal(ev_peek(&q), &e[2]);
    /* reschedule e0 to the same time: it now ranks after e1 at 20 (new insertion order) */
    assert_int_equal(ev_schedule(&q, &e[0], 20), 0);
    assert_int_equal(q.n, 3);
    assert_ptr_equal(ev_pop(&q), &e[2]);
    assert_ptr_equal(ev_pop(&q), &e[1]);
    assert_ptr_equal(ev_pop(&q), &e[0]);
    assert_null(ev_pop(&q));
    /* move later */
    ev_schedule(&q, &e[0], 1);
    ev_schedule(&q, &e[1], 2);
    ev_schedule(&q, &e[0], 3);
    assert_ptr_equal(ev_pop(&q), &e[1]);
    assert_ptr_equal(ev_pop(&q), &e[0]);
    ev_queue_free(&q);
}

static void test_cancel(void **state)
{
    (void)state;
    ev_queue q;
    ev_event e[4];
    setup(&q, e, 4, NULL);
    for (int i = 0; i < 4; i++)
        ev_schedule(&q, &e[i], (uint64_t)(10 * (i + 1)));
    ev_cancel(&q, &e[0]); /* the root */
    ev_cancel(&q, &e[2]); /* an inner one */
    assert_int_equal(q.n, 2);
    assert_false(ev_pending(&e[0]));
    assert_false(ev_pending(&e[2]));
    ev_cancel(&q, &e[2]); /* twice: no effect */
    assert_int_equal(q.n, 2);
    assert_ptr_equal(ev_pop(&q), &e[1]);
    assert_ptr_equal(ev_pop(&q), &e[3]);
    assert_null(ev_pop(&q));
    /* a cancelled event can be scheduled again */
    assert_int_equal(ev_schedule(&q, &e[0], 7), 0);
    assert_ptr_equal(ev_pop(&q), &e[0]);
    ev_queue_free(&q);
}

static void test_full_queue_fails_cleanly(void **state)
{
    (void)state;
    ev_queue q;
    ev_event e[3];
    ev_queue_init(&q);
    for (int i = 0; i < 3; i++)
        ev_init(&e[i], "e", nop_fn, NULL, 0);
    /* nothing registered: even one event does not fit */
    assert_int_equal(ev_schedule(&q, &e[0], 1), -1);
    assert_false(ev_pending(&e[0]));
    assert_int_equal(q.n, 0);
    /* two registered: the third distinct event is refused, the queue is untouched */
    assert_int_equal(ev_register(&q), 0);
    assert_int_equal(ev_register(&q), 0);
    assert_int_equal(ev_schedule(&q, &e[0], 5), 0);
    assert_int_equal(ev_schedule(&q, &e[1], 3), 0);
    assert_int_equal(ev_schedule(&q, &e[2], 1), -1);
    assert_false(ev_pending(&e[2]));
    assert_int_equal(q.n, 2);
    /* moving an already queued event still works when full (it frees its own slot first) */
    assert_int_equal(ev_schedule(&q, &e[0], 2), 0);
    assert_int_equal(q.n, 2);
    assert_ptr_equal(ev_pop(&q), &e[0]);
    assert_ptr_equal(ev_pop(&q), &e[1]);
    assert_null(ev_pop(&q));
    ev_queue_free(&q);
}

/* ---- randomised check against a reference model ---- */

#define NEV 200
typedef struct model_ent {
    int queued;
    uint64_t when, seq;
    int prio;
} model_ent;

static uint64_t rng_state;
static uint32_t rnd(void)
{
    /* xorshift64*: fixed seed, so the test is reproducible */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 2685821657736338717ull) >> 32);
}

static int model_less(const model_ent *a, const model_ent *b)
{
    if (a->when != b->when)
        return a->when < b->when;
    if (a->prio != b->prio)
        return a->prio < b->prio;
    return a->seq < b->seq;
}

static int model_min(const model_ent *m)
{
    int best = -1;
    for (int i = 0; i < NEV; i++)
        if (m[i].queued && (best < 0 || model_less(&m[i], &m[best])))
            best = i;
    return best;
}

static void check_heap(const ev_queue *q, const ev_event *e, const model_ent *m)
{
    uint32_t queued = 0;
    for (int i = 0; i < NEV; i++) {
        if (m[i].queued) {
            queued++;
            assert_true(ev_pending(&e[i]));
            assert_true((uint32_t)e[i].heap_index < q->n);
            assert_ptr_equal(q->heap[e[i].heap_index], &e[i]);
            assert_true(e[i].when == m[i].when);
        } else {
            assert_false(ev_pending(&e[i]));
        }
    }
    assert_int_equal(q->n, queued);
    /* heap property: no child ranks before its parent */
    for (uint32_t k = 1; k < q->n; k++) {
        const ev_event *c = q->heap[k], *p = q->heap[(k - 1) / 2];
        int c_first = c->when != p->when ? c->when < p->when : c->prio != p->prio ? c->prio < p->prio : c->seq < p->seq;
        assert_false(c_first);
    }
}

static void test_random_against_model(void **state)
{
    (void)state;
    ev_queue q;
    ev_event e[NEV];
    model_ent m[NEV];
    int prio[NEV];
    rng_state = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < NEV; i++)
        prio[i] = (int)(rnd() % 3) - 1; /* few distinct priorities: many ties */
    setup(&q, e, NEV, prio);
    memset(m, 0, sizeof m);
    for (int i = 0; i < NEV; i++)
        m[i].prio = prio[i];
    uint64_t seq = 0, now = 0;
    int pops = 0;
    for (int op = 0; op < 20000; op++) {
        uint32_t r = rnd() % 10;
        int i = (int)(rnd() % NEV);
        if (r < 5) {
            /* schedule or reschedule: times in a narrow window so equal times are common */
            uint64_t when = now + rnd() % 16;
            assert_int_equal(ev_schedule(&q, &e[i], when), 0);
            m[i].queued = 1;
            m[i].when = when;
            m[i].seq = seq++;
        } else if (r < 7) {
            ev_cancel(&q, &e[i]);
            m[i].queued = 0;
        } else {
            int want = model_min(m);
            ev_event *got = ev_pop(&q);
            if (want < 0) {
                assert_null(got);
            } else {
                assert_ptr_equal(got, &e[want]);
                m[want].queued = 0;
                now = m[want].when;
                pops++;
            }
        }
        if (op % 7 == 0 || op > 19900)
            check_heap(&q, e, m);
        int want = model_min(m);
        if (want < 0)
            assert_null(ev_peek(&q));
        else
            assert_ptr_equal(ev_peek(&q), &e[want]);
    }
    /* drain: everything left comes out in model order */
    for (int want; (want = model_min(m)) >= 0;) {
        assert_ptr_equal(ev_pop(&q), &e[want]);
        m[want].queued = 0;
    }
    assert_null(ev_pop(&q));
    assert_true(pops > 1000); /* the random mix really exercised pops */
    ev_queue_free(&q);
}

XPUSIM_TESTS(event,
             cmocka_unit_test(test_empty_queue),
             cmocka_unit_test(test_order_by_time),
             cmocka_unit_test(test_order_by_priority_then_insertion),
             cmocka_unit_test(test_earlier_time_beats_priority),
             cmocka_unit_test(test_reschedule_moves_and_takes_new_seq),
             cmocka_unit_test(test_cancel),
             cmocka_unit_test(test_full_queue_fails_cleanly),
             cmocka_unit_test(test_random_against_model))
