/* tests/nyuzi/test_load_sync_pending.c: a thread's load_sync hits the L1D only while its
 * dd_load_sync_pending bit is set (isa/nyuzi/timing.c nyz_sync_l1_hit, nyz_replay_timing;
 * exec_ops.inc; pipeline.c toggles it at a faulting load_sync). The RTL's
 * dcache_data_stage.sv: cache_hit = |way_hit_oh && (!sync_access_req ||
 * dd_load_sync_pending[thread]) && dt_tlb_hit; every load_sync in the data stage that is
 * not squashed (cached_load_req: hit, miss, TLB miss or fault alike) toggles the bit; a
 * miss sends a LOAD_SYNC request to the L2 (dd_cache_miss_sync). So a load_sync normally
 * misses (request, bit set) and its replay hits (bit clear); one that faulted or missed the
 * DTLB leaves the bit set: the next load_sync of the thread hits if its line is in the L1D
 * (no request, no reservation), or misses, clears the bit and its replay misses again
 * (a second request). RTL trace of tlb_inval_all.c1t4 (session 36): load_syncs that missed
 * the DTLB, issued again at 898-901 (lines absent), replayed at 941-947 and rolled back
 * again with a second LOAD_SYNC each (granted 944-950); in the second pass one issued
 * again at 1577 with its line present completed there, and its store_sync failed.
 * Derived by hand:
 * - one core of two threads (core_rig.h) at cycle R, thread 0's FIFO head `load_sync s13,
 *   (s12)` with s12 = DATA, DATA's line in the L1D: with the bit set it completes at R (an
 *   instruction retired, s13 the word at DATA, no request, no rollback, no reservation, the
 *   bit clear); with the bit clear it is a request to the L2 and rolls back (the bit set);
 *   with s12 = DATA + 2 (misaligned) it faults, the bit set;
 * - the machine of test_sync_decided.c (l2_rig.h, one core): thread 0's load_sync of LINE
 *   issued at 100 with the bit set replays at 143 (that test's derivation), then misses
 *   again: a second request issued at 143 reaches the L2 at 146, where the line is (its
 *   data came at 144): granted at once, its replay at the grant + 7 = 153 (an uncontended
 *   L2 hit replays sync_latency (10) after its issue); that replay hits. */
#include "core_rig.h"
#include "l2_rig.h"

enum { R = 1000, DATA = 0x8000, LOAD_SYNC = 0xAA0001ACu /* load_sync s13, (s12) */ };

/* The core at R: thread 0's FIFO head the load_sync of s12 = addr, DATA's line in the L1D,
 * its bit `odd`. */
static void sync_rig(core_rig *r, uint32_t addr, uint8_t odd)
{
    core_rig_open(r, R);
    nyz_machine *nm = r->m.isa_state;
    mem_st32le(nm->ram + 0x1000, LOAD_SYNC);
    mem_st32le(nm->ram + DATA, 0x12345678u);
    nyz_cache_access(&r->c->l1d, DATA, 1, 0);
    nyz_thread *t0 = &r->c->t[0];
    t0->pc = t0->fe_pc = 0x1000;
    t0->npc = 0x1004;
    t0->fe_n = 1;
    t0->fe_vis[0] = R - 1;
    t0->fe_pa[0] = 0x1000;
    t0->s[12] = addr;
    t0->sync_odd = odd;
    t0->sync_line = 1; /* no reservation */
    r->u->threads[0].ready_at = R;
    r->c->trap_handler = 0x1180;
}

/* sync_rig, then cycle R: thread 0 (its load_sync issued). */
static nyz_thread *issue_at_r(core_rig *r, uint32_t addr, uint8_t odd)
{
    sync_rig(r, addr, odd);
    core_rig_cycle(r, R);
    return &r->c->t[0];
}

static void test_hit_with_the_bit_set(void **state)
{
    (void)state;
    static core_rig r;
    nyz_thread *t0 = issue_at_r(&r, DATA, 1);
    nyz_machine *nm = r.m.isa_state;
    assert_int_equal(r.u->threads[0].instructions, 1);
    assert_int_equal(t0->s[13], 0x12345678u);
    assert_int_equal(nm->sreq[t0->gid].on, 0);
    assert_int_equal(t0->rb_at, 0);
    assert_true(t0->blocked <= R);
    assert_int_equal(t0->sync_line, 1);
    assert_int_equal(t0->sync_odd, 0);
    sim_destroy(&r.m);
}

static void test_request_with_the_bit_clear(void **state)
{
    (void)state;
    static core_rig r;
    nyz_thread *t0 = issue_at_r(&r, DATA, 0);
    nyz_machine *nm = r.m.isa_state;
    assert_int_equal(nm->sreq[t0->gid].on, 1);
    assert_true(t0->rb_at > R);
    assert_true(t0->blocked > R);
    assert_int_equal(t0->sync_odd, 1);
    sim_destroy(&r.m);
}

static void test_fault_sets_the_bit(void **state)
{
    (void)state;
    static core_rig r;
    nyz_thread *t0 = issue_at_r(&r, DATA + 2, 0);
    nyz_machine *nm = r.m.isa_state;
    assert_int_equal(nm->sreq[t0->gid].on, 0);
    assert_int_equal(t0->pc, 0x1180); /* (the trap taken) */
    assert_int_equal(t0->sync_odd, 1);
    sim_destroy(&r.m);
}

static void test_second_request(void **state)
{
    (void)state;
    enum { LINE = 0x10000 };
    rig r;
    rig_open(&r, (const char *const[]){"cores=1", NULL});
    nyz_core *c = &r.nm->cores[0];
    nyz_thread *t0 = &c->t[0];
    t0->sync_odd = 1;
    assert_int_equal(rig_access(&r, 0, 0, K_LOAD_SYNC, 3, LINE, 100), 143);
    assert_int_equal(t0->sync_odd, 0);
    assert_int_equal(nyz_replay_timing(r.nm, c, t0, 143), 153);
    assert_int_equal(r.nm->sreq[t0->gid].on, 1);
    assert_int_equal(t0->sync_odd, 1);
    assert_int_equal(nyz_replay_timing(r.nm, c, t0, 153), 0);
    assert_int_equal(t0->sync_odd, 0);
    sim_destroy(&r.m);
}

XPUSIM_TESTS(nyuzi_load_sync_pending, cmocka_unit_test(test_hit_with_the_bit_set),
             cmocka_unit_test(test_request_with_the_bit_clear),
             cmocka_unit_test(test_fault_sets_the_bit), cmocka_unit_test(test_second_request))
