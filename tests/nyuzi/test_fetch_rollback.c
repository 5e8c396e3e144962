/* tests/nyuzi/test_fetch_rollback.c: which thread the fetch stage chooses in the cycle a
 * thread is rolled back (isa/nyuzi/pipeline.c due_events, fetch_cycle). The RTL
 * (ifetch_tag_stage.sv) chooses round robin among the threads whose fetch is enabled,
 * ts_fetch_en = !almost_full of the thread's instruction FIFO (thread_select_stage.sv: 8
 * entries, almost full at 5), and does not leave out a thread being rolled back in that
 * cycle: if it chooses one, the fetch is dropped (ift_instruction_requested deasserted).
 * The FIFO is flushed at the end of that cycle, so a thread whose FIFO was almost full
 * before the rollback is not enabled then: the other thread is chosen. RTL trace of
 * llsc.c1t2 (session 34): thread 0's store_sync rolls back at 444 with 5 instructions in
 * its FIFO; thread 1 is fetched at 444 and 445 (ifetch_data 445, 446 in the trace's
 * cycles), thread 0 from 446; the model chose thread 0 at 444, dropped the fetch, and
 * ran one cycle behind from there (pingpong.c1t2 +2.3%: one cycle per poll).
 * Derived by hand for a core of two threads, both ready, the fetch pointer at thread 0
 * (thread 1 was chosen last), thread 1's FIFO empty (its next fetch 0x1100), thread 0
 * rolled back to 0x1040 at cycle R = 1000:
 * - FIFO almost full before the flush (6 entries there): at R thread 0 is not enabled,
 *   thread 1 is fetched (one entry, issuable at R + 4, FE_DEPTH) and the pointer is at
 *   thread 0 again; at R + 1 thread 0 fetches 0x1040, issuable at R + 5;
 * - 4 entries (not almost full): thread 0 is chosen at R and the fetch dropped (its FIFO
 *   stays empty; the pointer moves to thread 1), thread 1 is fetched at R + 1.
 * A thread waiting for an instruction line is not among the candidates, rolled back or not
 * (ifetch_tag_stage.sv: can_fetch_thread_bitmap = ts_fetch_en & ~icache_wait_threads, and
 * a rollback leaves icache_wait_threads as it is until l2i_icache_wake_bitmap). RTL trace of
 * wcomb.c1t4 (session 37): thread 2's fetch of 0x1100 misses (ifetch_data 908), thread 2
 * rolls back at 911 (a store behind a pending one), and at 912 thread 3 is fetched, not
 * thread 2 (the model chose thread 2 and dropped the fetch: thread 3 a cycle late, the
 * four threads' stores in another order from there, wcomb.c1t4 -1.8%). Derived by hand:
 * - 2 entries, thread 0 waiting for its line until R + 20: at R thread 1 is fetched (one
 *   entry, issuable at R + 4) and the pointer is at thread 0; at R + 1 thread 1 again
 *   (thread 0 still waits): two entries, thread 0's FIFO empty. */
#include "core_rig.h"

enum { R = 1000 };

typedef core_rig rig;

/* The state at the start of cycle R; `entries` in thread 0's FIFO before its rollback. */
static void rig_make(rig *r, unsigned entries)
{
    core_rig_open(r, R);
    nyz_thread *t0 = &r->c->t[0], *t1 = &r->c->t[1];
    t0->pc = t0->fe_pc = 0x1000;
    t0->npc = 0x1000 + 4 * entries;
    t0->fe_n = (uint8_t)entries;
    for (unsigned k = 0; k < entries; k++)
        t0->fe_vis[k] = R - 1; /* all in the FIFO already */
    t0->rb_at = R;
    t0->rb_pc = 0x1040;
    t0->rb_flags = t0->flags;
    t1->pc = t1->fe_pc = t1->npc = 0x1100;
    r->c->frr = 0;
    r->c->due = R;
}


/* Cycle R when thread 0 is not chosen: thread 1 fetched (issuable at R + 4), the pointer
 * back at thread 0. */
static void run_r_thread1_fetched(rig *r)
{
    core_rig_cycle(r, R);
    assert_int_equal(r->c->t[0].fe_n, 0);
    assert_int_equal(r->c->t[1].fe_n, 1);
    assert_int_equal(r->c->t[1].fe_vis[r->c->t[1].fe_h], R + 4);
    assert_int_equal(r->c->frr, 0);
}

static void test_almost_full_not_chosen(void **state)
{
    (void)state;
    static rig r;
    rig_make(&r, 6);
    nyz_thread *t0 = &r.c->t[0], *t1 = &r.c->t[1];
    run_r_thread1_fetched(&r);
    core_rig_cycle(&r, R + 1);
    assert_int_equal(t0->fe_n, 1);
    assert_int_equal(t0->fe_vis[t0->fe_h], R + 5);
    assert_int_equal(t0->npc, 0x1044);
    assert_int_equal(t1->fe_n, 1);
    sim_destroy(&r.m);
}

static void test_not_full_chosen_and_dropped(void **state)
{
    (void)state;
    static rig r;
    rig_make(&r, 4);
    nyz_thread *t0 = &r.c->t[0], *t1 = &r.c->t[1];
    core_rig_cycle(&r, R);
    assert_int_equal(t0->fe_n, 0);
    assert_int_equal(t1->fe_n, 0);
    assert_int_equal(r.c->frr, 1);
    core_rig_cycle(&r, R + 1);
    assert_int_equal(t1->fe_n, 1);
    assert_int_equal(t1->fe_vis[t1->fe_h], R + 5);
    assert_int_equal(t0->fe_n, 0);
    sim_destroy(&r.m);
}

static void test_icache_wait_not_chosen(void **state)
{
    (void)state;
    static rig r;
    rig_make(&r, 2);
    nyz_thread *t0 = &r.c->t[0], *t1 = &r.c->t[1];
    t0->iwait = R + 20;
    run_r_thread1_fetched(&r);
    core_rig_cycle(&r, R + 1);
    assert_int_equal(t0->fe_n, 0);
    assert_int_equal(t1->fe_n, 2);
    sim_destroy(&r.m);
}

XPUSIM_TESTS(nyuzi_fetch_rollback, cmocka_unit_test(test_almost_full_not_chosen),
             cmocka_unit_test(test_not_full_chosen_and_dropped),
             cmocka_unit_test(test_icache_wait_not_chosen))
