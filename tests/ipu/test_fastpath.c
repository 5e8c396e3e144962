/* tests/ipu/test_fastpath.c: the IPU tile's fast run loop (isa/ipu/fast.c) against the
 * reference loop (barrel.c). Every program runs twice: plainly (the fast loop) and with a
 * breakpoint that can never hit, which turns the debugger's slow path on (m->slow) and so
 * the reference loop (every bundle through ipu_exec_bundle). Both runs must agree on
 * everything observable: stop reason and message, the machine's and every thread's cycles,
 * instructions, issue cycles, stalls by cause, states and halt cycles, every context's
 * registers, pc, rpt state, exception, and every byte of tile memory. Programs: the kernels
 * of programs/ipu (f32/f16 arithmetic, accumulators, rpt bodies of bundles) and the
 * benchmark loop, with random inputs, on one and on two tiles; random mixes of integer, memory,
 * control, rpt, movz, aux and float instructions and bundles, over one to six workers, with and
 * without faults (accesses outside tile memory or misaligned, shifts above 31, a solo
 * instruction in an rpt body) placed among the others.
 * Every program also runs functionally (-o timing=none, isa/ipu/func.c), plainly and with
 * the never-hit breakpoint (its generic one-bundle-at-a-time path): those two agree on
 * everything, cycles included, and with the cycle model on the architectural state -- every
 * context's registers, pc, rpt state, exit status, exception, accumulators, floating-point
 * and PRNG state, the instructions each thread retired, and every byte of tile memory --
 * when the cycle model halted; when it stopped on a fault, the functional run stops with the
 * same kind of stop, message and context (each worker of these programs computes from its
 * own data only, so its fault does not depend on the interleaving). */
#include <stdio.h>
#include <unistd.h>
#include "../testlib.h"
#include "../../isa/isa.h"
#include "../../isa/ipu/tile.h"
#include "../../core/debug.h"

extern const isa_ops isa_ipu;

typedef struct fp_run {
    sim_machine m;
    ld_image img;
    int have_m, have_img;
    sim_stop_kind stop;
} fp_run;

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

/* assemble srcs into elf; 0 ok */
static int assemble_quiet;
static int assemble(const char *src, const char *elf)
{
    char err[1024];
    sim_opts o;
    opt_init(&o);
    const char *srcs[1] = {src};
    if (isa_ipu.assemble(1, srcs, elf, &o, err, sizeof err)) {
        if (!assemble_quiet)
            print_message("assemble %s: %s\n", src, err);
        return -1;
    }
    return 0;
}

/* Inputs: every listed symbol gets n random bytes (same seed for both runs). */
typedef struct input {
    const char *sym;
    unsigned bytes;
} input;

static void build(fp_run *r, const char *elf, const char *const *opts, const input *in, uint64_t seed)
{
    char err[512];
    memset(r, 0, sizeof *r);
    if (ld_load(elf, &r->img, err, sizeof err))
        fail_msg("load: %s", err);
    r->have_img = 1;
    sim_opts o;
    opt_init(&o);
    for (int i = 0; opts && opts[i]; i++)
        opt_parse(&o, opts[i]);
    if (sim_create(&r->m, &isa_ipu, &o, err, sizeof err))
        fail_msg("create: %s", err);
    r->have_m = 1;
    if (isa_ipu.load(&r->m, &r->img, err, sizeof err))
        fail_msg("load: %s", err);
    r->m.image = &r->img;
    ipu_machine *im = ipu_m(&r->m);
    uint64_t keep = rng;
    rng = seed;
    for (int i = 0; in && in[i].sym; i++) {
        const ld_symbol *s = ld_symbol_find(&r->img, in[i].sym);
        if (!s)
            continue;
        for (int t = 0; t < im->ntiles; t++)
            for (unsigned b = 0; b < in[i].bytes; b += 4) {
                /* floats in a tame range, now and then a special value */
                uint32_t v = (rnd() & 0x807fffffu) | (0x3c000000u + (rnd() % 0x06000000u & 0x7f800000u));
                if (rnd() % 64 == 0)
                    v = rnd();
                mem_st32le(im->tiles[t].mem + (s->value + b - im->mem_base), v);
            }
    }
    /* the benchmark loop: a short run */
    const ld_symbol *it = ld_symbol_find(&r->img, "bench_iters");
    for (int t = 0; it && t < im->ntiles; t++)
        mem_st32le(im->tiles[t].mem + (it->value - im->mem_base), 3000 + (uint32_t)t);
    rng = keep;
}

static void fp_free(fp_run *r)
{
    if (r->have_m)
        sim_destroy(&r->m);
    if (r->have_img)
        ld_free(&r->img);
}

static void compare(fp_run *a, fp_run *b)
{
    sim_machine *ma = &a->m, *mb = &b->m;
    assert_int_equal(a->stop, b->stop);
    assert_string_equal(ma->stop.msg, mb->stop.msg);
    assert_int_equal(ma->stop.cycle, mb->stop.cycle);
    assert_int_equal(sim_end_cycle(ma), sim_end_cycle(mb));
    assert_int_equal(sim_total_instructions(ma), sim_total_instructions(mb));
    ipu_machine *ia = ipu_m(ma), *ib = ipu_m(mb);
    for (int u = 0; u < ma->nunits; u++) {
        sim_unit *ua = &ma->units[u], *ub = &mb->units[u];
        assert_int_equal(ua->halted, ub->halted);
        assert_int_equal(ua->halted_at, ub->halted_at);
        assert_int_equal(ua->last_issue, ub->last_issue);
        for (int t = 0; t < ua->nthreads; t++) {
            sim_thread *ta = &ua->threads[t], *tb = &ub->threads[t];
            assert_int_equal(ta->state, tb->state);
            assert_int_equal(ta->instructions, tb->instructions);
            assert_int_equal(ta->issue_cycles, tb->issue_cycles);
            assert_int_equal(ta->halted_at, tb->halted_at);
            assert_int_equal(ta->ready_at, tb->ready_at);
            for (int s = 0; s < IPU_STALL_N; s++)
                assert_int_equal(ta->stalls[s], tb->stalls[s]);
        }
        ipu_tile *ta = &ia->tiles[u], *tb = &ib->tiles[u];
        for (int c = 0; c < IPU_NCTX; c++) {
            /* the fast loop's discarded writes land in sink[]: not state */
            ipu_ctx ca = ta->ctx[c], cb = tb->ctx[c];
            memset(ca.sink, 0, sizeof ca.sink);
            memset(cb.sink, 0, sizeof cb.sink);
            assert_int_equal(ca.zero[0] | ca.zero[1], 0);
            assert_memory_equal(&ca, &cb, sizeof ca);
        }
        assert_memory_equal(ta->worker_base_csr, tb->worker_base_csr, sizeof ta->worker_base_csr);
        assert_int_equal(ta->ssr_raerr, tb->ssr_raerr);
        assert_memory_equal(ta->mem, tb->mem, ia->mem_size);
    }
}

/* The architectural state of a cycle-model run a and a functional run f: what the program
 * computed, not when. */
static void compare_arch(fp_run *a, fp_run *f)
{
    sim_machine *ma = &a->m, *mf = &f->m;
    assert_int_equal(a->stop, f->stop);
    if (a->stop != SIM_STOP_HALT) { /* the same fault of the same context */
        assert_int_equal(ma->stop.unit, mf->stop.unit);
        assert_int_equal(ma->stop.thread, mf->stop.thread);
        assert_string_equal(ma->stop.msg, mf->stop.msg);
        return;
    }
    assert_int_equal(sim_total_instructions(ma), sim_total_instructions(mf));
    ipu_machine *ia = ipu_m(ma), *ib = ipu_m(mf);
    for (int u = 0; u < ma->nunits; u++) {
        sim_unit *ua = &ma->units[u], *ub = &mf->units[u];
        assert_int_equal(ua->halted, ub->halted);
        for (int t = 0; t < ua->nthreads; t++) {
            assert_int_equal(ua->threads[t].state, ub->threads[t].state);
            assert_int_equal(ua->threads[t].instructions, ub->threads[t].instructions);
            assert_int_equal(ua->threads[t].issue_cycles, ub->threads[t].issue_cycles);
        }
        ipu_tile *ta = &ia->tiles[u], *tb = &ib->tiles[u];
        for (int c = 0; c < IPU_NCTX; c++) {
            const ipu_ctx *ca = &ta->ctx[c], *cb = &tb->ctx[c];
            assert_memory_equal(ca->m, cb->m, sizeof ca->m);
            assert_memory_equal(ca->a, cb->a, sizeof ca->a);
            assert_memory_equal(ca->aacc, cb->aacc, sizeof ca->aacc);
            assert_memory_equal(ca->prng, cb->prng, sizeof ca->prng);
            const uint32_t va[] = {ca->pc, ca->state, ca->exit_status, ca->exited_once, ca->vertex_base,
                                   ca->worker_base, ca->etype, ca->cause, ca->fp_ctl, ca->fp_sts, ca->tas,
                                   ca->rpt_count, ca->rpt_first, ca->rpt_end, ca->erpt, (uint32_t)ca->launches,
                                   ca->prng_set, ca->fp_nfmt, ca->fp_scl};
            const uint32_t vb[] = {cb->pc, cb->state, cb->exit_status, cb->exited_once, cb->vertex_base,
                                   cb->worker_base, cb->etype, cb->cause, cb->fp_ctl, cb->fp_sts, cb->tas,
                                   cb->rpt_count, cb->rpt_first, cb->rpt_end, cb->erpt, (uint32_t)cb->launches,
                                   cb->prng_set, cb->fp_nfmt, cb->fp_scl};
            assert_memory_equal(va, vb, sizeof va);
        }
        assert_memory_equal(ta->cccs, tb->cccs, sizeof ta->cccs);
        assert_memory_equal(ta->mem, tb->mem, ia->mem_size);
    }
}

/* Run elf both ways and compare, then functionally both ways; returns the stop kind. */
static sim_stop_kind run_both(const char *elf, const char *const *opts, const input *in, uint64_t cycles)
{
    static fp_run a, b, fa, fb;
    uint64_t seed = rnd() | 1;
    build(&a, elf, opts, in, seed);
    build(&b, elf, opts, in, seed);
    assert_true(dbg_break_add(&b.m, 0xffffffffull, -1, 0, "never") >= 0);
    assert_false(a.m.slow);
    assert_true(b.m.slow);
    a.stop = sim_run(&a.m, cycles);
    b.stop = sim_run(&b.m, cycles);
    compare(&a, &b);
    /* functional: plain and through the generic path agree on everything */
    const char *fopts[8] = {"timing=none"};
    for (int i = 0; opts && opts[i] && i < 6; i++)
        fopts[i + 1] = opts[i];
    build(&fa, elf, fopts, in, seed);
    build(&fb, elf, fopts, in, seed);
    assert_true(fa.m.functional);
    assert_true(dbg_break_add(&fb.m, 0xffffffffull, -1, 0, "never") >= 0);
    fa.stop = sim_run(&fa.m, cycles);
    fb.stop = sim_run(&fb.m, cycles);
    compare(&fa, &fb);
    compare_arch(&a, &fa);
    sim_stop_kind k = a.stop;
    fp_free(&a);
    fp_free(&b);
    fp_free(&fa);
    fp_free(&fb);
    return k;
}

static const input prog_inputs[] = {{"in_a", 384}, {"in_b", 384}, {"in_x", 384}, {"in_y", 384}, {"in", 384},
                                    {"alpha", 4}, {NULL, 0}};

static void test_programs(void **state)
{
    (void)state;
    static const char *const progs[] = {"vadd_f32", "vadd_f16", "axpy_f32", "reduce_f32", "tanh_f32", "conv1x1_f16", "conv1x1_f32", "bench/loop6"};
    static const char *const one[] = {NULL}, *const two[] = {"tiles=2", NULL};
    static const char *const *const optsets[] = {one, two};
    char src[512], elf[] = "/tmp/xpusim-ipu-fp-XXXXXX";
    int fd = mkstemp(elf);
    assert_true(fd >= 0);
    close(fd);
    for (unsigned p = 0; p < sizeof progs / sizeof progs[0]; p++) {
        snprintf(src, sizeof src, "%s/programs/ipu/%s.S", test_root(), progs[p]);
        assert_int_equal(assemble(src, elf), 0);
        for (int o = 0; o < 2; o++)
            for (int rep = 0; rep < 3; rep++)
                assert_int_equal(run_both(elf, optsets[o], prog_inputs, 2000000), SIM_STOP_HALT);
    }
    unlink(elf);
}

/* ---- random mixes ---- */

static const char *mreg(void) { static const char *const r[] = {"$m0", "$m1", "$m2", "$m3", "$m4", "$m5", "$m6", "$m7", "$m15", "$m11"}; return r[rnd() % 10]; }
static const char *areg(void)
{
    static const char *const r[] = {"$a0", "$a1", "$a2", "$a3", "$a4", "$a5", "$a6", "$a7", "$a8", "$a9", "$a10", "$a11", "$a12", "$a13", "$a14", "$a15"};
    return r[rnd() % 16];
}
static const char *apair(void) { static const char *const r[] = {"$a0:1", "$a2:3", "$a4:5", "$a6:7", "$a8:9", "$a10:11", "$a12:13", "$a14:15"}; return r[rnd() % 8]; }

/* a main-pipe instruction that cannot fault: integer ALU, movz, loads/stores at $m8 (the
 * worker's 256-byte data block) with offsets inside it */
static void main_insn(char *b, size_t n, int faults)
{
    static const char *const alu[] = {"add", "sub", "mul", "and", "andc", "or", "xor", "xnor", "min", "max",
                                      "cmpeq", "cmpne", "cmpslt", "cmpult"};
    static const char *const un[] = {"abs", "clz", "cms", "popc", "bitrev8"};
    switch (rnd() % 14) {
    case 0: case 1: case 2:
        snprintf(b, n, "%s %s, %s, %s", alu[rnd() % 14], mreg(), mreg(), mreg());
        break;
    case 3:
        snprintf(b, n, "%s %s, %s, %u", (const char *[]){"add", "and", "or", "cmpeq", "max"}[rnd() % 5], mreg(), mreg(), rnd() % 4096);
        break;
    case 4:
        snprintf(b, n, "%s %s, %s", un[rnd() % 5], mreg(), mreg());
        break;
    case 5:
        snprintf(b, n, "%s %s, %s, %u", (const char *[]){"shl", "shr", "shrs"}[rnd() % 3], mreg(), mreg(), rnd() % 32);
        break;
    case 6:
        if (faults && rnd() % 4 == 0) /* a register shift amount: above 31 stops (not modelled) */
            snprintf(b, n, "shl %s, %s, %s", mreg(), mreg(), mreg());
        else
            snprintf(b, n, "setzi %s, %u", mreg(), rnd() % 0x100000);
        break;
    case 7:
        snprintf(b, n, "movz %s, %s, %s", mreg(), mreg(), mreg());
        break;
    case 8:
        snprintf(b, n, "ld32 %s, $m8, $m15, %u", rnd() % 2 ? mreg() : areg(), rnd() % 64);
        break;
    case 9:
        snprintf(b, n, "st32 %s, $m8, $m15, %u", rnd() % 2 ? mreg() : areg(), rnd() % 60);
        break;
    case 10:
        if (rnd() % 5 == 0)
            snprintf(b, n, "ldb16 %s, $m8, $m15, %u", areg(), rnd() % 64);
        else
            snprintf(b, n, "%s %s, $m8, $m15, %u", (const char *[]){"ldz8", "lds8", "ldz16", "lds16"}[rnd() % 4],
                     mreg(), rnd() % 64);
        break;
    case 11:
        snprintf(b, n, "%s %s, $m8, $m15, %u", rnd() % 2 ? "ld64" : "st64", apair(), rnd() % 30);
        break;
    case 12:
        if (faults && rnd() % 3 == 0) /* outside tile memory, or misaligned */
            snprintf(b, n, rnd() % 2 ? "setzi $m11, 0xf0000\n  st32 $m1, $m11, $m15, 1" : "ld32 $m1, $m9, $m15, 1");
        else
            snprintf(b, n, "ld32step %s, $m8, $m10+=, 1", (const char *[]){"$m1", "$m2", "$a3"}[rnd() % 3]);
        break;
    default:
        snprintf(b, n, "atom %s, %s", mreg(), areg());
        break;
    }
}

/* an aux-pipe instruction: ARF bitwise, f32 arithmetic */
static void aux_insn(char *b, size_t n)
{
    switch (rnd() % 8) {
    case 0: snprintf(b, n, "%s %s, %s, %s", (const char *[]){"and", "andc", "or"}[rnd() % 3], areg(), areg(), areg()); break;
    case 1: snprintf(b, n, "not %s, %s", areg(), areg()); break;
    case 2: snprintf(b, n, "%s %s, %s, %s", (const char *[]){"and64", "andc64", "or64"}[rnd() % 3], apair(), apair(), apair()); break;
    case 3: snprintf(b, n, "not64 %s, %s", apair(), apair()); break;
    case 4: snprintf(b, n, "setzi %s, %u", areg(), rnd() % 0x100000); break;
    case 5: snprintf(b, n, "f32add %s, %s, %s", areg(), areg(), areg()); break;
    case 6: snprintf(b, n, "f32v2add %s, %s, %s", apair(), apair(), apair()); break;
    default: snprintf(b, n, "fnop"); break;
    }
}

/* Worker code: set-up, then a loop of random solo instructions and bundles, an rpt body of
 * bundles, and an exit. $m8 is the worker's data block, $m9 a misaligned address, $m10 a
 * delta, $m12/$m13 the ABI's. The supervisor starts `workers` workers. */
static void write_mix(FILE *f, int workers, int faults)
{
    char x[160], y[160];
    fprintf(f, ".section .data\n.align 8\n.globl blk\nblk: .space 1536\n");
    fprintf(f, ".section .text.worker, \"ax\"\n.worker\n.align 8\n.globl wk\n.type wk, @function\nwk:\n");
    fprintf(f, "  get $m0, $WSR\n  and $m0, $m0, 7\n  shl $m8, $m0, 8\n  setzi $m1, blk\n  add $m8, $m8, $m1\n");
    fprintf(f, "  add $m9, $m8, 2\n  setzi $m10, 0\n");
    for (int i = 0; i < 8; i++)
        fprintf(f, "  setzi $m%d, %u\n", i < 7 ? i : 11, rnd() % 0x100000);
    fprintf(f, ".Ltop:\n");
    int len = 10 + (int)(rnd() % 30);
    for (int i = 0; i < len; i++) {
        if (rnd() % 3 == 0) {
            main_insn(x, sizeof x, 0);
            aux_insn(y, sizeof y);
            fprintf(f, "  .align 8\n  { %s\n    %s }\n", x, y);
        } else if (rnd() % 5 == 0) {
            aux_insn(x, sizeof x);
            fprintf(f, "  %s\n", x);
        } else {
            main_insn(x, sizeof x, faults);
            fprintf(f, "  %s\n", x);
            if (rnd() % 3 == 0) /* results reach memory, where they stay to be compared */
                fprintf(f, "  st32 %s, $m8, $m15, %u\n", rnd() % 2 ? mreg() : areg(), rnd() % 60);
        }
        if (rnd() % 16 == 0) {
            fprintf(f, "  setzi $m6, %u\n  .align 8\n  { rpt $m6, 1\n    fnop }\n", rnd() % 4);
            for (int j = 0; j < 2; j++) {
                main_insn(x, sizeof x, 0);
                aux_insn(y, sizeof y);
                fprintf(f, "  { %s\n    %s }\n", x, y);
            }
            if (faults && rnd() % 4 == 0)
                fprintf(f, "  setzi $m6, 2\n  .align 8\n  { rpt $m6, 0\n    fnop }\n  add $m1, $m1, 1\n");
        }
    }
    fprintf(f, "  get $m0, $WSR\n  and $m0, $m0, 7\n  setzi $m8, blk\n  shl $m0, $m0, 8\n  add $m8, $m8, $m0\n");
    fprintf(f, "  ld32 $m7, $m8, $m15, 63\n  add $m7, $m7, 1\n  st32 $m7, $m8, $m15, 63\n");
    fprintf(f, "  cmpult $m6, $m7, 4\n  brnz $m6, .Ltop\n  exitz $mzero\n.size wk, . - wk\n");
    fprintf(f, ".section .text.sup, \"ax\"\n.supervisor\n.globl _start\n.type _start, @function\n_start:\n");
    fprintf(f, "  setzi $m0, wk\n");
    if (workers == 6)
        fprintf(f, "  runall $m0, $m15, 0\n");
    else
        for (int k = 0; k < workers; k++)
            fprintf(f, "  run $m0, $m15, %d\n", k * 64);
    fprintf(f, "  br $m10\n.size _start, . - _start\n");
}

static void test_mix(void **state)
{
    (void)state;
    char src[] = "/tmp/xpusim-ipu-mix-XXXXXX", elf[] = "/tmp/xpusim-ipu-mixe-XXXXXX";
    int fd = mkstemp(src), fe = mkstemp(elf);
    assert_true(fd >= 0 && fe >= 0);
    close(fd);
    close(fe);
    int halted = 0, stopped = 0;
    int rejected = 0;
    for (int i = 0; i < 160; i++) {
        int faults = i % 2, ok = 0;
        char s2[64];
        snprintf(s2, sizeof s2, "%s.S", src);
        /* the generator does not know every pairing rule the assembler checks (two halves
         * writing one register): a rejected mix is drawn again */
        for (int tries = 0; tries < 20 && !ok; tries++) {
            FILE *f = fopen(s2, "w");
            assert_non_null(f);
            write_mix(f, 1 + i % 6, faults);
            fclose(f);
            assemble_quiet = tries < 19;
            ok = !assemble(s2, elf);
            rejected += !ok;
        }
        assert_true(ok);
        static const input blk[] = {{"blk", 1536}, {NULL, 0}};
        sim_stop_kind k = run_both(elf, NULL, blk, 400000);
        if (k == SIM_STOP_HALT)
            halted++;
        else
            stopped++;
    }
    print_message("random mixes: %d halted, %d stopped (faults, not modelled); %d drawn again\n", halted, stopped,
                  rejected);
    assert_true(halted > 20);
    assert_true(stopped > 10);
    char s2[64];
    snprintf(s2, sizeof s2, "%s.S", src);
    unlink(s2);
    unlink(src);
    unlink(elf);
}

XPUSIM_TESTS(ipu_fastpath,
             cmocka_unit_test(test_programs),
             cmocka_unit_test(test_mix));
