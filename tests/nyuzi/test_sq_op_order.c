/* tests/nyuzi/test_sq_op_order.c: on several cores a dinvalidate, an iinvalidate and a
 * dflush go to the L2 in its arbiter's order, like a store
 * (isa/nyuzi/timing.c sq_op_timing, bus_log.c): they wait in the core's store queue, which
 * l1_l2_interface.sv offers after the core's load-miss queue and code line, and the
 * arbiter's pointer between cores decides between cores (l2_cache_arb_stage.sv). So a
 * request that reaches the L2 in the same cycle goes first even if the model makes it after
 * the operation. RTL trace of dinv_pend.c4t1 (session 40): core 2's dinvalidate queued
 * before its code line 0x1100 (requested at 874), both waiting for the L2's stall to end:
 * code line granted 890, dinvalidate 891 (the model took the dinvalidate when made: 890,
 * and the code line 891; thread 0 of core 0 561 cycles for the RTL's 560).
 * Derived by hand (defaults: store_latency 10; a data load's bus time its issue + 6, and
 * from test_l2_flush_order.c: a load of Y alone at 100, granted 103, wakes its thread at
 * 143, one granted at 104 at 144). Core 1 loads H at 10 (granted 13: the arbiter's pointer
 * between cores then at core 0, as after reset), so H is in the L2 (its fill final: an
 * operation on a line whose fill is still asked for is taken when made) and in core 1's
 * L1D.
 * - Another core: core 1's thread 0 sends one of the three operations on H at 100 (it
 *   reaches the L2 at 103), then core 0's thread 0 loads Y at 100 (it reaches the L2 at 103
 *   too): the pointer gives core 0 the cycle, the load is granted 103 (wakes at 143), the
 *   operation 104, acknowledged 104 - 3 + 10 = 111 (store_done 111 - NYZ_SQ_AHEAD = 107). A
 *   dinvalidate drops H from core 1's L1D at its acknowledgement: H still there at 110,
 *   gone at 111. (Taken when made: the operation at 103, acknowledged 110, H gone at 110;
 *   the load at 104, waking at 144.)
 * - The same core: core 0's thread 0 dinvalidates H at 100, then its thread 1 loads Y at
 *   100: its load-miss queue goes before its store queue: the load at 103, the dinvalidate
 *   at 104 (store_done 107).
 * - An operation is no store to merge a later store into (can_write_combine wants a plain
 *   store in the entry): a store of the thread to H + 4 at 101, before the dinvalidate's
 *   grant (104), is not merged. */
#include "l2_rig.h"

enum { Y = 0x10000, H = 0x10400 };

static void setup(rig *r)
{
    rig_open(r, (const char *const[]){"cores=2", NULL});
    rig_access(r, 1, 0, K_LOAD, 1, H, 10);
    nyz_bus_fix(r->nm); /* (its fill final: in the L2's tags) */
}

static void test_other_core_first(void **state)
{
    (void)state;
    static const int kinds[] = {K_DINVALIDATE, K_IINVALIDATE, K_DFLUSH};
    for (unsigned i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        rig r;
        setup(&r);
        nyz_machine *nm = r.nm;
        nyz_core *c1 = &nm->cores[1];
        assert_int_equal(rig_access(&r, 1, 0, kinds[i], 5, H, 100), 0);
        assert_int_equal(rig_access(&r, 0, 0, K_LOAD, 1, Y, 100), 143);
        assert_int_equal(c1->t[0].store_done + NYZ_SQ_AHEAD, 111);
        nm->cur_cycle = 101; /* (not merged into) */
        assert_int_equal(nyz_store_combine(nm, c1, &c1->t[0], H + 4, 101), 0);
        nyz_l1_settle(&c1->l1d, 110);
        assert_true(nyz_cache_probe(&c1->l1d, H));
        nyz_l1_settle(&c1->l1d, 111);
        assert_int_equal(nyz_cache_probe(&c1->l1d, H), kinds[i] != K_DINVALIDATE);
        sim_destroy(&r.m);
    }
}

static void test_same_core_load_first(void **state)
{
    (void)state;
    rig r;
    setup(&r);
    nyz_machine *nm = r.nm;
    nyz_core *c0 = &nm->cores[0];
    assert_int_equal(rig_access(&r, 0, 0, K_DINVALIDATE, 5, H, 100), 0);
    assert_int_equal(rig_access(&r, 0, 1, K_LOAD, 1, Y, 100), 143);
    assert_int_equal(c0->t[0].store_done + NYZ_SQ_AHEAD, 111);
    sim_destroy(&r.m);
}

/* A dflush of a dirty line too (RTL trace of dflush_dirty.c2t1: core 0's code line 0x1140
 * granted 2474 and its load 0x1240 2475, core 1's dirty flush, made before them in the
 * model, 2476; the reads AR 1140 2480, the flush's write AW 2512, AR 1240 2537). Its
 * write-back is placed at its final grant as one taken when made is (test_l2_flush_order.c
 * test_flush_before_restart: a write whose bus time comes before the IDLE after a read of Y
 * at 106, restart 136, starts at 136, or 138 with bank 1 closed as there, acknowledged start
 * - 6 + 10 + 24). Core 0's thread 0 flushes H (dirty) at 100, its thread 1 loads Y at 100: the load
 * granted 103 (woken at 143), the flush 104, its bus time 104 - 3 + 6 = 107, before the
 * read's restart: start 136 (H's row in bank 1 open since its read at 16: no refresh before
 * 750), acknowledged 164; until the grant is final the least it can be, 104 - 3 + 10 + 24 =
 * 135. (Taken when made: the flush at 103 and its write from 106 first; the load at 104, read
 * after the write.) */
static void test_dirty_flush_after_load(void **state)
{
    (void)state;
    rig r;
    setup(&r);
    nyz_machine *nm = r.nm;
    nyz_core *c0 = &nm->cores[0];
    nyz_cache_access(&nm->l2, H, 0, 1); /* H dirty in the L2 */
    assert_int_equal(rig_access(&r, 0, 0, K_DFLUSH, 5, H, 100), 0);
    assert_int_equal(rig_access(&r, 0, 1, K_LOAD, 1, Y, 100), 143);
    assert_int_equal(c0->t[0].store_done + NYZ_SQ_AHEAD, 135);
    nm->cur_cycle = 105;
    nyz_arb_run(nm, 105); /* (the grant final: bus_log.c nyz_flush_event) */
    assert_int_equal(c0->t[0].store_done + NYZ_SQ_AHEAD, 164);
    assert_int_equal(c0->t[1].blocked, 143);
    sim_destroy(&r.m);
}

/* A flush is no use of its line's L2 way: l2_cache_read_stage.sv moves the pseudo-LRU flags
 * only for a load's or a store's hit (update_lru_en = cache_hit && (load || store)). A and B
 * share an L2 set (256 sets: 16 KiB apart), A dirty, then B used; a dflush of A (one core:
 * taken when made; two: at its grant) leaves the set's flags as B's use left them (a use
 * of A would point them away from A's way). */
static void test_flush_no_lru_use(void **state)
{
    (void)state;
    enum { A = 0x10400, B = 0x14400 };
    for (int cores = 1; cores <= 2; cores++) {
        rig r;
        rig_open(&r, (const char *const[]){cores == 1 ? "cores=1" : "cores=2", NULL});
        nyz_machine *nm = r.nm;
        unsigned set = (A >> nm->l2.line_shift) & (nm->l2.sets - 1);
        assert_int_equal(set, (B >> nm->l2.line_shift) & (nm->l2.sets - 1));
        nyz_cache_access(&nm->l2, A, 1, 1);
        nyz_cache_access(&nm->l2, B, 1, 0);
        const unsigned f = nm->l2.plru[set];
        rig_access(&r, 0, 0, K_DFLUSH, 5, A, 100);
        nyz_bus_fix(nm);
        assert_int_equal(nm->l2.plru[set], f);
        sim_destroy(&r.m);
    }
}

XPUSIM_TESTS(nyuzi_sq_op_order, cmocka_unit_test(test_other_core_first),
             cmocka_unit_test(test_same_core_load_first), cmocka_unit_test(test_dirty_flush_after_load),
             cmocka_unit_test(test_flush_no_lru_use))
