/* tests/nyuzi/test_setcr_flags.c: when a setcr of CR 4 (the flags: interrupts, MMU,
 * supervisor) reaches the fetch (isa/nyuzi/exec.c nyz_write_cr, pipeline.c fetch_window).
 * The RTL writes CR_FLAGS at the end of the setcr's dcache data stage, issue + 2
 * (control_registers.sv: dd_creg_write_en; a memory-pipe instruction issued at I is in
 * operand fetch at I, dcache tag I + 1, dcache data I + 2, writeback I + 3, its rollback
 * traced at I + 3). ifetch_data reads cr_mmu_en and cr_supervisor_en for the thread it holds
 * (ifetch_tag_stage.sv, ifetch_data_stage.sv), so a fetch whose ifetch_data cycle (the
 * model's fetch cycle) is I + 1 or I + 2 translates with the flags from before, one at
 * I + 3 with the new ones; instruction_decode_stage.sv reads cr_interrupt_en a cycle after
 * ifetch_data, so the fetch at I + 1 is decoded with the old interrupt enable, the one at
 * I + 2 with the new. RTL (vbf, session 38): a program that turns the MMU on (setcr of 6 to
 * CR 4), the next code line not in the L1I and not in the ITLB, the setcr placed so that the
 * line's first word reaches ifetch_data at I + 1, I + 2, I + 3: an L1I miss (miss1, the MMU
 * still off) at I + 1 and I + 2, no miss and an ITLB-miss trap at I + 3 (the model before
 * the rule: the whole program a cycle late in the first two cases, 466 against 465).
 * Derived by hand for one thread (the other disabled), its FIFO holding `setcr s12, 4`
 * visible at R = 1000, nops behind it (all of 0x1000-0x11ff in the L1I), the ITLB empty:
 * - MMU on (s12 = 6, the flags supervisor): R issues the setcr; the fetches of 0x1004 (R),
 *   0x1008 (R + 1), 0x100c (R + 2) are untranslated hits (a decoded instruction each),
 *   0x1010 (R + 3) misses the ITLB (nothing decoded: its issue traps). Without the rule
 *   0x1008 and 0x100c missed the ITLB too.
 * - interrupts off (s12 = 4, the flags supervisor and interrupts, one interrupt pending and
 *   enabled in CR 14): the fetches at R and R + 1 carry the interrupt, the one at R + 2
 *   does not. Without the rule only the one at R did. */
#include "core_rig.h"

enum { R = 1000 };
enum { SETCR_S12_4 = 0x8c000184u }; /* setcr s12, 4 (this repository's assembler) */

static void rig_make(core_rig *r, uint32_t flags, uint32_t s12)
{
    core_rig_open(r, R);
    nyz_machine *nm = r->m.isa_state;
    nyz_thread *t = &r->c->t[0];
    mem_st32le(nm->ram + 0x1000, SETCR_S12_4);
    t->flags = flags;
    t->s[12] = s12;
    t->pc = t->fe_pc = 0x1000;
    t->npc = 0x1004;
    t->fe_n = 1;
    t->fe_vis[0] = R - 1;
    t->fe_ent[0] = nyz_decode_at(nm, 0x1000);
    t->fe_pa[0] = 0x1000;
    r->u->threads[0].ready_at = R;
    r->u->threads[1].state = SIM_T_DISABLED;
    r->c->frr = 0;
    r->c->tlb_miss_handler = 0x1180;
}

static void test_mmu_on_fetch_window(void **state)
{
    (void)state;
    static core_rig r;
    rig_make(&r, NYZ_F_S, NYZ_F_S | NYZ_F_M);
    nyz_thread *t = &r.c->t[0];
    core_rig_run(&r, R, R + 3);
    assert_int_equal(r.u->threads[0].issue_cycles, 1);
    assert_int_equal(t->flags, NYZ_F_S | NYZ_F_M);
    assert_int_equal(t->fe_n, 4); /* 0x1004..0x1010, fetched at R..R + 3 */
    for (unsigned k = 0; k < 3; k++) {
        unsigned i = (t->fe_h + k) & 7;
        assert_int_equal(t->fe_pa[i], 0x1004 + 4 * k);
        assert_non_null(t->fe_ent[i]);
    }
    assert_null(t->fe_ent[(t->fe_h + 3) & 7]);
    sim_destroy(&r.m);
}

static void test_interrupt_off_decode_window(void **state)
{
    (void)state;
    static core_rig r;
    rig_make(&r, NYZ_F_S | NYZ_F_I, NYZ_F_S);
    nyz_thread *t = &r.c->t[0];
    t->int_mask = 1;
    t->latched = 1; /* an edge-triggered interrupt latched (CR 17 all edge) */
    core_rig_run(&r, R, R + 2);
    assert_int_equal(t->fe_n, 3); /* 0x1004..0x100c, fetched at R..R + 2 */
    assert_int_equal((t->fe_int >> t->fe_h) & 1, 1);
    assert_int_equal((t->fe_int >> ((t->fe_h + 1) & 7)) & 1, 1);
    assert_int_equal((t->fe_int >> ((t->fe_h + 2) & 7)) & 1, 0);
    sim_destroy(&r.m);
}

XPUSIM_TESTS(nyuzi_setcr_flags, cmocka_unit_test(test_mmu_on_fetch_window),
             cmocka_unit_test(test_interrupt_off_decode_window))
