/* tests/nyuzi/test_func.c: the Nyuzi functional mode (-o timing=none, isa/nyuzi/func.c)
 * against the cycle model. Each program runs in both modes; where its result does not
 * depend on timing (it reads no cycle counter and has no race on timing) both runs must
 * agree on the stop, the console output, every byte of memory and every thread's scalar,
 * vector and control registers and pc: the self-checking programs of tests/nyuzi/progs
 * (alu, mem), the benchmark loops of programs/nyuzi/bench on one and four threads, a
 * two-core program whose threads take turns through memory, and random four-thread programs
 * of scalar, vector, masked, compare, load/store, block and gather instructions
 * (tests/nyuzi/tools/gen_random.py). Programs that time themselves with CR 6 (the RTL
 * micro-benchmarks, cycles.S) must agree on the stop and on the console output with the
 * printed numbers masked. The functional run with a breakpoint that never hits (the
 * debugger's per-instruction path) must equal the plain one in everything, cycles
 * included. A fast-forward (functional up to a marker, then nyz_timing_resume and the cycle
 * model) must reach the same architectural state, with the lines the program touched in
 * the caches at the switch; the magic marker stops both modes; the timer counts steps. The
 * operation numbers both executors dispatch on send every ALU and compare instruction to a
 * body that computes what the generic body of its form computes. */
#include <ctype.h>
#include <unistd.h>
#include "../testlib.h"
#include "../../isa/isa.h"
#include "../../isa/nyuzi/exec_ops.h"
#include "../../core/debug.h"

extern const isa_ops isa_nyuzi;

typedef struct run {
    sim_machine m;
    ld_image img;
    FILE *out;
    char *text;
    size_t len;
    sim_stop_kind stop;
} run;

static char tmpdir[] = "/tmp/nyzfuncXXXXXX";

/* Assemble src (with at most one -o option) into tmpdir/name.elf; returns the path. */
static const char *assemble(const char *src, const char *opt, const char *name)
{
    static char elf[256];
    char err[1024];
    sim_opts o;
    opt_init(&o);
    if (opt)
        opt_parse(&o, opt);
    snprintf(elf, sizeof elf, "%s/%s.elf", tmpdir, name);
    const char *srcs[1] = {src};
    if (isa_nyuzi.assemble(1, srcs, elf, &o, err, sizeof err))
        fail_msg("assemble %s: %s", src, err);
    return elf;
}

/* Run a generator (python3 ARGS > tmpdir/name.S) and assemble its output; NULL without
 * python3. */
static const char *generate(const char *args, const char *name)
{
    static char src[256];
    char cmd[512];
    snprintf(src, sizeof src, "%s/%s.S", tmpdir, name);
    snprintf(cmd, sizeof cmd, "python3 %s > %s 2>/dev/null", args, src);
    if (system(cmd) != 0)
        return NULL;
    return assemble(src, NULL, name);
}

/* opts: NULL-terminated "key=value"; until: last cycle. fwd > 0: functional until cycle
 * fwd, then the cycle model to the end. */
static void start(run *r, const char *elf, const char *const *opts, int functional, int slow)
{
    char err[512];
    memset(r, 0, sizeof *r);
    if (ld_load(elf, &r->img, err, sizeof err))
        fail_msg("load %s: %s", elf, err);
    sim_opts o;
    opt_init(&o);
    opt_parse(&o, "mem=0x200000"); /* 2 MiB: enough for every program here, quick to compare */
    for (int i = 0; opts && opts[i]; i++)
        opt_parse(&o, opts[i]);
    if (functional)
        opt_parse(&o, "timing=none");
    if (sim_create(&r->m, &isa_nyuzi, &o, err, sizeof err))
        fail_msg("create: %s", err);
    if (isa_nyuzi.load(&r->m, &r->img, err, sizeof err))
        fail_msg("load: %s", err);
    r->m.image = &r->img;
    r->out = open_memstream(&r->text, &r->len);
    assert_non_null(r->out);
    r->m.out = r->out;
    assert_int_equal(r->m.functional, functional);
    if (slow) /* a breakpoint that never hits: the per-instruction path */
        assert_true(dbg_break_add(&r->m, 0xfffffff0ull, -1, 0, "never") >= 0);
}

static void finish(run *r)
{
    fflush(r->out);
}

static void release(run *r)
{
    sim_destroy(&r->m);
    ld_free(&r->img);
    fclose(r->out);
    free(r->text);
}

static void go(run *r, const char *elf, const char *const *opts, int functional, int slow)
{
    start(r, elf, opts, functional, slow);
    r->stop = sim_run(&r->m, 20000000);
    finish(r);
}

/* The output with every run of hex digits masked (the numbers a timed program prints). */
static void mask_numbers(char *s)
{
    for (char *p = s; *p; p++)
        if (isxdigit((unsigned char)*p))
            *p = '#';
}

/* What the program computed: memory and registers of every thread, and the console. */
static void compare_arch(run *a, run *f, int timed)
{
    assert_int_equal(a->stop, f->stop);
    assert_int_equal(a->stop, SIM_STOP_HALT);
    if (timed) {
        mask_numbers(a->text);
        mask_numbers(f->text);
        assert_string_equal(a->text, f->text);
        return;
    }
    assert_string_equal(a->text, f->text);
    nyz_machine *na = a->m.isa_state, *nf = f->m.isa_state;
    assert_memory_equal(na->ram, nf->ram, na->ram_size);
    for (int ci = 0; ci < na->ncores; ci++)
        for (int i = 0; i < na->nthreads; i++) {
            const nyz_thread *ta = &na->cores[ci].t[i], *tf = &nf->cores[ci].t[i];
            assert_memory_equal(ta->s, tf->s, sizeof ta->s);
            assert_memory_equal(ta->v, tf->v, sizeof ta->v);
            assert_int_equal(ta->pc, tf->pc);
            assert_int_equal(ta->flags, tf->flags);
            assert_int_equal(ta->subcycle, tf->subcycle);
            assert_int_equal(ta->asid, tf->asid);
            assert_int_equal(ta->int_mask, tf->int_mask);
            assert_memory_equal(ta->ts, tf->ts, sizeof ta->ts);
            assert_int_equal(a->m.units[ci].threads[i].state, f->m.units[ci].threads[i].state);
        }
}

/* Everything, cycles and statistics included (two functional runs). */
static void compare_all(run *a, run *b)
{
    compare_arch(a, b, 0);
    assert_int_equal(a->m.stop.cycle, b->m.stop.cycle);
    assert_int_equal(sim_end_cycle(&a->m), sim_end_cycle(&b->m));
    for (int u = 0; u < a->m.nunits; u++)
        for (int t = 0; t < a->m.units[u].nthreads; t++) {
            const sim_thread *x = &a->m.units[u].threads[t], *y = &b->m.units[u].threads[t];
            assert_int_equal(x->instructions, y->instructions);
            assert_int_equal(x->issue_cycles, y->issue_cycles);
            assert_int_equal(x->halted_at, y->halted_at);
        }
}

/* Cycle model, functional, functional through the debugger's path. */
static void check(const char *elf, const char *const *opts, int timed)
{
    static run a, f, s;
    go(&a, elf, opts, 0, 0);
    go(&f, elf, opts, 1, 0);
    go(&s, elf, opts, 1, 1);
    assert_true(s.m.slow);
    compare_all(&f, &s);
    compare_arch(&a, &f, timed);
    /* functional: a core takes one step per instruction, gather lane or interrupt */
    for (int u = 0; u < f.m.nunits; u++) {
        uint64_t n = 0;
        for (int t = 0; t < f.m.units[u].nthreads; t++)
            n += f.m.units[u].threads[t].instructions;
        assert_true(n <= sim_end_cycle(&f.m));
    }
    release(&a);
    release(&f);
    release(&s);
}

static void test_progs(void **state)
{
    (void)state;
    const char *const inc[] = {"include=tests/nyuzi/progs", NULL};
    const char *const two[] = {"cores=2", NULL};
    check(assemble("tests/nyuzi/progs/alu.S", inc[0], "alu"), NULL, 0);
    check(assemble("tests/nyuzi/progs/mem.S", inc[0], "mem"), NULL, 0);
    check(assemble("tests/nyuzi/progs/alu.S", inc[0], "alu"), two, 0);
    /* cycles.S checks the cycle model's deltas: functional, it prints FAIL and a line */
    static run a, f;
    const char *elf = assemble("tests/nyuzi/progs/cycles.S", inc[0], "cycles");
    go(&a, elf, NULL, 0, 0);
    go(&f, elf, NULL, 1, 0);
    assert_int_equal(f.stop, SIM_STOP_HALT);
    assert_string_equal(a.text, "PASS\n");
    assert_true(strncmp(f.text, "FAIL line ", 10) == 0);
    release(&a);
    release(&f);
}

static void test_bench_loops(void **state)
{
    (void)state;
    check(assemble("programs/nyuzi/bench/loop1.S", "define=ITERATIONS=300", "loop1"), NULL, 0);
    check(assemble("programs/nyuzi/bench/loop4.S", "define=ITERATIONS=300", "loop4"), NULL, 0);
    const char *const t8[] = {"threads=8", NULL};
    check(assemble("programs/nyuzi/bench/loop4.S", "define=ITERATIONS=50", "loop4"), t8, 0);
}

/* Eight threads on two cores print their letters in turn: each waits for a counter in
 * memory that the one before sets (spin-waits that need the other threads to run). */
static void test_turns(void **state)
{
    (void)state;
    char src[256];
    snprintf(src, sizeof src, "%s/turns.S", tmpdir);
    FILE *fp = fopen(src, "w");
    assert_non_null(fp);
    fputs("\t.globl _start\n_start:\tli s0, 0xffffffff\n\tsetcr s0, 21\n\tgetcr s1, 0\n\tlea s2, turn\n"
          "1:\tload_32 s3, (s2)\n\tcmpeq_i s3, s3, s1\n\tbz s3, 1b\n\tadd_i s4, s1, 'A'\n"
          "\tli s5, 0xffff0048\n\tstore_32 s4, (s5)\n\tadd_i s3, s1, 1\n\tstore_32 s3, (s2)\n"
          "\tmove s0, 1\n\tshl s0, s0, s1\n\tsetcr s0, 20\n2:\tb 2b\n\t.align 64\nturn:\t.long 0\n", fp);
    fclose(fp);
    const char *const two[] = {"cores=2", NULL};
    static run f;
    const char *elf = assemble(src, NULL, "turns");
    go(&f, elf, two, 1, 0);
    assert_int_equal(f.stop, SIM_STOP_HALT);
    assert_string_equal(f.text, "ABCDEFGH");
    release(&f);
    check(elf, two, 0);
}

static void test_random(void **state)
{
    (void)state;
    for (int seed = 1; seed <= 6; seed++) {
        char args[128], name[32];
        snprintf(args, sizeof args, "tests/nyuzi/tools/gen_random.py %d", seed);
        snprintf(name, sizeof name, "rand%d", seed);
        const char *elf = generate(args, name);
        if (!elf)
            skip();
        check(elf, NULL, 0);
    }
}

/* The RTL micro-benchmarks (every program of tests/nyuzi/rtl/programs.sha256) print cycle
 * counts, different in the two modes; the rest of what they print, and their clean halt,
 * must be the same. */
static void test_rtl_programs(void **state)
{
    (void)state;
    FILE *list = fopen("tests/nyuzi/rtl/programs.sha256", "r");
    assert_non_null(list);
    char line[256], prog[128];
    int n = 0;
    while (fgets(line, sizeof line, list)) {
        if (line[0] == '#' || sscanf(line, "%*s %127s", prog) != 1)
            continue;
        char *dot = strchr(prog, '.'), args[256], name[32];
        assert_non_null(dot);
        *dot = 0; /* NAME.THREADS.S */
        char *threads = dot + 1;
        threads[strcspn(threads, ".")] = 0;
        snprintf(args, sizeof args, "tests/nyuzi/rtl/gen.py %s %s", prog, threads);
        snprintf(name, sizeof name, "rtl%d", n);
        const char *elf = generate(args, name);
        if (!elf)
            break;
        check(elf, NULL, 1);
        n++;
    }
    fclose(list);
    if (n == 0)
        skip();
    assert_true(n >= 60);
}

/* Fast-forward (the core's sim_ff_switch, as `xpusim run --fast-forward` uses it):
 * functional up to a marker, then the cycle model from the architectural state
 * (nyz_timing_resume). Armed with an instruction count the functional part warms the caches
 * (the loop's line in L1I and L2, the threads' buffer lines in L1D); a plain functional run
 * stopped at a cycle limit leaves them cold. Either way the end state is the cycle model's. */
static void test_fast_forward(void **state)
{
    (void)state;
    const char *elf = assemble("programs/nyuzi/bench/loop4.S", "define=ITERATIONS=400", "ff");
    static run a, f;
    go(&a, elf, NULL, 0, 0);
    for (int armed = 0; armed < 2; armed++) {
        start(&f, elf, NULL, 1, 0);
        /* 4 threads x 10 instructions x 400 iterations: the marker half way through */
        if (armed) {
            f.m.ff_insns = 8000;
            assert_int_equal(sim_run(&f.m, 20000000), SIM_STOP_MARKER);
        } else
            assert_int_equal(sim_run(&f.m, 8000), SIM_STOP_LIMIT);
        nyz_machine *nm = f.m.isa_state;
        uint64_t done = sim_total_instructions(&f.m);
        assert_true(done >= 7900 && done < 8100);
        uint32_t code = nm->cores[0].t[0].pc;
        assert_int_equal(nyz_cache_probe(&nm->cores[0].l1i, code), armed);
        assert_int_equal(nyz_cache_probe(&nm->l2, code), armed);
        for (int i = 0; i < 4; i++)
            assert_int_equal(nyz_cache_probe(&nm->cores[0].l1d, nm->cores[0].t[i].s[11]), armed);
        assert_int_equal(sim_ff_switch(&f.m, "test", 1), 0);
        assert_int_equal(f.m.functional, 0);
        uint64_t at = sim_end_cycle(&f.m);
        f.stop = sim_run(&f.m, 20000000);
        finish(&f);
        compare_arch(&a, &f, 0);
        /* the cycle model ran the rest: a dependent add waits for its source (int_latency
         * 5, the loop's add_i v2, v2, v1 after add_i v1), so the timed part took more
         * cycles than it retired instructions */
        assert_true(sim_end_cycle(&f.m) - at > sim_total_instructions(&f.m) - done);
        release(&f);
    }
    release(&a);
}

/* The magic marker `or ra, ra, ra` (NYZ_MAGIC): with a fast-forward to it armed, both
 * modes stop right after it retires (s1 still 5), and the run goes on from there; not
 * armed, it is a no-op (ra keeps its value). */
static void test_magic(void **state)
{
    (void)state;
    char src[256];
    snprintf(src, sizeof src, "%s/magic.S", tmpdir);
    FILE *fp = fopen(src, "w");
    assert_non_null(fp);
    fputs("\t.globl _start\n_start:\tmove s1, 5\n\tmove ra, 77\nmark:\tor ra, ra, ra\n\tadd_i s1, s1, 1\n"
          "\tli s0, 0xffffffff\n\tsetcr s0, 20\n2:\tb 2b\n", fp);
    fclose(fp);
    const char *elf = assemble(src, NULL, "magic");
    static run r;
    for (int functional = 0; functional < 2; functional++)
        for (int armed = 0; armed < 2; armed++) {
            start(&r, elf, NULL, functional, 0);
            nyz_machine *nm = r.m.isa_state;
            const ld_symbol *mark = ld_symbol_find(&r.img, "mark");
            assert_non_null(mark);
            assert_int_equal(mem_ld32le(nm->ram + mark->value), NYZ_MAGIC);
            r.m.ff_magic = (uint8_t)armed;
            if (armed) {
                assert_int_equal(sim_run(&r.m, 100000), SIM_STOP_MARKER);
                assert_int_equal(r.m.stop.pc, mark->value);
                assert_int_equal(r.m.stop.thread, 0);
                assert_int_equal(nm->cores[0].t[0].s[1], 5);
            }
            assert_int_equal(sim_run(&r.m, 100000), SIM_STOP_HALT);
            assert_int_equal(nm->cores[0].t[0].s[1], 6);
            assert_int_equal(nm->cores[0].t[0].s[31], 77);
            finish(&r);
            release(&r);
        }
}

/* The timer in steps. One thread from the ELF entry, one step per instruction from step 0:
 * lea (movehi, or) 0-1, setcr 1, move, setcr 15 (acknowledges the edge latched at reset),
 * setcr 14, li (movehi, or) 6-7, move, move, setcr 4 (FLAGS.I) 10, the store of 100 to the
 * timer at step 11: its output rises 100 + 4 (the I/O path, devices.c TIMER_PATH) later, at
 * step 115, an event that runs before the core's step 115. The spin loop (add_i, bz) runs
 * steps 12-114: add_i at the even steps, 52 of them; step 115 is the interrupt's dispatch
 * instead of the bz (trap pc = spin + 4), the handler's first getcr reads CR 6 at step 116.
 * After eret (step 122) the bz falls through; 125 instructions, 126 steps in all. */
static void test_timer(void **state)
{
    (void)state;
    char src[256];
    snprintf(src, sizeof src, "%s/timer.S", tmpdir);
    FILE *fp = fopen(src, "w");
    assert_non_null(fp);
    fputs("\t.globl _start\n_start:\tlea s1, handler\n\tsetcr s1, 1\n\tmove s1, 2\n\tsetcr s1, 15\n"
          "\tsetcr s1, 14\n\tli s2, 0xffff0240\n\tmove s3, 100\n\tmove s1, 5\n\tsetcr s1, 4\n"
          "\tstore_32 s3, (s2)\nspin:\tadd_i s5, s5, 1\n\tbz s24, spin\n\tli s0, 0xffffffff\n"
          "\tsetcr s0, 20\n2:\tb 2b\nhandler: getcr s23, 6\n\tgetcr s22, 3\n\tgetcr s21, 2\n"
          "\tmove s24, 1\n\tmove s1, 0\n\tsetcr s1, 14\n\teret\n", fp);
    fclose(fp);
    const char *elf = assemble(src, NULL, "timer");
    static run f, a;
    go(&f, elf, NULL, 1, 0);
    assert_int_equal(f.stop, SIM_STOP_HALT);
    const nyz_thread *t = &((nyz_machine *)f.m.isa_state)->cores[0].t[0];
    const ld_symbol *spin = ld_symbol_find(&f.img, "spin");
    assert_non_null(spin);
    assert_int_equal(t->s[23], 116);
    assert_int_equal(t->s[22], NYZ_TT_INTERRUPT);
    assert_int_equal(t->s[21], spin->value + 4);
    assert_int_equal(t->s[5], 52);
    assert_int_equal(t->s[24], 1);
    assert_int_equal(sim_total_instructions(&f.m), 125);
    assert_int_equal(sim_end_cycle(&f.m), 126);
    assert_int_equal(f.m.units[0].counters[0].value, 1); /* perf event "interrupt" */
    /* the cycle model takes the same interrupt (later: s5 and CR 6 differ) */
    go(&a, elf, NULL, 0, 0);
    assert_int_equal(a.stop, SIM_STOP_HALT);
    const nyz_thread *ta = &((nyz_machine *)a.m.isa_state)->cores[0].t[0];
    assert_int_equal(ta->s[22], NYZ_TT_INTERRUPT);
    assert_int_equal(ta->s[24], 1);
    assert_true(ta->s[5] > 0);
    release(&f);
    release(&a);
}

/* The operation numbers (exec_ops.h): every instruction of the table, with random register
 * and immediate fields, gets a number from nyz_predecode (nyz_decode alone leaves none, and
 * nyz_exec then finds the same one); and each ALU or compare instruction's own body (one per
 * operation, form and mask, the vector ones compiled lane-parallel) gives the same registers
 * as the generic body of its form (nyz_alu lane by lane, the mask read at run time), from the
 * same random registers: a number that sent an instruction to another operation's or form's
 * body, or a specialised body that computed otherwise, would differ. */
static uint32_t xorshift(uint32_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    return *x;
}

static void test_operation_numbers(void **state)
{
    (void)state;
    static nyz_thread ta, tb;
    nyz_machine nm = {0};
    nyz_core c = {0};
    uint32_t x = 12345;
    int checked = 0;
    for (int i = 0; i < nyz_noptab; i++)
        for (int k = 0; k < 40; k++) {
            const nyz_opdef *d = &nyz_optab[i];
            const uint32_t w = d->match | (xorshift(&x) & ~d->mask);
            nyz_insn in, plain;
            nyz_predecode(w, &in);
            if (in.def != i)
                continue; /* an earlier entry matches these fields */
            assert_true(in.fop != F_UNSET && in.fop < NYZ_NFOPS);
            assert_int_equal(nyz_decode(w, &plain), in.kind == K_ILLEGAL ? -1 : 0);
            assert_int_equal(plain.fop, F_UNSET);
            unsigned gen;
            switch (in.kind) {
            case K_ALU_SS: gen = F_SS_GEN; break;
            case K_ALU_SI: gen = F_SI_GEN; break;
            case K_ALU_VS: gen = F_VS_GEN; break;
            case K_ALU_VI: gen = F_VI_GEN; break;
            case K_ALU_VV: gen = F_VV_GEN; break;
            case K_CMP_SS: gen = F_CSS_GEN; break;
            case K_CMP_SI: gen = F_CSI_GEN; break;
            case K_CMP_VS: gen = F_CVS_GEN; break;
            case K_CMP_VI: gen = F_CVI_GEN; break;
            case K_CMP_VV: gen = F_CVV_GEN; break;
            default: continue;
            }
            nyz_thread_reset(&ta, 0);
            for (int r = 0; r < 32; r++) {
                ta.s[r] = xorshift(&x);
                for (int l = 0; l < NYZ_LANES; l++) /* a few lanes equal, for the compares */
                    ta.v[r][l] = (l & 3) == 3 ? ta.s[r] : xorshift(&x);
            }
            ta.pc = 0x1000;
            tb = ta;
            nyz_thread tc = ta;
            nyz_effect ea = {0}, eb = {0}, ec = {0};
            nyz_insn g = in;
            g.fop = (uint16_t)gen;
            nyz_exec(&nm, &c, &ta, &in, &ea);
            nyz_exec(&nm, &c, &tb, &g, &eb);
            nyz_exec(&nm, &c, &tc, &plain, &ec);
            assert_memory_equal(ta.s, tb.s, sizeof ta.s);
            assert_memory_equal(ta.v, tb.v, sizeof ta.v);
            assert_memory_equal(ta.s, tc.s, sizeof ta.s);
            assert_memory_equal(ta.v, tc.v, sizeof ta.v);
            assert_int_equal(ta.pc, 0x1004);
            assert_int_equal(tb.pc, 0x1004);
            assert_int_equal(ea.retired, 1);
            checked++;
        }
    assert_true(checked > 1000);
}

static int setup(void **state)
{
    (void)state;
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_progs),
        cmocka_unit_test(test_bench_loops),
        cmocka_unit_test(test_turns),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_rtl_programs),
        cmocka_unit_test(test_fast_forward),
        cmocka_unit_test(test_magic),
        cmocka_unit_test(test_timer),
        cmocka_unit_test(test_operation_numbers),
    };
    return cmocka_run_group_tests_name("nyuzi_func", tests, setup, teardown);
}
