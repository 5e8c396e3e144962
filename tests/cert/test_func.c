/* tests/cert/test_func.c: the CERT functional mode (-o timing=none; docs/isa/cert.md
 * "Functional mode") against the cycle model on every program of programs/cert, assembled
 * here by our assembler and run with the options programs.t.sh runs them with. Both runs must
 * reach the same architectural result: the same stop kind; per uC the global registers
 * $g0-$g15, whether it reached its last EOF, its records (id, kind, page, offset, and the
 * value of SAVE_REGISTER; a SAVE_TIMESTAMPS value is a cycle, which differs by design), the
 * opcodes it retired, its pages, jobs, loads, tokens, uC-DMA transfers and bytes, AXI
 * writes and unmodelled accesses; the array model's state (cert_array_hash: BDs, locks,
 * channel registers, queues, storage); and for a hang the same report, cycle numbers aside.
 * One program changes by design and is checked for it: hang_dropped pushes six tasks onto
 * a 4-deep queue faster than the cycle model's DMA drains it, so the sixth is dropped and
 * WAIT_TCTS waits forever; functionally each task completes before the next push (no DMA
 * time), nothing is dropped and the program ends. The functional run's cycles are steps:
 * one per opcode and per START_JOB/EOF the parser reads, and nothing else. A fast-forward
 * (functional for the first opcodes, then the cycle model) also reaches the same result. */
#include <stdio.h>
#include <unistd.h>
#include "../testlib.h"
#include "../../isa/cert/runner.h"

extern const isa_ops isa_cert;

typedef struct frun {
    sim_machine m;
    ld_image img;
    sim_stop_kind stop;
    FILE *log;
    char text[16384];
} frun;

static void start(frun *r, const char *elf, const char *const *opts, int functional)
{
    char err[512];
    memset(r, 0, sizeof *r);
    if (ld_load(elf, &r->img, err, sizeof err))
        fail_msg("load %s: %s", elf, err);
    sim_opts o;
    opt_init(&o);
    for (int i = 0; opts && opts[i]; i++)
        assert_int_equal(opt_parse(&o, opts[i]), 0);
    if (functional)
        assert_int_equal(opt_parse(&o, "timing=none"), 0);
    if (sim_create(&r->m, &isa_cert, &o, err, sizeof err))
        fail_msg("create: %s", err);
    r->log = tmpfile();
    r->m.err = r->log;
    if (isa_cert.load(&r->m, &r->img, err, sizeof err))
        fail_msg("load: %s", err);
    r->m.image = &r->img;
    r->stop = sim_run(&r->m, SIM_NEVER);
    if (isa_cert.finish)
        isa_cert.finish(&r->m);
    fflush(r->log);
    rewind(r->log);
    size_t n = fread(r->text, 1, sizeof r->text - 1, r->log);
    r->text[n] = 0;
}

static void finish(frun *r)
{
    sim_destroy(&r->m);
    ld_free(&r->img);
    fclose(r->log);
}

/* s without the digits that follow "cycle " (and "cycles"): the report's times */
static void no_cycles(const char *s, char *out, size_t n)
{
    size_t k = 0;
    while (*s && k + 1 < n) {
        if (!strncmp(s, "cycle ", 6)) {
            memcpy(out + k, "cycle ", 6 < n - k - 1 ? 6 : n - k - 1);
            k += 6;
            s += 6;
            while (*s >= '0' && *s <= '9')
                s++;
            continue;
        }
        out[k++] = *s++;
    }
    out[k < n ? k : n - 1] = 0;
}

static uint64_t cnt(const frun *r, int uc, int k) { return r->m.units[uc].counters[k].value; }

static uint64_t uc_insns(const frun *r, int uc)
{
    uint64_t n = 0;
    for (int t = 0; t < r->m.units[uc].nthreads; t++)
        n += r->m.units[uc].threads[t].instructions;
    return n;
}

static void compare(frun *a, frun *f, const char *name)
{
    cert_machine *ca = cert_m(&a->m), *cf = cert_m(&f->m);
    print_message("%s: %s at cycle %llu / functional %s at step %llu\n", name, sim_stop_name(a->stop),
                  (unsigned long long)sim_end_cycle(&a->m), sim_stop_name(f->stop),
                  (unsigned long long)sim_end_cycle(&f->m));
    assert_int_equal(a->stop, f->stop);
    assert_false(ca->tm.functional);
    assert_int_equal(ca->nuc, cf->nuc);
    for (int u = 0; u < ca->nuc; u++) {
        const cert_uc *x = &ca->uc[u], *y = &cf->uc[u];
        assert_memory_equal(x->g, y->g, sizeof x->g);
        assert_int_equal(x->done, y->done);
        assert_int_equal(x->nrec, y->nrec);
        for (int i = 0; i < x->nrec; i++) {
            assert_int_equal(x->rec[i].id, y->rec[i].id);
            assert_int_equal(x->rec[i].kind, y->rec[i].kind);
            assert_int_equal(x->rec[i].page, y->rec[i].page);
            assert_int_equal(x->rec[i].off, y->rec[i].off);
            if (x->rec[i].kind == 1)
                assert_int_equal(x->rec[i].value, y->rec[i].value);
        }
        assert_int_equal(uc_insns(a, u), uc_insns(f, u));
        static const int same[] = {CN_PAGES, CN_JOBS, CN_TOKENS, CN_UCDMA_XFERS, CN_UCDMA_BYTES, CN_RECORDS,
                                   CN_LOADS, CN_AXI_WRITES, CN_UNMODELLED, CN_DROPPED};
        for (unsigned k = 0; k < sizeof same / sizeof same[0]; k++)
            if (cnt(a, u, same[k]) != cnt(f, u, same[k]))
                fail_msg("%s uc%d: %s %llu, functional %llu", name, u, cert_counter_names[same[k]],
                         (unsigned long long)cnt(a, u, same[k]), (unsigned long long)cnt(f, u, same[k]));
    }
    assert_int_equal(cert_array_hash(ca->array), cert_array_hash(cf->array));
    if (a->stop != SIM_STOP_HALT) {
        static char x[16384], y[16384];
        no_cycles(a->m.stop.msg, x, sizeof x);
        no_cycles(f->m.stop.msg, y, sizeof y);
        assert_string_equal(x, y);
        assert_int_equal(!ca->last_report, !cf->last_report); /* a fault has none */
        if (!ca->last_report)
            return;
        no_cycles(ca->last_report, x, sizeof x);
        no_cycles(cf->last_report, y, sizeof y);
        assert_string_equal(x, y);
    }
}

/* Assemble programs/cert/NAME.asm (as programs.t.sh does) into elf. */
static void assemble(const char *name, int latest, const char *elf)
{
    char src[512], err[1024];
    snprintf(src, sizeof src, "%s/programs/cert/%s.asm", test_root(), name);
    sim_opts o;
    opt_init(&o);
    assert_int_equal(opt_parse(&o, "aiebu=2025.02"), 0);
    if (latest)
        assert_int_equal(opt_parse(&o, "spec=latest"), 0);
    const char *srcs[1] = {src};
    if (isa_cert.assemble(1, srcs, elf, &o, err, sizeof err))
        fail_msg("assemble %s: %s", name, err);
}

typedef struct prog {
    const char *name;
    int latest;
    const char *opts[4];
} prog;

static const prog progs[] = {
    {"dma_tokens", 0, {NULL}},
    {"barriers", 0, {NULL}},
    {"multi_uc", 0, {NULL}},
    {"pages", 1, {"spec=latest", NULL}},
    {"preempt", 1, {"spec=latest", "preempt=0", NULL}},
    {"preempt", 1, {"spec=latest", "preempt=1", NULL}},
    {"ops", 1, {"spec=latest", NULL}},
    {"hang_no_token", 0, {NULL}},
    {"hang_few_tokens", 0, {NULL}},
    {"hang_local_barrier", 0, {NULL}},
    {"hang_remote_barrier", 0, {NULL}},
    {"hang_poll", 0, {NULL}},
    {"hang_deferred", 0, {NULL}},
    {"hang_ucdma_handle", 0, {NULL}},
};

static void test_programs(void **state)
{
    (void)state;
    char elf[] = "/tmp/xpusim-cert-func-XXXXXX";
    int fd = mkstemp(elf);
    assert_true(fd >= 0);
    close(fd);
    static frun a, f;
    for (unsigned i = 0; i < sizeof progs / sizeof progs[0]; i++) {
        assemble(progs[i].name, progs[i].latest, elf);
        start(&a, elf, progs[i].opts, 0);
        start(&f, elf, progs[i].opts, 1);
        assert_true(cert_m(&f.m)->tm.functional);
        compare(&a, &f, progs[i].name);
        /* the steps: every opcode retired and every START_JOB/EOF read costs one; nothing
         * else takes time, so a run that ended has as many steps as opcodes plus parser reads
         * on its busiest uC at most, and never fewer than its opcodes */
        for (int u = 0; u < f.m.nunits && f.stop == SIM_STOP_HALT; u++) {
            const uint64_t ops = uc_insns(&f, u), parsed = cnt(&f, u, CN_JOBS) + cnt(&f, u, CN_PAGES);
            assert_true(f.m.units[u].halted_at >= ops);
            assert_true(f.m.units[u].halted_at <= sim_end_cycle(&f.m));
            assert_true(sim_end_cycle(&f.m) <= 4 * (ops + parsed) + 16);
        }
        finish(&a);
        finish(&f);
    }
    unlink(elf);
}

/* hang_dropped: the cycle model drops the sixth push and hangs on the missing token;
 * functionally no push meets a full queue and the program ends (see the top). */
static void test_dropped(void **state)
{
    (void)state;
    char elf[] = "/tmp/xpusim-cert-func-XXXXXX";
    int fd = mkstemp(elf);
    assert_true(fd >= 0);
    close(fd);
    static frun a, f;
    assemble("hang_dropped", 0, elf);
    start(&a, elf, NULL, 0);
    start(&f, elf, NULL, 1);
    assert_int_equal(a.stop, SIM_STOP_DEADLOCK);
    assert_int_equal(cnt(&a, 0, CN_DROPPED), 1);
    assert_int_equal(f.stop, SIM_STOP_HALT);
    assert_int_equal(cnt(&f, 0, CN_DROPPED), 0);
    assert_int_equal(cnt(&f, 0, CN_TOKENS), 6);
    assert_int_equal(cnt(&a, 0, CN_TOKENS), 5);
    assert_true(cert_m(&f.m)->uc[0].done);
    finish(&a);
    finish(&f);
    unlink(elf);
}

/* A fast-forward: functional for the first N opcodes, then the cycle model
 * (cert_timing_resume puts the options' latencies back): the same architectural result as
 * a plain cycle-model run, and the timed part takes time again (a step costs at least one
 * cycle functionally, but the cycle model's opcodes cost 10 and more). */
static void test_fast_forward(void **state)
{
    (void)state;
    char elf[] = "/tmp/xpusim-cert-func-XXXXXX";
    int fd = mkstemp(elf);
    assert_true(fd >= 0);
    close(fd);
    static frun a, f;
    static const char *const opts[] = {"spec=latest", NULL};
    assemble("pages", 1, elf);
    start(&a, elf, opts, 0);
    for (uint64_t n = 1; n <= 12; n += 5) {
        char err[512];
        memset(&f, 0, sizeof f);
        if (ld_load(elf, &f.img, err, sizeof err))
            fail_msg("load: %s", err);
        sim_opts o;
        opt_init(&o);
        assert_int_equal(opt_parse(&o, "spec=latest"), 0);
        assert_int_equal(opt_parse(&o, "timing=none"), 0);
        assert_int_equal(sim_create(&f.m, &isa_cert, &o, err, sizeof err), 0);
        f.log = tmpfile();
        f.m.err = f.log;
        assert_int_equal(isa_cert.load(&f.m, &f.img, err, sizeof err), 0);
        f.m.image = &f.img;
        f.m.ff_insns = n;
        assert_int_equal(sim_run(&f.m, SIM_NEVER), SIM_STOP_MARKER);
        const uint64_t at = sim_end_cycle(&f.m);
        assert_int_equal(sim_ff_switch(&f.m, "insns", 1), 0);
        assert_false(f.m.functional);
        assert_false(cert_m(&f.m)->tm.functional);
        assert_int_equal(cert_m(&f.m)->tm.cost[CC_JOB], cert_m(&a.m)->tm.cost[CC_JOB]);
        f.stop = sim_run(&f.m, SIM_NEVER);
        if (isa_cert.finish)
            isa_cert.finish(&f.m);
        print_message("pages: fast-forward %llu opcodes: switch at step %llu, end at cycle %llu (plain %llu)\n",
                      (unsigned long long)n, (unsigned long long)at, (unsigned long long)sim_end_cycle(&f.m),
                      (unsigned long long)sim_end_cycle(&a.m));
        compare(&a, &f, "pages (fast-forward)");
        assert_true(sim_end_cycle(&f.m) > at + 100);
        finish(&f);
    }
    finish(&a);
    unlink(elf);
}

XPUSIM_TESTS(cert_func,
             cmocka_unit_test(test_programs),
             cmocka_unit_test(test_dropped),
             cmocka_unit_test(test_fast_forward));
