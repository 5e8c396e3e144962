/* tests/nyuzi/test_core_time.c: on several cores each core simulates each cycle once. The
 * cores run one after another (a cycle each, or a stretch while the others sleep), and a
 * settle of the L2 arbiter (bus_log.c) may let a thread of another core go sooner
 * (nyz_core_sooner), which is sound only while that core has not simulated the new cycle:
 * woken at a cycle it has passed, the scheduler runs it again from there with its present
 * state, so its fetch stage fetches the same cycles twice (nine instructions in an 8-entry
 * FIFO, one of them executed at another's pc) and it issues twice in one cycle. Session 36
 * saw it lose instructions (readers.c4t4 with a fill experiment); session 37 found the
 * committed model waking cores into their past in all eleven 4-core x 4-thread
 * configurations (a code line's collided miss answered 85 cycles sooner once its lead's
 * grant became final, tests/nyuzi/core_time.t.sh). Two rules: a collided miss whose lead's
 * fill is still in bus_log takes that fill's restart (timing.c nyz_l2_ready), so its answer
 * does not jump when the lead's grant becomes final; and nyz_core_sooner never wakes a core
 * into cycles it has simulated: it stops the run with the reason instead. */
#include "l2_rig.h"

enum { A = 0x40000 }; /* a line no one has touched (not in the L2) */

/* The restart of pa's fill as the L2's tags keep it (0: not there). */
static uint64_t l2_ready_of(const nyz_machine *nm, uint32_t pa)
{
    const nyz_cache *l2 = &nm->l2;
    uint32_t line = pa >> l2->line_shift;
    unsigned base = (line & (l2->sets - 1)) * l2->ways;
    for (unsigned w = 0; w < l2->ways; w++)
        if (l2->tag[base + w] == line)
            return l2->ready[base + w];
    return 0;
}

/* A core woken sooner: to a cycle it has not simulated, its thread may issue then; to one
 * it has (u->reached: the last cycle its bursts simulated), the run stops with the reason,
 * no wake; a halted core is not woken at all (sim_unit_wake), so nothing stops. */
static void test_wake_into_past_stops(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, (const char *const[]){"cores=2", NULL});
    sim_unit *u = &r.m.units[1];
    r.nm->run_core = 0;
    u->reached = 100;
    u->threads[0].ready_at = 150;
    nyz_core_sooner(r.nm, 1, 0, 101); /* cycle 101: not simulated yet */
    assert_false(sim_stopped(&r.m));
    assert_int_equal(u->threads[0].ready_at, 101);
    u->halted = 1; /* a halted core is not woken: nothing to stop */
    nyz_core_sooner(r.nm, 1, 1, 100);
    assert_false(sim_stopped(&r.m));
    u->halted = 0;
    nyz_core_sooner(r.nm, 1, 0, 100); /* cycle 100: simulated already */
    assert_true(sim_stopped(&r.m));
    assert_int_equal(r.m.stop.kind, SIM_STOP_ERROR);
    assert_non_null(strstr(r.m.stop.msg, "has simulated already (to 100)"));
    assert_int_equal(u->threads[0].ready_at, 101); /* (untouched) */
    sim_destroy(&r.m);
}

/* Core 0's thread 0 misses line A at cycle 100: its read is in bus_log, its grant not final
 * (no core has passed it). Core 1's thread 0 misses A at 101: a collided miss (no read of
 * its own), answered after the restart of the fill it waits for (nyz_bus_collided, a hit
 * if its bus time is COLL_WINDOW after it). Before the rule that restart was 0 while A was
 * not in the L2's tags, i.e. until core 0's grant was final, and the collided miss was
 * answered as one queued behind every fill; once final, as the hit it is when granted
 * late enough (readers.c4t4: 85 cycles sooner, core_time.t.sh). Now it is the restart
 * bus_log read for core 0's fill, which the L2 keeps for A when that grant is final. (Here
 * both ways answer the same: the fill FIFO's last restart is core 0's.) The numbers, as
 * test_l2_flush_order.c derives them: core 0's read at 106 (bank closed), restart 106 + 2
 * + 28 = 136; core 1's collided miss restarted 2 after it, 138, its data 138 + 17 - 9 =
 * 146, its thread woken at 145. */
static void test_collided_restart_pending(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, (const char *const[]){"cores=2", NULL});
    nyz_machine *nm = r.nm;
    assert_true(rig_access(&r, 0, 0, K_LOAD, 1, A, 100) > 0);
    assert_true(rig_access(&r, 1, 0, K_LOAD, 1, A, 101) > 0);
    assert_int_equal(nm->bus_n, 2); /* (neither grant final) */
    const nyz_bus_ent *lead = &nm->bus_log[0], *coll = &nm->bus_log[1];
    assert_int_equal(lead->coll, 0);
    assert_int_equal(coll->coll, 1);
    assert_int_equal(coll->core, 1);
    const uint64_t rst = lead->rst;
    assert_int_equal(rst, 136);
    assert_int_equal(nyz_l2_ready(nm, coll), rst);
    const uint64_t w1 = nm->cores[1].t[0].blocked;
    assert_int_equal(w1, 145);
    nyz_bus_fix(nm); /* every grant final: A takes its L2 way, its ready the same restart */
    assert_int_equal(nm->bus_n, 0);
    assert_int_equal(l2_ready_of(nm, A), rst);
    assert_int_equal(nm->cores[1].t[0].blocked, w1);
    assert_false(sim_stopped(&r.m));
    sim_destroy(&r.m);
}

XPUSIM_TESTS(nyuzi_core_time,
             cmocka_unit_test(test_wake_into_past_stops),
             cmocka_unit_test(test_collided_restart_pending))
