/* tests/nyuzi/test_sync_decided.c: a load_sync granted at the L2's arbiter whose thread has
 * not replayed yet still waits for its line, so a request that reaches the L2 before the
 * line's read (a code line) moves its replay as it moves a load's (bus_log.c: since 7422543
 * a synchronized request is an entry of the one arbiter and its replay moves with every
 * settle). Found on llsc.c1t2 (session 34): on the RTL thread 0's load_sync issued at 362
 * replays at 430, after core 0's code line, granted at 364, was read first; the model
 * before kept the replay of the read before the code line came, 404, and ran 26 cycles
 * early. The expected cycles are derived by hand from the rules of test_bus_order.c and
 * test_l2_queues.c (the same machine: one core, DATA in bank 0, CODE in bank 1):
 * - thread 0's load_sync of DATA issued at 100 reaches the L2 at 103 (the load-miss queue,
 *   issue + 3) and is granted there (nothing else waits); its line's bus time is 103 + 3 =
 *   106, the bank's row is opened (+2) and the data comes at 106 - 6 + 2 + 42 = 144: the
 *   thread replays at the grant + 7 + the line's delay beyond an L2 hit, 103 + 7 + (144 -
 *   100 - 11) = 143;
 * - a request issued at 101 could reach the L2 at 104 at the earliest, so the grant at 103
 *   is final then (nyz_sync_settle, as the pipeline calls it): the load_sync is decided, its
 *   thread still suspended until 143;
 * - a code line seen by ifetch_data at 102 has the bus time 105, before 106: it is read
 *   first, bus busy 105 + 2 + 28 = 135, and arrives 47 cycles after its request; DATA is
 *   read at 135, its data at 135 - 6 + 2 + 42 = 173, so the thread replays at 172 and the
 *   L1D fill moves with it (timing.c fills the L1D at a load_sync's replay). Without the
 *   rule the thread replays at 143, 29 cycles before its line is there.
 */
#include "l2_rig.h"

enum { DATA = 0x10000, CODE = 0x20400 };

/* Thread 0's load_sync of DATA issued at 100, decided by a settle at 101: its core. */
static nyz_core *decided(rig *r)
{
    rig_open(r, (const char *const[]){"cores=1", NULL});
    nyz_core *c = &r->nm->cores[0];
    assert_int_equal(rig_access(r, 0, 0, K_LOAD_SYNC, 3, DATA, 100), 143);
    r->nm->cur_cycle = 101;
    nyz_sync_settle(r->nm, 101);
    assert_int_equal(r->nm->sreq[c->t[0].gid].on, 0);
    return c;
}

static void test_decided_load_sync_waits_for_its_line(void **state)
{
    (void)state;
    rig r;
    nyz_core *c = decided(&r);
    assert_int_equal(c->t[0].blocked, 143);
    assert_int_equal(nyz_fill_latency(r.nm, CODE, 0, 102 + 3, 0, 0), 47);
    assert_int_equal(c->t[0].blocked, 172);
    uint64_t at = 0;
    assert_int_equal(nyz_l1_fill_pending(&c->l1d, DATA, &at), 1);
    assert_int_equal(at, 172); /* (a load_sync's answer fills the L1D at its replay) */
    sim_destroy(&r.m);
}

/* Once its thread has replayed (timing.c nyz_replay_timing clears rp_kind), a later
 * request for the line is another thread's business: the thread's next wait is not moved.
 * Thread 0 replays at 143 and then waits again, until 143 as it happens (the cycle a mix-up
 * of the two waits would move); the code line seen at 102 (made late, as another core's
 * could be) moves DATA's read, but not thread 0. */
static void test_replayed_load_sync_is_left(void **state)
{
    (void)state;
    rig r;
    nyz_core *c = decided(&r);
    assert_int_equal(nyz_replay_timing(r.nm, c, &c->t[0], 143), 0);
    c->t[0].blocked = 143;
    assert_int_equal(nyz_fill_latency(r.nm, CODE, 0, 102 + 3, 0, 0), 47);
    assert_int_equal(c->t[0].blocked, 143);
    sim_destroy(&r.m);
}

XPUSIM_TESTS(nyuzi_sync_decided, cmocka_unit_test(test_decided_load_sync_waits_for_its_line),
             cmocka_unit_test(test_replayed_load_sync_is_left))
