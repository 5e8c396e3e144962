/* tests/nyuzi/test_l2_arb.c: the order in which the L2's arbiter takes synchronized
 * requests (isa/nyuzi/l2_sync.c, their grants bus_log.c's nyz_arb_run) when several cores
 * and threads send them in one cycle, and what the order decides. The requests are handed
 * over as exec_ops.inc and the pipeline do (nyz_sync_request, then nyz_mem_timing: the
 * thread suspended until its replay); the expected cycles are derived by hand, in each
 * test, from the RTL's rules:
 * - a request reaches the L2 3 cycles after it issues (NYZ_FQ_REQ, as a load miss) and its
 *   thread replays sync_latency (10) - 4 = 6 cycles after the cycle after its grant, i.e.
 *   7 after the grant, so an uncontended request to a line the L2 holds replays 10 cycles
 *   after its issue (the probe sy: load_sync to replay 10);
 * - each core offers one request per cycle, a load (load_sync) before a store
 *   (store_sync), each queue choosing its thread round robin (l1_load_miss_queue.sv,
 *   l1_store_queue.sv: rr_arbiter with update_lru = 1, so a queue's pointer moves past the
 *   thread it offered every cycle it has a request, granted or not);
 * - the L2 takes one core's offer per cycle, round robin between cores
 *   (l2_cache_arb_stage.sv; rr_arbiter's priority starts at requester 0 after reset);
 * - the read stage decides: a load_sync sets its thread's reservation, a store_sync
 *   succeeds if its thread's reservation of the line holds, and a success clears every
 *   reservation of the line (l2_cache_read_stage.sv).
 * The line is in the L2 (the last core's thread 3 loads it at cycle 10, which leaves the
 * L2's pointer between cores at core 0), so no request waits for memory. */
#include "l2_rig.h"

enum { LINE = 0x1000 };

static void rig_make(rig *r, const char *cores)
{
    const char *const opts[] = {cores, NULL};
    rig_open(r, opts);
    rig_access(r, r->nm->ncores - 1, 3, K_LOAD, 1, LINE, 10);
}

/* Thread t of core k issues a load_sync (store 0) or store_sync (store 1) of LINE into /
 * from s1 at cycle `at`; returns its replay cycle as known then. A thread has one request
 * at a time (it is suspended until its replay). */
static uint64_t issue(rig *r, int k, int t, int store, uint64_t at)
{
    if (store)
        r->nm->cores[k].t[t].s[1] = 0x100u + (uint32_t)(k * 4 + t); /* who wrote it */
    return rig_access(r, k, t, store ? K_STORE_SYNC : K_LOAD_SYNC, 3, LINE, at);
}

/* The replay cycle of thread t of core k once every request has been handed over. */
static uint64_t wake(const rig *r, int k, int t)
{
    return r->nm->cores[k].t[t].blocked;
}

static uint32_t result(const rig *r, int k, int t)
{
    return r->nm->cores[k].t[t].s[1];
}

/* Four cores, thread 0 of each, load_sync in the same cycle 100: all reach the L2 at 103;
 * one grant per cycle from core 0 (reset priority) on: cores 0..3 at 103..106, replays 7
 * later: 110, 111, 112, 113. */
static void test_four_cores_one_cycle(void **state)
{
    (void)state;
    rig r;
    rig_make(&r, "cores=4");
    assert_int_equal(issue(&r, 0, 0, 0, 100), 110); /* alone so far */
    for (int k = 1; k < 4; k++)
        issue(&r, k, 0, 0, 100);
    for (int k = 0; k < 4; k++)
        assert_int_equal(wake(&r, k, 0), 110 + k);
    nyz_sync_settle(r.nm, 200);
    assert_int_equal(r.nm->sa_npend, 0);
    for (int k = 0; k < 4; k++)
        assert_int_equal(r.nm->cores[k].t[0].sync_line, LINE);
    sim_destroy(&r.m);
}

/* Two cores with two threads each, load_sync in one cycle (100; at the L2 at 103).
 * 103: core 0 offers t0, core 1 offers t0 (both queue pointers move to 1); the L2 takes
 * core 0 (its pointer moves to core 1). 104: core 0 offers t1; core 1's queue, pointer at
 * 1, offers t1 although t0 waited longer; the L2 takes core 1 -> core 1 t1. 105: core 0
 * t1 (the L2's pointer is back at core 0). 106: core 1 t0. Replays 7 after the grants:
 * c0t0 110, c1t1 111, c0t1 112, c1t0 113. */
static void test_queue_pointer_moves(void **state)
{
    (void)state;
    rig r;
    rig_make(&r, "cores=2");
    issue(&r, 0, 0, 0, 100);
    issue(&r, 0, 1, 0, 100);
    issue(&r, 1, 0, 0, 100);
    issue(&r, 1, 1, 0, 100);
    assert_int_equal(wake(&r, 0, 0), 110);
    assert_int_equal(wake(&r, 1, 1), 111);
    assert_int_equal(wake(&r, 0, 1), 112);
    assert_int_equal(wake(&r, 1, 0), 113);
    sim_destroy(&r.m);
}

/* One core: thread 0 store_sync and thread 1 load_sync in cycle 100. 103: the load queue
 * goes first (t1); 104: the store queue's t0 (replays 110, 111). Thread 0 holds no reservation: its
 * store_sync fails (result 0) and memory keeps 0; thread 1's load_sync reads 0 and
 * reserves the line. */
static void test_load_before_store(void **state)
{
    (void)state;
    rig r;
    rig_make(&r, "cores=1");
    issue(&r, 0, 0, 1, 100);
    issue(&r, 0, 1, 0, 100);
    assert_int_equal(wake(&r, 0, 1), 110);
    assert_int_equal(wake(&r, 0, 0), 111);
    nyz_sync_settle(r.nm, 200);
    assert_int_equal(result(&r, 0, 0), 0);
    assert_int_equal(result(&r, 0, 1), 0);
    assert_int_equal(r.nm->cores[0].t[1].sync_line, LINE);
    assert_int_equal(mem_ld32le(r.nm->ram + LINE), 0);
    sim_destroy(&r.m);
}

/* Two cores race to one counter. load_sync by thread 0 of both in cycle 100 (grants 103
 * core 0, 104 core 1: both hold a reservation; the L2's pointer is back at core 0), then
 * store_sync by both in cycle 120 (at the L2 at 123): 123 core 0 succeeds (result 1,
 * memory 0x100) and clears core 1's reservation; 124 core 1 fails (result 0). Replays 130
 * and 131. */
static void test_first_granted_wins(void **state)
{
    (void)state;
    rig r;
    rig_make(&r, "cores=2");
    issue(&r, 0, 0, 0, 100);
    issue(&r, 1, 0, 0, 100);
    assert_int_equal(wake(&r, 0, 0), 110);
    assert_int_equal(wake(&r, 1, 0), 111);
    /* the replays decide the requests granted before their cycle + 3 (pipeline.c:
     * nyz_replay_timing); a thread's next request comes after its replay */
    nyz_sync_settle(r.nm, 111);
    assert_int_equal(r.nm->sa_npend, 0);
    assert_int_equal(r.nm->cores[0].t[0].sync_line, LINE);
    assert_int_equal(r.nm->cores[1].t[0].sync_line, LINE);
    issue(&r, 0, 0, 1, 120);
    issue(&r, 1, 0, 1, 120);
    assert_int_equal(wake(&r, 0, 0), 130);
    assert_int_equal(wake(&r, 1, 0), 131);
    nyz_sync_settle(r.nm, 300);
    assert_int_equal(result(&r, 0, 0), 1);
    assert_int_equal(result(&r, 1, 0), 0);
    assert_int_equal(mem_ld32le(r.nm->ram + LINE), 0x100);
    sim_destroy(&r.m);
}

/* One arbiter for synchronized requests and the others (RTL trace of llsc on 2 cores x 2
 * threads: 420 core 0's code line, 421 core 0 t0's load_sync, 422 core 1's code line before
 * core 0 t1's load_sync, which had reached the L2 in the same cycle, 423 that load_sync).
 * Core 0's thread 0 issues a load_sync of LINE at 100 (at the L2 at 103); core 1's code
 * line CODE (in the L2) reaches the L2 at 103 too (its request at bus time 106, a code
 * line's bus time being its arrival + 3). Both lines are in the L2 (loaded at 10 and 12).
 * - The L2's pointer between cores at core 1 (the last load was core 0's): 103 core 1's
 *   code line (answered 103 + 3 + l2_latency 11 + CODE_HIT 3 = 120, 14 after its bus
 *   time), 104 the load_sync: replay 104 + 7 = 111 (its thread had been told 110, alone).
 * - At core 0 (both loads core 1's): 103 the load_sync (replay 110), 104 the code line
 *   (121: 15 after its bus time).
 * Two arbiters, each blind to the other's requests, gave 110 and 14 in both. */
enum { CODE = 0x3000 };

static void code_line_case(int last, uint64_t want_replay, unsigned want_code)
{
    static const char *const opts[] = {"cores=2", NULL};
    rig r;
    rig_open(&r, opts);
    rig_access(&r, 1, 3, K_LOAD, 1, LINE, 10);
    rig_access(&r, last, 3, K_LOAD, 1, CODE, 12);
    assert_int_equal(issue(&r, 0, 0, 0, 100), 110);
    r.nm->cur_cycle = 103;
    assert_int_equal(nyz_fill_latency(r.nm, CODE, 0, 106, 0, 1), want_code);
    assert_int_equal(wake(&r, 0, 0), want_replay);
    sim_destroy(&r.m);
}

static void test_code_line_same_arbiter(void **state)
{
    (void)state;
    code_line_case(0, 111, 14);
    code_line_case(1, 110, 15);
}

XPUSIM_TESTS(nyuzi_l2_arb,
             cmocka_unit_test(test_four_cores_one_cycle),
             cmocka_unit_test(test_queue_pointer_moves),
             cmocka_unit_test(test_load_before_store),
             cmocka_unit_test(test_first_granted_wins),
             cmocka_unit_test(test_code_line_same_arbiter))
