/* tests/nyuzi/test_l2_queues.c: the L2's arbiter orders a core's store-queue operations as
 * it orders its loads (isa/nyuzi/bus_log.c nyz_arb_run, on several cores). The rules, from
 * the RTL source and a trace: l1_l2_interface.sv offers one request of a core a cycle, its
 * load-miss queue's and its code line before its store queue's; the store queue
 * (l1_store_queue.sv) picks a thread round robin with a pointer that moves every cycle the
 * queue has a request (rr_arbiter.sv, update_lru = 1), taken or not; the L2
 * (l2_cache_arb_stage.sv) takes one core's offer a cycle, none while its fill FIFO is almost
 * full. RTL trace of kernel on 4 cores (whole-line stores to lines the L2 lacks, granted
 * 1078 c2 t0, 1080 c2 t2, then the waiting code lines 1089..1093 and the stores after them,
 * 1095 c2 t3, 1097 c2 t1: not in the order the threads issued them, t0 t1 t2 t3).
 * The machine: 2 cores. As in test_l2_stall.c, core 0 brings H0
 * and H0 + 64 into the L2 (loads at 10 and 11), then its four threads' loads of four lines
 * at 100..103 fill the FIFO (reads at 106, 136, 164, 192): the L2 takes nothing from 110
 * to 137 (the first restart at 136 frees an entry the cycle after). A store to a line the
 * L2 holds, taken at g, is acknowledged at g - 3 + store_latency (10) = g + 7; its thread's
 * store queue entry is free then (store_done + NYZ_SQ_AHEAD: the thread's next operation is
 * taken from NYZ_SQ_AHEAD cycles before, store_done, timing.c sq_done). */
#include "l2_rig.h"

enum { L0 = 0x10000, H0 = 0x10400, CODE1 = 0x20400 };

static void rig_make(rig *r)
{
    static const char *const opts[] = {"cores=2", NULL};
    rig_open(r, opts);
    rig_access(r, 0, 0, K_LOAD, 1, H0, 10);
    rig_access(r, 0, 1, K_LOAD, 1, H0 + 64, 11);
    for (int k = 0; k < 4; k++)
        rig_access(r, 0, k, K_LOAD, 1, L0 + 64 * (uint32_t)k, 100 + (uint64_t)k);
}

/* Thread tid of core 1 stores a word to pa (a line the L2 holds) at cycle at. */
static void store(rig *r, int tid, uint32_t pa, uint64_t at)
{
    r->nm->cur_cycle = at;
    nyz_store_timing(r->nm, &r->nm->cores[1], &r->nm->cores[1].t[tid], pa, 0, at);
}

/* Core 1's threads store in the order t2 (107), t1 (108), t3 (109), t0 (110). */
static void four_stores(rig *r)
{
    store(r, 2, H0, 107);
    store(r, 1, H0 + 4, 108);
    store(r, 3, H0 + 64, 109);
    store(r, 0, H0 + 68, 110);
}

static uint64_t done(rig *r, int tid) /* the acknowledgement */
{
    return r->nm->cores[1].t[tid].store_done + NYZ_SQ_AHEAD;
}

/* Core 1's threads store in the order t2 (107), t1 (108), t3 (109), t0 (110): they reach the
 * L2 at 110..113 and wait for the stall's end. The store queue's pointer, 0 at first, moves
 * past the thread it offers every cycle: 110 {t2}: t2, pointer 3; 111 {t2 t1}: from 3 the
 * first is t1, pointer 2; 112 {t1 t2 t3}: t2, pointer 3; 113 (all four): t3, pointer 0; from
 * then on it offers t0, t1, t2, t3 in turn, the thread (y - 113 + 3) mod 4 at cycle y: t3 at
 * 137, which the L2 takes; then t0 138, t1 139, t2 140. Acknowledgements g + 7: t3 144, t0
 * 145, t1 146, t2 147 (first come first served would give t2 144, t1 145, t3 146, t0 147). */
static void test_store_queue_round_robin(void **state)
{
    (void)state;
    rig r;
    rig_make(&r);
    four_stores(&r);
    assert_int_equal(done(&r, 3), 144);
    assert_int_equal(done(&r, 0), 145);
    assert_int_equal(done(&r, 1), 146);
    assert_int_equal(done(&r, 2), 147);
    sim_destroy(&r.m);
}

/* The same stores, and core 1's code line CODE1 seen by ifetch_data at 112 (it reaches the
 * L2 at 112, request time 115): at 137 the core offers its code line, not its store queue
 * (whose pointer still moves: it offered t3), so the code line is taken at 137 and the
 * stores at 138 (t0: the pointer is at 0), 139 t1, 140 t2: acknowledgements 145, 146, 147.
 * The code line misses: its FIFO entry, made at its bus time 140 and counted from 141, makes
 * four again with the reads restarting at 164, 192 and 220, so the L2 takes nothing from 141
 * to 164: t3 is taken at 165, acknowledged at 172. The code line is read when the bus is
 * free, at 220, in row 32 of bank 1, where row 16 is open (+2 precharge, +2 activate): its
 * data at 220 + 4 + 45 = 269, 154 cycles after its request time. */
static void test_code_line_before_stores(void **state)
{
    (void)state;
    rig r;
    rig_make(&r);
    four_stores(&r);
    r.nm->cur_cycle = 115;
    assert_int_equal(nyz_fill_latency(r.nm, CODE1, 0, 115, 0, 1), 154);
    assert_int_equal(done(&r, 0), 145);
    assert_int_equal(done(&r, 1), 146);
    assert_int_equal(done(&r, 2), 147);
    assert_int_equal(done(&r, 3), 172);
    sim_destroy(&r.m);
}

/* A load_sync's line is read in the arbiter's order of the synchronized requests, at its
 * own grant (bus time = grant + 3), not at the cycle its issue would reach the L2 (the RTL's
 * fill FIFO gets the entry when the L2 takes the request; llsc on 4 cores: four load_syncs
 * granted 663..666 made four entries, and the L2 took nothing until the read restarted at
 * 783). Core 1's thread 0 and core 0's thread 0 issue load_syncs of two cold lines at 100
 * (B in bank 2, A in bank 0, both closed: +2), the model making core 1's first. Both reach
 * the arbiter at 103 (l2_sync.c: its cycle 104); the cores' pointer starts at core 0: A is
 * granted at 103, B at 104. A is read at bus time 106 (data 106 - 6 + 2 + 42 = 144, the bus
 * free at 106 + 2 + 28 = 136), B at 107, when the bus is free at 136 (data 136 - 6 + 2 + 42
 * = 174). A load_sync's thread replays the cycle before its data, as a load's: 143 and 173
 * (grant + 1 + sync_latency - 4 + the data's delay beyond an L2 hit at the grant: 104 + 6 +
 * (144 - 100 - 11) = 143, 105 + 6 + (174 - 101 - 11) = 173). Read at the bus time of its
 * issue, B would be read first (144, 174 for A) and the arbiter's cycle counted twice. */
enum { A = 0x10000, B = 0x10800 };

static void test_sync_line_at_grant(void **state)
{
    (void)state;
    static const char *const opts[] = {"cores=2", NULL};
    rig r;
    rig_open(&r, opts);
    rig_access(&r, 1, 0, K_LOAD_SYNC, 3, B, 100);
    assert_int_equal(rig_access(&r, 0, 0, K_LOAD_SYNC, 3, A, 100), 143);
    assert_int_equal(r.nm->cores[1].t[0].blocked, 173);
    sim_destroy(&r.m);
}

XPUSIM_TESTS(nyuzi_l2_queues,
             cmocka_unit_test(test_sync_line_at_grant),
             cmocka_unit_test(test_store_queue_round_robin),
             cmocka_unit_test(test_code_line_before_stores))
