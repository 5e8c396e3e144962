/* tests/nyuzi/test_store_rate.c: on one core the L2 takes the core's stores one a cycle
 * (isa/nyuzi/timing.c l2_store_accept; not -o l2_store_interval's 4, which spaces a core's
 * stores on several cores). The RTL has no spacing of
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

static void test_one_a_cycle(void **state)
{
    (void)state;
    static rig r;
    rig_open(&r, NULL);
    nyz_core *c = &r.nm->cores[0];
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

XPUSIM_TESTS(nyuzi_store_rate, cmocka_unit_test(test_one_a_cycle))
