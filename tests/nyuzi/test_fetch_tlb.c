/* tests/nyuzi/test_fetch_tlb.c: no instruction fetch in the cycle a TLB change is in the
 * data cache's tag stage (isa/nyuzi/timing.c nyz_mem_timing, pipeline.c run_core). The
 * RTL's ifetch_tag_stage.sv fetches only if cache_fetch_en = |can_fetch_thread_bitmap &&
 * !dt_update_itlb_en && !dt_invalidate_tlb_en && !dt_invalidate_tlb_all_en: the TLBs are
 * written that cycle and cannot translate the fetch's address; the round-robin pointer is
 * not moved either (update_lru(cache_fetch_en)). dcache_tag_stage.sv raises the three for
 * an itlbinsert, tlbinval or tlbinvalall in the stage, only in supervisor mode
 * (cr_supervisor_en). RTL trace of tlb_inval.c1t4 (session 34): tlbinvals issued at 560-563
 * and at 1768, ifetch_data (the model's fetch cycle) empty at 562-565 and 1770.
 * Derived by hand for a core of two threads, the fetch pointer at thread 1, at cycle R =
 * 1000: thread 0's FIFO holds one instruction (at 0x1000, the next fetch 0x1004), issued at
 * R; thread 1's FIFO is empty (its next fetch 0x1100). The stages: thread_select at R,
 * operand_fetch R + 1, dcache_tag R + 2.
 * - R: thread 0 issues; thread 1 is fetched (0x1100), the pointer goes to thread 0;
 *   R + 1: thread 0 fetches 0x1004, the pointer goes to thread 1;
 * - a tlbinval, tlbinvalall or itlbinsert in supervisor mode: nothing at R + 2 (thread 1's
 *   next fetch still 0x1104, the pointer at thread 1); thread 1 fetches 0x1104 at R + 3,
 *   visible to issue at R + 3 + 4 (FE_DEPTH);
 * - the same tlbinval in user mode (it faults, the TLBs are not written), or a nop:
 *   thread 1 fetches 0x1104 at R + 2, thread 0 0x1008 at R + 3.
 * Two TLB changes issued back to back leave no fetch in either one's cycle (session 36:
 * RTL trace of tlb_inval_all.c1t4, itlbinserts issued at 560-563, ifetch_data empty at
 * 562-565; the model kept only the last one's cycle, a fetch at 562-564). Thread 0's FIFO
 * holds two tlbinvals (0x1000, 0x1004), issued at R and R + 1 (thread 1 has nothing to
 * issue before R + 4, its first fetch's FE_DEPTH):
 * - R: thread 1 fetches 0x1100 (pointer to thread 0); R + 1: thread 0 fetches 0x1008
 *   (pointer to thread 1);
 * - R + 2 and R + 3: no fetch (thread 1's next still 0x1104, the pointer at thread 1);
 * - R + 4: thread 1 fetches 0x1104.
 * The fetch in the cycle after a TLB change's issue still translates through the TLB as it
 * was (session 37, RTL trace of tlb_inval_all.c1t4: a tlbinvalall issued at 1845, another
 * thread's fetch at 1846 (ifetch_data) hits the ITLB and its instruction issues at 1853
 * without a trap; the model had cleared the ITLB at the issue, a TLB miss, a trap): that
 * fetch's ifetch_tag_stage looks the ITLB up in the issue cycle, and the TLBs are written at
 * the end of the next, the cycle the fetch is off. With the MMU on, the code page global in
 * the ITLB, thread 0's tlbinvalall issued at R (the same cycles as above):
 * - R + 1: thread 0 fetches 0x1004: an ITLB hit (a decoded instruction, fetched at 0x1004);
 * - R + 4: thread 1 issues 0x1100 (fetched at R: FE_DEPTH) and fetches 0x1104: the ITLB
 *   is empty, a miss (nothing decoded: its issue traps). */
#include "core_rig.h"

enum { R = 1000 };
/* tlbinval s0, tlbinvalall, itlbinsert s0, s1, or s0, s0, s0 (this repository's
 * assembler's encodings) */
enum { TLBINVAL = 0xEA000000u, TLBINVALALL = 0xEC000000u, ITLBINSERT = 0xEE000020u, NOP = 0 };

typedef core_rig rig;

/* The state at the start of cycle R, thread 0's FIFO head `insn`, `flags` its mode. */
static void rig_make(rig *r, uint32_t insn, uint32_t flags)
{
    core_rig_open(r, R);
    nyz_machine *nm = r->m.isa_state;
    mem_st32le(nm->ram + 0x1000, insn);
    for (int i = 0; i < 2; i++)
        r->c->t[i].flags = flags;
    nyz_thread *t0 = &r->c->t[0], *t1 = &r->c->t[1];
    t0->pc = t0->fe_pc = 0x1000;
    t0->npc = 0x1004;
    t0->fe_n = 1;
    t0->fe_vis[0] = R - 1;
    t0->fe_pa[0] = 0x1000;
    r->u->threads[0].ready_at = R;
    t1->pc = t1->fe_pc = t1->npc = 0x1100;
    r->c->frr = 1;
    r->c->trap_handler = 0x1180; /* (the user-mode tlbinval's fault goes there) */
    r->u->rr = 0;
}

/* R and R + 1 as above, for every case */
static void first_two(rig *r)
{
    nyz_thread *t0 = &r->c->t[0], *t1 = &r->c->t[1];
    core_rig_cycle(r, R);
    assert_int_equal(r->u->threads[0].issue_cycles, 1);
    assert_int_equal(t1->npc, 0x1104);
    assert_int_equal(r->c->frr, 0);
    core_rig_cycle(r, R + 1);
    assert_int_equal(t0->npc, 0x1008);
    assert_int_equal(r->c->frr, 1);
}

static void no_fetch_at_tag_stage(uint32_t insn)
{
    static rig r;
    rig_make(&r, insn, NYZ_F_S);
    nyz_thread *t0 = &r.c->t[0], *t1 = &r.c->t[1];
    first_two(&r);
    core_rig_cycle(&r, R + 2);
    assert_int_equal(t1->npc, 0x1104);
    assert_int_equal(t0->npc, 0x1008);
    assert_int_equal(r.c->frr, 1);
    core_rig_cycle(&r, R + 3);
    assert_int_equal(t1->npc, 0x1108);
    assert_int_equal(t1->fe_n, 2);
    assert_int_equal(t1->fe_vis[(t1->fe_h + 1) & 7], R + 3 + 4);
    assert_int_equal(t0->npc, 0x1008);
    sim_destroy(&r.m);
}

static void test_back_to_back(void **state)
{
    (void)state;
    static rig r;
    rig_make(&r, TLBINVAL, NYZ_F_S);
    nyz_machine *nm = r.m.isa_state;
    nyz_thread *t0 = &r.c->t[0], *t1 = &r.c->t[1];
    mem_st32le(nm->ram + 0x1004, TLBINVAL);
    t0->npc = 0x1008;
    t0->fe_n = 2;
    t0->fe_vis[1] = R - 1;
    t0->fe_pa[1] = 0x1004;
    core_rig_cycle(&r, R);
    core_rig_cycle(&r, R + 1);
    assert_int_equal(r.u->threads[0].issue_cycles, 2);
    assert_int_equal(t0->npc, 0x100c);
    assert_int_equal(t1->npc, 0x1104);
    for (uint64_t k = 2; k <= 3; k++) {
        core_rig_cycle(&r, R + k);
        assert_int_equal(t1->npc, 0x1104);
        assert_int_equal(t0->npc, 0x100c);
        assert_int_equal(r.c->frr, 1);
    }
    core_rig_cycle(&r, R + 4);
    assert_int_equal(t1->npc, 0x1108);
    sim_destroy(&r.m);
}

static void fetch_goes_on(uint32_t insn, uint32_t flags)
{
    static rig r;
    rig_make(&r, insn, flags);
    nyz_thread *t0 = &r.c->t[0], *t1 = &r.c->t[1];
    first_two(&r);
    core_rig_cycle(&r, R + 2);
    assert_int_equal(t1->npc, 0x1108);
    assert_int_equal(r.c->frr, 0);
    core_rig_cycle(&r, R + 3);
    assert_int_equal(t0->npc, 0x100c);
    sim_destroy(&r.m);
}

static void test_tlbinval(void **state)
{
    (void)state;
    no_fetch_at_tag_stage(TLBINVAL);
}

static void test_tlbinvalall(void **state)
{
    (void)state;
    no_fetch_at_tag_stage(TLBINVALALL);
}

static void test_itlbinsert(void **state)
{
    (void)state;
    no_fetch_at_tag_stage(ITLBINSERT);
}

static void test_user_mode_or_nop_fetches(void **state)
{
    (void)state;
    fetch_goes_on(TLBINVAL, 0);
    fetch_goes_on(NOP, NYZ_F_S);
}

static void test_fetch_after_sees_old_itlb(void **state)
{
    (void)state;
    static rig r;
    rig_make(&r, TLBINVALALL, NYZ_F_S | NYZ_F_M);
    nyz_thread *t0 = &r.c->t[0], *t1 = &r.c->t[1];
    /* page 0x1000: identity, global, executable, present (the set of page 1, way 0) */
    nyz_tlb_entry *e = &r.c->itlb[(1 % r.c->tlb_sets) * r.c->tlb_ways];
    e->va = 0x1000;
    e->pa_flags = 0x1000 | 0x10 | 0x4 | 0x1;
    first_two(&r);
    assert_int_equal(t0->fe_n, 1);
    assert_int_equal(t0->fe_pa[t0->fe_h], 0x1004);
    assert_non_null(t0->fe_ent[t0->fe_h]);
    for (uint64_t k = 2; k <= 4; k++)
        core_rig_cycle(&r, R + k);
    assert_int_equal(r.u->threads[1].issue_cycles, 1);
    assert_int_equal(t1->npc, 0x1108);
    assert_int_equal(t1->fe_n, 1);
    assert_null(t1->fe_ent[t1->fe_h]);
    sim_destroy(&r.m);
}

XPUSIM_TESTS(nyuzi_fetch_tlb, cmocka_unit_test(test_tlbinval), cmocka_unit_test(test_tlbinvalall),
             cmocka_unit_test(test_itlbinsert), cmocka_unit_test(test_back_to_back),
             cmocka_unit_test(test_user_mode_or_nop_fetches),
             cmocka_unit_test(test_fetch_after_sees_old_itlb))
