/* tests/nyuzi/test_replay_ack.c: two rules of one core's loads and stores (session 39,
 * helper m4; RTL trace of memcpy.c1t4 on the holding-RAM build, docs/validation/nyuzi.md 5b
 * "Session 39 (m4)"):
 * - a replayed load looks the L1D's tags up as the response stages left them by its tag
 *   stage: a store acknowledgement whose response came by the replay's issue has installed
 *   its line, in the way the fill's pseudo-LRU read points to (dt_fill_lru, the flags RAM
 *   holding the fill's read), so the replay misses again (RTL: fill response 663, store
 *   acknowledgement 665 to the same set, replay issued 666, rolled back 669);
 * - a store that reaches a stalled L2 (its fill FIFO almost full) waits in l1_l2_interface.sv,
 *   which sends the L1D's miss queue before the store queue: a load that misses after the
 *   store's issue but reaches the L2 before the stall ends is granted first (RTL: a store
 *   issued 608 and a load issued 625, the stall ending at 628: load 628, store 629).
 * The expected values are derived by hand in each test. */
#include "l2_rig.h"

/* A and S share an L1D set (64 sets of 64 bytes); S's L2 set is another than A's. */
enum { A = 0x10000, S = A + 0x1000 * 5, L = 0x30140 };

/* The L2 holds pa, its fill long done (ready 1). */
static void l2_hold(rig *r, uint32_t pa)
{
    nyz_cache_access(&r->nm->l2, pa, 1, 0);
    r->nm->l2.ready[r->nm->l2.last_way] = 1;
}

/* Thread 0's load of A at 100 misses everywhere: suspended to B (its replay; the model's
 * own memory timing, tests/nyuzi/test_l2_*.c), its fill there at B + 1, into way 0 of the
 * empty set (pseudo-LRU flags 000). Thread 1 stores to S, held by the L2, at `st`: taken at
 * once, acknowledged store_latency (10) later, at st + 10; it installs S in the way the last
 * read of the flags before it points to: the fill's read, flags 000, way 0, A's way. The
 * acknowledgement's response is 3 cycles before it (RTL trace: restart 661, response 665;
 * the model's acknowledgement 668, timing.c STORE_RST_ACK), so a replay issued at B sees it
 * if st + 10 - 3 <= B.
 * st = B - 7: the acknowledgement at B + 3, its response at B: the replay misses, asks the
 * L2 again (a hit, answered l2_latency (11) after the issue) and is suspended to B + 11 - 1.
 * (Without the rule the replay hit: 0.) st = B - 6: the response at B + 1, after the
 * replay's tag stage read the tags: a hit. */
static uint64_t replay_after_store(int lead)
{
    rig r;
    rig_open(&r, (const char *const[]){"cores=1", NULL});
    nyz_core *c = &r.nm->cores[0];
    l2_hold(&r, S);
    uint64_t b = rig_access(&r, 0, 0, K_LOAD, 1, A, 100);
    assert_true(b > 100);
    uint64_t st = b - (uint64_t)lead;
    r.nm->cur_cycle = st;
    nyz_store_timing(r.nm, c, &c->t[1], S, 0, st);
    assert_int_equal(c->t[1].store_done, st + 10 - 4); /* (acknowledged at st + 10) */
    r.nm->cur_cycle = b;
    uint64_t again = nyz_replay_timing(r.nm, c, &c->t[0], b);
    assert_int_equal(again ? again - b : 0, lead == 7 ? 11 - 1 : 0);
    sim_destroy(&r.m);
    return again;
}

static void test_replay_sees_ack(void **state)
{
    (void)state;
    assert_true(replay_after_store(7) != 0);
}

static void test_replay_before_ack(void **state)
{
    (void)state;
    assert_int_equal(replay_after_store(6), 0);
}

/* As replay_after_store, with thread 1's store at B - 8 (acknowledged at B + 2, response
 * B - 1: its second response stage at B chooses the way) and thread 2's load of Y, a line
 * of another set the L1D holds (loaded at 10, filled into way 0 of its empty set: flags
 * 110), issued at B - 2: its tag stage's read of the flags (issue + 1) is the read that
 * second stage sees, not the fill's (its response B - 3, read B - 3): flags 110 point to way
 * 2 (cache_lru.sv: ?10 -> 2), so S goes into way 2 and A, in way 0, stays: the replay at B
 * hits. (With the acknowledgement using the read a cycle sooner, LRU_READ_ACK 3, it took
 * the fill's flags 000, way 0: the replay missed.) */
enum { Y = 0x20040 };
static void test_ack_way_from_last_read(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, (const char *const[]){"cores=1", NULL});
    nyz_core *c = &r.nm->cores[0];
    l2_hold(&r, S);
    rig_access(&r, 0, 2, K_LOAD, 1, Y, 10);
    uint64_t b = rig_access(&r, 0, 0, K_LOAD, 1, A, 100);
    assert_true(b > 100);
    r.nm->cur_cycle = b - 8;
    nyz_store_timing(r.nm, c, &c->t[1], S, 0, b - 8);
    assert_int_equal(rig_access(&r, 0, 2, K_LOAD, 1, Y, b - 2), 0); /* (a hit) */
    r.nm->cur_cycle = b;
    assert_int_equal(nyz_replay_timing(r.nm, c, &c->t[0], b), 0);
    nyz_l1_settle(&c->l1d, b + 2);
    unsigned set = (A >> c->l1d.line_shift) & (c->l1d.sets - 1);
    assert_int_equal(c->l1d.tag[set * c->l1d.ways + 0], A >> c->l1d.line_shift);
    assert_int_equal(c->l1d.tag[set * c->l1d.ways + 2], S >> c->l1d.line_shift);
    sim_destroy(&r.m);
}

/* The read of a replay counts too (RTL trace of memcpy.c2t4, holding RAM: core 0's fill
 * response 39552 of thread 1's a4021c0, an acknowledgement to its set 39554, thread 3's
 * replay of another set's load issued 39553: the acknowledgement's second stage (39555)
 * sees the replay's read, not the fill's; thread 1's replay at 39555 hits). Derived by hand:
 * Y fills way 0 of set Z (flags 110); C (set Z) and A (set X), held by the L2, missing the
 * L1D, loaded by threads 3 and 0 at 100 and 102, each answered l2_latency (11) after its
 * issue: replays at 110 and 112, fills there at 111 and 113. Thread 1 stores S (set X) at
 * 104: acknowledged at 114, its second response stage at 112, which sees the newest read of
 * the flags by then: thread 3's replay at 110 reads at 111 (data 112), set Z's flags 110,
 * way 2 (the RTL's flags there already have C's fill: 101, way 1; the model records the
 * flags before fills in flight); without that read, A's fill's read (data at 110, set X
 * flags 000): way 0, A's, and thread 0's replay at 112 missed. */
enum { C = 0x20000 + 0x80, YZ = 0x21080 };
static void test_ack_way_from_replay_read(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, (const char *const[]){"cores=1", NULL});
    nyz_core *c = &r.nm->cores[0];
    l2_hold(&r, S);
    l2_hold(&r, A);
    l2_hold(&r, C);
    rig_access(&r, 0, 2, K_LOAD, 1, YZ, 10);
    assert_int_equal(rig_access(&r, 0, 3, K_LOAD, 1, C, 100), 110);
    assert_int_equal(rig_access(&r, 0, 0, K_LOAD, 1, A, 102), 112);
    r.nm->cur_cycle = 104;
    nyz_store_timing(r.nm, c, &c->t[1], S, 0, 104);
    assert_int_equal(c->t[1].store_done, 114 - 4);
    r.nm->cur_cycle = 110;
    assert_int_equal(nyz_replay_timing(r.nm, c, &c->t[3], 110), 0);
    r.nm->cur_cycle = 112;
    assert_int_equal(nyz_replay_timing(r.nm, c, &c->t[0], 112), 0);
    sim_destroy(&r.m);
}

/* Threads 0-3 load A, A + 64, A + 128, A + 192 at 100-103: four misses, fill FIFO entries
 * from 106-109, restarts r0 < r1 < r2 < r3; the L2 takes nothing while 4 are waiting
 * (FQ_ALMOST_FULL), from 109 until r0 + 1 (a restart frees a place the cycle after:
 * nyz_l2_accept). A store to S (held by the L2) issued at 110 reaches the L2 at 113, a load
 * of L (held by the L2, missing the L1D) issued at 120 reaches it at 123: both wait. At
 * r0 + 1 the load is granted, the store at r0 + 2; the load's answer (an L2 hit) comes
 * l2_latency (11) after its grant less the 3 cycles a request takes to the L2, and the
 * thread replays the cycle before: r0 + 1 - 3 + 11 - 1; the store's acknowledgement
 * store_latency (10) after its grant less 3, store_done 4 before it: r0 + 2 - 3 + 10 - 4.
 * (Without the rule: store granted at r0 + 1, load at r0 + 2: store_done and the load's
 * replay a cycle sooner and later.) */
static void test_stalled_store_after_load(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, (const char *const[]){"cores=1", NULL});
    nyz_core *c = &r.nm->cores[0];
    l2_hold(&r, S);
    l2_hold(&r, L);
    for (unsigned k = 0; k < 4; k++)
        rig_access(&r, 0, (int)k, K_LOAD, 1, A + 64 * k, 100 + k);
    uint64_t r0 = r.nm->fq_r[0];
    for (unsigned k = 1; k < 4; k++)
        assert_true(r.nm->fq_r[k] > r0);
    assert_true(r0 > 123);
    assert_true(nyz_l2_stalled(r.nm, 113));
    r.nm->cur_cycle = 110;
    nyz_store_timing(r.nm, c, &c->t[0], S, 0, 110);
    uint64_t b = rig_access(&r, 0, 1, K_LOAD, 1, L, 120);
    nyz_bus_fix(r.nm); /* every grant final */
    assert_int_equal(b, r0 + 1 - 3 + 11 - 1);
    assert_int_equal(c->t[0].store_done, r0 + 2 - 3 + 10 - 4);
    sim_destroy(&r.m);
}

XPUSIM_TESTS(nyuzi_replay_ack,
             cmocka_unit_test(test_replay_sees_ack),
             cmocka_unit_test(test_replay_before_ack),
             cmocka_unit_test(test_ack_way_from_last_read),
             cmocka_unit_test(test_ack_way_from_replay_read),
             cmocka_unit_test(test_stalled_store_after_load))
