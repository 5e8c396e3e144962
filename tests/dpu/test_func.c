/* tests/dpu/test_func.c: the DPU's functional mode (-o timing=none, isa/dpu/func.c) against
 * the cycle model. Each program runs in both with the same inputs and must end with the
 * same architectural state: stop reason (and a fault's message, tasklet and pc), every
 * tasklet's registers, flags, PC and RUN bit, the atomic bits, WRAM, MRAM and the DMA byte
 * counters; also every tasklet's instruction count where no tasklet spins (a spin loop's
 * trip count depends on timing), and the registers where they do not depend on the order
 * (a histogram.s tasklet keeps the last count it read of a shared bin; with longer quanta
 * another tasklet reaches reduce.s's barrier last and keeps the resume loop's index). Cycles differ and are not compared, except where the
 * rules fix them: a functional cycle is one issue step (cycles = instructions), and after a
 * fast-forward switch the cycle model's revolver takes over (test_switch derives it).
 * Programs: the mix of test_fastpath.c's shape written here (ALU, loads and stores,
 * branches, DMA, a mutex) at 1..24 tasklets, programs/dpu on our runtime (barriers,
 * mutexes, DMA), the bench programs, a fault, several DPUs on host threads, and larger
 * quanta. */
#include "../testlib.h"
#include "dpu_harness.h"

static uint32_t rng(uint32_t *s) { *s = *s * 1664525u + 1013904223u; return *s; }

/* Every tasklet: 40 rounds of ALU work on its own WRAM slice, a DMA round trip of the slice
 * through its MRAM slice, and an increment of a shared counter under a mutex (atomic bit
 * 7); tasklet 0 also stores its id-dependent sum. FAULT is replaced by one instruction that
 * tasklet 3 executes at round 20 ("nop" for none). */
static const char mix_src[] =
    "	.section .text.__bootstrap,\"ax\",@progbits\n"
    "__bootstrap:\n"
    "	jeq id, NR_TASKLETS-1, .Lgo\n"
    "	boot id, 1\n"
    ".Lgo:\n"
    "	lsl r20, id, 6\n"
    "	add r20, r20, buf\n"
    "	lsl r21, id, 6\n"
    "	add r21, r21, mbuf\n"
    "	move r0, 40\n"
    "	move r1, 0x12345678\n"
    "	move r2, 7\n"
    ".Lloop:\n"
    "	add r1, r1, r2\n"
    "	lsl_add r2, r2, r1, 3\n"
    "	xor r3, r1, r2\n"
    "	sw r20, 0, r3\n"
    "	sh r20, 6, r1\n"
    "	sb r20, 9, r2\n"
    "	lw r4, r20, 0\n"
    "	lhs r5, r20, 6\n"
    "	lbu r6, r20, 9\n"
    "	add r7, r4, r5\n"
    "	addc r8, r7, r6\n"
    "	sd r20, 16, d0\n"
    "	ld d10, r20, 16\n"
    "	sdma r20, r21, 7\n"
    "	ldma r20, r21, 7\n"
    "	jneq r0, 20, .Lnofault\n"
    "	jneq id, 3, .Lnofault\n"
    "	FAULT\n"
    ".Lnofault:\n"
    ".Llock:\n"
    "	acquire zero, 7, nz, .Llock\n"
    "	lw r9, zero, counter\n"
    "	add r9, r9, 1\n"
    "	sw zero, counter, r9\n"
    "	release zero, 7, nz, .Lrel\n"
    ".Lrel:\n"
    "	add r0, r0, -1, nz, .Lloop\n"
    "	move r9, 0\n" /* the counter's last value depends on the order */
    "	lsl r12, id, 2\n"
    "	sw r12, sums, r1\n"
    "	stop\n"
    "	.section .data,\"aw\",@progbits\n"
    "	.p2align 3\n"
    "counter:\n"
    "	.long 0\n"
    "sums:\n"
    "	.zero 96\n"
    "	.p2align 3\n"
    "buf:\n"
    "	.zero 1536\n"
    "	.section .mram.noinit,\"aw\",@progbits\n"
    "	.p2align 3\n"
    "mbuf:\n"
    "	.zero 1536\n";

typedef struct fc_case {
    const char *prog;    /* programs/dpu/<prog>.s with the runtime, "alu"/"sdk" (bench), or NULL: mix_src */
    const char *fault;   /* the mix's fault instruction */
    int tasklets;
    int same_insns;      /* no tasklet spins: instruction counts must agree too */
    const char *quantum; /* -o func_quantum, NULL: the default */
    int dpus, jobs;
    int other_regs;      /* the registers may differ: which tasklet reached a barrier last or
                            read a shared counter when depends on the order */
} fc_case;

static void setup_inputs(dh_run *r, const fc_case *c)
{
    static uint32_t data[3 * 4096];
    uint32_t s = 11;
    for (unsigned i = 0; i < sizeof data / 4; i++)
        data[i] = rng(&s);
    uint32_t n = 4096;
    if (!c->prog)
        return;
    for (int u = 0; u < (c->dpus ? c->dpus : 1); u++) {
        data[0] = (uint32_t)u; /* each DPU its own data */
        if (!strcmp(c->prog, "alu")) {
            n = 300;
            assert_int_equal(dh_set(r, u, "bench_iters", 0, &n, 4), 0);
            continue;
        }
        if (!strcmp(c->prog, "sdk")) {
            uint32_t it = 4, work = 2;
            assert_int_equal(dh_set(r, u, "bench_iters", 0, &it, 4), 0);
            assert_int_equal(dh_set(r, u, "bench_work", 0, &work, 4), 0);
            continue;
        }
        if (!strcmp(c->prog, "vecadd")) {
            n = 3000;
            assert_int_equal(dh_set(r, u, "vecadd_n", 0, &n, 4), 0);
        } else if (!strcmp(c->prog, "reduce"))
            assert_int_equal(dh_set(r, u, "reduce_n", 0, &n, 4), 0);
        else if (!strcmp(c->prog, "histogram"))
            assert_int_equal(dh_set(r, u, "histo_n", 0, &n, 4), 0);
        else {
            n = 16384;
            assert_int_equal(dh_set(r, u, "stream_n", 0, &n, 4), 0);
        }
        assert_int_equal(dh_set(r, u, "__sys_used_mram_end", 0, data, sizeof data), 0);
    }
}

static void build_case(dh_run *r, const fc_case *c, int functional)
{
    char tk[32], q[48], dp[32], jb[32];
    snprintf(tk, sizeof tk, "tasklets=%d", c->tasklets);
    snprintf(q, sizeof q, "func_quantum=%s", c->quantum ? c->quantum : "1");
    snprintf(dp, sizeof dp, "dpus=%d", c->dpus ? c->dpus : 1);
    snprintf(jb, sizeof jb, "jobs=%d", c->jobs ? c->jobs : 1);
    const char *opts[] = {tk, "mram=1", functional ? "timing=none" : "timing=cycle", q, dp, jb, NULL};
    char path[512];
    if (c->prog && !strcmp(c->prog, "alu")) {
        snprintf(path, sizeof path, "%s/programs/dpu/bench/alu_loop.s", test_root());
        const char *extra[] = {path, NULL};
        assert_int_equal(dh_build(r, "", 0, extra, opts), 0);
    } else if (c->prog && !strcmp(c->prog, "sdk")) {
        snprintf(path, sizeof path, "%s/programs/dpu/bench/sdk_shape.s", test_root());
        const char *extra[] = {path, NULL};
        assert_int_equal(dh_build(r, "", 1, extra, opts), 0);
    } else if (c->prog) {
        snprintf(path, sizeof path, "%s/programs/dpu/%s.s", test_root(), c->prog);
        const char *extra[] = {path, NULL};
        assert_int_equal(dh_build(r, "", 1, extra, opts), 0);
    } else {
        static char src[sizeof mix_src + 64];
        const char *at = strstr(mix_src, "FAULT");
        snprintf(src, sizeof src, "%.*s%s%s", (int)(at - mix_src), mix_src, c->fault, at + 5);
        assert_int_equal(dh_build(r, src, 0, NULL, opts), 0);
    }
    assert_int_equal(r->m.functional, functional);
    setup_inputs(r, c);
}

/* The architectural state of a (cycle model) and b (functional) agrees. */
static void compare(dh_run *a, dh_run *b, int same_insns, int same_regs)
{
    sim_machine *ma = &a->m, *mb = &b->m;
    assert_int_equal(ma->stop.kind, mb->stop.kind);
    if (ma->stop.kind != SIM_STOP_HALT) {
        /* a fault: same message, tasklet and pc, and the faulting tasklet's own state (the
         * others were stopped wherever the fault found them, which timing decides) */
        assert_string_equal(ma->stop.msg, mb->stop.msg);
        assert_int_equal(ma->stop.unit, mb->stop.unit);
        assert_int_equal(ma->stop.thread, mb->stop.thread);
        assert_int_equal(ma->stop.pc, mb->stop.pc);
        dpu_unit *da = ma->units[ma->stop.unit].isa, *db = mb->units[mb->stop.unit].isa;
        assert_int_equal(da->faulted, 1);
        assert_int_equal(db->faulted, 1);
        assert_int_equal(da->fault_code, db->fault_code);
        const dpu_tasklet *ka = &da->t[ma->stop.thread], *kb = &db->t[mb->stop.thread];
        assert_memory_equal(ka->r, kb->r, sizeof ka->r);
        assert_int_equal(ka->pc, kb->pc);
        assert_int_equal(ka->zf, kb->zf);
        assert_int_equal(ka->cf, kb->cf);
        return;
    }
    uint64_t total = 0;
    for (int i = 0; i < ma->nunits; i++) {
        sim_unit *ua = &ma->units[i], *ub = &mb->units[i];
        assert_int_equal(ua->halted, ub->halted);
        for (int k = 0; k < ua->ncounters; k++)
            assert_int_equal(ua->counters[k].value, ub->counters[k].value);
        dpu_unit *da = ua->isa, *db = ub->isa;
        assert_int_equal(da->run, db->run);
        assert_int_equal(da->faulted, db->faulted);
        assert_int_equal(da->fault_code, db->fault_code);
        assert_memory_equal(da->atomic, db->atomic, sizeof da->atomic);
        for (int k = 0; k < ua->nthreads; k++) {
            sim_thread *ta = &ua->threads[k], *tb = &ub->threads[k];
            assert_int_equal(ta->state, tb->state);
            if (same_insns && ta->instructions != tb->instructions)
                fail_msg("dpu%d tasklet %d: %llu instructions (cycle model), %llu (functional)", i, k,
                         (unsigned long long)ta->instructions, (unsigned long long)tb->instructions);
            /* functional: one issue step per instruction, no revolver or DMA stall */
            assert_int_equal(tb->issue_cycles, tb->instructions);
            assert_int_equal(tb->stalls[DPU_STALL_REVOLVER], 0);
            assert_int_equal(tb->stalls[DPU_STALL_DMA], 0);
            assert_int_equal(tb->stalls[DPU_STALL_BANK], 0);
            total += tb->instructions;
            dpu_tasklet *ka = &da->t[k], *kb = &db->t[k];
            if (same_regs)
                assert_memory_equal(ka->r, kb->r, sizeof ka->r);
            assert_int_equal(ka->pc, kb->pc);
            assert_int_equal(ka->zf, kb->zf);
            assert_int_equal(ka->cf, kb->cf);
            assert_int_equal(ka->wait, kb->wait);
        }
        dpu_machine *dm = ma->isa_state;
        assert_memory_equal(da->wram_p, db->wram_p, dm->wram_size);
        assert_memory_equal(da->mram_p, db->mram_p, dm->mram_size);
        /* a functional DPU halts after its last issue step: cycles = its instructions */
        if (ub->halted && ma->nunits == 1) {
            uint64_t n = 0;
            for (int k = 0; k < ub->nthreads; k++)
                n += ub->threads[k].instructions;
            assert_int_equal(ub->halted_at, n);
        }
    }
    assert_int_equal(total, sim_total_instructions(mb));
}

static void run_case(const fc_case *c, sim_stop_kind want)
{
    static dh_run a, b;
    build_case(&a, c, 0);
    build_case(&b, c, 1);
    sim_stop_kind ka = dh_run_all(&a), kb = dh_run_all(&b);
    if (ka != want || kb != want)
        print_message("%s/%s/%d: stop %s / %s: %s / %s\n", c->prog ? c->prog : "mix", c->fault ? c->fault : "",
                      c->tasklets, sim_stop_name(ka), sim_stop_name(kb), a.m.stop.msg, b.m.stop.msg);
    assert_int_equal(ka, want);
    assert_int_equal(kb, want);
    compare(&a, &b, c->same_insns, !c->other_regs);
    dh_free(&a);
    dh_free(&b);
}

static void test_mix(void **state)
{
    (void)state;
    static const int nts[] = {1, 2, 3, 7, 11, 16, 24};
    for (unsigned i = 0; i < sizeof nts / sizeof nts[0]; i++) {
        /* the mutex spins while another tasklet holds it, from 2 tasklets on */
        fc_case c = {NULL, "nop", nts[i], nts[i] == 1, NULL, 0, 0, 0};
        run_case(&c, SIM_STOP_HALT);
    }
}

static void test_fault(void **state)
{
    (void)state;
    /* the fault is the first one in either mode: same message, tasklet 3 at the same pc */
    /* (jump 5000: a branch past IRAM; call r22, r20, 5000: a computed target past it, the
     * return index written first; the functional loop leaves both to the executor) */
    /* (lw/lhu/lbu/sd at zero + 0x10000: aligned, the first address past the 64 KB WRAM: the
     * loop's one-compare range test (func_rec.c fn_wok) must send each to the executor) */
    static const char *const faults[] = {"lw r1, r20, 2",          "sd r20, 12, d14",       "sb r20, 0x10000, r8",
                                         "jump 3000",              "fault 3",               "jump 5000",
                                         "call r22, r20, 5000",    "lw r1, zero, 0x10000",  "lhu r1, zero, 0x10000",
                                         "lbu r1, zero, 0x10000",  "sd zero, 0x10000, d14", "sw zero, 0xfffe, r1"};
    for (unsigned i = 0; i < sizeof faults / sizeof faults[0]; i++) {
        fc_case c = {NULL, faults[i], 6, 0, NULL, 0, 0, 0};
        run_case(&c, strstr(faults[i], "jump") || strstr(faults[i], "call") ? SIM_STOP_ILLEGAL : SIM_STOP_FAULT);
    }
}

static void test_programs(void **state)
{
    (void)state;
    /* vecadd and stream have no tasklet waiting for another; reduce's barrier and
     * histogram's mutex spin on an atomic bit (acquire, nz, retry) */
    static const char *const progs[] = {"vecadd", "reduce", "histogram", "stream"};
    static const int same[] = {1, 0, 0, 1};
    static const int nts[] = {1, 4, 11, 16, 24};
    for (unsigned p = 0; p < 4; p++)
        for (unsigned i = 0; i < 5; i++) {
            fc_case c = {progs[p], NULL, nts[i], same[p] || nts[i] == 1, NULL, 0, 0, p == 2};
            run_case(&c, SIM_STOP_HALT);
        }
}

static void test_bench(void **state)
{
    (void)state;
    static const int nts[] = {1, 11, 16, 24};
    for (unsigned i = 0; i < 4; i++) {
        fc_case c = {"alu", NULL, nts[i], 1, NULL, 0, 0, 0};
        run_case(&c, SIM_STOP_HALT);
        /* sdk_shape: a mutex (spins) and barriers */
        fc_case s = {"sdk", NULL, nts[i], nts[i] == 1, NULL, 0, 0, 0};
        run_case(&s, SIM_STOP_HALT);
    }
}

/* Larger quanta: tasklets issue in longer turns; programs without races agree all the same
 * (the mutex and barrier programs too: their results do not depend on the order). */
static void test_quantum(void **state)
{
    (void)state;
    static const char *const qs[] = {"2", "7", "1000"};
    for (unsigned i = 0; i < 3; i++) {
        fc_case m = {NULL, "nop", 16, 0, qs[i], 0, 0, 0};
        run_case(&m, SIM_STOP_HALT);
        fc_case r = {"reduce", NULL, 16, 0, qs[i], 0, 0, 1};
        run_case(&r, SIM_STOP_HALT);
        fc_case h = {"histogram", NULL, 11, 0, qs[i], 0, 0, 1};
        run_case(&h, SIM_STOP_HALT);
    }
}

/* Several DPUs, each with its own data, on one and on two host threads. */
static void test_dpus(void **state)
{
    (void)state;
    for (int j = 1; j <= 2; j++) {
        fc_case c = {"vecadd", NULL, 16, 1, NULL, 5, j, 0};
        run_case(&c, SIM_STOP_HALT);
    }
}

/* A run cut into pieces (cycle limits every 97 steps) interleaves exactly as one piece:
 * the quantum's ends are multiples of the quantum, whatever the calls. */
static void test_pieces(void **state)
{
    (void)state;
    static const char *const qs[] = {"1", "7", "64"};
    for (unsigned i = 0; i < 3; i++) {
        fc_case c = {"histogram", NULL, 16, 0, qs[i], 0, 0, 0};
        static dh_run a, b;
        build_case(&a, &c, 1);
        build_case(&b, &c, 1);
        assert_int_equal(dh_run_all(&a), SIM_STOP_HALT);
        sim_stop_kind k;
        uint64_t lim = 0;
        while ((k = sim_run(&b.m, lim += 97)) == SIM_STOP_LIMIT)
            ;
        assert_int_equal(k, SIM_STOP_HALT);
        compare(&a, &b, 0, 1);
        for (int t = 0; t < 16; t++)
            assert_int_equal(a.m.units[0].threads[t].instructions, b.m.units[0].threads[t].instructions);
        assert_int_equal(a.m.units[0].halted_at, b.m.units[0].halted_at);
        dh_free(&a);
        dh_free(&b);
    }
}

/* The magic marker (tell) and the switch to the cycle model (isa_ops.timing_resume). One
 * tasklet runs 2 + 2 x 100 + 1 instructions functionally up to and including the tell (203
 * issue steps, cycles 0..202), the switch, then 1 + 2 x 5 + 1 + 1 = 13 more (move, the loop,
 * sw, stop) in the cycle model from cycle 203, where the tasklet is ready at once: by the
 * revolver rule (one issue per tasklet every 11 cycles) they issue at 203, 214, ...,
 * 203 + 12 x 11 = 335, and the DPU halts one cycle after its last issue, at 336; the
 * revolver stalls are the 10 cycles between each two issues, 12 x 10 = 120, none in the
 * functional part. The memory and the
 * registers equal a whole run in the cycle model. Without the marker armed, tell is a
 * no-op in both modes. */
static const char switch_src[] =
    "	.section .text.__bootstrap,\"ax\",@progbits\n"
    "__bootstrap:\n"
    "	move r0, 0\n"
    "	move r1, 100\n"
    ".La:\n"
    "	add r0, r0, 3\n"
    "	add r1, r1, -1, nz, .La\n"
    "	tell zero, 1\n"
    "	move r2, 5\n"
    ".Lb:\n"
    "	add r0, r0, r2\n"
    "	add r2, r2, -1, nz, .Lb\n"
    "	sw zero, out, r0\n"
    "	stop\n"
    "	.section .data,\"aw\",@progbits\n"
    "	.p2align 3\n"
    "out:\n"
    "	.long 0\n";

static void test_switch(void **state)
{
    (void)state;
    static dh_run a, b, c;
    const char *cyc[] = {"tasklets=1", "mram=1", NULL}, *fun[] = {"tasklets=1", "mram=1", "timing=none", NULL};
    assert_int_equal(dh_build(&a, switch_src, 0, NULL, cyc), 0);
    assert_int_equal(dh_build(&b, switch_src, 0, NULL, fun), 0);
    assert_int_equal(dh_build(&c, switch_src, 0, NULL, fun), 0);
    assert_int_equal(dh_run_all(&a), SIM_STOP_HALT);
    assert_int_equal(dh_run_all(&c), SIM_STOP_HALT); /* not armed: tell does nothing */
    b.m.ff_magic = 1;
    assert_int_equal(dh_run_all(&b), SIM_STOP_MARKER);
    assert_int_equal(b.m.stop.thread, 0);
    assert_int_equal(b.m.stop.pc, 4); /* the tell */
    sim_unit *u = &b.m.units[0];
    assert_int_equal(u->threads[0].instructions, 203);
    assert_int_equal(sim_ff_switch(&b.m, "magic", 1), 0);
    assert_int_equal(b.m.functional, 0);
    assert_int_equal(dh_run_all(&b), SIM_STOP_HALT);
    assert_int_equal(u->threads[0].instructions, 216);
    assert_int_equal(u->halted_at, 336);
    assert_int_equal(u->threads[0].stalls[DPU_STALL_REVOLVER], 120);
    assert_int_equal(dh_get32(&b, 0, "out", 0), 300 + 15);
    compare(&a, &c, 1, 1);
    /* the switched run's architecture equals the cycle model's (compare's functional-only
     * checks do not hold for its timed part: the same checks by hand) */
    dpu_unit *da = a.m.units[0].isa, *db = u->isa;
    assert_memory_equal(da->t[0].r, db->t[0].r, sizeof da->t[0].r);
    assert_int_equal(da->t[0].pc, db->t[0].pc);
    assert_memory_equal(da->wram_p, db->wram_p, da->dm->wram_size);
    assert_int_equal(a.m.units[0].threads[0].instructions, 216);
    dh_free(&a);
    dh_free(&b);
    dh_free(&c);
}

/* Code that changes under a run: the functional loop's records follow IRAM. Tasklet 0
 * calls sub (r5 += 1), overwrites sub's first word by ldmai with "add r5, r5, 10" and calls
 * it again (ldmai's length 1 copies two words: the second is sub's own "jump r23"): r5 = 1 + 10 = 11, as in the cycle model (the old record would give 2). DPU 1's
 * IRAM is written by the host before the run (its own program: "move r5, 5" first, then
 * the same), so it ends with 5 + 1 + 10 = 16. Both DPUs' whole state equals the cycle
 * model's. */
static void test_ldmai(void **state)
{
    (void)state;
    uint64_t w, wj, wm;
    char err[128], src[1400];
    assert_true(dpu_assemble_line("add r5, r5, 10", NULL, &w, err, sizeof err) >= 0);
    assert_true(dpu_assemble_line("jump r23", NULL, &wj, err, sizeof err) >= 0);
    assert_true(dpu_assemble_line("move r5, 5", NULL, &wm, err, sizeof err) >= 0);
    snprintf(src, sizeof src,
             "	.section .text.__bootstrap,\"ax\",@progbits\n__bootstrap:\n"
             "	move r5, 0\n	call r23, sub\n	move r0, sub\n	lsl r0, r0, 3\n	move r1, code\n"
             "	ldmai r0, r1, 1\n	call r23, sub\n	sw zero, out, r5\n	stop\n"
             "sub:\n	add r5, r5, 1\n	jump r23\n"
             "	.section .data,\"aw\",@progbits\n	.p2align 3\nout:\n	.long 0\n"
             "	.section .mram.code,\"aw\",@progbits\n	.p2align 3\ncode:\n	.quad 0x%llx\n	.quad 0x%llx\n",
             (unsigned long long)w, (unsigned long long)wj);
    const char *cyc[] = {"tasklets=1", "dpus=2", "mram=1", NULL};
    const char *fun[] = {"tasklets=1", "dpus=2", "mram=1", "timing=none", NULL};
    static dh_run a, b;
    assert_int_equal(dh_build(&a, src, 0, NULL, cyc), 0);
    assert_int_equal(dh_build(&b, src, 0, NULL, fun), 0);
    uint8_t word[8];
    mem_st64le(word, wm);
    assert_int_equal(mem_host_write(sim_space(&a.m, "iram.1"), 0, word, 8), 0);
    assert_int_equal(mem_host_write(sim_space(&b.m, "iram.1"), 0, word, 8), 0);
    assert_int_equal(dh_run_all(&a), SIM_STOP_HALT);
    assert_int_equal(dh_run_all(&b), SIM_STOP_HALT);
    assert_int_equal(dh_get32(&a, 0, "out", 0), 11);
    assert_int_equal(dh_get32(&a, 1, "out", 0), 16);
    compare(&a, &b, 1, 1);
    dh_free(&a);
    dh_free(&b);
}

XPUSIM_TESTS(dpu_func,
             cmocka_unit_test(test_mix),
             cmocka_unit_test(test_fault),
             cmocka_unit_test(test_programs),
             cmocka_unit_test(test_bench),
             cmocka_unit_test(test_quantum),
             cmocka_unit_test(test_dpus),
             cmocka_unit_test(test_pieces),
             cmocka_unit_test(test_switch),
             cmocka_unit_test(test_ldmai));
