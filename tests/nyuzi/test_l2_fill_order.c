/* tests/nyuzi/test_l2_fill_order.c: on several cores an L2 miss takes its way (and updates
 * the set's pseudo-LRU flags) in the order of the L2 arbiter's grants, not in the order the
 * model makes the requests (isa/nyuzi/timing.c nyz_l2_fill, called from bus_log.c's
 * bus_reread when a grant is final). The rule, from the RTL: a fill's way is the one
 * cache_lru.sv points to when the restarted request passes the L2's tag stage
 * (l2_cache_tag_stage.sv fill_en = l2a_l2_fill), and the fill FIFO restarts its entries in
 * the order the arbiter granted them (RTL trace of vstream.c2t4: core 1's whole-line stores
 * to 110000, 118000, 114000, all in L2 set 0, requested in that order, granted and
 * restarted 118000 (570), 114000 (575), 110000 (579)). The model runs its cores a stretch
 * of cycles at a time, so core 1's request made at its cycle 110 can come before core 0's
 * made at cycle 100. 8-way pseudo-LRU (cache_lru.sv), flags 0000000 after reset: a fill
 * takes way 0 (00?0???) and sets 1101000; the next fill takes way 4 (???100?). */
#include "l2_rig.h"

/* two lines of L2 set 0 (128 KiB, 8 ways, 64-byte lines: 256 sets, 16 KiB apart) */
enum { Y = 0x10000, X = 0x14000 };

/* A whole-line store of pa by thread tid of core k at cycle at. */
static void store(nyz_machine *nm, int k, int tid, uint32_t pa, uint64_t at)
{
    nyz_store_timing(nm, &nm->cores[k], &nm->cores[k].t[tid], pa, 1, at);
}

static int l2_way_of(const nyz_machine *nm, uint32_t pa)
{
    const nyz_cache *l2 = &nm->l2;
    uint32_t line = pa >> l2->line_shift;
    unsigned set = line & (l2->sets - 1);
    for (unsigned w = 0; w < l2->ways; w++)
        if (l2->tag[set * l2->ways + w] == line)
            return (int)w;
    return -1;
}

/* Whole-line stores (the L2 lacks both lines: restarted from the fill FIFO, no read): core
 * 1's to X made first, at its cycle 110 (reaches the L2 at 113), then core 0's to Y at 100
 * (reaches it at 103). Granted Y (103) then X (113): Y takes way 0, X way 4. (Taken at the
 * request, X had way 0 and Y way 4.) Until the grants are final neither line is in the
 * L2's tags. */
static void test_ways_in_grant_order(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, (const char *const[]){"cores=2", NULL});
    store(r.nm, 1, 0, X, 110);
    store(r.nm, 0, 0, Y, 100);
    nyz_machine *nm = r.nm;
    assert_int_equal(l2_way_of(nm, X), -1);
    assert_int_equal(l2_way_of(nm, Y), -1);
    nyz_bus_fix(nm);
    assert_int_equal(l2_way_of(nm, Y), 0);
    assert_int_equal(l2_way_of(nm, X), 4);
    assert_int_equal(nm->l2.plru[0], 0x66); /* fill 0: 1101000; fill 4: {110,0,1,1,0} */
    assert_int_equal(nm->l2.dirty[4], 1);   /* (stores: dirty) */
    sim_destroy(&r.m);
}

/* One core: a store to a line the L2 lacks goes through the L2's arbiter too and takes its
 * way at its restart (session 40: tests/nyuzi/test_l2_one_core_way.c), so neither line is
 * in the tags when the stores are made; in grant order, Y (made at 100) way 0, X (110)
 * way 4. (Until session 40 each took its way when it was made: the same ways here.) */
static void test_one_core_at_restart(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, (const char *const[]){"cores=1", NULL});
    store(r.nm, 0, 0, Y, 100);
    assert_int_equal(l2_way_of(r.nm, Y), -1);
    store(r.nm, 0, 1, X, 110);
    nyz_bus_fix(r.nm);
    nyz_l2_settle(r.nm, UINT64_MAX);
    assert_int_equal(l2_way_of(r.nm, Y), 0);
    assert_int_equal(l2_way_of(r.nm, X), 4);
    sim_destroy(&r.m);
}

XPUSIM_TESTS(nyuzi_l2_fill_order,
             cmocka_unit_test(test_ways_in_grant_order),
             cmocka_unit_test(test_one_core_at_restart))
