/* tests/nyuzi/test_l2_fill_at_restart.c: on several cores a fill takes its L2 way when its
 * restart passes the L2's tag stage, and a hit moves the pseudo-LRU as it passes the read
 * stage (its grant + 2), so a hit granted between a miss's grant and its restart changes
 * the miss's victim (session 40, helper fx; RTL trace of wc_gap_s.c4t1: the fill restarted
 * at 1033 evicts the dirty 0x100040 that a store granted before it had not used, AW 1068;
 * docs/validation/nyuzi.md 5b "Session 40 (fx)"). The rule of cache_lru.sv (8 ways, flags
 * bits 6..0, 0 after reset), as tests/nyuzi/test_l2_plru.c states it:
 *   fill way:  00?0??? -> 0, 10?0??? -> 1, ?100??? -> 2, ?110??? -> 3,
 *              ???100? -> 4, ???110? -> 5, ???1?10 -> 6, ???1?11 -> 7
 *   update:    0: {1, 1, f5, 1, f2 f1 f0}      1: {0, 1, f5, 1, f2 f1 f0}
 *              2: {f6, 0, 1, 1, f2 f1 f0}      3: {f6, 0, 0, 1, f2 f1 f0}
 *              4: {f6 f5 f4, 0, 1, 1, f0}      5: {f6 f5 f4, 0, 0, 1, f0}
 *              6: {f6 f5 f4, 0, f2, 0, 1}      7: {f6 f5 f4, 0, f2, 0, 0}
 * The expected values are derived by hand below. */
#include "l2_rig.h"

/* Lines of one L2 set (256 sets of 64 bytes: 16 KiB apart), set 0. */
enum { A = 0x10000, STRIDE = 0x4000 };

/* A two-core machine in which core 0 has loaded A0..A5, one at a time (below). */
static void six_fills(rig *r)
{
    rig_open(r, (const char *const[]){"cores=2", NULL});
    for (unsigned k = 0; k < 6; k++) {
        rig_access(r, 0, 0, K_LOAD, 1, A + k * STRIDE, 100 + 300 * k);
        nyz_bus_fix(r->nm); /* (final, and its fill in the L2) */
    }
}

/* Core 0 loads A0..A5 one at a time (each fill final and in the L2 before the next):
 *   0000000 -> way 0 -> 1101000;  1101000 -> way 4 -> 1100110;  1100110 -> way 2 -> 1011110;
 *   1011110 -> way 6 -> 1010101;  1010101 -> way 1 -> 0101101;  0101101 -> way 5 -> 0100011
 * so the flags are 0100011 (0x23) and a miss would take way 2, A2's.
 * Then core 0's load of A6 at 2000 misses (request at 2003, granted then, its read's restart
 * some 40 cycles later), its grant final before core 1's load of A2 at 2005 is made, which
 * hits (granted at 2008, before that restart). The hit uses way 2: 0100011 -> {f6 = 0, 0, 1, 1, 011} = 0011011 (0x1b); A6's
 * fill at its restart then finds 0011011 = ???1?11 -> way 7 and leaves A2 in the L2; the
 * flags become {001, 0, f2 = 0, 0, 0} = 0010000 (0x10). Without the rule A6 took its way at
 * its grant, way 2, evicting A2 (and core 1's load of it missed). */
static void test_hit_before_restart_moves_victim(void **state)
{
    (void)state;
    rig r;
    six_fills(&r);
    nyz_cache *l2 = &r.nm->l2;
    static const unsigned way[6] = {0, 4, 2, 6, 1, 5};
    for (unsigned k = 0; k < 6; k++)
        assert_int_equal(l2->tag[way[k]], (A + k * STRIDE) >> l2->line_shift);
    assert_int_equal(l2->plru[0], 0x23);
    rig_access(&r, 0, 0, K_LOAD, 1, A + 6 * STRIDE, 2000);
    nyz_arb_run(r.nm, 2004); /* (every core past 2004: A6's grant at 2003 final) */
    rig_access(&r, 1, 0, K_LOAD, 1, A + 2 * STRIDE, 2005);
    nyz_bus_fix(r.nm);
    assert_int_equal(l2->tag[7], (A + 6 * STRIDE) >> l2->line_shift);
    assert_int_equal(l2->tag[2], (A + 2 * STRIDE) >> l2->line_shift);
    assert_int_equal(l2->plru[0], 0x10);
    sim_destroy(&r.m);
}

/* The same six fills (flags 0x23, a miss takes way 2, A2's). Core 0's load of A6 at 2000,
 * its grant final, restarts at r (read from the model: the time only places the next
 * request). Core 1's load of A2 made at r - 2 reaches the L2 at r + 1, after A6's fill took
 * way 2 (0100011 -> way 2) and evicted A2: it misses (RTL trace of memcpy.c4t1: 0x4012c0
 * evicted by the fill restarted at 38322, core 0's load of it made at 38320, granted 38323,
 * restarted 38382). Its read follows A6's on the bus (a line read holds it mem_interval =
 * 28 cycles), so its restart, and its answer, come no sooner than r + 28; A6's way 2 moved
 * the flags to {f6 = 0, 0, 1, 1, 011} = 0011011, so A2's fill takes way 7. Without the rule
 * the load found A2 when made and was answered as a hit (r + 1 + the L2's latency, well
 * before r + 28), its miss found only at its final grant. */
static void test_request_after_restart_misses(void **state)
{
    (void)state;
    rig r;
    six_fills(&r);
    nyz_cache *l2 = &r.nm->l2;
    assert_int_equal(l2->plru[0], 0x23);
    rig_access(&r, 0, 0, K_LOAD, 1, A + 6 * STRIDE, 2000);
    nyz_arb_run(r.nm, 2004);
    assert_int_equal(r.nm->pf_n, 1); /* (A6's fill waits for its restart) */
    uint64_t rst = r.nm->pf[0].rst;
    uint64_t done = rig_access(&r, 1, 0, K_LOAD, 1, A + 2 * STRIDE, rst - 2);
    assert_true(done >= rst + 28);
    nyz_bus_fix(r.nm);
    assert_int_equal(l2->tag[2], (A + 6 * STRIDE) >> l2->line_shift);
    assert_int_equal(l2->tag[7], (A + 2 * STRIDE) >> l2->line_shift);
    sim_destroy(&r.m);
}

XPUSIM_TESTS(nyuzi_l2_fill_at_restart,
             cmocka_unit_test(test_hit_before_restart_moves_victim),
             cmocka_unit_test(test_request_after_restart_misses))
