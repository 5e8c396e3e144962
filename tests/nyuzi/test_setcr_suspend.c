/* tests/nyuzi/test_setcr_suspend.c: when a setcr of CR 20 (suspend threads) stops its
 * thread (isa/nyuzi/devices.c nyz_suspend_threads, pipeline.c due_events). The RTL:
 * control_registers.sv writes cr_suspend_thread at the end of the setcr's dcache data stage
 * (dd_creg_write_en; a memory-pipe instruction whose issue is traced at I is in operand
 * fetch at I, dcache tag I + 1, dcache data I + 2), nyuzi.sv registers thread_en from it a
 * cycle later, so thread_en is low from I + 4. thread_select_stage.sv (can_issue_thread)
 * and ifetch_tag_stage.sv (ts_fetch_en) read it in the cycle before the ones traced (ISS:
 * ts_instruction_valid, IFD: ift_instruction_requested), so the thread's last issue and its
 * last fetch (the model's fetch cycle is ifetch_data's) are at I + 4; the run ends when
 * thread_en is all low, at I + 4. RTL (vbf, dep_int.4): thread 1's setcr issues at 3035 and
 * the branch behind it at 3039; thread 0's at 2080, its fetch at 2082 (the model before
 * the rule stopped both at the setcr's issue: the other threads fetched and issued in
 * their slots, every issue of the run the RTL's only from there on).
 * Derived by hand for one thread (the other disabled), suspending itself (s0 = 1): its FIFO
 * holds `setcr s0, 20` and three nops (int pipe) visible at R = 1000, all of 0x1000-0x11ff
 * in the L1I:
 * - issue: the setcr at R (its writeback slot R + 2); no nop at R + 1 (its slot R + 2 is the
 *   setcr's); nops at R + 2, R + 3, R + 4; none at R + 5: 4 issues, 4 instructions. Without
 *   the rule: 1 (the setcr).
 * - fetch: the FIFO never almost full (at most 4 entries visible), so one fetch a cycle from
 *   0x1010 at R to 0x1020 at R + 4, none at R + 5, R + 6: npc 0x1024. Without the rule the
 *   fetch at R only (it comes before the setcr executes): npc 0x1014.
 * - halted at R + 4 (the run's end, unchanged by the rule). */
#include "core_rig.h"

enum { R = 1000 };
enum { SETCR_S0_20 = 0x8c000014u }; /* setcr s0, 20 (this repository's assembler) */

static void test_suspend_self(void **state)
{
    (void)state;
    static core_rig r;
    core_rig_open(&r, R);
    nyz_machine *nm = r.m.isa_state;
    nyz_thread *t = &r.c->t[0];
    mem_st32le(nm->ram + 0x1000, SETCR_S0_20);
    t->s[0] = 1;
    t->pc = t->fe_pc = 0x1000;
    t->npc = 0x1010;
    t->fe_n = 4;
    for (unsigned k = 0; k < 4; k++) {
        t->fe_vis[k] = R - 1;
        t->fe_ent[k] = nyz_decode_at(nm, 0x1000 + 4 * k);
        t->fe_pa[k] = 0x1000 + 4 * k;
    }
    r.u->threads[0].ready_at = R;
    r.u->threads[1].state = SIM_T_DISABLED;
    r.c->frr = 0;
    core_rig_run(&r, R, R + 6);
    assert_int_equal(r.u->threads[0].issue_cycles, 4);
    assert_int_equal(r.u->threads[0].instructions, 4);
    assert_int_equal(t->npc, 0x1024);
    assert_int_equal(r.u->threads[0].state, SIM_T_HALTED);
    assert_int_equal(r.u->threads[0].halted_at, R + 4);
    assert_int_equal(t->halt_at, 0);
    sim_destroy(&r.m);
}

XPUSIM_TESTS(nyuzi_setcr_suspend, cmocka_unit_test(test_suspend_self))
