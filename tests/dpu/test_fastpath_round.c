/* tests/dpu/test_fastpath_round.c: the fast loop's round replay (isa/dpu/fast_round.c: a
 * steady round of 11 or more tasklets runs the functional records' threaded loop and the
 * cycle model's state is derived at its end) against the reference loop (exec.c, through
 * the debugger's history), at every way a replay can end: the limit (runs cut in pieces of
 * several lengths, the whole state compared after each), an instruction for the generic
 * executor (a nop), a DMA start, a tasklet stopping while the others go on, a fault, and a
 * breakpoint or watchpoint set between two pieces (the instrumented burst then takes over
 * from the state the replay left). The program runs every record kind of the functional
 * loop (ALU forms with register and immediate operands, carries, lsl_add, loads and stores
 * of each width, compare-and-branch, add/sub with a z/nz branch, call and jump through a
 * register, acquire/release) in a loop; its accumulator is checked against a C model. */
#include <string.h>
#include "../testlib.h"
#include "dpu_harness.h"
#include "dpu_same.h"
#include "../../core/debug.h"

/* Every tasklet (r2 = id, r20 its 64 bytes of buf) runs iters iterations (tasklet 2 twenty
 * fewer: it stops while the others run rounds); r1 accumulates. Tasklet 5 runs a nop (the
 * generic executor) at r0 = 17, tasklet 9 an 8-byte ldma when r0 is a multiple of 16,
 * tasklet 7 a misaligned lw (a fault) at r0 = faultit if that is not 0. */
static const char replay_src[] =
    "	.section .text.__bootstrap,\"ax\",@progbits\n"
    "__bootstrap:\n"
    "	jeq id, NR_TASKLETS-1, .Lgo\n"
    "	boot id, 1\n"
    ".Lgo:\n"
    "	move r2, id\n"
    "	lsl r20, id, 6\n"
    "	add r20, r20, buf\n"
    "	lw r0, zero, iters\n"
    "	jneq id, 2, .Lfull\n"
    "	add r0, r0, -20\n"
    ".Lfull:\n"
    "	move r1, 0\n"
    "	move r21, 0\n"
    ".Lloop:\n"
    "	add r1, r1, r0\n"
    "	add r1, r1, 7\n"
    "	sub r3, r1, r0\n"
    "	add r3, r3, -3\n"
    "	and r4, r3, r1\n"
    "	and r4, r4, 0xff0f\n"
    "	or r5, r4, r0\n"
    "	or r5, r5, 0x100\n"
    "	xor r6, r5, r1\n"
    "	xor r6, r6, 0x55\n"
    "	and r7, r0, 7\n"
    "	lsl r8, r6, r7\n"
    "	lsl r8, r8, 3\n"
    "	lsr r9, r6, r7\n"
    "	lsr r9, r9, 1\n"
    "	asr r10, r6, r7\n"
    "	asr r10, r10, 2\n"
    "	add r1, r1, r8\n"
    "	xor r1, r1, r9\n"
    "	add r1, r1, r10\n"
    /* carries (compared with the reference loop only: r21) */
    "	add r11, r1, r6\n"
    "	addc r11, r11, r8\n"
    "	addc r11, r11, 1\n"
    "	subc r12, r11, r9\n"
    "	addc r12, r12, -5\n"
    "	xor r21, r21, r12\n"
    /* dead flags (isa/dpu/func_rec.c fn_window): each ALU form below but the add before
     * addc has its flags overwritten before any reader, so the replay stores none and a
     * piece ending inside a window has them rebuilt (fn_heal) from the registers: add and
     * sub with the result over either operand, sub with an immediate, lsl_add over its
     * added operand, xor over its first, addc and subc into another register; r21 only */
    "	add r11, r6, r11\n"
    "	sw r20, 24, r11\n"
    "	sub r11, r11, r6\n"
    "	lw r12, r20, 24\n"
    "	sub r12, r6, r12\n"
    "	sub r12, r12, 9, false\n"
    "	lsl_add r12, r12, r6, 3\n"
    "	sw r20, 28, r12\n"
    "	xor r21, r21, r12\n"
    "	add r19, r11, r12\n"
    "	addc r3, r19, r6\n"
    "	sw r20, 24, r3\n"
    "	xor r21, r21, r3\n"
    "	subc r3, r21, r19\n"
    "	lw r19, r20, 28\n"
    "	xor r21, r21, r3\n"
    /* a jump through a register into a window (the add's, never run): the tasklet goes on
     * in the records' first copy with the and's flags (zero set), which fn_heal keeps */
    "	move r19, .Lwin\n"
    "	and r3, r19, 0\n"
    "	jump r19\n"
    "	add r11, r11, r6\n"
    ".Lwin:\n"
    "	sw r20, 24, r11\n"
    "	sw r20, 28, r11\n"
    "	xor r21, r21, r11\n"
    /* r13 = r1 + (r6 << 2) */
    "	lsl_add r13, r1, r6, 2\n"
    "	sw r20, 0, r13\n"
    "	sw r20, 4, -7\n"
    "	sh r20, 8, r6\n"
    "	sh r20, 12, 0x4321\n"
    "	sb r20, 10, r5\n"
    "	sb r20, 14, -3\n"
    "	sd r20, 16, d12\n"
    "	lw r14, r20, 0\n"
    "	add r1, r1, r14\n"
    "	lw r14, r20, 4\n"
    "	add r1, r1, r14\n"
    "	lhu r15, r20, 8\n"
    "	add r1, r1, r15\n"
    "	lhs r16, r20, 8\n"
    "	xor r1, r1, r16\n"
    "	lbu r17, r20, 10\n"
    "	add r1, r1, r17\n"
    "	lbs r18, r20, 14\n"
    "	add r1, r1, r18\n"
    "	ld d14, r20, 16\n"
    "	xor r14, r14, r15\n"
    "	xor r21, r21, r14\n"
    /* compare and branch, register and immediate forms: each taken or not by r0 */
    "	jeq r0, 5, .La\n"
    "	add r1, r1, 1\n"
    ".La:\n"
    "	jneq r7, r2, .Lb\n"
    "	add r1, r1, 2\n"
    ".Lb:\n"
    "	jltu r7, 3, .Lc\n"
    "	add r1, r1, 4\n"
    ".Lc:\n"
    "	jgeu r7, r2, .Ld\n"
    "	add r1, r1, 8\n"
    ".Ld:\n"
    "	jleu r0, 30, .Le\n"
    "	add r1, r1, 16\n"
    ".Le:\n"
    "	jgtu r0, r7, .Lf\n"
    "	add r1, r1, 32\n"
    ".Lf:\n"
    "	add r19, r7, -4\n"
    "	jlts r19, 0, .Lg\n"
    "	add r1, r1, 64\n"
    ".Lg:\n"
    "	jges r19, r2, .Lh\n"
    "	add r1, r1, 128\n"
    ".Lh:\n"
    "	jles r19, -2, .Li\n"
    "	add r1, r1, 256\n"
    ".Li:\n"
    "	jgts r19, r7, .Lj\n"
    "	add r1, r1, 512\n"
    ".Lj:\n"
    /* add/sub with a z/nz branch */
    "	sub r19, r7, 2, z, .Lk\n"
    "	add r1, r1, 1024\n"
    ".Lk:\n"
    "	add r19, r7, -6, nz, .Ll\n"
    "	add r1, r1, 2048\n"
    ".Ll:\n"
    "	sub r19, r7, r2, nz, .Lm\n"
    "	add r1, r1, 4096\n"
    ".Lm:\n"
    "	add r19, r7, r2, z, .Ln\n"
    "	add r1, r1, 8192\n"
    ".Ln:\n"
    /* a call and the jump back through r23 */
    "	call r23, .Lsub\n"
    /* a mutex (acquire's nz: taken, spin) around a shared counter */
    ".Lacq:\n"
    "	acquire zero, 20, nz, .Lacq\n"
    "	lw r19, zero, shared\n"
    "	add r19, r19, 1\n"
    "	sw zero, shared, r19\n"
    "	release zero, 20, nz, .Lrel\n"
    ".Lrel:\n"
    /* the events */
    "	jneq r2, 5, .Lnonop\n"
    "	jneq r0, 17, .Lnonop\n"
    "	nop\n"
    ".Lnonop:\n"
    "	jneq r2, 9, .Lnodma\n"
    "	and r19, r0, 15, nz, .Lnodma\n"
    "	ldma r20, r22, 0\n"
    ".Lnodma:\n"
    "	jneq r2, 7, .Lnofault\n"
    "	lw r19, zero, faultit\n"
    "	jneq r0, r19, .Lnofault\n"
    "	lw r19, r20, 2\n"
    ".Lnofault:\n"
    "	add r0, r0, -1, nz, .Lloop\n"
    "	sw id4, out, r1\n"
    "	sw id4, out2, r21\n"
    "	stop\n"
    ".Lsub:\n"
    "	xor r1, r1, r2\n"
    "	jump r23\n"
    "	.section .bss.buf,\"aw\",@nobits\n"
    "	.p2align 3\n"
    "buf:\n"
    "	.zero 1536\n"
    "	.section .dpu_host,\"aw\",@progbits\n"
    "	.p2align 3\n"
    "	.globl iters\n"
    "iters:\n"
    "	.long 60\n"
    "	.globl faultit\n"
    "faultit:\n"
    "	.long 0\n"
    "	.globl shared\n"
    "shared:\n"
    "	.long 0\n"
    "	.globl out\n"
    "out:\n"
    "	.zero 96\n"
    "	.globl out2\n"
    "out2:\n"
    "	.zero 96\n";

/* r1 of tasklet id after n iterations (r0 = n .. 1), as the loop above computes it. */
static uint32_t model(uint32_t id, uint32_t n)
{
    uint32_t r1 = 0;
    for (uint32_t r0 = n; r0 >= 1; r0--) {
        r1 += r0 + 7;
        const uint32_t r3 = r1 - r0 - 3;
        const uint32_t r4 = r3 & r1 & 0xff0f;
        const uint32_t r5 = r4 | r0 | 0x100;
        const uint32_t r6 = (r5 ^ r1) ^ 0x55;
        const uint32_t r7 = r0 & 7;
        const uint32_t r8 = (r6 << r7) << 3, r9 = (r6 >> r7) >> 1;
        const uint32_t r10 = (uint32_t)(((int32_t)r6 >> r7) >> 2);
        r1 = ((r1 + r8) ^ r9) + r10;
        const uint32_t r13 = r1 + (r6 << 2);
        r1 += r13;                                  /* lw of the sw */
        r1 += (uint32_t)-7;                         /* sw of an immediate */
        r1 += r6 & 0xffff;                          /* lhu of the sh */
        r1 ^= (uint32_t)(int32_t)(int16_t)(r6 & 0xffff); /* lhs */
        r1 += r5 & 0xff;                            /* lbu of the sb */
        r1 += (uint32_t)-3;                         /* lbs of sb -3 */
        r1 += r0 != 5 ? 1 : 0;
        r1 += r7 == id ? 2 : 0;
        r1 += r7 >= 3 ? 4 : 0;
        r1 += r7 < id ? 8 : 0;
        r1 += r0 > 30 ? 16 : 0;
        r1 += r0 <= r7 ? 32 : 0;
        const int32_t r19 = (int32_t)r7 - 4;
        r1 += r19 >= 0 ? 64 : 0;
        r1 += r19 < (int32_t)id ? 128 : 0;
        r1 += r19 > -2 ? 256 : 0;
        r1 += r19 <= (int32_t)r7 ? 512 : 0;
        r1 += r7 != 2 ? 1024 : 0;
        r1 += r7 == 6 ? 2048 : 0;
        r1 += r7 == id ? 4096 : 0;
        r1 += r7 + id != 0 ? 8192 : 0;
        r1 ^= id;                                   /* the call */
    }
    return r1;
}

static void build(dh_run *r, int tasklets, uint32_t faultit)
{
    char tk[32];
    snprintf(tk, sizeof tk, "tasklets=%d", tasklets);
    const char *opts[] = {tk, "mram=1", NULL};
    assert_int_equal(dh_build(r, replay_src, 0, NULL, opts), 0);
    assert_int_equal(dh_set(r, 0, "faultit", 0, &faultit, 4), 0);
}

/* Everything observable of both runs (a run in pieces leaves the machine's clock at the
 * last piece's limit: compared only when whole; MRAM, which only tasklet 9's reads touch,
 * at the end). */
static void same(dh_run *a, dh_run *b, int whole, int end)
{
    dh_same_state(a, b, whole, end);
}

/* How a run in pieces is interrupted after piece `at`: nothing, a breakpoint at the pc
 * tasklet 4 is at, or a watchpoint on tasklet 4's word of buf (its loop's first store). */
enum { BREAK_NONE, BREAK_BP, BREAK_WATCH };

/* Both loops (a fast, b reference) in pieces of step cycles (0: whole), the whole state
 * compared after each; after piece `at` a breakpoint or watchpoint is set on both; each
 * stop on it is compared and the run goes on (the breakpoint deleted after its first stop).
 * Returns the final stop. */
static sim_stop_kind run_cut(dh_run *a, dh_run *b, int tasklets, uint32_t faultit, uint64_t step, int brk,
                             int at)
{
    build(a, tasklets, faultit);
    build(b, tasklets, faultit);
    assert_int_equal(dbg_attach(&b->m), 0);
    b->m.dbg->history_on = 1;
    dbg_update_slow(&b->m);
    assert_true(dbg_hooks(&b->m));
    assert_false(a->m.slow);
    sim_stop_kind k, kb;
    uint64_t lim = 0;
    int piece = 0, hits = 0;
    for (;;) {
        lim = step ? lim + step : SIM_NEVER;
        k = sim_run(&a->m, lim);
        kb = sim_run(&b->m, lim);
        assert_int_equal(k, kb);
        same(a, b, 0, 0);
        if (k == SIM_STOP_BREAK || k == SIM_STOP_WATCH) {
            hits++;
            if (k == SIM_STOP_BREAK) {
                assert_int_equal(dbg_break_delete(&a->m, -1), 0);
                assert_int_equal(dbg_break_delete(&b->m, -1), 0);
                dbg_update_slow(&a->m);
                dbg_update_slow(&b->m);
            }
            lim -= step; /* (the same limit again) */
            continue;
        }
        if (k != SIM_STOP_LIMIT)
            break;
        if (++piece == at && brk != BREAK_NONE) {
            const dpu_unit *d = a->m.units[0].isa;
            for (int i = 0; i < 2; i++) {
                dh_run *r = i ? b : a;
                if (brk == BREAK_BP) {
                    assert_true(dbg_break_add(&r->m, d->t[4].pc, 0, 0, "replay") >= 0);
                } else {
                    mem_space *sp;
                    uint64_t addr;
                    assert_int_equal(dh_sym(r, 0, "buf", &sp, &addr), 0);
                    assert_true(dbg_watch_add(&r->m, sp, addr + 4 * 64, 4, MEM_W, -1, -1, NULL) >= 0);
                }
                dbg_update_slow(&r->m);
            }
            assert_true(a->m.slow);
        }
    }
    same(a, b, step == 0 && brk == BREAK_NONE, 1);
    if (brk != BREAK_NONE)
        assert_true(hits > 0); /* (the watchpoint stops at each of tasklet 4's stores) */
    return k;
}

/* The results: tasklet id's accumulator as the model computes it, tasklet 2 twenty
 * iterations fewer; the shared counter one per iteration of every tasklet. */
static void check_results(dh_run *a, int tasklets)
{
    uint32_t total = 0;
    for (int id = 0; id < tasklets; id++) {
        const uint32_t n = id == 2 ? 40 : 60;
        assert_int_equal(dh_get32(a, 0, "out", 4 * (uint64_t)id), model((uint32_t)id, n));
        total += n;
    }
    assert_int_equal(dh_get32(a, 0, "shared", 0), total);
}

/* Whole runs and runs cut every 37, 100 and 1,000 cycles (replays ended by the limit in
 * every phase of a round), at 11, 12, 16 and 24 tasklets (and 10: no replay, as a check
 * of the program itself). */
static void test_limits(void **state)
{
    (void)state;
    static const int nts[] = {10, 11, 12, 16, 24, 16, 11, 16, 24, 16};
    static const int steps[] = {0, 0, 0, 0, 0, 37, 100, 100, 100, 1000};
    for (unsigned i = 0; i < sizeof nts / sizeof nts[0]; i++) {
        static dh_run a, b;
        assert_int_equal(run_cut(&a, &b, nts[i], 0, (uint64_t)steps[i], BREAK_NONE, 0), SIM_STOP_HALT);
        check_results(&a, nts[i]);
        dh_free(&a);
        dh_free(&b);
    }
}

/* Tasklet 7's misaligned load at r0 = 33 (in the middle of the others' rounds): the same
 * fault, cycle, message and state in both loops, whole and cut every 100 cycles. */
static void test_fault(void **state)
{
    (void)state;
    for (int i = 0; i < 2; i++) {
        static dh_run a, b;
        assert_int_equal(run_cut(&a, &b, 16, 33, i ? 100 : 0, BREAK_NONE, 0), SIM_STOP_FAULT);
        assert_int_equal(a.m.stop.thread, 7);
        dh_free(&a);
        dh_free(&b);
    }
}

/* A breakpoint (at the pc tasklet 4 is at) or a watchpoint (on tasklet 4's first store)
 * set after 20 pieces of 100 cycles, while replays run: both loops stop at the same
 * instruction, from the state the replay left, and go on alike. */
static void test_break_in(void **state)
{
    (void)state;
    for (int brk = BREAK_BP; brk <= BREAK_WATCH; brk++) {
        static dh_run a, b;
        assert_int_equal(run_cut(&a, &b, 16, 0, 100, brk, 20), SIM_STOP_HALT);
        check_results(&a, 16);
        dh_free(&a);
        dh_free(&b);
    }
}

XPUSIM_TESTS(dpu_fastpath_round,
             cmocka_unit_test(test_limits),
             cmocka_unit_test(test_fault),
             cmocka_unit_test(test_break_in));
