/* tests/dpu/test_fastpath_sdk.c: the fast loop (isa/dpu/fast.c) on what SDK-compiled code
 * runs, against the reference loop (exec.c, selected by turning the debugger's history
 * on, as in test_fastpath.c). Two programs: forms_src, every form the fast loop took over
 * from the generic executor for compiled code (mul_step with z and nz, div_step, clz/clo
 * with conditions, movd, and/or/xor with a jump condition, a .s/.u pair or a zero
 * destination, call with a return register), with results that depend on each of them;
 * and programs/dpu/bench/sdk_shape.s on our runtime (pointer chasing through MRAM by
 * 8-byte DMA, calls, a mutex, barriers that stop and resume tasklets), whose scheduling
 * takes the burst's live-tasklet picks (tasklets stopped, waiting for DMA, or fewer than
 * 11 running). Both runs must agree on the stop, the cycle, every thread's statistics and
 * state, every tasklet's registers, flags and pc, RUN and atomic bits, WRAM and MRAM; the
 * results are also checked against values computed here in C, so a wrong form that both
 * loops shared would fail too. A third, dense_src, runs a full revolver out of ring order
 * (the dense burst's recorded period and its replay). */
#include <string.h>
#include "../testlib.h"
#include "dpu_harness.h"
#include "dpu_same.h"
#include "../../core/debug.h"

static const char forms_src[] =
    "	.section .text.__bootstrap,\"ax\",@progbits\n"
    "__bootstrap:\n"
    "	jeq id, NR_TASKLETS-1, .Lgo\n"
    "	boot id, 1\n"
    ".Lgo:\n"
    "	lw r0, zero, iters\n"
    "	move r1, 0x1234567\n"
    "	add r1, id, r1\n"
    "	move r21, 0\n"
    ".Lloop:\n"
    /* r3 = r1 x r0 (low bits of r0 up to bit 7) by mul_step, leaving on z */
    "	move r2, r0\n"
    "	move r3, 0\n"
    "	mul_step d2, r1, d2, 0, z, .Lm1\n"
    "	mul_step d2, r1, d2, 1, z, .Lm1\n"
    "	mul_step d2, r1, d2, 2, z, .Lm1\n"
    "	mul_step d2, r1, d2, 3, z, .Lm1\n"
    "	mul_step d2, r1, d2, 4, z, .Lm1\n"
    "	mul_step d2, r1, d2, 5, z, .Lm1\n"
    "	mul_step d2, r1, d2, 6, z, .Lm1\n"
    "	mul_step d2, r1, d2, 7, z, .Lm1\n"
    ".Lm1:\n"
    "	add r21, r21, r3\n"
    /* into another pair, with nz: jumps while a multiplier bit is left */
    "	move r4, r0\n"
    "	move r5, 5\n"
    "	mul_step d4, r1, d4, 3, nz, .Lm2\n"
    "	add r21, r21, 1\n"
    ".Lm2:\n"
    "	add r21, r21, r5\n"
    /* from another pair: d2's multiplier is used up (r2 = 0), so r5 is kept and z jumps */
    "	mul_step d4, r1, d2, 2, z, .Lm3\n"
    "	add r21, r21, 9\n"
    ".Lm3:\n"
    "	add r21, r21, r5\n"
    "	xor r21, r21, r4\n"
    /* four division steps of r7 by r8 << k */
    "	move r6, 0\n"
    "	move r7, r1\n"
    "	add r8, r0, 3\n"
    "	div_step d6, r8, d6, 3\n"
    "	div_step d6, r8, d6, 2\n"
    "	div_step d6, r8, d6, 1\n"
    "	div_step d6, r8, d6, 0\n"
    "	xor r21, r21, r6\n"
    "	add r21, r21, r7\n"
    /* clz/clo: max (32) jumps for a zero operand, every 4th iteration */
    "	and r9, r0, 3\n"
    "	lsl r9, r1, r9\n"
    "	and r10, r0, 3, z, .Lz0\n"
    "	jump .Lz1\n"
    ".Lz0:\n"
    "	move r9, 0\n"
    ".Lz1:\n"
    "	clz r10, r9, max, .Lc1\n"
    "	add r21, r21, r10\n"
    ".Lc1:\n"
    "	clz r10, r9\n"
    "	add r21, r21, r10\n"
    "	clo r11, r21, z, .Lc2\n"
    "	add r21, r21, r11\n"
    ".Lc2:\n"
    "	clo r11, r1\n"
    "	add r21, r21, r11\n"
    /* movd */
    "	movd d12, d6\n"
    "	add r21, r21, r12\n"
    "	xor r21, r21, r13\n"
    /* and/or/xor with conditions and pair/zero destinations */
    "	or r14, r0, 0, true, .Lo1\n"
    "	add r21, r21, 7\n"
    ".Lo1:\n"
    "	add r21, r21, r14\n"
    "	and r15, r21, 0x70, z, .Lo2\n"
    "	add r21, r21, 3\n"
    ".Lo2:\n"
    "	xor r16, r1, r21, mi, .Lo3\n"
    "	add r21, r21, 1\n"
    ".Lo3:\n"
    "	or r16, r16, r21, nz, .Lo4\n"
    "	add r21, r21, 1\n"
    ".Lo4:\n"
    "	add r21, r21, r16\n"
    "	and.s d16, r21, 0x8000ff00\n"
    "	add r21, r21, r16\n"
    "	xor r21, r21, r17\n"
    "	or.u d18, r21, 3\n"
    "	add r21, r21, r18\n"
    "	add r21, r21, r19\n"
    "	xor.s d18, r1, r21\n"
    "	xor r21, r21, r18\n"
    "	and zero, r21, 1, z, .Lo5\n"
    "	add r21, r21, 2\n"
    ".Lo5:\n"
    /* edge cases: clo of all ones is 32; a division step whose operands are equal
     * subtracts (quotient bit 1, remainder 0) */
    "	move r12, -1\n"
    "	clo r12, r12\n"
    "	add r21, r21, r12\n"
    "	move r6, 0\n"
    "	move r7, 24\n"
    "	move r8, 3\n"
    "	div_step d6, r8, d6, 3\n"
    "	add r21, r21, r6\n"
    "	xor r21, r21, r7\n"
    "	call r23, .Lf\n"
    "	add r0, r0, -1, nz, .Lloop\n"
    "	sw id4, out, r21\n"
    "	stop\n"
    ".Lf:\n"
    "	lsl r22, r1, 1\n"
    "	xor r1, r22, r21\n"
    "	jump r23\n"
    "	.section .dpu_host,\"aw\",@progbits\n"
    "	.p2align 3\n"
    "	.globl iters\n"
    "iters:\n"
    "	.long 40\n"
    "	.globl out\n"
    "out:\n"
    "	.zero 96\n";

/* dma_src: every tasklet, iters rounds: an ldma of its 16-byte MRAM block (at 256 x id),
 * the first word added to r10, then an inner loop of (id & 3) + 1 adds (tasklets coming
 * back from their transfers at other times and running for other lengths, so the issue
 * order is not the ring's: the sparse bursts of fast.c, with landings inside them and the
 * hand-back to the plain burst), the word plus id + 1 stored and written back by sdma.
 * Tasklet 2 takes its MRAM address from badaddr in its fourth round (r0 = iters - 3): an
 * address past the end of MRAM faults there, through the generic executor. */
static const char dma_src[] =
    "	.section .text.__bootstrap,\"ax\",@progbits\n"
    "__bootstrap:\n"
    "	jeq id, NR_TASKLETS-1, .Lgo\n"
    "	boot id, 1\n"
    ".Lgo:\n"
    "	lw r0, zero, iters\n"
    "	lsl r2, id, 4\n"
    "	add r2, r2, buf\n"
    "	lsl r3, id, 8\n"
    "	move r4, id\n"
    "	and r4, r4, 3\n"
    "	add r4, r4, 1\n"
    "	move r10, 0\n"
    "	move r7, id\n"
    "	lw r9, zero, iters\n"
    "	add r9, r9, -3\n"
    ".Lloop:\n"
    "	jneq id, 2, .Lok\n"
    "	jneq r0, r9, .Lok\n"
    "	lw r3, zero, badaddr\n"
    ".Lok:\n"
    "	ldma r2, r3, 1\n"
    "	lw r5, r2, 0\n"
    "	add r10, r10, r5\n"
    "	move r6, r4\n"
    ".Lin:\n"
    "	add r10, r10, r6\n"
    "	add r6, r6, -1, nz, .Lin\n"
    "	add r5, r5, r7\n"
    "	add r5, r5, 1\n"
    "	sw r2, 0, r5\n"
    "	sdma r2, r3, 1\n"
    "	add r0, r0, -1, nz, .Lloop\n"
    "	sw id4, out, r10\n"
    "	stop\n"
    "	.section .bss.buf,\"aw\",@nobits\n"
    "	.p2align 3\n"
    "buf:\n"
    "	.zero 384\n"
    "	.section .dpu_host,\"aw\",@progbits\n"
    "	.p2align 3\n"
    "	.globl iters\n"
    "iters:\n"
    "	.long 12\n"
    "	.globl badaddr\n"
    "badaddr:\n"
    "	.long 512\n"
    "	.globl out\n"
    "out:\n"
    "	.zero 96\n";

/* forms_src in C: the value tasklet id leaves in out[id] */
/* A full revolver out of ring order (fast.c's dense burst): tasklets 0-2 stop at once; each
 * other one, for `rounds` phases, loads (1 + 3 id) x 8 bytes from MRAM (transfers of
 * different lengths, queued on the one engine, so the tasklets come back at their own
 * times and the revolver's order after them is not the ring's), then counts K = iters + id
 * down, summing the counter: out[id] = rounds x K(K + 1) / 2. With 13 or more running,
 * the long count-downs are where the dense burst records the period and replays it; the
 * next phase's ldma (a live tasklet leaving) and its landing end each replay. */
static const char dense_src[] =
    "	.section .text.__bootstrap,\"ax\",@progbits\n"
    "__bootstrap:\n"
    "	jeq id, NR_TASKLETS-1, .Lgo\n"
    "	boot id, 1\n"
    ".Lgo:\n"
    "	jgeu id, 3, .Lrun\n"
    "	stop\n"
    ".Lrun:\n"
    "	lw r0, zero, rounds\n"
    "	move r10, 0\n"
    "	lsl r2, id, 10\n"
    "	add r2, r2, buf\n"
    "	lsl r3, id, 10\n"
    "	move r8, id\n"
    "	lsl r9, r8, 1\n"
    "	add r8, r8, r9\n"
    "	lsl r8, r8, 24\n"
    "	or r2, r2, r8\n"
    ".Lphase:\n"
    "	ldma r2, r3, 0\n"
    "	lw r4, zero, iters\n"
    "	move r7, id\n"
    "	add r4, r4, r7\n"
    "	move r6, r4\n"
    ".Lin:\n"
    "	add r10, r10, r6\n"
    "	add r6, r6, -1, nz, .Lin\n"
    "	add r0, r0, -1, nz, .Lphase\n"
    "	sw id4, out, r10\n"
    "	stop\n"
    "	.section .bss.buf,\"aw\",@nobits\n"
    "	.p2align 3\n"
    "buf:\n"
    "	.zero 24576\n"
    "	.section .dpu_host,\"aw\",@progbits\n"
    "	.p2align 3\n"
    "	.globl iters\n"
    "iters:\n"
    "	.long 300\n"
    "	.globl rounds\n"
    "rounds:\n"
    "	.long 3\n"
    "	.globl out\n"
    "out:\n"
    "	.zero 96\n";

/* stop and resume inline in the bursts (fast.c ctl_inline): tasklet 0 counts 40 down each
 * round, then resumes tasklets 1.. in turn, retrying while one has not stopped yet (resume's
 * result 1: nz jumps back), and resumes tasklet 30 (not a tasklet: result 1, so z does not
 * jump and nz does). The others count 4 (id & 7) + 3 down (coming back at other times: the
 * sparse, plain and dense bursts' picks) and stop: in odd rounds (r0 odd) by `stop true`,
 * which jumps past an add of 1000; in even ones by `stop false` (odd ids) or a plain `stop`,
 * which go on to an add of 1. Each ends on a plain stop: the last one halts the DPU through
 * the generic executor. */
static const char ctl_src[] =
    "	.section .text.__bootstrap,\"ax\",@progbits\n"
    "__bootstrap:\n"
    "	jeq id, NR_TASKLETS-1, .Lgo\n"
    "	boot id, 1\n"
    ".Lgo:\n"
    "	lw r0, zero, rounds\n"
    "	move r10, 0\n"
    "	jneq id, 0, .Lwround\n"
    ".Lmround:\n"
    "	move r6, 40\n"
    ".Lmcount:\n"
    "	add r10, r10, r6\n"
    "	add r6, r6, -1, nz, .Lmcount\n"
    "	move r1, 1\n"
    ".Lmnext:\n"
    "	jgeu r1, NR_TASKLETS, .Lmdone\n"
    ".Lmres:\n"
    "	resume r1, 0, nz, .Lmres\n"
    "	add r1, r1, 1\n"
    "	jump .Lmnext\n"
    ".Lmdone:\n"
    "	move r2, 30\n"
    "	resume r2, 0, z, .Lmbad\n"
    "	resume r2, 0, nz, .Lmok\n"
    ".Lmbad:\n"
    "	add r10, r10, 1000\n"
    ".Lmok:\n"
    "	add r0, r0, -1, nz, .Lmround\n"
    "	sw id4, out, r10\n"
    "	stop\n"
    ".Lwround:\n"
    "	move r6, id\n"
    "	and r6, r6, 7\n"
    "	lsl r6, r6, 2\n"
    "	add r6, r6, 3\n"
    ".Lwcount:\n"
    "	add r10, r10, r6\n"
    "	add r6, r6, -1, nz, .Lwcount\n"
    "	and r7, r0, 1, z, .Lweven\n"
    "	stop true, .Lwnext\n"
    "	add r10, r10, 1000\n"
    "	jump .Lwnext\n"
    ".Lweven:\n"
    "	and r7, id, 1, z, .Lwplain\n"
    "	stop false, .Lwnext\n"
    "	add r10, r10, 1\n"
    "	jump .Lwnext\n"
    ".Lwplain:\n"
    "	stop\n"
    "	add r10, r10, 1\n"
    ".Lwnext:\n"
    "	add r0, r0, -1, nz, .Lwround\n"
    "	sw id4, out, r10\n"
    "	stop\n"
    "	.section .dpu_host,\"aw\",@progbits\n"
    "	.p2align 3\n"
    "	.globl rounds\n"
    "rounds:\n"
    "	.long 20\n"
    "	.globl out\n"
    "out:\n"
    "	.zero 96\n";

/* Round bursts (fast.c round_ok): every tasklet runs an ALU loop of iters iterations, so
 * with 11 or more the ring is full and in order; tasklet 3 starts an 8-byte ldma every 16th
 * iteration (the round burst hands over to the plain one, and with exactly 11 tasklets the
 * next in order after it waits one cycle: its ready cycle derived at the round's end), and
 * tasklet 7 runs a nop every 8th (the generic executor: the burst ends, the next one
 * starts as a round again). r10 = sum of (r0 + 1) for r0 = iters..1. */
static const char round_src[] =
    "	.section .text.__bootstrap,\"ax\",@progbits\n"
    "__bootstrap:\n"
    "	jeq id, NR_TASKLETS-1, .Lgo\n"
    "	boot id, 1\n"
    ".Lgo:\n"
    "	lw r0, zero, iters\n"
    "	move r10, 0\n"
    "	lsl r2, id, 3\n"
    "	add r2, r2, buf\n"
    "	lsl r3, id, 3\n"
    ".Lloop:\n"
    "	add r10, r10, r0\n"
    "	xor r11, r10, r0\n"
    "	add r10, r10, 1\n"
    "	and r5, r0, 15, nz, .Lnodma\n"
    "	jneq id, 3, .Lnodma\n"
    "	ldma r2, r3, 0\n"
    ".Lnodma:\n"
    "	and r5, r0, 7, nz, .Lnonop\n"
    "	jneq id, 7, .Lnonop\n"
    "	nop\n"
    ".Lnonop:\n"
    "	add r0, r0, -1, nz, .Lloop\n"
    "	sw id4, out, r10\n"
    "	stop\n"
    "	.section .bss.buf,\"aw\",@nobits\n"
    "	.p2align 3\n"
    "buf:\n"
    "	.zero 192\n"
    "	.section .dpu_host,\"aw\",@progbits\n"
    "	.p2align 3\n"
    "	.globl iters\n"
    "iters:\n"
    "	.long 200\n"
    "	.globl out\n"
    "out:\n"
    "	.zero 96\n";

/* The threaded sparse burst's steady queue (fast.c st, fast_sched.c sparse_steady) and the
 * events it must not run across: tasklet 0 resumes each other one in turn (retrying until
 * it has stopped), so a resumed tasklet is often ready in the same cycle as the one resumed
 * 33 cycles before it (a tie in a queue that was steady), then counts 25 down and reads 8
 * bytes from MRAM; tasklet id > 0 counts n = 4 id + 5 down, reads 8 bytes and stops, so
 * the last one to start its transfer leaves no candidate in a steady queue, and landings
 * come in the middle of steady runs. Sums: tasklet 0 rounds x 25 x 26 / 2, tasklet id
 * rounds x n(n + 1) / 2. */
static const char steady_src[] =
    "	.section .text.__bootstrap,\"ax\",@progbits\n"
    "__bootstrap:\n"
    "	jeq id, NR_TASKLETS-1, .Lgo\n"
    "	boot id, 1\n"
    ".Lgo:\n"
    "	move r10, 0\n"
    "	lsl r2, id, 3\n"
    "	add r2, r2, buf\n"
    "	lsl r3, id, 3\n"
    "	jneq id, 0, .Lw\n"
    "	lw r0, zero, rounds\n"
    ".Lm:\n"
    "	move r1, 1\n"
    ".Lmnext:\n"
    "	jgeu r1, NR_TASKLETS, .Lmcount\n"
    ".Lmres:\n"
    "	resume r1, 0, nz, .Lmres\n"
    "	add r1, r1, 1\n"
    "	jump .Lmnext\n"
    ".Lmcount:\n"
    "	move r6, 25\n"
    ".Lmc:\n"
    "	add r10, r10, r6\n"
    "	add r6, r6, -1, nz, .Lmc\n"
    "	ldma r2, r3, 0\n"
    "	add r0, r0, -1, nz, .Lm\n"
    "	sw id4, out, r10\n"
    "	stop\n"
    ".Lw:\n"
    "	stop\n"
    "	lsl r6, id, 2\n"
    "	add r6, r6, 5\n"
    ".Lwc:\n"
    "	add r10, r10, r6\n"
    "	add r6, r6, -1, nz, .Lwc\n"
    "	ldma r2, r3, 0\n"
    "	sw id4, out, r10\n"
    "	jump .Lw\n"
    "	.section .bss.buf,\"aw\",@nobits\n"
    "	.p2align 3\n"
    "buf:\n"
    "	.zero 192\n"
    "	.section .dpu_host,\"aw\",@progbits\n"
    "	.p2align 3\n"
    "	.globl rounds\n"
    "rounds:\n"
    "	.long 30\n"
    "	.globl out\n"
    "out:\n"
    "	.zero 96\n";

static uint32_t forms_expect(uint32_t id, uint32_t iters)
{
    uint32_t r1 = 0x1234567u + id, r21 = 0;
    for (uint32_t r0 = iters; r0; r0--) {
        /* mul_step d2: bits 0..7 of r0, leaving when none is left (r0 <= 40 here) */
        r21 += r1 * r0;
        /* mul_step d4, k = 3: bit 0 of r0 adds r1 << 3 to r5 = 5; nz jumps if r0 >> 1 != 0 */
        uint32_t r5 = (r0 & 1) ? 5 + (r1 << 3) : 5;
        if (!(r0 >> 1))
            r21 += 1;
        r21 += r5;
        r21 += r5; /* mul_step d4, r1, d2: r4 = 0, r5 kept */
        /* div_step k = 3..0 on d6 = {0, r1}: quotient bits of r1 / (r8 << k) */
        uint32_t q = 0, rem = r1, r8 = r0 + 3;
        for (int k = 3; k >= 0; k--) {
            uint32_t sh = r8 << k;
            q = q << 1 | (rem >= sh);
            if (rem >= sh)
                rem -= sh;
        }
        r21 ^= q;
        r21 += rem;
        uint32_t r9 = (r0 & 3) ? r1 << (r0 & 3) : 0;
        uint32_t clz = r9 ? (uint32_t)__builtin_clz(r9) : 32;
        if (clz != 32)
            r21 += clz;
        r21 += clz;
        uint32_t clo = ~r21 ? (uint32_t)__builtin_clz(~r21) : 32;
        if (clo != 0)
            r21 += clo;
        r21 += ~r1 ? (uint32_t)__builtin_clz(~r1) : 32;
        r21 += q; /* movd d12, d6: r12 = q, r13 = rem */
        r21 ^= rem;
        r21 += r0; /* or r14, r0, 0, true: always jumps */
        if (r21 & 0x70)
            r21 += 3;
        uint32_t r16 = r1 ^ r21;
        if (!(r16 >> 31))
            r21 += 1;
        r16 |= r21;
        if (!r16)
            r21 += 1;
        r21 += r16;
        /* and.s d16: r17 = the result, r16 its sign */
        uint32_t lo = r21 & 0x8000ff00u, hi = (uint32_t)((int32_t)lo >> 31);
        r21 += hi;
        r21 ^= lo;
        /* or.u d18: r18 = 0, r19 = the result */
        r21 += r21 | 3;
        uint32_t x = r1 ^ r21;
        r21 ^= (uint32_t)((int32_t)x >> 31);
        if (r21 & 1)
            r21 += 2;
        r21 += 32 + 1; /* clo(~0) = 32; 24 / (3 << 3): quotient 1, remainder 0 */
        r1 = (r1 << 1) ^ r21;
    }
    return r21;
}

/* sdk: 0 forms_src, -1 dma_src (badaddr as it is), -2 dma_src with badaddr past MRAM's
 * end, -3 dense_src, -4 ctl_src, -5 round_src, -6 steady_src, else sdk_shape.s with
 * bench_work = sdk */
static void build(dh_run *r, int sdk, int tasklets)
{
    char tk[32];
    snprintf(tk, sizeof tk, "tasklets=%d", tasklets);
    const char *opts[] = {tk, "mram=1", NULL};
    if (sdk > 0) {
        char path[512];
        snprintf(path, sizeof path, "%s/programs/dpu/bench/sdk_shape.s", test_root());
        const char *extra[] = {path, NULL};
        assert_int_equal(dh_build(r, "", 1, extra, opts), 0);
        uint32_t iters = 6, work = (uint32_t)sdk;
        assert_int_equal(dh_set(r, 0, "bench_iters", 0, &iters, 4), 0);
        assert_int_equal(dh_set(r, 0, "bench_work", 0, &work, 4), 0);
    } else if (sdk == -3)
        assert_int_equal(dh_build(r, dense_src, 0, NULL, opts), 0);
    else if (sdk == -4)
        assert_int_equal(dh_build(r, ctl_src, 0, NULL, opts), 0);
    else if (sdk == -5)
        assert_int_equal(dh_build(r, round_src, 0, NULL, opts), 0);
    else if (sdk == -6)
        assert_int_equal(dh_build(r, steady_src, 0, NULL, opts), 0);
    else if (sdk < 0) {
        assert_int_equal(dh_build(r, dma_src, 0, NULL, opts), 0);
        if (sdk == -2) {
            const uint32_t bad = ((dpu_unit *)r->m.units[0].isa)->dm->mram_size - 8;
            assert_int_equal(dh_set(r, 0, "badaddr", 0, &bad, 4), 0);
        }
    } else
        assert_int_equal(dh_build(r, forms_src, 0, NULL, opts), 0);
}

/* Everything the two loops must agree on (but the machine's clock after a run in pieces,
 * which the core leaves at the last piece's limit). */
static void same_cut(dh_run *a, dh_run *b, int cut)
{
    dh_same_state(a, b, !cut, 1);
}

static void same(dh_run *a, dh_run *b)
{
    same_cut(a, b, 0);
}

/* Runs the program on both loops; checks their agreement; returns the fast run (freed by
 * the caller) for the result checks. */
static void run_both_stop(dh_run *a, int sdk, int tasklets, sim_stop_kind kind)
{
    static dh_run b;
    build(a, sdk, tasklets);
    build(&b, sdk, tasklets);
    assert_int_equal(dbg_attach(&b.m), 0);
    b.m.dbg->history_on = 1;
    dbg_update_slow(&b.m);
    assert_true(dbg_hooks(&b.m));
    assert_false(a->m.slow);
    assert_int_equal(dh_run_all(a), kind);
    assert_int_equal(dh_run_all(&b), kind);
    same(a, &b);
    dh_free(&b);
}

static void run_both(dh_run *a, int sdk, int tasklets)
{
    run_both_stop(a, sdk, tasklets, SIM_STOP_HALT);
}

/* Both loops in pieces of `step` cycles (each limit ends a burst: whatever the fast loop
 * keeps only inside a burst, such as the sparse burst's copy of the ready cycles or what a
 * round burst derives at its end, must be in the tasklets' state then): after every piece
 * each tasklet's ready cycle, last issue, pc and count agree; at the end, everything. */
static void run_pieces(dh_run *a, int sdk, int tasklets, uint64_t step)
{
    static dh_run b;
    build(a, sdk, tasklets);
    build(&b, sdk, tasklets);
    assert_int_equal(dbg_attach(&b.m), 0);
    b.m.dbg->history_on = 1;
    dbg_update_slow(&b.m);
    sim_stop_kind k, kb;
    uint64_t lim = 0;
    do {
        lim += step;
        k = sim_run(&a->m, lim);
        kb = sim_run(&b.m, lim);
        assert_int_equal(k, kb);
        const sim_unit *ua = &a->m.units[0], *ub = &b.m.units[0];
        const dpu_unit *da = ua->isa, *db = ub->isa;
        for (int t = 0; t < ua->nthreads; t++) {
            assert_int_equal(ua->threads[t].ready_at, ub->threads[t].ready_at);
            assert_int_equal(ua->threads[t].instructions, ub->threads[t].instructions);
            assert_int_equal(da->t[t].last_issue, db->t[t].last_issue);
            assert_int_equal(da->t[t].pc, db->t[t].pc);
        }
    } while (k == SIM_STOP_LIMIT);
    assert_int_equal(k, SIM_STOP_HALT);
    same_cut(a, &b, 1);
    dh_free(&b);
}

static void test_forms(void **state)
{
    (void)state;
    static const int nts[] = {1, 5, 11, 16, 24};
    for (unsigned i = 0; i < sizeof nts / sizeof nts[0]; i++) {
        static dh_run a;
        run_both(&a, 0, nts[i]);
        for (int id = 0; id < nts[i]; id++)
            assert_int_equal(dh_get32(&a, 0, "out", 4 * (uint64_t)id), forms_expect((uint32_t)id, 40));
        dh_free(&a);
    }
}

static void test_sdk_shape(void **state)
{
    (void)state;
    /* tasklet t's list: node k = {next: node (5k + 1) mod 64, value k + t}, chased from node
     * 0, 8 nodes a round, 6 rounds; for each node, work times: the value times 40503
     * (sdk_shape.s's MULK), each product summed into 64 bits; sdk_total adds each
     * tasklet's low word after every round */
    static const int nts[] = {1, 2, 11, 16, 24, 16, 3};
    static const uint32_t works[] = {1, 1, 1, 1, 1, 3, 2};
    for (unsigned i = 0; i < sizeof nts / sizeof nts[0]; i++) {
        static dh_run a;
        run_both(&a, (int)works[i], nts[i]);
        uint32_t total = 0;
        for (int t = 0; t < nts[i]; t++) {
            uint64_t sum = 0;
            uint32_t p = 0;
            for (int r = 0; r < 6; r++) {
                for (int s = 0; s < 8; s++) {
                    uint32_t x = p + (uint32_t)t;
                    for (uint32_t w = 0; w < works[i]; w++) {
                        x *= 40503u;
                        sum += x;
                    }
                    p = (5 * p + 1) % 64;
                }
                total += (uint32_t)sum;
            }
            uint32_t w[2];
            assert_int_equal(dh_get(&a, 0, "sdk_sum", 8 * (uint64_t)t, w, 8), 0);
            assert_int_equal(w[0], (uint32_t)sum);
            assert_int_equal(w[1], (uint32_t)(sum >> 32));
        }
        assert_int_equal(dh_get32(&a, 0, "sdk_total", 0), total);
        dh_free(&a);
    }
}

/* dma_src at tasklet counts below, at and above 11 live (the sparse burst, the plain one,
 * the hand-back between them): both loops agree; tasklet id's sum is, over rounds k = 0..11,
 * the word it read, k x (id + 1), plus n(n + 1)/2 for n = (id & 3) + 1, and its block's word
 * ends at 12 x (id + 1). With badaddr past MRAM's end, tasklet 2's fourth ldma faults on
 * both loops at the same cycle with the same message. */
static void test_dma_phases(void **state)
{
    (void)state;
    static const int nts[] = {1, 2, 3, 5, 8, 11, 12, 16, 24};
    for (unsigned i = 0; i < sizeof nts / sizeof nts[0]; i++) {
        static dh_run a;
        run_both(&a, -1, nts[i]);
        dpu_unit *d = a.m.units[0].isa;
        for (uint32_t id = 0; id < (uint32_t)nts[i]; id++) {
            const uint32_t n = (id & 3) + 1;
            assert_int_equal(dh_get32(&a, 0, "out", 4 * (uint64_t)id), (id + 1) * 66 + 12 * n * (n + 1) / 2);
            assert_int_equal(mem_ld32le(d->mram_p + 256 * id), 12 * (id + 1));
        }
        dh_free(&a);
        if (nts[i] > 2) {
            run_both_stop(&a, -2, nts[i], SIM_STOP_FAULT);
            assert_non_null(strstr(a.m.stop.msg, "DMA beyond MRAM"));
            assert_int_equal(a.m.stop.thread, 2);
            dh_free(&a);
        }
    }
}

/* dense_src at 12 (sparse and plain only), 13, 14, 16 and 24 tasklets: both loops agree;
 * each running tasklet's sum is rounds x K(K + 1)/2, K = 300 + id; the stopped ones wrote
 * nothing. */
static void test_dense_order(void **state)
{
    (void)state;
    static const int nts[] = {12, 13, 14, 16, 24};
    for (unsigned i = 0; i < sizeof nts / sizeof nts[0]; i++) {
        static dh_run a;
        run_both(&a, -3, nts[i]);
        for (uint32_t id = 0; id < (uint32_t)nts[i]; id++) {
            const uint32_t k = 300 + id;
            assert_int_equal(dh_get32(&a, 0, "out", 4 * (uint64_t)id), id < 3 ? 0 : 3 * (k * (k + 1) / 2));
        }
        dh_free(&a);
    }
}

/* ctl_src at 1, 2, 5, 12, 13, 16 and 24 tasklets: both loops agree (the stopped time is no
 * revolver stall in either); over 20 rounds tasklet 0 sums 40 + 39 + ... + 1 = 820 a round
 * (its resume of tasklet 30 jumps on nz, past the add of 1000), tasklet id > 0 sums n(n + 1)/2
 * a round for n = 4 (id & 7) + 3, plus 1 in each of the 10 even rounds (r0 = 20, 18, ..: its
 * stop goes on to the add of 1), never the 1000 its `stop true` jumps past. */
static void test_stop_resume(void **state)
{
    (void)state;
    static const int nts[] = {1, 2, 5, 12, 13, 16, 24};
    for (unsigned i = 0; i < sizeof nts / sizeof nts[0]; i++) {
        static dh_run a;
        run_both(&a, -4, nts[i]);
        assert_int_equal(dh_get32(&a, 0, "out", 0), 20 * 820);
        for (uint32_t id = 1; id < (uint32_t)nts[i]; id++) {
            const uint32_t n = 4 * (id & 7) + 3;
            assert_int_equal(dh_get32(&a, 0, "out", 4 * (uint64_t)id), 20 * (n * (n + 1) / 2) + 10);
        }
        dh_free(&a);
    }
    /* cut every 2, 3 or 7 cycles (some resumes in a sparse burst end it at a cut) */
    static const int cut_nts[] = {3, 5, 13}, cut_steps[] = {2, 3, 7};
    for (unsigned i = 0; i < 3; i++)
        for (unsigned j = 0; j < 3; j++) {
            static dh_run a;
            run_pieces(&a, -4, cut_nts[i], (uint64_t)cut_steps[j]);
            assert_int_equal(dh_get32(&a, 0, "out", 0), 20 * 820);
            dh_free(&a);
        }
}

/* round_src at 10 (never a round: 10 < 11), 11, 12, 16 and 24 tasklets, in one piece and
 * (11, 16) both cut every 13 and 29 cycles (pieces long enough for round bursts, whose
 * ends at the cuts show the ready cycles they derive): both loops agree; every tasklet's
 * sum is 200 x 201 / 2 + 200 = 20300. */
static void test_round(void **state)
{
    (void)state;
    static const int nts[] = {10, 11, 12, 16, 24, 11, 16, 11, 16};
    static const int steps[] = {0, 0, 0, 0, 0, 13, 13, 29, 29};
    for (unsigned i = 0; i < sizeof nts / sizeof nts[0]; i++) {
        static dh_run a;
        if (steps[i])
            run_pieces(&a, -5, nts[i], (uint64_t)steps[i]);
        else
            run_both(&a, -5, nts[i]);
        for (int id = 0; id < nts[i]; id++)
            assert_int_equal(dh_get32(&a, 0, "out", 4 * (uint64_t)id), 20300);
        dh_free(&a);
    }
}

/* steady_src at 2-10 tasklets (sparse: at most 10 live), whole and cut every 5 and 17
 * cycles: both loops agree; the sums as steady_src says. */
static void test_steady(void **state)
{
    (void)state;
    static const int nts[] = {2, 3, 4, 6, 8, 10, 3, 6, 3, 6};
    static const int steps[] = {0, 0, 0, 0, 0, 0, 5, 5, 17, 17};
    for (unsigned i = 0; i < sizeof nts / sizeof nts[0]; i++) {
        static dh_run a;
        if (steps[i])
            run_pieces(&a, -6, nts[i], (uint64_t)steps[i]);
        else
            run_both(&a, -6, nts[i]);
        assert_int_equal(dh_get32(&a, 0, "out", 0), 30 * (25 * 26 / 2));
        for (uint32_t id = 1; id < (uint32_t)nts[i]; id++) {
            const uint32_t n = 4 * id + 5;
            assert_int_equal(dh_get32(&a, 0, "out", 4 * (uint64_t)id), 30 * (n * (n + 1) / 2));
        }
        dh_free(&a);
    }
}

XPUSIM_TESTS(dpu_fastpath_sdk,
             cmocka_unit_test(test_steady),
             cmocka_unit_test(test_forms),
             cmocka_unit_test(test_dense_order),
             cmocka_unit_test(test_stop_resume),
             cmocka_unit_test(test_round),
             cmocka_unit_test(test_dma_phases),
             cmocka_unit_test(test_sdk_shape));
