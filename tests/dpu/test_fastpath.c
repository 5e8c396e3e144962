/* tests/dpu/test_fastpath.c: the DPU's specialised run loop (isa/dpu/fast.c) against the
 * reference loop (exec.c). The same program runs three times: plainly (fast loop), with
 * the debugger's history on, which turns its per-instruction hooks on and so the reference
 * loop (sched_pick, every instruction through the generic executor), and with a breakpoint
 * that never hits and a watchpoint on WRAM's last 8 bytes (the fast loop's instrumented
 * burst, core/debug.h: the breakpoint's address 0xfffff000 falls in the filter slot of pc 0,
 * so every issue at pc 0 goes to the debugger and on). All runs must agree on everything
 * observable: stop reason and message, cycle counts, every
 * thread's instructions, issue cycles, stalls by cause and halt cycle, DMA counters,
 * registers, flags, PCs, RUN and atomic bits, WRAM and MRAM. Programs: a mix of every
 * specialised form (ALU with register and immediate operands, carries, lsl_add, loads and
 * stores of each width and sign, ld/sd, compare-and-branch on each comparison, add/sub with
 * a destination and a condition, call/jump, move rr, a mutex on acquire/release) with DMA,
 * over 1..24 tasklets; the same
 * with faults placed in the specialised forms (misaligned, out of range, illegal word); and
 * the programs in programs/dpu on our runtime (barriers, mutexes, DMA-bound stream). */
#include <string.h>
#include "../testlib.h"
#include "dpu_harness.h"
#include "../../core/debug.h"

static const char mix_src[] =
    "	.section .text.__bootstrap,\"ax\",@progbits\n"
    "__bootstrap:\n"
    "	jeq id, NR_TASKLETS-1, .Lgo\n"
    "	boot id, 1\n"
    ".Lgo:\n"
    "	lsl r20, id, 6\n"
    "	add r20, r20, buf\n"
    "	lw r0, zero, iters\n"
    "	move r1, 0x12345678\n"
    "	add r1, id, r1\n"
    "	move r2, 0x9abcdef0\n"
    "	move r3, 0\n"
    "	move r12, 1\n"
    "	move r21, 0\n"
    ".Lloop:\n"
    "	jneq id, 5, .Lnofault\n"
    "	jneq r0, 150, .Lnofault\n"
    "	FAULT\n"
    ".Lnofault:\n"
    "	add r1, r1, r2\n"
    "	addc r3, r3, r0\n"
    "	sub r4, r1, r2\n"
    "	subc r23, r4, r4\n"
    "	subc r5, r5, r0\n"
    "	and r6, r1, 0xff0f\n"
    "	or r7, r6, r2\n"
    "	xor r8, r7, r1\n"
    "	lsl r9, r8, 3\n"
    "	lsr r10, r8, r0\n"
    "	asr r11, r2, 7\n"
    "	asr r11, r11, r0\n"
    "	lsl_add r12, r12, r1, 2\n"
    "	lsl_add r13, r13, r1, 31\n"
    "	move r14, r1\n"
    "	sw r20, 0, r1\n"
    "	sb r20, 5, r8\n"
    "	sh r20, 6, r9\n"
    "	sw r20, 12, -7\n"
    "	lw r15, r20, 4\n"
    "	lbu r16, r20, 5\n"
    "	lbs r17, r20, 5\n"
    "	lhu r18, r20, 6\n"
    "	lhs r19, r20, 6\n"
    "	sd r20, 16, d14\n"
    "	ld d16, r20, 16\n"
    "	jeq r1, r2, .Ls1\n"
    "	add r21, r21, 1\n"
    ".Ls1:\n"
    "	jneq r16, 0x80, .Ls2\n"
    "	add r21, r21, 2\n"
    ".Ls2:\n"
    "	jltu r16, r17, .Ls3\n"
    "	add r21, r21, 4\n"
    ".Ls3:\n"
    "	jgeu r18, r19, .Ls4\n"
    "	add r21, r21, 8\n"
    ".Ls4:\n"
    "	jlts r18, r19, .Ls5\n"
    "	add r21, r21, 16\n"
    ".Ls5:\n"
    "	jges r17, 0, .Ls6\n"
    "	add r21, r21, 32\n"
    ".Ls6:\n"
    "	jles r19, r4, .Ls7\n"
    "	add r21, r21, 64\n"
    ".Ls7:\n"
    "	jgts r4, r5, .Ls8\n"
    "	add r21, r21, 128\n"
    ".Ls8:\n"
    "	jleu r4, r5, .Ls9\n"
    "	add r21, r21, 256\n"
    ".Ls9:\n"
    "	jgtu r4, r5, .Ls10\n"
    "	add r21, r21, 512\n"
    ".Ls10:\n"
    "	jles r1, r1, .Ls10a\n"
    "	add r21, r21, 3\n"
    ".Ls10a:\n"
    "	jleu r2, r2, .Ls10b\n"
    "	add r21, r21, 5\n"
    ".Ls10b:\n"
    "	jgts r4, r4, .Ls10c\n"
    "	add r21, r21, 6\n"
    ".Ls10c:\n"
    "	jgtu r5, r5, .Ls10d\n"
    "	add r21, r21, 7\n"
    ".Ls10d:\n"
    "	add r22, r1, r4, nc, .Ls11\n"
    "	add r21, r21, 1024\n"
    ".Ls11:\n"
    "	sub r22, r4, r5, ltu, .Ls12\n"
    "	add r21, r21, 2048\n"
    ".Ls12:\n"
    "	add r22, r22, r1, mi, .Ls13\n"
    "	add r21, r21, 4096\n"
    ".Ls13:\n"
    "	sub r23, r1, r1, z, .Ls14\n"
    "	add r21, r21, 1\n"
    ".Ls14:\n"
    "	add r22, r22, 1, nz, .Ls15\n"
    "	add r21, r21, 1\n"
    ".Ls15:\n"
    "	move r22, mbuf\n"
    "	lsl_add r22, r22, id, 6\n"
    "	sdma r20, r22, 7\n"
    "	ldma r20, r22, 3\n"
    ".Llock:\n"
    "	acquire zero, 7, nz, .Llock\n"
    "	acquire zero, 7, z, .Lheld\n"
    "	add r21, r21, 13\n"
    ".Lheld:\n"
    "	lw r23, zero, counter\n"
    "	add r23, r23, 1\n"
    "	sw zero, counter, r23\n"
    "	release zero, 7, nz, .Lrel\n"
    ".Lrel:\n"
    "	acquire zero, 9, z, .Lacq9\n"
    "	add r21, r21, 9\n"
    ".Lacq9:\n"
    "	release zero, 9, nz, .Lrel9\n"
    "	add r21, r21, 11\n"
    ".Lrel9:\n"
    "	call r23, .Lf\n"
    "	and r0, r0, r0\n"
    "	add r0, r0, -1, nz, .Lloop\n"
    "	stop\n"
    ".Lf:\n"
    "	xor r21, r21, r1\n"
    "	jump r23\n"
    "	.section .dpu_host,\"aw\",@progbits\n"
    "	.p2align 3\n"
    "	.globl iters\n"
    "iters:\n"
    "	.long 200\n"
    "counter:\n"
    "	.long 0\n"
    "	.p2align 3\n"
    "	.globl buf\n"
    "buf:\n"
    "	.zero 1536\n"
    "	.section .mram.noinit,\"aw\",@progbits\n"
    "	.p2align 3\n"
    "mbuf:\n"
    "	.zero 1536\n";

static uint32_t rng(uint32_t *s) { *s = *s * 1664525u + 1013904223u; return *s; }

typedef struct fp_case {
    const char *prog;  /* programs/dpu/<prog>.s with the runtime, or NULL: mix_src */
    const char *fault; /* the mix's fault instruction (or "nop") */
    int tasklets;
    int bank;          /* -o bank_penalty=1: both runs take the reference loop; still equal */
} fp_case;

static void setup_inputs(dh_run *r, const fp_case *c)
{
    static uint32_t data[3 * 4096];
    uint32_t s = 11;
    for (unsigned i = 0; i < sizeof data / 4; i++)
        data[i] = rng(&s);
    uint32_t n = 4096;
    if (!c->prog)
        return;
    if (!strcmp(c->prog, "vecadd")) {
        n = 3000;
        assert_int_equal(dh_set(r, 0, "vecadd_n", 0, &n, 4), 0);
    } else if (!strcmp(c->prog, "reduce"))
        assert_int_equal(dh_set(r, 0, "reduce_n", 0, &n, 4), 0);
    else if (!strcmp(c->prog, "histogram"))
        assert_int_equal(dh_set(r, 0, "histo_n", 0, &n, 4), 0);
    else {
        n = 16384;
        assert_int_equal(dh_set(r, 0, "stream_n", 0, &n, 4), 0);
    }
    assert_int_equal(dh_set(r, 0, "__sys_used_mram_end", 0, data, sizeof data), 0);
}

static void build_case(dh_run *r, const fp_case *c)
{
    char tk[32];
    snprintf(tk, sizeof tk, "tasklets=%d", c->tasklets);
    const char *opts[] = {tk, "mram=1", c->bank ? "bank_penalty=1" : NULL, NULL};
    if (c->prog) {
        char path[512];
        snprintf(path, sizeof path, "%s/programs/dpu/%s.s", test_root(), c->prog);
        const char *extra[] = {path, NULL};
        assert_int_equal(dh_build(r, "", 1, extra, opts), 0);
    } else {
        static char src[sizeof mix_src + 64];
        const char *at = strstr(mix_src, "FAULT");
        snprintf(src, sizeof src, "%.*s%s%s", (int)(at - mix_src), mix_src, c->fault, at + 5);
        assert_int_equal(dh_build(r, src, 0, NULL, opts), 0);
    }
    setup_inputs(r, c);
}

static void compare(dh_run *a, dh_run *b)
{
    sim_machine *ma = &a->m, *mb = &b->m;
    assert_int_equal(ma->stop.kind, mb->stop.kind);
    assert_string_equal(ma->stop.msg, mb->stop.msg);
    assert_int_equal(ma->stop.unit, mb->stop.unit);
    assert_int_equal(ma->stop.thread, mb->stop.thread);
    assert_int_equal(ma->stop.pc, mb->stop.pc);
    assert_int_equal(ma->now, mb->now);
    for (int i = 0; i < ma->nunits; i++) {
        sim_unit *ua = &ma->units[i], *ub = &mb->units[i];
        assert_int_equal(ua->halted, ub->halted);
        assert_int_equal(ua->halted_at, ub->halted_at);
        assert_int_equal(ua->last_issue, ub->last_issue);
        assert_int_equal(ua->rr, ub->rr);
        for (int k = 0; k < ua->ncounters; k++)
            assert_int_equal(ua->counters[k].value, ub->counters[k].value);
        for (int k = 0; k < ua->nthreads; k++) {
            sim_thread *ta = &ua->threads[k], *tb = &ub->threads[k];
            assert_int_equal(ta->state, tb->state);
            assert_int_equal(ta->ready_at, tb->ready_at);
            assert_int_equal(ta->instructions, tb->instructions);
            assert_int_equal(ta->issue_cycles, tb->issue_cycles);
            assert_int_equal(ta->halted_at, tb->halted_at);
            for (int s = 0; s < SIM_MAX_STALLS; s++)
                assert_int_equal(ta->stalls[s], tb->stalls[s]);
        }
        dpu_unit *da = ua->isa, *db = ub->isa;
        assert_int_equal(da->run, db->run);
        assert_int_equal(da->faulted, db->faulted);
        assert_int_equal(da->fault_code, db->fault_code);
        assert_int_equal(da->dma_free, db->dma_free);
        assert_memory_equal(da->atomic, db->atomic, sizeof da->atomic);
        for (int k = 0; k < da->ntasklets; k++) {
            dpu_tasklet *ka = &da->t[k], *kb = &db->t[k];
            assert_memory_equal(ka->r, kb->r, sizeof ka->r);
            assert_int_equal(ka->pc, kb->pc);
            assert_int_equal(ka->zf, kb->zf);
            assert_int_equal(ka->cf, kb->cf);
            assert_int_equal(ka->wait, kb->wait);
            assert_int_equal(ka->last_issue, kb->last_issue);
        }
        dpu_machine *dm = ma->isa_state;
        assert_memory_equal(da->wram_p, db->wram_p, dm->wram_size);
        assert_memory_equal(da->mram_p, db->mram_p, dm->mram_size);
    }
}

static void run_case(const fp_case *c, sim_stop_kind want)
{
    static dh_run a, b, i;
    build_case(&a, c);
    build_case(&b, c);
    build_case(&i, c);
    /* the history: the debugger's hooks, hence the reference loop */
    assert_int_equal(dbg_attach(&b.m), 0);
    b.m.dbg->history_on = 1;
    dbg_update_slow(&b.m);
    /* a breakpoint nothing reaches and a watchpoint nothing touches: the instrumented burst */
    assert_true(dbg_break_add(&i.m, 0xfffff000ull, -1, 0, "never") >= 0);
    assert_true(dbg_bp_maybe(dbg_bp_map(&i.m), 0));
    dpu_unit *di = i.m.units[0].isa;
    assert_true(mem_watch_add(di->wram, di->dm->wram_size - 8, 8, MEM_RW) > 0);
    dbg_update_slow(&i.m);
    assert_false(a.m.slow);
    assert_true(dbg_hooks(&b.m));
    assert_true(i.m.slow);
    assert_false(dbg_hooks(&i.m));
    sim_stop_kind ka = dh_run_all(&a), kb = dh_run_all(&b), ki = dh_run_all(&i);
    if (ka != want)
        print_message("%s/%s/%d: stop %s: %s\n", c->prog ? c->prog : "mix", c->fault ? c->fault : "",
                      c->tasklets, sim_stop_name(ka), a.m.stop.msg);
    assert_int_equal(ka, want);
    assert_int_equal(kb, want);
    assert_int_equal(ki, want);
    compare(&a, &b);
    compare(&a, &i);
    dh_free(&a);
    dh_free(&b);
    dh_free(&i);
}

static void test_mix(void **state)
{
    (void)state;
    static const int nts[] = {1, 2, 3, 7, 10, 11, 12, 16, 23, 24};
    for (unsigned i = 0; i < sizeof nts / sizeof nts[0]; i++) {
        fp_case c = {NULL, "nop", nts[i], 0};
        run_case(&c, SIM_STOP_HALT);
    }
    fp_case c = {NULL, "nop", 16, 1};
    run_case(&c, SIM_STOP_HALT);
}

#define LDMAI_PAST "move r16, 8000\n\tldmai r16, r22, 0\n\tjump 40000"

static void test_mix_faults(void **state)
{
    (void)state;
    /* tasklet 5 executes the fault at its 51st iteration, in the middle of the others' work */
    static const char *const faults[] = {"lw r1, r20, 2", "lhu r18, r20, 1", "sh r20, 3, r9", "ld d16, r20, 4",
                                         "sd r20, 12, d14", "sw r20, 65536, r1", "lbu r16, r20, 70000",
                                         "sb r20, 0x10000, r8", "jump 2000",
                                         /* past IRAM (4,096 words): the guard record at
                                          * 4096, the zero records the fast loop's fetch
                                          * reads up to pc 65535 (a jump, a call through a
                                          * register), and the same after an ldmai gave the
                                          * DPU its own IRAM copy (word 1000 from MRAM) */
                                         "jump 4096", "jump 40000", "move r16, 0xffff\n\tjump r16",
                                         LDMAI_PAST};
    for (unsigned i = 0; i < sizeof faults / sizeof faults[0]; i++)
        for (int nt = 6; nt <= 24; nt += 18) {
            fp_case c = {NULL, faults[i], nt, 0};
            run_case(&c, strstr(faults[i], "jump") ? SIM_STOP_ILLEGAL : SIM_STOP_FAULT);
        }
}

/* The ldmai case's own IRAM copy: the fast loop widened it to a record for every 16-bit pc
 * before running from it (dpu_iram_widen), and the jump past IRAM stopped as in the
 * reference loop (test_mix_faults), naming the pc. */
static void test_iram_own(void **state)
{
    (void)state;
    static dh_run a;
    const fp_case c = {NULL, LDMAI_PAST, 6, 0};
    build_case(&a, &c);
    assert_int_equal(dh_run_all(&a), SIM_STOP_ILLEGAL);
    const dpu_unit *d = a.m.units[0].isa;
    assert_true(d->iram_own);
    assert_true(d->iram_full);
    assert_int_equal(a.m.stop.thread, 5);
    assert_int_equal(a.m.stop.pc, 40000);
    assert_non_null(strstr(a.m.stop.msg, "pc past the end of IRAM"));
    dh_free(&a);
}

static void test_programs(void **state)
{
    (void)state;
    static const char *const progs[] = {"vecadd", "reduce", "histogram", "stream"};
    static const int nts[] = {1, 4, 11, 16};
    for (unsigned p = 0; p < 4; p++)
        for (unsigned i = 0; i < 4; i++) {
            fp_case c = {progs[p], NULL, nts[i], 0};
            run_case(&c, SIM_STOP_HALT);
        }
}

XPUSIM_TESTS(dpu_fastpath,
             cmocka_unit_test(test_mix),
             cmocka_unit_test(test_mix_faults),
             cmocka_unit_test(test_iram_own),
             cmocka_unit_test(test_programs));
