/* tests/nyuzi/test_l2_arb.c: the order in which the L2's arbiter takes synchronized
 * requests (isa/nyuzi/l2_sync.c) when several cores and threads send them in one cycle,
 * and what the order decides. The requests are handed to the arbiter as exec_ops.inc does
 * (nyz_sync_request at the issue cycle, nyz_sync_timing for the replay cycle); the expected
 * cycles are derived by hand, in each test, from the RTL's rules:
 * - a request reaches the L2's arbiter 4 cycles after it issues (l2_sync.c SYNC_PATH) and
 *   its thread replays sync_latency (10) - 4 = 6 cycles after the grant, so an uncontended
 *   request replays 10 cycles after its issue (the probe sy: load_sync to replay 10);
 * - each core offers one request per cycle, a load (load_sync) before a store
 *   (store_sync), each queue choosing its thread round robin (l1_load_miss_queue.sv,
 *   l1_store_queue.sv: rr_arbiter with update_lru = 1, so a queue's pointer moves past the
 *   thread it offered every cycle it has a request, granted or not);
 * - the L2 takes one core's offer per cycle, round robin between cores
 *   (l2_cache_arb_stage.sv; rr_arbiter's priority starts at requester 0 after reset);
 * - the read stage decides: a load_sync sets its thread's reservation, a store_sync
 *   succeeds if its thread's reservation of the line holds, and a success clears every
 *   reservation of the line (l2_cache_read_stage.sv). */
#include <string.h>
#include "../testlib.h"
#include "../../isa/isa.h"
#include "../../isa/nyuzi/nyuzi.h"

extern const isa_ops isa_nyuzi;

enum { LINE = 0x1000 };

typedef struct rig {
    sim_machine m;
    nyz_machine *nm;
} rig;

static void rig_make(rig *r, const char *cores)
{
    char err[256];
    sim_opts o;
    memset(r, 0, sizeof *r);
    opt_init(&o);
    opt_parse(&o, "mem=0x100000");
    opt_parse(&o, cores);
    if (sim_create(&r->m, &isa_nyuzi, &o, err, sizeof err))
        fail_msg("create: %s", err);
    r->nm = r->m.isa_state;
    assert_int_equal(r->m.functional, 0);
}

/* Thread t of core k issues a load_sync (store 0) or store_sync (store 1) of LINE into /
 * from s5 at cycle `at`; returns its replay cycle as known then. A thread has one request
 * at a time (it is suspended until its replay). */
static uint64_t issue(rig *r, int k, int t, int store, uint64_t at)
{
    nyz_machine *nm = r->nm;
    nyz_core *c = &nm->cores[k];
    nyz_thread *th = &c->t[t];
    nyz_insn in;
    memset(&in, 0, sizeof in);
    in.kind = store ? K_STORE_SYNC : K_LOAD_SYNC;
    in.dst = 5;
    in.width = 4;
    if (store)
        th->s[5] = 0x100u + (uint32_t)(k * 4 + t); /* who wrote it */
    nm->cur_cycle = at;
    nyz_sync_request(nm, c, th, &in, LINE, LINE, 0x2000);
    return nyz_sync_timing(nm, th, at, 0);
}

/* The replay cycle of thread t of core k once every request has been handed over. */
static uint64_t wake(const rig *r, int k, int t)
{
    return r->nm->sreq[k * r->nm->nthreads + t].wake;
}

static uint32_t result(const rig *r, int k, int t)
{
    return r->nm->cores[k].t[t].s[5];
}

/* Four cores, thread 0 of each, load_sync in the same cycle 100: all reach the arbiter at
 * 104; one grant per cycle from core 0 (reset priority) on: cores 0..3 at 104..107, replays
 * 6 later: 110, 111, 112, 113. */
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

/* Two cores with two threads each, load_sync in one cycle (100; at the arbiter at 104).
 * 104: core 0 offers t0, core 1 offers t0 (both queue pointers move to 1); the L2 takes
 * core 0 (its pointer moves to core 1). 105: core 0 offers t1; core 1's queue, pointer at
 * 1, offers t1 although t0 waited longer; the L2 takes core 1 -> core 1 t1. 106: core 0
 * t1 (the L2's pointer is back at core 0). 107: core 1 t0. Replays 6 after the grants:
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

/* One core: thread 0 store_sync and thread 1 load_sync in cycle 100. 104: the load queue
 * goes first (t1); 105: the store queue's t0. Thread 0 holds no reservation: its
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

/* Two cores race to one counter. load_sync by thread 0 of both in cycle 100 (grants 104
 * core 0, 105 core 1: both hold a reservation; the L2's pointer is back at core 0), then
 * store_sync by both in cycle 120 (at the arbiter at 124): 124 core 0 succeeds (result 1,
 * memory 0x100) and clears core 1's reservation; 125 core 1 fails (result 0). Replays 130
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
    /* the replays settle the arbiter up to their cycle (pipeline.c: nyz_replay_timing); a
     * thread's next request comes after its replay */
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

XPUSIM_TESTS(nyuzi_l2_arb,
             cmocka_unit_test(test_four_cores_one_cycle),
             cmocka_unit_test(test_queue_pointer_moves),
             cmocka_unit_test(test_load_before_store),
             cmocka_unit_test(test_first_granted_wins))
