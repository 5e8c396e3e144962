/* tests/nyuzi/test_store_rate.c: the L2 takes a core's stores one a cycle (isa/nyuzi/timing.c
 * l2_store_accept on one core, bus_log.c's arbiter on several: NYZ_SQ_NEXT; sessions 35-37
 * kept them 4 cycles apart on several cores, -o l2_store_interval). The RTL has no spacing of
 * its own for a core's stores: l1_store_queue.sv offers one thread's entry a cycle (round
 * robin), l1_l2_interface.sv sends one request a cycle and l2_cache_arb_stage.sv grants one
 * a cycle. RTL trace of scat_l1.c1t4 (four threads of one core scattering stores to lines
 * the L2 holds, session 35): the L2 grants threads 0, 1 and 2 at 5327, 5328 and 5329, each
 * thread one store per 12 cycles (its store queue's round trip), the four threads' 16 lanes
 * in 206 cycles; with the old spacing of 4 cycles a core the model took 249-253.
 * Derived by hand: one core; lines A, A + 64 and A + 128 brought into the L2 by loads at 10,
 * 11 and 12 (their fills done long before 200); threads 0, 1 and 2 store to one each at 200,
 * 201 and 202. Each is taken the cycle it is made (nothing else asks the L2), acknowledged
 * store_latency (10) later, at 210, 211 and 212; an acknowledgement within store_latency of
 * the issue frees the entry SQ_ACCEPT_AHEAD (4) cycles sooner for the thread's next
 * store-queue operation (timing.c sq_done): store_done 206, 207, 208. (Four cycles apart
 * they were taken at 200, 204 and 208: store_done 206, 214 and 218.) */
#include "l2_rig.h"

enum { A = 0x10000 };

/* Core 0 loads A, A + 64, A + 128 at 10, 11, 12; then threads 0, 1, 2 of core `core` store to
 * one each at 200, 201, 202: their store_done must be 206, 207, 208. */
static void three_stores(const char *const *opts, int core)
{
    static rig r;
    rig_open(&r, opts);
    nyz_core *c = &r.nm->cores[core];
    for (int k = 0; k < 3; k++)
        rig_access(&r, 0, k, K_LOAD, 1, A + 64 * (uint32_t)k, 10 + (uint64_t)k);
    for (int k = 0; k < 3; k++) {
        r.nm->cur_cycle = 200 + (uint64_t)k;
        nyz_store_timing(r.nm, c, &c->t[k], A + 64 * (uint32_t)k + 8, 0, 200 + (uint64_t)k);
    }
    assert_int_equal(c->t[0].store_done, 206);
    assert_int_equal(c->t[1].store_done, 207);
    assert_int_equal(c->t[2].store_done, 208);
    sim_destroy(&r.m);
}

static void test_one_a_cycle(void **state)
{
    (void)state;
    three_stores(NULL, 0);
}

/* Several cores: the same rule in the L2's arbiter (bus_log.c, NYZ_SQ_NEXT). RTL traces on
 * 4 cores: sbfull.c4t4, core 0's stores granted at 1535 and 1537 (core 1's between them);
 * scat_miss.c4t4, core 3's scatter stores at 1543, 1544 and 1545. Derived by hand: 2 cores;
 * core 0 brings A, A + 64 and A + 128 into the L2 (loads at 10, 11, 12); core 1's threads 0,
 * 1 and 2 store to one each at 200, 201 and 202. Each reaches the L2 3 cycles after its
 * issue (203, 204, 205) and, nothing else asking, is taken then; acknowledged at g - 3 +
 * store_latency (10): 210, 211, 212; store_done 4 less: 206, 207, 208. (With the old
 * spacing of 4 cycles a core on several cores: taken 203, 207, 211, store_done 206, 210,
 * 214.) */
static void test_one_a_cycle_cores(void **state)
{
    (void)state;
    static const char *const opts[] = {"cores=2", NULL};
    three_stores(opts, 1);
}

/* A thread whose store-queue operation rolled back on its busy entry waits for that
 * entry's acknowledgement (l1_store_queue.sv: one entry a thread; the operation is taken
 * once the response has come, got_response_this_entry), so when a later settle of the
 * arbiter moves the acknowledgement, the wait moves with it (bus_log.c bus_retime; the
 * pipeline's wait is store_done + NYZ_SQ_AHEAD). RTL trace of sbfull.c4t4: core 1's thread
 * 3 stores at 1536, its next store rolls back at 1540, its first is granted at 1786 (other
 * cores' requests first) and the thread's next store waits for that answer; the model
 * without the move issued it at 1791, from the first settle's acknowledgement.
 * Derived by hand (2 cores): core 1 brings H and H + 64 into the L2 (loads at 10 and 11,
 * granted at 13 and 14: the arbiter's pointer between cores is then at core 0). Core 1's
 * thread 0 stores to H at 200 (made first): it reaches the L2 at 203, nothing else is there
 * yet, granted at 203, acknowledged at 210 (store_done 206). Its next store at 201 rolls
 * back and waits until 210 (pipeline.c: blocked = store_done + NYZ_SQ_AHEAD). Then core 0's
 * load of H + 64 at 200 is made (the cores run back to back): an L1 miss that reaches the
 * L2 at 203 too, where the pointer gives core 0 the cycle: the load is taken at 203, the
 * store at 204, acknowledged at 211 (store_done 207): the thread waits until 211. */
enum { H = 0x10400 };

static void test_wait_moves_with_ack(void **state)
{
    (void)state;
    static rig r;
    static const char *const opts[] = {"cores=2", NULL};
    rig_open(&r, opts);
    rig_access(&r, 1, 0, K_LOAD, 1, H, 10);
    rig_access(&r, 1, 1, K_LOAD, 1, H + 64, 11);
    nyz_core *c = &r.nm->cores[1];
    nyz_thread *t = &c->t[0];
    r.nm->cur_cycle = 200;
    nyz_store_timing(r.nm, c, t, H, 0, 200);
    assert_int_equal(t->store_done, 206);
    t->blocked = t->store_done + NYZ_SQ_AHEAD; /* (its next store at 201, as pipeline.c) */
    t->block_why = NYZ_ST_STORE;
    rig_access(&r, 0, 0, K_LOAD, 1, H + 64, 200);
    assert_int_equal(t->store_done, 207);
    assert_int_equal(t->blocked, 211);
    sim_destroy(&r.m);
}

XPUSIM_TESTS(nyuzi_store_rate, cmocka_unit_test(test_one_a_cycle),
             cmocka_unit_test(test_one_a_cycle_cores), cmocka_unit_test(test_wait_moves_with_ack))
