/* tests/dpu/test_review_flags.c (review of session 28's round replay changes): the
 * functional records' dead flags (isa/dpu/func_rec.c fn_window/fn_heal: an ALU form whose
 * flags are overwritten before any reader runs without storing them, and a tasklet stopped
 * inside such a window gets them rebuilt) and the WRAM test of loads and stores as one mask
 * test with the rotated compare as fallback (fn_wmk/fn_wok), against the reference loop
 * (exec.c, through the debugger's history), the whole state compared after every piece.
 * Rules checked:
 *  - the flags are exact wherever a run ends: runs cut every 29 to 1,000 cycles end
 *    inside every window (add/sub over either operand, with an immediate, lsl_add over its
 *    added operand, addc/subc into another register, logic forms and shifts), also a window
 *    holding an ld (two registers written) and one ended by a compare-and-branch;
 *  - a carry read right after a window (addc/subc) is the window's end's;
 *  - a load or store whose address is the WRAM's last bytes (each width, negative offsets
 *    from one past the end) runs, on the 64 KB chip (v1a: a power of two, the mask test) and
 *    the 62 KB one (v1b: past 32 KB the compare), while one a byte past the end, or
 *    misaligned, faults inside a dead-flag window with the flags that window's form left.
 * The loop has no instruction for the generic executor (unless dmait is set), so a replay
 * runs whole pieces. Each of these mutations of isa/dpu/func_rec.c (at 99954f5) fails
 * this test: no heal; each operand run back wrongly in fn_heal (add/sub over a or b,
 * lsl_add); a logic form healed with operand 1; fn_need without its rc = ra = rb rule
 * (add, addc); the window not stopped by a load writing a kept register, or ended by
 * addc/subc, or running over a branch target; the first copy's form without its flags;
 * fn_wmk without the alignment bits or with p doubled; fn_wok's bound one larger (notes/
 * dpu-review.md). */
#include <string.h>
#include "../testlib.h"
#include "dpu_harness.h"
#include "dpu_same.h"
#include "../../core/debug.h"

/* Every tasklet owns the 8 bytes at wtop - 8 (id + 1) (r20; r22 one past them) and runs
 * iters iterations; tasklet 0 at r0 = faultit (if not 0) loads at r20 + fdelta + 4;
 * tasklet 3 at r0 = dmait (if not 0) starts a DMA. */
static const char review_src[] =
    "	.section .text.__bootstrap,\"ax\",@progbits\n"
    "__bootstrap:\n"
    "	jeq id, NR_TASKLETS-1, .Lgo\n"
    "	boot id, 1\n"
    ".Lgo:\n"
    "	lw r20, zero, wtop\n"
    "	lsl r19, id, 3\n"
    "	sub r20, r20, r19\n"
    "	add r20, r20, -8\n"
    "	add r22, r20, 8\n"
    "	lw r0, zero, iters\n"
    "	move r1, id\n"
    "	move r6, 0x7fffffff\n"
    "	move r21, 0\n"
    "	sd r20, 0, d0\n"
    ".Lloop:\n"
    /* lsl_add over its added operand (dead: the sub ends it), at the WRAM's last word */
    "	lsl_add r1, r1, r0, 27\n"
    "	sw r20, 0, r1\n"
    "	lw r2, r22, -8\n"
    "	sub r3, r2, r0\n"              /* ends lsl_add's window; dead itself (c != a, b) */
    "	lbu r4, r22, -1\n"
    "	sb r20, 7, r3\n"
    "	lhu r5, r22, -2\n"
    "	add r3, r3, r6\n"              /* ends sub's; carry live (addc reads it) */
    "	addc r7, r3, r1\n"             /* dead: into another register */
    "	sw r22, -4, r7\n"
    "	lw r8, r20, 4\n"
    "	ld d10, r20, 0\n"
    "	subc r9, r7, r6\n"             /* ends addc's (a writer? no: reads carry) */
    "	sub r9, r9, r8\n"              /* over its first operand: dead */
    "	sh r22, -6, r9\n"
    "	lhs r12, r20, 6\n"
    "	lbs r13, r22, -1\n"
    "	jltu r12, r9, .La\n"          /* ends sub's window (compare: writes the flags) */
    "	add r1, r1, 1\n"
    ".La:\n"
    "	subc r14, r13, r12\n"          /* the compare's carry */
    "	xor r21, r21, r14\n"
    "	sub r15, r6, r21\n"            /* over its second operand (r21 = r6 - r15 back) */
    "	sub r21, r6, r21\n"
    "	sd r20, 0, d10\n"
    "	lw r16, r22, -4\n"
    "	add r21, r21, r16\n"
    "	add r21, r16, r21\n"           /* over its second operand: dead */
    "	sw r20, 0, r21\n"
    "	lw r17, r20, 0\n"
    "	and r17, r17, r3\n"            /* logic forms: the flags from the result */
    "	sw r20, 0, r17\n"
    "	or r16, r17, r1\n"
    "	lbu r18, r20, 0\n"
    "	xor r16, r16, 0x5a5a\n"
    "	sh r20, 2, r16\n"
    "	lsr r16, r16, r18\n"
    "	lw r19, r20, 0\n"
    "	asr r16, r16, 3\n"
    "	sb r22, -1, r16\n"
    "	lsl r16, r16, r0\n"
    "	sw r22, -4, r16\n"
    "	xor r14, r14, r14\n"           /* logic results 0: the zero flag set */
    "	sw r20, 4, r14\n"
    "	lsr r18, r18, 31\n"
    "	sb r20, 3, r18\n"
    "	or r14, r14, r18\n"
    "	sw r20, 0, r14\n"
    "	add r1, r1, r16\n"
    "	addc r1, r1, r21\n"
    "	add r10, r10, r10\n"           /* rc = ra = rb: never dead (its carry is set) */
    "	sw r20, 4, r10\n"
    "	sub r4, r4, 1, false\n"        /* an immediate over its operand */
    "	lw r2, r22, -4\n"
    "	sw r20, 4, r4\n"
    "	sub r15, r13, 7, false\n"      /* an immediate, into another register */
    "	lhu r18, r22, -2\n"
    "	subc r9, r15, r6\n"            /* reads sub's carry */
    "	sw r20, 0, r9\n"
    "	add r2, r2, r4\n"
    /* tasklet 3 at r0 = dmait: an 8-byte ldma over its bytes (a DMA start ends a replay
     * with the other tasklets anywhere in their windows) */
    "	jneq id, 3, .Lnodma\n"
    "	lw r19, zero, dmait\n"
    "	jneq r0, r19, .Lnodma\n"
    "	ldma r20, r22, 0\n"
    ".Lnodma:\n"
    /* tasklet 0 at r0 = faultit: r18 = r20 + fdelta, a load off the end inside a window */
    "	move r18, r20\n"
    "	jneq id, 0, .Lnf\n"
    "	lw r19, zero, faultit\n"
    "	jneq r0, r19, .Lnf\n"
    "	lw r19, zero, fdelta\n"
    "	add r18, r20, r19\n"
    ".Lnf:\n"
    /* a branch target inside what would be xor's window: never dead (the jump's flags
     * are the compare's) */
    "	jgtu r0, 9, .Lmid\n"
    "	xor r19, r1, r6\n"
    ".Lmid:\n"
    "	sw r20, 0, r19\n"
    "	lw r17, r20, 4\n"
    "	add r19, r19, r17\n"
    /* a load overwriting an operand the flags are rebuilt from: never dead */
    "	add r15, r12, r13\n"
    "	sw r20, 4, r15\n"
    "	lw r13, r20, 0\n"
    "	sw r22, -4, r13\n"
    "	add r12, r12, r15\n"
    "	add r16, r1, r6\n"              /* dead (all three registers kept) */
    "	lw r19, r18, 4\n"
    "	sw r20, 0, r16\n"
    "	add r17, r16, r19\n"
    "	addc r1, r1, r17\n"
    "	add r0, r0, -1, nz, .Lloop\n"
    "	sw id4, out, r1\n"
    "	stop\n"
    "	.section .dpu_host,\"aw\",@progbits\n"
    "	.p2align 3\n"
    "	.globl iters\n"
    "iters:\n"
    "	.long 40\n"
    "	.globl wtop\n"
    "wtop:\n"
    "	.long 65536\n"
    "	.globl faultit\n"
    "faultit:\n"
    "	.long 0\n"
    "	.globl fdelta\n"
    "fdelta:\n"
    "	.long 0\n"
    "	.globl dmait\n"
    "dmait:\n"
    "	.long 0\n"
    "	.globl out\n"
    "out:\n"
    "	.zero 96\n";

static uint32_t dmait; /* (set by test_windows for some cases) */

static void build(dh_run *r, int tasklets, int v1b, uint32_t faultit, uint32_t fdelta, int func)
{
    char tk[32];
    snprintf(tk, sizeof tk, "tasklets=%d", tasklets);
    const char *opts[] = {tk, "mram=1", v1b ? "chip=v1b" : "chip=v1a", func ? "timing=none" : "timing=cycle",
                          NULL};
    assert_int_equal(dh_build(r, review_src, 0, NULL, opts), 0);
    const uint32_t wtop = v1b ? 63488 : 65536;
    assert_int_equal(dh_set(r, 0, "wtop", 0, &wtop, 4), 0);
    assert_int_equal(dh_set(r, 0, "faultit", 0, &faultit, 4), 0);
    assert_int_equal(dh_set(r, 0, "fdelta", 0, &fdelta, 4), 0);
    assert_int_equal(dh_set(r, 0, "dmait", 0, &dmait, 4), 0);
}

/* Both loops (a fast, b reference with the debugger's history) in pieces of step cycles
 * (0: whole), the whole state compared after each piece and at the end. */
static sim_stop_kind run_cut(int tasklets, int v1b, uint32_t faultit, uint32_t fdelta, uint64_t step, int func)
{
    static dh_run a, b;
    build(&a, tasklets, v1b, faultit, fdelta, func);
    build(&b, tasklets, v1b, faultit, fdelta, func);
    assert_int_equal(dbg_attach(&b.m), 0);
    b.m.dbg->history_on = 1;
    dbg_update_slow(&b.m);
    assert_true(dbg_hooks(&b.m));
    assert_false(a.m.slow);
    sim_stop_kind k;
    uint64_t lim = 0;
    do {
        lim = step ? lim + step : SIM_NEVER;
        k = sim_run(&a.m, lim);
        assert_int_equal(k, sim_run(&b.m, lim));
        dh_same_state(&a, &b, 0, 0);
    } while (k == SIM_STOP_LIMIT);
    dh_same_state(&a, &b, step == 0, 1);
    dh_free(&a);
    dh_free(&b);
    return k;
}

/* Stops inside every window: 16 tasklets (v1a and v1b), 11, 12 and 24, whole and cut
 * every 29, 37, 53, 100, 211 and 1,000 cycles, three with a DMA (a replay needs a steady
 * round: pieces shorter than a few rounds end in the per-issue loops). */
static void test_windows(void **state)
{
    (void)state;
    static const struct { int nt, v1b; uint64_t step; uint32_t dma; } cs[] = {
        {16, 0, 0, 0},  {16, 0, 37, 0}, {16, 0, 100, 0}, {16, 0, 211, 0}, {16, 1, 0, 0},
        {16, 1, 29, 0}, {16, 1, 53, 0}, {16, 1, 1000, 0}, {11, 0, 0, 0},  {11, 0, 37, 0},
        {11, 1, 100, 0}, {12, 1, 53, 0}, {24, 0, 0, 0},  {24, 0, 29, 0},  {24, 0, 211, 0},
        {16, 0, 37, 20}, {16, 1, 100, 17}, {24, 0, 0, 9},
    };
    for (unsigned i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        dmait = cs[i].dma;
        assert_int_equal(run_cut(cs[i].nt, cs[i].v1b, 0, 0, cs[i].step, 0), SIM_STOP_HALT);
    }
    dmait = 0;
}

/* Tasklet 0's load at r0 = 6 (iteration 35) inside the window of "add r16, r1, r6": a word
 * past the end (fdelta 8: r20 + 12 = wtop + 4), its first byte at the end (fdelta 4:
 * wtop), misaligned at the last word (fdelta 2), and, as a check that the program's
 * other accesses run, fdelta 0 (no fault); on both chips, whole and cut every 37 cycles. */
static void test_faults(void **state)
{
    (void)state;
    static const uint32_t deltas[] = {8, 4, 2};
    for (int v1b = 0; v1b < 2; v1b++)
        for (unsigned i = 0; i < 3; i++)
            for (int cut = 0; cut < 2; cut++)
                assert_int_equal(run_cut(16, v1b, 6, deltas[i], cut ? 37 : 0, 0), SIM_STOP_FAULT);
    assert_int_equal(run_cut(16, 1, 6, 0, 0, 0), SIM_STOP_HALT);
}

/* The functional mode (-o timing=none: func.c runs the same records, fn_heal at each
 * run's end) in pieces of step cycles against the reference loop of the cycle model: no
 * tasklet reads another's bytes, so at a halt every tasklet's registers, flags and pc and
 * the WRAM are the same; at tasklet 0's fault its own state, the stop and its message
 * (the others stop wherever timing finds them). */
static void func_vs_cycle(int tasklets, int v1b, uint32_t faultit, uint32_t fdelta, uint64_t step)
{
    static dh_run a, b;
    build(&a, tasklets, v1b, faultit, fdelta, 1);
    build(&b, tasklets, v1b, faultit, fdelta, 0);
    assert_int_equal(dbg_attach(&b.m), 0);
    b.m.dbg->history_on = 1;
    dbg_update_slow(&b.m);
    sim_stop_kind k;
    uint64_t lim = 0;
    do {
        lim = step ? lim + step : SIM_NEVER;
        k = sim_run(&a.m, lim);
    } while (k == SIM_STOP_LIMIT);
    assert_int_equal(k, sim_run(&b.m, SIM_NEVER));
    assert_int_equal(k, faultit ? SIM_STOP_FAULT : SIM_STOP_HALT);
    assert_int_equal(a.m.stop.thread, b.m.stop.thread);
    assert_int_equal(a.m.stop.pc, b.m.stop.pc);
    assert_string_equal(a.m.stop.msg, b.m.stop.msg);
    const dpu_unit *da = a.m.units[0].isa, *db = b.m.units[0].isa;
    for (int t = 0; t < (faultit ? 1 : tasklets); t++) {
        assert_memory_equal(da->t[t].r, db->t[t].r, sizeof da->t[t].r);
        assert_int_equal(da->t[t].zf, db->t[t].zf);
        assert_int_equal(da->t[t].cf, db->t[t].cf);
        assert_int_equal(da->t[t].pc, db->t[t].pc);
    }
    if (!faultit)
        assert_memory_equal(da->wram_p, db->wram_p, da->dm->wram_size);
    dh_free(&a);
    dh_free(&b);
}

static void test_functional(void **state)
{
    (void)state;
    func_vs_cycle(16, 0, 0, 0, 0);
    func_vs_cycle(16, 1, 0, 0, 5);
    func_vs_cycle(16, 1, 6, 4, 0);
    func_vs_cycle(24, 0, 6, 8, 3);
    func_vs_cycle(11, 1, 6, 2, 7);
}

/* The functional mode's fast loop (func_fast: the records, the ring) against its loop
 * under the debugger's history (func_loop), whole and in pieces, with and without the
 * fault: the whole state the same. (It was not: at a halt the unit's next tasklet in order
 * was the one that stopped last on one path and the one after it on the other, and the
 * records' loop left each tasklet's last issue where the executor had last set it.) */
static void test_functional_hooks(void **state)
{
    (void)state;
    static const struct { int nt, v1b; uint32_t faultit, fdelta; uint64_t step; } cs[] = {
        {16, 0, 0, 0, 0}, {16, 1, 0, 0, 37}, {11, 0, 0, 0, 211}, {24, 0, 0, 0, 5}, {16, 0, 6, 8, 0}, {16, 1, 6, 2, 53},
    };
    for (unsigned i = 0; i < sizeof cs / sizeof cs[0]; i++)
        assert_int_equal(run_cut(cs[i].nt, cs[i].v1b, cs[i].faultit, cs[i].fdelta, cs[i].step, 1),
                         cs[i].faultit ? SIM_STOP_FAULT : SIM_STOP_HALT);
}

XPUSIM_TESTS(dpu_review_flags,
             cmocka_unit_test(test_windows),
             cmocka_unit_test(test_faults),
             cmocka_unit_test(test_functional),
             cmocka_unit_test(test_functional_hooks));
