/* tests/nyuzi/test_l2_one_core_way.c: one core's L2 ways at a fill's restart (session 40,
 * helper sa; RTL traces of memcpy.c1t4 and scat_l2.c1t4, docs/validation/nyuzi.md 5b
 * "Session 40 (sa)"). The RTL takes a fill's way from cache_lru.sv's pseudo-LRU flags when
 * its restart passes the L2's tag stage, and a hit (a load's, a store's) moves the flags
 * as it passes the read stage, its grant + 2; a store made while the L2 has a miss in flight
 * reaches it through the arbiter like any request. So on one core too, a store hit granted
 * between a miss's grant and its restart moves the flags before the miss takes its way.
 * The expected ways are derived by hand from cache_lru.sv's 8-way tree (flags 0 after reset;
 * the victim: bit 3 picks the half, then bits 5 / 1, then 6 / 4 / 2 / 0; a use of way 0
 * sets bits 6, 5, 3 and copies the old bit 5 into bit 4, of way 4 sets bits 2 and 1 and
 * clears bit 3). */
#include "l2_rig.h"

/* Three lines of one L2 set (256 sets of 64 bytes: 16 kB apart), one L1D set apart each
 * other's way (the L1D has 64 sets: all in L1D set 0, 4 ways, no eviction). */
enum { X0 = 0x20000, X1 = 0x24000, X2 = 0x28000 };

/* Thread 0 loads X0 at 100 and X1 at 300 (each miss fills long before the next request):
 * X0 takes way 0 (flags 0 -> 1101000 = 0x68), X1 way 4 (victim of 0x68: bit 3 set, bit 1
 * clear, bit 2 clear -> 4; flags -> 1100110 = 0x66). Thread 0 loads X2 at 500: a miss,
 * granted at 503, its read restarted some 30 cycles later. Thread 1 stores to X0 at 502:
 * a hit, granted at 505 (it reaches the L2 at 502 + 3), its use of way 0 at 507, before
 * X2's restart: flags 0x66 -> {1,1,f5=1,1,110} = 1111110 = 0x7e, whose victim is way 6
 * (bit 3 set, bit 1 set, bit 0 clear). X2 enters way 6. Without the rule (the load takes
 * its way when it is made, the store its use when it is made) X2 took the victim of 0x66,
 * way 2 (bit 3 clear, bit 5 set, bit 4 clear). */
static void test_store_hit_before_restart(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, (const char *const[]){"cores=1", NULL});
    nyz_cache *l2 = &r.nm->l2;
    unsigned base = ((X0 >> l2->line_shift) & (l2->sets - 1)) * l2->ways;
    assert_int_equal(base, ((X2 >> l2->line_shift) & (l2->sets - 1)) * l2->ways);
    rig_access(&r, 0, 0, K_LOAD, 1, X0, 100);
    rig_access(&r, 0, 0, K_LOAD, 1, X1, 300);
    assert_int_not_equal(rig_access(&r, 0, 0, K_LOAD, 1, X2, 500), 0);
    r.nm->cur_cycle = 502;
    nyz_store_timing(r.nm, &r.nm->cores[0], &r.nm->cores[0].t[1], X0, 0, 502);
    nyz_bus_fix(r.nm); /* every grant final */
    nyz_l2_settle(r.nm, UINT64_MAX);
    assert_int_equal(l2->tag[base + 0], X0 >> l2->line_shift);
    assert_int_equal(l2->tag[base + 4], X1 >> l2->line_shift);
    assert_int_equal(l2->tag[base + 6], X2 >> l2->line_shift);
    sim_destroy(&r.m);
}

XPUSIM_TESTS(nyuzi_l2_one_core_way,
             cmocka_unit_test(test_store_hit_before_restart))
