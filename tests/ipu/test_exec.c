/* tests/ipu/test_exec.c: IPU tile execution. Each case builds a small program by encoding
 * rows of the instruction table by their LLVM names (ipu_encode, so no assembler is
 * involved), wraps it in a minimal ELF32 (EM 248, one PT_LOAD at the ipu2 tile memory base
 * 0x4c000), runs it on a one-tile machine and checks registers, memory, exit statuses and
 * stop reasons against values worked out by hand from the instruction definitions
 * (docs/isa/ipu.md). The cycle cases derive their expected numbers from the barrel rules
 * (docs/isa/ipu.md "Execution model"): slot = cycle % 6, worker Wk issues only in slot k,
 * once per turn; the supervisor in slots no active worker holds, an MRF result readable 6
 * cycles after the writer issued, the bundle after a taken branch 6 cycles after it, a
 * started worker first issuing in its slot at least 6 cycles after the run. Each
 * derivation is written next to its test. */
#include "../testlib.h"
#include "ipu_elf.h"
#include "../../isa/isa.h"
#include "../../isa/ipu/ipu.h"
#include "../../isa/ipu/tile.h"

extern const isa_ops isa_ipu;

#define BASE 0x4c000u
#define SUP BASE            /* supervisor code */
#define WRK (BASE + 0x400)  /* worker code */
#define DATA (BASE + 0x1000)
#define NWORDS 0x800

typedef struct prog {
    uint32_t w[NWORDS];
    uint32_t at; /* next address */
} prog;

#define enc ipu_test_enc
static void put(prog *p, uint32_t w)
{
    assert_true(p->at >= BASE && p->at < BASE + 4 * NWORDS);
    p->w[(p->at - BASE) / 4] = w;
    p->at += 4;
}
#define I(p, name, ...) put(p, enc(name, (const int64_t[]){__VA_ARGS__, 0}))
/* { main ; aux }: bit 31 of the main word is the co-issue flag */
#define B(p, m, ma, x, xa) do { put(p, enc(m, (const int64_t[])ma) | 0x80000000u); put(p, enc(x, (const int64_t[])xa)); } while (0)
#define OPS(...) {__VA_ARGS__}
static void data(prog *p, uint32_t addr, uint32_t v) { p->w[(addr - BASE) / 4] = v; }

/* A minimal ELF32 executable: header, one program header, the words. */
static size_t make_elf(const prog *p, uint8_t *out) { return ipu_test_elf(out, p->w, 4 * NWORDS, BASE, SUP); }

typedef struct run {
    sim_machine m;
    ld_image img;
    sim_stop_kind stop;
} run;

static run *run_prog(const prog *p, const char *const *opts, uint64_t max_cycles)
{
    static uint8_t buf[0x100 + 4 * NWORDS];
    run *r = calloc(1, sizeof *r);
    ipu_test_boot(&r->m, &r->img, buf, make_elf(p, buf), opts, NULL);
    r->stop = sim_run(&r->m, max_cycles ? max_cycles : 100000);
    return r;
}
static void run_free(run *r)
{
    sim_destroy(&r->m);
    ld_free(&r->img);
    free(r);
}
static ipu_tile *T(run *r) { return ipu_m(&r->m)->tiles; }
static uint32_t M(run *r, int tid, int reg) { return T(r)->ctx[tid].m[reg]; }
static uint32_t word(run *r, uint32_t addr) { return mem_ld32le(T(r)->mem + (addr - BASE)); }
static void expect_stop(run *r, sim_stop_kind k)
{
    if (r->stop != k)
        fail_msg("stop %s, expected %s: %s", sim_stop_name(r->stop), sim_stop_name(k), r->m.stop.msg);
}

/* setzi $mR, addr; then stores go through st32 $mV, $mR, $m15, index */
static void store(prog *p, int val_reg, int base_reg, int idx) { I(p, "st32_mmmn_zi", val_reg, base_reg, 15, idx); }

static void test_integer_ops(void **state)
{
    (void)state;
    prog p = {.at = SUP};
    I(&p, "setzi_mmmn_zi", 1, 0xf0f0);          /* m1 = 0x0000f0f0 */
    I(&p, "setzi_mmmn_zi", 2, 0xff00);          /* m2 = 0x0000ff00 */
    I(&p, "add_mmmn_si", 3, 15, -5);            /* m3 = -5 */
    I(&p, "setzi_mmmn_zi", 9, DATA);
    I(&p, "add_mmmn", 4, 1, 2);        store(&p, 4, 9, 0);  /* 0xf0f0 + 0xff00 = 0x1eff0 */
    I(&p, "sub_mmmn", 4, 1, 2);        store(&p, 4, 9, 1);  /* sub $d, $a, $b = a - b = 0xf0f0 - 0xff00 */
    I(&p, "sub_mmmn_zi", 4, 18, 3);    store(&p, 4, 9, 2);  /* 18 - (-5) = 23 */
    I(&p, "mul_mmmn_si", 4, 3, 7);     store(&p, 4, 9, 3);  /* -35 */
    I(&p, "and_mmmn", 4, 1, 2);        store(&p, 4, 9, 4);  /* 0xf000 */
    I(&p, "andc_mmmn", 4, 1, 2);       store(&p, 4, 9, 5);  /* 0xf0f0 & ~0xff00 = 0x00f0 */
    I(&p, "or_mmmn", 4, 1, 2);         store(&p, 4, 9, 6);  /* 0xfff0 */
    I(&p, "xor_mmmn", 4, 1, 2);        store(&p, 4, 9, 7);  /* 0x0ff0 */
    I(&p, "xnor_mmmn", 4, 1, 2);       store(&p, 4, 9, 8);  /* ~0x0ff0 */
    I(&p, "abs_mmmn", 4, 3);           store(&p, 4, 9, 9);  /* 5 */
    I(&p, "min_mmmn", 4, 3, 1);        store(&p, 4, 9, 10); /* signed: -5 */
    I(&p, "max_mmmn_zi", 4, 3, 7);     store(&p, 4, 9, 11); /* 7 */
    I(&p, "shl_mmmn_zi", 4, 1, 4);     store(&p, 4, 9, 12); /* 0xf0f00 */
    I(&p, "shr_mmmn_zi", 4, 3, 28);    store(&p, 4, 9, 13); /* 0xfffffffb >> 28 = 0xf */
    I(&p, "shrs_mmmn_zi", 4, 3, 1);    store(&p, 4, 9, 14); /* -5 >> 1 = -3 (arithmetic) */
    I(&p, "clz_mmmn", 4, 1);           store(&p, 4, 9, 15); /* 0xf0f0: 16 */
    I(&p, "cms_mmmn", 4, 3);           store(&p, 4, 9, 16); /* 0xfffffffb: bits 30..3 equal bit 31: 28 */
    I(&p, "popc_mmmn", 4, 1);          store(&p, 4, 9, 17); /* 8 */
    I(&p, "cmpeq_mmmn_si", 4, 3, -5);  store(&p, 4, 9, 18); /* 1 */
    I(&p, "cmpne_mmmn", 4, 1, 2);      store(&p, 4, 9, 19); /* 1 */
    I(&p, "cmpslt_mmmn", 4, 3, 1);     store(&p, 4, 9, 20); /* -5 < 0xf0f0: 1 */
    I(&p, "cmpult_mmmn", 4, 3, 1);     store(&p, 4, 9, 21); /* 0xfffffffb < 0xf0f0 unsigned: 0 */
    I(&p, "or_mmmn_iz", 4, 1, 0xabc00000); store(&p, 4, 9, 22); /* top-placed immediate: 0xabc0f0f0 */
    I(&p, "bitrev8_mmmn", 4, 1);       store(&p, 4, 9, 23); /* bytes f0 f0 -> 0f 0f: 0x0f0f */
    I(&p, "cms_mmmn", 4, 15);          store(&p, 4, 9, 24); /* 0: 31 */
    I(&p, "shrs_mmmn", 4, 3, 15);      store(&p, 4, 9, 25); /* shift by $m15 = 0: -5 */
    I(&p, "br_mmmn", 10);
    run *r = run_prog(&p, NULL, 0);
    expect_stop(r, SIM_STOP_HALT);
    const uint32_t want[] = {0x1eff0, 0xf0f0u - 0xff00u, 23, (uint32_t)-35, 0xf000, 0xf0, 0xfff0, 0x0ff0, ~0x0ff0u, 5,
                             (uint32_t)-5, 7, 0xf0f00, 0xf, (uint32_t)-3, 16, 28, 8, 1, 1, 1, 0, 0xabc0f0f0u, 0x0f0f, 31,
                             (uint32_t)-5};
    for (unsigned i = 0; i < sizeof want / sizeof want[0]; i++)
        if (word(r, DATA + 4 * i) != want[i])
            fail_msg("result %u: 0x%x, expected 0x%x", i, word(r, DATA + 4 * i), want[i]);
    assert_int_equal(M(r, IPU_SUP, 15), 0);
    run_free(r);
}

static void test_branches(void **state)
{
    (void)state;
    prog p = {.at = SUP};
    /* sum 3+2+1 with brnzdec: m1 counts down 3, 2, 1 (taken) and 0 (falls through) */
    I(&p, "setzi_mmmn_zi", 1, 3);
    I(&p, "setzi_mmmn_zi", 2, 0);
    uint32_t loop = p.at;
    I(&p, "add_mmmn", 2, 2, 1);                 /* m2 += m1 */
    I(&p, "brnzdec_mmmn_zi", 1, loop);          /* taken while m1 != 0, decrementing it */
    /* brz/brnz/brneg/brpos: each sets m3 bits when taken */
    I(&p, "setzi_mmmn_zi", 3, 0);
    I(&p, "add_mmmn_si", 4, 15, -1);            /* m4 = -1 */
    I(&p, "brz_mmmn_zi", 15, p.at + 8);         /* taken: skips the next */
    I(&p, "setzi_mmmn_zi", 3, 0xbad);
    I(&p, "brnz_mmmn_zi", 15, p.at + 8);        /* not taken */
    I(&p, "or_mmmn_zi", 3, 3, 1);
    I(&p, "brneg_mmmn_zi", 4, p.at + 8);        /* taken */
    I(&p, "setzi_mmmn_zi", 3, 0xbad);
    I(&p, "brpos_mmmn_zi", 15, p.at + 8);       /* 0 >= 0: taken */
    I(&p, "setzi_mmmn_zi", 3, 0xbad);
    I(&p, "brpos_mmmn_zi", 4, p.at + 8);        /* -1: not taken */
    I(&p, "or_mmmn_zi", 3, 3, 2);
    /* call and return: call writes the next pc to m5, the callee returns with br $m5 */
    uint32_t callee = SUP + 0x200;
    I(&p, "call_mmmn_zi", 5, callee);
    uint32_t after_call = p.at;
    I(&p, "or_mmmn_zi", 3, 3, 8);
    I(&p, "bri_mmmn_zi", p.at + 8);
    I(&p, "setzi_mmmn_zi", 3, 0xbad);
    I(&p, "br_mmmn", 10);
    p.at = callee;
    I(&p, "or_mmmn_zi", 3, 3, 4);
    I(&p, "br_mmmn", 5);
    run *r = run_prog(&p, NULL, 0);
    expect_stop(r, SIM_STOP_HALT);
    assert_int_equal(M(r, IPU_SUP, 2), 6);
    assert_int_equal(M(r, IPU_SUP, 1), 0);
    assert_int_equal(M(r, IPU_SUP, 3), 1 | 2 | 4 | 8);
    assert_int_equal(M(r, IPU_SUP, 5), after_call);
    run_free(r);
}

/* The supervisor runall-s 6 workers; worker n loads word n of the data, doubles it, stores
 * it back and exits with exitnz (status 1 when the doubled value is not zero).
 *
 * Cycles: setzi $m0 issues at 0, setzi $m1 at 1; runall reads both, $m1 is ready at
 * 1 + 6 = 7: runall issues at 7 (slot 1). Each Wk then first issues at the first cycle
 * >= 7 + 6 = 13 with cycle % 6 == k: W1 13, W2 14, W3 15, W4 16, W5 17, W0 18; its 4
 * bundles issue 6 apart, so it exits at first + 18: W1 31, W2 32, W3 33, W4 34, W5 35, W0
 * 36. The supervisor's br $m10 needs a slot: all six are held until W1 exits at 31; slot 1
 * comes round at 37, where it issues. Nothing is left after it: the tile halts at 38.
 * Stalls: supervisor 5 dependency (2..6) and 29 barrel (8..36); W1 5 before its first
 * bundle (8..12) + 3 x 5 = 20 barrel, W0 10 + 15 = 25. */
static void test_runall_six_workers(void **state)
{
    (void)state;
    prog p = {.at = SUP};
    I(&p, "setzi_mmmn_zi", 0, WRK);
    I(&p, "setzi_mmmn_zi", 1, DATA);
    I(&p, "runall_mmmn_zi", 0, 1, 1);           /* vertex bases DATA + 4n */
    I(&p, "br_mmmn", 10);
    p.at = WRK;
    I(&p, "ld32_mmmn_zi", 1, 13, 15, 0);
    I(&p, "add_mmmn", 1, 1, 1);
    I(&p, "st32_mmmn_zi", 1, 13, 15, 0);
    I(&p, "exitnz_mmmn", 1);
    const uint32_t in[6] = {1, 2, 0, 40, 0x80000000u, 7};
    for (int n = 0; n < 6; n++)
        data(&p, DATA + 4 * n, in[n]);
    run *r = run_prog(&p, NULL, 0);
    expect_stop(r, SIM_STOP_HALT);
    sim_unit *u = &r->m.units[0];
    for (int n = 0; n < 6; n++) {
        assert_int_equal(word(r, DATA + 4 * n), in[n] * 2);
        const ipu_ctx *w = &T(r)->ctx[IPU_WORKER(n)];
        assert_int_equal(w->state, IPU_CS_EXITED);
        assert_int_equal(w->exit_status, (uint32_t)(in[n] * 2) != 0);
        assert_int_equal(w->vertex_base, DATA + 4 * n);
        assert_int_equal(u->threads[IPU_WORKER(n)].issue_cycles, 4);
        uint64_t first = n == 0 ? 18 : 12 + (uint64_t)n;
        assert_int_equal(w->exited_at, first + 18 + 1);
    }
    assert_int_equal(u->halted_at, 38);
    assert_int_equal(u->threads[IPU_SUP].stalls[IPU_STALL_DEP], 5);
    assert_int_equal(u->threads[IPU_SUP].stalls[IPU_STALL_BARREL], 29);
    assert_int_equal(u->threads[IPU_WORKER(1)].stalls[IPU_STALL_BARREL], 20);
    assert_int_equal(u->threads[IPU_WORKER(0)].stalls[IPU_STALL_BARREL], 25);
    char st[200];
    isa_ipu.thread_state(&r->m, 0, IPU_WORKER(2), st, sizeof st);
    assert_non_null(strstr(st, "exited at cycle 32 with status 0"));
    run_free(r);
}

/* Supervisor timing alone. Independent: 3 setzi at 0, 1, 2 and br $m10 at 3: halt at 4.
 * Dependent: setzi $m1 at 0; add $m2, $m1 waits for $m1 (0 + 6) and issues at 6; add $m3,
 * $m2 at 12; br $m10 at 13: halt at 14, 10 cycles of dependency stalls.
 * brnzdec loop (PopLibs: 6(n-1)+1): setzi $m1, 3 at 0; brnzdec $m1 reads $m1 (ready 6):
 * taken at 6, 12, 18 (each taken branch and its $m1 write let the next issue 6 later), not
 * taken at 24; br $m10 at 25: halt at 26; 6 x 3 + 1 = 19 cycles from 6 to 25. */
static void test_supervisor_cycles(void **state)
{
    (void)state;
    prog p = {.at = SUP};
    I(&p, "setzi_mmmn_zi", 1, 1);
    I(&p, "setzi_mmmn_zi", 2, 2);
    I(&p, "setzi_mmmn_zi", 3, 3);
    I(&p, "br_mmmn", 10);
    run *r = run_prog(&p, NULL, 0);
    expect_stop(r, SIM_STOP_HALT);
    assert_int_equal(r->m.units[0].halted_at, 4);
    run_free(r);

    prog q = {.at = SUP};
    I(&q, "setzi_mmmn_zi", 1, 5);
    I(&q, "add_mmmn_si", 2, 1, 1);
    I(&q, "add_mmmn_si", 3, 2, 1);
    I(&q, "br_mmmn", 10);
    r = run_prog(&q, NULL, 0);
    expect_stop(r, SIM_STOP_HALT);
    assert_int_equal(r->m.units[0].halted_at, 14);
    assert_int_equal(r->m.units[0].threads[IPU_SUP].stalls[IPU_STALL_DEP], 10);
    assert_int_equal(M(r, IPU_SUP, 3), 7);
    run_free(r);

    prog l = {.at = SUP};
    I(&l, "setzi_mmmn_zi", 1, 3);
    uint32_t loop = l.at;
    I(&l, "brnzdec_mmmn_zi", 1, loop);
    I(&l, "br_mmmn", 10);
    r = run_prog(&l, NULL, 0);
    expect_stop(r, SIM_STOP_HALT);
    assert_int_equal(r->m.units[0].halted_at, 26);
    assert_int_equal(r->m.units[0].threads[IPU_SUP].issue_cycles, 6);
    run_free(r);

    /* the penalties are options: with both at 1 the loop is 0, 1, 2, 3, 4, br at 5 */
    const char *const fast[] = {"sup_dep_cycles=1", "sup_branch_cycles=1", NULL};
    r = run_prog(&l, fast, 0);
    expect_stop(r, SIM_STOP_HALT);
    assert_int_equal(r->m.units[0].halted_at, 6);
    run_free(r);
}

/* One worker shares the barrel. setzi $m0 at 0; run reads $m0 (ready 6) and issues at 6 in
 * slot 0, so W0 owns slot 0 from then on and first issues at the first slot-0 cycle >= 12:
 * 12, then 18, 24, and its exitz at 30. The supervisor's six setzi issue at 7, 8, 9, 10, 11
 * and -- cycle 12 being W0's -- 13; its br $m10 at 14. The tile halts after W0's exit, at 31.
 * The supervisor lost cycle 12 (barrel). */
static void test_run_one_worker(void **state)
{
    (void)state;
    prog p = {.at = SUP};
    I(&p, "setzi_mmmn_zi", 0, WRK);
    I(&p, "run_mmmn_zi", 0, 15, 0x10);          /* VERTEX_BASE = 0 + 0x10 x 4 + 0x4c000 */
    for (int k = 2; k < 8; k++)
        I(&p, "setzi_mmmn_zi", k, k);
    I(&p, "br_mmmn", 10);
    p.at = WRK;
    I(&p, "setzi_mmmn_zi", 1, 1);
    I(&p, "setzi_mmmn_zi", 2, 2);
    I(&p, "setzi_mmmn_zi", 3, 3);
    I(&p, "exitz_mmmn", 15);
    run *r = run_prog(&p, NULL, 0);
    expect_stop(r, SIM_STOP_HALT);
    sim_unit *u = &r->m.units[0];
    const ipu_ctx *w = &T(r)->ctx[IPU_WORKER(0)];
    assert_int_equal(w->vertex_base, BASE + 0x40);
    assert_int_equal(w->m[13], BASE + 0x40);
    assert_int_equal(w->exit_status, 1);
    assert_int_equal(w->exited_at, 31);
    assert_int_equal(T(r)->ctx[IPU_SUP].exited_at, 15);
    assert_int_equal(u->halted_at, 31);
    assert_int_equal(u->threads[IPU_SUP].stalls[IPU_STALL_BARREL], 1);
    assert_int_equal(u->threads[IPU_SUP].stalls[IPU_STALL_DEP], 5);
    assert_int_equal(T(r)->ctx[IPU_SUP].m[7], 7);
    run_free(r);
}

/* Worker loads and stores, MRF and ARF, offset and step forms, and a bundle. */
static void test_loads_stores_bundle(void **state)
{
    (void)state;
    prog p = {.at = SUP};
    I(&p, "setzi_mmmn_zi", 0, WRK);
    I(&p, "run_mmmn_zi", 0, 15, (DATA - BASE) / 4);  /* VERTEX_BASE = DATA */
    I(&p, "br_mmmn", 10);
    p.at = WRK;
    I(&p, "lds8_mmmn_zi", 1, 13, 15, 0);        /* byte 0x80: -128 */
    I(&p, "ldz8_mmmn_zi", 2, 13, 15, 0);        /* 0x80 */
    I(&p, "lds16_mmmn_zi", 3, 13, 15, 1);       /* halfword 1 (offset 2): 0x8001 -> 0xffff8001 */
    I(&p, "ldz16_mmmn_zi", 4, 13, 15, 1);       /* 0x8001 */
    I(&p, "ld32_mmmn_zi", 5, 13, 15, 1);        /* word 1 */
    I(&p, "setzi_mmmn_zi", 6, 8);               /* delta */
    I(&p, "ld32step_mmmn_si", 7, 13, 6, 1);     /* word at DATA+8, then m6 += 4 */
    I(&p, "ld64_mman_zi", 0, 13, 15, 1);        /* $a0:1 = the doubleword at DATA+8 */
    I(&p, "ldb16_mman_zi", 2, 13, 15, 1);       /* $a2 = 0x8001 broadcast */
    I(&p, "st64_mbmn_zi", 0, 13, 15, 4);        /* DATA+32 = $a0:1 */
    I(&p, "st32step_mmmn_si", 5, 13, 6, 2);     /* DATA+12 = m5, m6 = 12 + 8 = 20 */
    I(&p, "or_mmmn_zi", 15, 15, 0);             /* nop (the help text's spelling): bundles are 8-aligned */
    /* the bundle: the aux half reads $a2 as the bundle found it, not the main half's load */
    B(&p, "ld32_mman_zi", OPS(2, 13, 15, 1), "or_aaan_zi", OPS(3, 2, 1));
    B(&p, "add_mmmn_si", OPS(8, 15, 100), "setzi_aaan_zi", OPS(4, 0x12345));
    I(&p, "st32_mbmn_zi", 3, 13, 15, 10);       /* DATA+40 = $a3 */
    I(&p, "atom_mamn", 9, 4);                   /* m9 = $a4 */
    I(&p, "exitz_mmmn", 15);
    data(&p, DATA, 0x80018080u);
    data(&p, DATA + 4, 0x11223344u);
    data(&p, DATA + 8, 0xdeadbeefu);
    data(&p, DATA + 12, 0x01020304u);
    run *r = run_prog(&p, NULL, 0);
    expect_stop(r, SIM_STOP_HALT);
    const ipu_ctx *w = &T(r)->ctx[IPU_WORKER(0)];
    assert_int_equal(w->state, IPU_CS_EXITED);     /* run issued at cycle 6 ($m0 ready): slot 0, W0 */
    assert_int_equal(w->m[1], (uint32_t)-128);
    assert_int_equal(w->m[2], 0x80);
    assert_int_equal(w->m[3], 0xffff8001u);
    assert_int_equal(w->m[4], 0x8001);
    assert_int_equal(w->m[5], 0x11223344u);
    assert_int_equal(w->m[7], 0xdeadbeefu);
    assert_int_equal(w->m[6], 20);
    assert_int_equal(w->a[0], 0xdeadbeefu);
    assert_int_equal(w->a[1], 0x01020304u);      /* DATA+12 before the st32step */
    assert_int_equal(w->a[2], 0x11223344u);      /* the bundle's load */
    assert_int_equal(w->a[3], 0x80018001u | 1);  /* old $a2 (broadcast 0x8001) | 1 */
    assert_int_equal(w->m[8], 100);
    assert_int_equal(w->m[9], 0x12345);
    assert_int_equal(word(r, DATA + 32), 0xdeadbeefu);
    assert_int_equal(word(r, DATA + 36), 0x01020304u);
    assert_int_equal(word(r, DATA + 12), 0x11223344u);
    assert_int_equal(word(r, DATA + 40), 0x80018001u);
    run_free(r);
}

static run *one_worker(void (*body)(prog *), sim_stop_kind want)
{
    prog p = {.at = SUP};
    I(&p, "setzi_mmmn_zi", 0, WRK);
    I(&p, "run_mmmn_zi", 0, 15, 0);
    I(&p, "br_mmmn", 10);
    p.at = WRK;
    body(&p);
    run *r = run_prog(&p, NULL, 0);
    expect_stop(r, want);
    return r;
}
static void misaligned(prog *p) { I(p, "setzi_mmmn_zi", 1, DATA + 2); I(p, "ld32_mmmn_zi", 2, 1, 15, 0); }
static void outside(prog *p) { I(p, "st32_mmmn_zi", 15, 15, 15, 0); } /* address 0 */
static void two_mains(prog *p) { B(p, "add_mmmn", OPS(1, 2, 3), "add_mmmn", OPS(4, 5, 6)); }
static void same_reg(prog *p) { B(p, "ld32_mman_zi", OPS(2, 13, 15, 0), "setzi_aaan_zi", OPS(2, 1)); }
static void float_op(prog *p) { I(p, "f32v2aop_aaan_ef", 0, 2, 1); }

static void test_faults(void **state)
{
    (void)state;
    char st[256];
    run *r = one_worker(misaligned, SIM_STOP_FAULT);
    assert_int_equal(r->m.stop.thread, IPU_WORKER(0)); /* run at cycle 6: slot 0 */
    assert_int_equal(r->m.stop.pc, WRK + 4);
    assert_non_null(strstr(r->m.stop.msg, "misaligned 4-byte load at 0x4d002"));
    isa_ipu.thread_state(&r->m, 0, IPU_WORKER(0), st, sizeof st);
    assert_non_null(strstr(st, "TEXCPT_INVALID_ADDR, cause 58"));
    uint8_t b[4];
    assert_int_equal(isa_ipu.reg_read(&r->m, 0, IPU_WORKER(0), isa_reg_find(&isa_ipu, "etype"), b), 0);
    assert_int_equal(b[0], IPU_TEXCPT_INVALID_ADDR);
    run_free(r);

    r = one_worker(outside, SIM_STOP_FAULT);
    assert_non_null(strstr(r->m.stop.msg, "outside tile memory"));
    run_free(r);

    r = one_worker(two_mains, SIM_STOP_ILLEGAL);
    assert_non_null(strstr(r->m.stop.msg, "invalid bundle { add ; add }"));
    run_free(r);

    r = one_worker(same_reg, SIM_STOP_ILLEGAL);
    assert_non_null(strstr(r->m.stop.msg, "both halves write $a2"));
    run_free(r);

    r = one_worker(float_op, SIM_STOP_ILLEGAL);
    assert_non_null(strstr(r->m.stop.msg, "not modelled yet: f32v2aop"));
    run_free(r);

    /* an illegal word: 0 decodes in no row of the worker space */
    prog p = {.at = SUP};
    I(&p, "setzi_mmmn_zi", 0, WRK);
    I(&p, "run_mmmn_zi", 0, 15, 0);
    I(&p, "br_mmmn", 10);
    p.at = WRK;
    put(&p, 0xffffffffu);
    r = run_prog(&p, NULL, 0);
    expect_stop(r, SIM_STOP_ILLEGAL);
    assert_non_null(strstr(r->m.stop.msg, "not a worker instruction"));
    run_free(r);
}

/* `info barrel` and the -o entry option (an address here). */
static void test_view_and_entry(void **state)
{
    (void)state;
    prog p = {.at = SUP};
    I(&p, "setzi_mmmn_zi", 1, 1);               /* skipped by -o entry */
    I(&p, "setzi_mmmn_zi", 2, 2);
    I(&p, "br_mmmn", 10);
    char e[32];
    snprintf(e, sizeof e, "entry=0x%x", SUP + 4);
    const char *const opts[] = {e, NULL};
    run *r = run_prog(&p, opts, 0);
    expect_stop(r, SIM_STOP_HALT);
    assert_int_equal(M(r, IPU_SUP, 1), 0);
    assert_int_equal(M(r, IPU_SUP, 2), 2);
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    const isa_view *v = isa_view_find(&isa_ipu, "barrel");
    assert_non_null(v);
    assert_int_equal(v->show(&r->m, 0, f), 0);
    fclose(f);
    assert_non_null(strstr(buf, "supervisor"));
    assert_non_null(strstr(buf, "returned to the host"));
    free(buf);
    run_free(r);
}

/* ipu_encode is the inverse of the decoder on the MC vectors' words. */
static void test_encode_roundtrip(void **state)
{
    (void)state;
    uint32_t w;
    assert_int_equal(ipu_encode("add_mmmn", (const int64_t[]){1, 2, 3}, &w), 0);
    assert_int_equal(w, 0x44203011u);
    assert_int_equal(ipu_encode("brz_mmmn_zi", (const int64_t[]){3, 0x400ec}, &w), 0);
    assert_int_equal(w, 0x1331003bu);
    assert_int_equal(ipu_encode("exitz_mmmn", (const int64_t[]){15}, &w), 0);
    assert_int_equal(w, 0x43f04000u);
    assert_int_equal(ipu_encode("run_mmmn_zi", (const int64_t[]){0, 0, 0}, &w), 0);
    assert_int_equal(w, 0x14000000u);
    assert_int_equal(ipu_encode("add_mmmn_si", (const int64_t[]){7, 7, -1}, &w), 0);
    assert_int_equal(w, 0x2277ffffu);
    assert_int_equal(ipu_encode("add_mmmn_si", (const int64_t[]){7, 7, 40000}, &w), -4);
    assert_int_equal(ipu_encode("no_such_row", (const int64_t[]){0}, &w), -1);
    /* every row: encoding the decoded operands of its match word gives the word back */
    for (int i = 0; i < ipu_nops; i++) {
        const ipu_opdef *d = &ipu_ops[i];
        ipu_insn in;
        int ctx = d->ctx & IPU_CTX_WORKER ? IPU_CTX_WORKER : IPU_CTX_SUPERVISOR;
        if (ipu_decode_word(d->match, d->arch & -d->arch, ctx, &in) != IPU_DEC_OK || in.op != d)
            continue;
        int64_t ops[IPU_MAX_OPS];
        for (int k = 0; k < d->nops; k++)
            ops[k] = d->op[k].kind <= IPU_K_ARB ? (int64_t)in.v[k] : ipu_operand_value(&in, k);
        assert_int_equal(ipu_encode(d->name, ops, &w), 0);
        assert_int_equal(w, d->match);
    }
}


/* f32/f16 semantics at their edges (docs/isa/ipu.md "Floating point"). A worker loads
 * operand words from DATA (ld32 into $a0/$a1), runs one instruction into $a2 and stores it
 * at DATA + 0x100 + 4 x case. Expected bits are worked out by hand from IEEE 754 and the
 * documented decisions. */
typedef struct fcase {
    const char *row;
    uint32_t x, y;
    int64_t imm;       /* f32int's rounding immediate; -1: a three-register row */
    uint32_t want;
} fcase;
static const fcase fcases[] = {
    {"f32add_aaan", 0x3f800000u, 0x33800000u, -1, 0x3f800000u},  /* 1 + 2^-24: a tie, to even (1) */
    {"f32add_aaan", 0x3f800000u, 0x33800001u, -1, 0x3f800001u},  /* just above the tie: up */
    {"f32sub_aaan", 0x40400000u, 0x3f800000u, -1, 0x40000000u},  /* 3 - 1 = 2: op1 - op2 */
    {"f32div_aaan", 0x3f800000u, 0x00000000u, -1, 0x7f800000u},  /* 1 / 0 = +inf (DIV0 flag) */
    {"f32mul_aaan", 0x7f000000u, 0x40000000u, -1, 0x7f800000u},  /* overflow: +inf (f32 does not clip) */
    {"f32max_aaan", 0x7fc00000u, 0x3f800000u, -1, 0x3f800000u},  /* maxNum: NaN loses */
    {"f32min_aaan", 0x00000000u, 0x80000000u, -1, 0x80000000u},  /* -0 < +0 */
    {"f32cmplt_aaan", 0xbf800000u, 0x3f800000u, -1, 0xffffffffu}, /* -1 < 1: all ones */
    {"f32cmpne_aaan", 0x7fc00000u, 0x7fc00000u, -1, 0xffffffffu}, /* NaN != NaN */
    {"f32absmax_aaan", 0xc0800000u, 0x40000000u, -1, 0x40800000u}, /* max(|-4|, |2|) = 4 */
    {"f32sqrt_aaan", 0xbf800000u, 0, -1, 0x7fc00000u},           /* sqrt(-1): canonical NaN (INV) */
    {"f32int_aaan_ef", 0xbfc00000u, 0, 2, 0xc0000000u},          /* -1.5 toward -inf: -2 */
    {"f32int_aaan_ef", 0xbfc00000u, 0, 3, 0xbf800000u},          /* -1.5 toward zero: -1 */
    {"f32int_aaan_ef", 0x40200000u, 0, 0, 0x40000000u},          /* 2.5 nearest even: 2 */
    {"f32toi32_aaan", 0x4f800000u, 0, -1, 0x7fffffffu},          /* 2^32 saturates (INV) */
    {"f32toi32_aaan", 0xc0300000u, 0, -1, 0xfffffffdu},          /* -2.75, nearest ($FP_CTL.RND 0): -3 */
    {"f32fromi32_aaan", 0xffffffffu, 0, -1, 0xbf800000u},        /* -1 */
    {"f32tof16_aaan", 0x3f801000u, 0, -1, 0x3c003c00u},          /* 1 + 2^-11: tie to even, broadcast */
    {"f32tof16_aaan", 0x477ff000u, 0, -1, 0x7bff7bffu},          /* 65520 overflows: clipped (NANOO 0) */
    {"f32tof16_aaan", 0x33800000u, 0, -1, 0x00010001u},          /* 2^-24: the smallest subnormal */
    {"f16tof32_aaan", 0x12340001u, 0, -1, 0x33800000u},          /* low half 0x0001 = 2^-24 */
    {"f16v2add_aaan", 0x3c003c00u, 0x3c007bffu, -1, 0x40007bffu}, /* low 1+65504 -> 65504, high 1+1 = 2 */
    {"f16v2cmplt_aaan", 0x3c00bc00u, 0x3c003c00u, -1, 0x0000ffffu}, /* (-1 < 1, 1 < 1) */
    {"f16v2sum_aaan", 0x3c004000u, 0, -1, 0x40400000u},          /* 2 + 1 = 3.0f */
    {"f32exp_aaan", 0x00000000u, 0, -1, 0x3f800000u},            /* exp(0) = 1 */
};
#define NFC (sizeof fcases / sizeof fcases[0])

static void fprog(prog *p, uint32_t ctl_or)
{
    I(p, "setzi_mmmn_zi", 0, WRK);
    I(p, "run_mmmn_zi", 0, 15, 0);
    I(p, "br_mmmn", 10);
    p->at = WRK;
    I(p, "setzi_mmmn_zi", 1, DATA);
    if (ctl_or) {
        I(p, "setzi_aaan_zi", 5, ctl_or & 0xfffff);
        I(p, "uput_aaan_zi", 2, 5); /* $FP_CTL (0x102) */
    }
    for (unsigned i = 0; i < NFC; i++) {
        const fcase *c = &fcases[i];
        data(p, DATA + 8 * i, c->x);
        data(p, DATA + 8 * i + 4, c->y);
        I(p, "ld32_mman_zi", 0, 1, 15, 2 * i);
        I(p, "ld32_mman_zi", 1, 1, 15, 2 * i + 1);
        const ipu_opdef *d = ipu_row_by_name(c->row);
        assert_non_null(d);
        if (c->imm >= 0)
            I(p, c->row, 2, 0, c->imm);
        else if (d->nops == 3)
            I(p, c->row, 2, 0, 1);
        else
            I(p, c->row, 2, 0);
        I(p, "st32_mbmn_zi", 2, 1, 15, 0x40 + i);
    }
    I(p, "exitz_mmmn", 15);
}

static void test_float_edges(void **state)
{
    (void)state;
    prog p = {.at = SUP};
    fprog(&p, 0);
    run *r = run_prog(&p, NULL, 0);
    expect_stop(r, SIM_STOP_HALT);
    for (unsigned i = 0; i < NFC; i++)
        if (word(r, DATA + 0x100 + 4 * i) != fcases[i].want)
            fail_msg("%s case %u: 0x%08x, expected 0x%08x", fcases[i].row, i, word(r, DATA + 0x100 + 4 * i),
                     fcases[i].want);
    /* sticky $FP_STS: INV (sqrt(-1), 2^32 to i32), DIV0 (1/0), OFLO (the f32 and f16 overflows) */
    assert_int_equal(T(r)->ctx[IPU_WORKER(0)].fp_sts, 7);
    run_free(r);

    /* NANOO ($FP_CTL bit 20): the f16 overflow gives NaN instead of clipping */
    prog q = {.at = SUP};
    fprog(&q, 0);
    r = run_prog(&q, (const char *const[]){"fp_ctl=0x100000", NULL}, 0);
    expect_stop(r, SIM_STOP_HALT);
    assert_int_equal(word(r, DATA + 0x100 + 4 * 18), 0x7e007e00u);
    run_free(r);

    /* $FP_CTL.DIV0 enabled: 1/0 raises TEXCPT_FP (cause CAUSEID_FLOATING_POINT 22) */
    r = run_prog(&q, (const char *const[]){"fp_ctl=2", NULL}, 0);
    expect_stop(r, SIM_STOP_FAULT);
    assert_non_null(strstr(r->m.stop.msg, "f32div: floating-point division by zero (TEXCPT_FP, cause 22)"));
    run_free(r);

    /* -o f16_denormals=flush: 2^-24 converts to +0 */
    r = run_prog(&p, (const char *const[]){"f16_denormals=flush", NULL}, 0);
    expect_stop(r, SIM_STOP_HALT);
    assert_int_equal(word(r, DATA + 0x100 + 4 * 19), 0);
    run_free(r);
}

/* rpt: a 2-bundle body run 3 times adds 3 x 2 to $m2 (one add per bundle), the bundle
 * co-issued with rpt runs once; then the rules: a solo instruction in a body raises
 * TEXCPT_INVALID_INSTR with CAUSEID_INSTR_IN_REPEAT (26) and sets $WSR.ERPT; a register
 * count wider than $REPEAT_COUNT (ipu1: 12 bits) stops as not modelled.
 * Cycles: run at 6 starts W0 at 12 and W0 issues every 6 cycles: setzi 12, nop 18 (it
 * aligns the rpt bundle), rpt 24, the six body bundles 30 ... 60, exitz 66, so W0 ends at
 * cycle 67 with 10 bundles: zero-overhead, the loop itself costs no cycle. */
static void test_rpt(void **state)
{
    (void)state;
    prog q = {.at = SUP};
    I(&q, "setzi_mmmn_zi", 0, WRK);
    I(&q, "run_mmmn_zi", 0, 15, 0);
    I(&q, "br_mmmn", 10);
    q.at = WRK;
    I(&q, "setzi_mmmn_zi", 4, 3);
    I(&q, "or_mmmn_zi", 15, 15, 0);   /* nop: the rpt bundle at WRK + 8 */
    B(&q, "rpt_mmmn_zi", OPS(4, 1), "setzi_aaan_zi", OPS(3, 7));
    B(&q, "add_mmmn_si", OPS(2, 2, 1), "or_aaan_zi", OPS(4, 4, 1));
    B(&q, "add_mmmn_si", OPS(2, 2, 1), "or_aaan_zi", OPS(5, 5, 2));
    I(&q, "exitz_mmmn", 15);
    run *r = run_prog(&q, NULL, 0);
    expect_stop(r, SIM_STOP_HALT);
    const ipu_ctx *w = &T(r)->ctx[IPU_WORKER(0)];
    assert_int_equal(w->m[2], 6);
    assert_int_equal(w->a[3], 7);
    assert_int_equal(w->a[4], 1);
    assert_int_equal(w->rpt_count, 0);
    /* setzi 12, nop 18, rpt 24, body 30 ... 60, exitz 66: ends at 67 */
    assert_int_equal(w->exited_at, 67);
    assert_int_equal(r->m.units[0].threads[IPU_WORKER(0)].issue_cycles, 10);
    run_free(r);

    /* count 0: the body is skipped; setzi 12, nop 18, rpt 24, exitz 30 */
    prog z = q;
    z.w[(WRK - BASE) / 4] = enc("setzi_mmmn_zi", (const int64_t[]){4, 0});
    r = run_prog(&z, NULL, 0);
    expect_stop(r, SIM_STOP_HALT);
    assert_int_equal(T(r)->ctx[IPU_WORKER(0)].m[2], 0);
    assert_int_equal(T(r)->ctx[IPU_WORKER(0)].exited_at, 31);
    run_free(r);

    /* a solo instruction in the body */
    prog s = {.at = SUP};
    I(&s, "setzi_mmmn_zi", 0, WRK);
    I(&s, "run_mmmn_zi", 0, 15, 0);
    I(&s, "br_mmmn", 10);
    s.at = WRK;
    I(&s, "setzi_mmmn_zi", 4, 2);
    I(&s, "or_mmmn_zi", 15, 15, 0);
    B(&s, "rpt_mmmn_zi", OPS(4, 0), "setzi_aaan_zi", OPS(3, 7));
    I(&s, "add_mmmn_si", 2, 2, 1);
    I(&s, "exitz_mmmn", 15);
    r = run_prog(&s, NULL, 0);
    expect_stop(r, SIM_STOP_ILLEGAL);
    assert_non_null(strstr(r->m.stop.msg, "inside an rpt body"));
    assert_int_equal(T(r)->ctx[IPU_WORKER(0)].cause, IPU_CAUSE_INSTR_IN_REPEAT);
    assert_int_equal(T(r)->ctx[IPU_WORKER(0)].erpt, 1);
    run_free(r);

    /* a register count of 0x10000 does not fit ipu2's 16-bit $REPEAT_COUNT */
    prog c = q;
    c.w[(WRK - BASE) / 4] = enc("setzi_mmmn_zi", (const int64_t[]){4, 0x10000});
    r = run_prog(&c, NULL, 0);
    expect_stop(r, SIM_STOP_ILLEGAL);
    assert_non_null(strstr(r->m.stop.msg, "wider than $REPEAT_COUNT (0xffff on ipu2)"));
    run_free(r);
}

/* movz $d, $s, $g: $d = $s when $g == 0 (the last operand gates) */
static void test_movz(void **state)
{
    (void)state;
    prog p = {.at = SUP};
    I(&p, "setzi_mmmn_zi", 1, 11);
    I(&p, "setzi_mmmn_zi", 2, 22);
    I(&p, "setzi_mmmn_zi", 3, 1);
    /* movz (printed movnz) D, G, S: D = S when G != 0, as PopLibs' Fill.S and select_*.S
     * use it */
    I(&p, "movz_mmmn", 1, 3, 2);    /* gate m3 = 1: m1 = m2 = 22 */
    I(&p, "setzi_mmmn_zi", 4, 44);
    I(&p, "movz_mmmn", 4, 15, 2);   /* gate $mzero: m4 stays 44 */
    I(&p, "br_mmmn", 10);
    run *r = run_prog(&p, NULL, 0);
    expect_stop(r, SIM_STOP_HALT);
    assert_int_equal(M(r, IPU_SUP, 1), 22);
    assert_int_equal(M(r, IPU_SUP, 4), 44);
    run_free(r);
}

/* tapack and the pace loads/stores (docs/isa/ipu.md "Pace"). A = DATA (SRAM element 0 on
 * ipu2: (0x4d000 - 0x4c000) / 16 KiB), B = 0x50000 (element 1), C = 0x54008 (element 2).
 * tapack packs lo = A | C[10:0] << 21 = 0x4d000 | 8 << 21 = 0x0104d000 and hi = B |
 * C[21:11] << 21 = 0x50000 | 0xa8 << 21 = 0x15050000. $m8 holds the stride fields
 * 2 (bits 0-9), -1 (10-19), 3 (20-29) = 0x003ffc02. */
#define PB 0x50000u
#define PC 0x54008u
static run *pace_worker(void (*body)(prog *), const char *const *opts, sim_stop_kind want)
{
    prog p = {.at = SUP};
    I(&p, "setzi_mmmn_zi", 0, WRK);
    I(&p, "run_mmmn_zi", 0, 15, 0);
    I(&p, "br_mmmn", 10);
    p.at = WRK;
    body(&p);
    data(&p, DATA, 0xa0);
    data(&p, DATA + 4, 0xa1);
    data(&p, DATA + 8, 0xa2);
    data(&p, DATA + 12, 0xa3);
    run *r = run_prog(&p, opts, 0);
    expect_stop(r, want);
    return r;
}
static void pace_body(prog *p)
{
    I(p, "setzi_mmmn_zi", 1, DATA);
    I(p, "setzi_mmmn_zi", 2, PB);
    I(p, "setzi_mmmn_zi", 3, PC);
    const uint32_t bv[] = {0x11111, 0x22222, 0, 0, 0x55555, 0x66666};
    for (int i = 0; i < 6; i++) {
        I(p, "setzi_mmmn_zi", 4, bv[i]);
        store(p, 4, 2, i);
    }
    I(p, "setzi_mmmn_zi", 8, 0xffc02);
    I(p, "or_mmmn_iz", 8, 8, 0x00300000);
    I(p, "tapack_mmmn", 6, 1, 2, 3);
    /* a0 select 0 (+1 word), a1 select 1 (field 0: +2 words): $a0:1 = [A], $a2:3 = [B];
     * then a0 = A + 8, a1 = B + 16 */
    I(p, "ld2x64pace_mmbn_ef", 0, 2, 6, 8, 0x4);
    I(p, "st32_mmmn_zi", 6, 1, 15, 0x100);     /* the packed pair after it: DATA + 0x400.. */
    I(p, "st32_mmmn_zi", 7, 1, 15, 0x101);
    /* load select 2 (field 1: -1 word), store select 3 (field 2: +3 words):
     * $a4:5 = [A + 8]; [C] = $a2:3; then a0 = A, a2 = C + 24 */
    I(p, "ldst64pace_mbbn_ef", 4, 2, 6, 8, 0xe);
    /* 0, 0, 1 (+2 words): $a8:9 = [A], $a10:11 = [B + 16], [C + 24] = $a0:1;
     * then a0 = A + 8, a1 = B + 24, a2 = C + 40 */
    I(p, "ld2xst64pace_mbbn_ef", 8, 0, 6, 8, 0x10);
    I(p, "st64pace_mbmn_ef", 10, 6, 8, 0);     /* [C + 40] = $a10:11, a2 = C + 48 */
    I(p, "exitz_mmmn", 15);
}
static void conflict_ld2x(prog *p)   /* two loads in element 0 */
{
    I(p, "setzi_mmmn_zi", 1, DATA);
    I(p, "setzi_mmmn_zi", 2, DATA + 0x100);
    I(p, "tapack_mmmn", 6, 1, 2, 15);
    I(p, "ld2x64pace_mmbn_ef", 0, 2, 6, 15, 0);
    I(p, "exitz_mmmn", 15);
}
static void conflict_store(prog *p)  /* ld2xst64pace: the store hits load 0's element */
{
    I(p, "setzi_mmmn_zi", 1, DATA);
    I(p, "setzi_mmmn_zi", 2, PB);
    I(p, "setzi_mmmn_zi", 3, DATA + 0x200);
    I(p, "tapack_mmmn", 6, 1, 2, 3);
    I(p, "ld2xst64pace_mbbn_ef", 0, 4, 6, 15, 0);
    I(p, "exitz_mmmn", 15);
}
/* the interleaved region (ipu2: from 0x80000) pairs two elements word by word: 0x80000 and
 * 0x80008 are in different elements, 0x80000 and 0x80010 in the same one */
static void interleaved_ok(prog *p)
{
    I(p, "setzi_mmmn_zi", 1, 0x80000);
    I(p, "setzi_mmmn_zi", 2, 0x80008);
    I(p, "tapack_mmmn", 6, 1, 2, 15);
    I(p, "ld2x64pace_mmbn_ef", 0, 2, 6, 15, 0);
    I(p, "exitz_mmmn", 15);
}
static void interleaved_conflict(prog *p)
{
    I(p, "setzi_mmmn_zi", 1, 0x80000);
    I(p, "setzi_mmmn_zi", 2, 0x80010);
    I(p, "tapack_mmmn", 6, 1, 2, 15);
    I(p, "ld2x64pace_mmbn_ef", 0, 2, 6, 15, 0);
    I(p, "exitz_mmmn", 15);
}

static void test_pace(void **state)
{
    (void)state;
    run *r = pace_worker(pace_body, NULL, SIM_STOP_HALT);
    const ipu_ctx *w = &T(r)->ctx[IPU_WORKER(0)];
    assert_int_equal(word(r, DATA + 0x400), (DATA + 8) | (PC & 0x7ff) << 21);
    assert_int_equal(word(r, DATA + 0x404), (PB + 16) | (PC >> 11) << 21);
    assert_int_equal(w->a[0], 0xa0);
    assert_int_equal(w->a[1], 0xa1);
    assert_int_equal(w->a[2], 0x11111);
    assert_int_equal(w->a[3], 0x22222);
    assert_int_equal(w->a[4], 0xa2);
    assert_int_equal(w->a[5], 0xa3);
    assert_int_equal(word(r, PC), 0x11111);
    assert_int_equal(word(r, PC + 4), 0x22222);
    assert_int_equal(w->a[8], 0xa0);
    assert_int_equal(w->a[9], 0xa1);
    assert_int_equal(w->a[10], 0x55555);
    assert_int_equal(w->a[11], 0x66666);
    assert_int_equal(word(r, PC + 24), 0xa0);
    assert_int_equal(word(r, PC + 28), 0xa1);
    assert_int_equal(word(r, PC + 40), 0x55555);
    assert_int_equal(word(r, PC + 44), 0x66666);
    /* final: a0 = A + 8, a1 = B + 24, a2 = C + 48 = 0x54038 */
    assert_int_equal(w->m[6], (DATA + 8) | 0x38u << 21);
    assert_int_equal(w->m[7], (PB + 24) | 0xa8u << 21);
    run_free(r);
}

static void test_mem_conflicts(void **state)
{
    (void)state;
    run *r = pace_worker(conflict_ld2x, NULL, SIM_STOP_FAULT);
    const ipu_ctx *w = &T(r)->ctx[IPU_WORKER(0)];
    assert_int_equal(w->etype, IPU_TEXCPT_CONFLICT);
    assert_int_equal(w->cause, IPU_CAUSE_CONFLICT_EA0 + 1); /* the second access */
    assert_int_equal(w->a[0], 0);                           /* nothing retired */
    assert_int_equal(w->m[6], DATA);
    assert_non_null(strstr(r->m.stop.msg, "memory conflict"));
    run_free(r);

    r = pace_worker(conflict_ld2x, (const char *const[]){"mem_conflicts=ignore", NULL}, SIM_STOP_HALT);
    w = &T(r)->ctx[IPU_WORKER(0)];
    assert_int_equal(w->a[0], 0xa0);
    assert_int_equal(w->m[6], DATA + 8);
    run_free(r);

    r = pace_worker(conflict_store, NULL, SIM_STOP_FAULT);
    assert_int_equal(T(r)->ctx[IPU_WORKER(0)].cause, IPU_CAUSE_CONFLICT_EA0 + 2);
    run_free(r);

    /* with 128-byte elements DATA and DATA + 0x100 are in elements 32 and 34: no conflict */
    r = pace_worker(conflict_ld2x, (const char *const[]){"mem_element=128", NULL}, SIM_STOP_HALT);
    run_free(r);

    r = pace_worker(interleaved_ok, NULL, SIM_STOP_HALT);
    assert_int_equal(T(r)->ctx[IPU_WORKER(0)].m[6], 0x80008u); /* a0 + 8 */
    assert_int_equal(T(r)->ctx[IPU_WORKER(0)].m[7], 0x80010u); /* a1 + 8 */
    run_free(r);

    r = pace_worker(interleaved_conflict, NULL, SIM_STOP_FAULT);
    assert_int_equal(T(r)->ctx[IPU_WORKER(0)].etype, IPU_TEXCPT_CONFLICT);
    run_free(r);
}

/* a pace load in an rpt body (the fast path leaves pace bundles to the reference executor):
 * { ld2x64pace $a0:1, $a2:3, $m6:7+=, $m15, 0 ; or $a4, $a4, $a0 } twice. The aux half reads
 * $a0 as the bundle found it: 0, then 0xa0; the loads read A then A + 8. */
static void pace_rpt_body(prog *p)
{
    I(p, "setzi_mmmn_zi", 1, DATA);
    I(p, "setzi_mmmn_zi", 2, PB);
    I(p, "tapack_mmmn", 6, 1, 2, 15);
    I(p, "setzi_mmmn_zi", 4, 2);
    B(p, "rpt_mmmn_zi", OPS(4, 0), "setzi_aaan_zi", OPS(4, 0));
    B(p, "ld2x64pace_mmbn_ef", OPS(0, 2, 6, 15, 0), "or_aaan", OPS(4, 4, 0));
    I(p, "exitz_mmmn", 15);
}

static void test_pace_rpt(void **state)
{
    (void)state;
    run *r = pace_worker(pace_rpt_body, NULL, SIM_STOP_HALT);
    const ipu_ctx *w = &T(r)->ctx[IPU_WORKER(0)];
    assert_int_equal(w->a[0], 0xa2);
    assert_int_equal(w->a[1], 0xa3);
    assert_int_equal(w->a[4], 0xa0);
    assert_int_equal(w->m[6], DATA + 16);
    assert_int_equal(w->m[7], PB + 16);
    run_free(r);
}

XPUSIM_TESTS(ipu_exec, cmocka_unit_test(test_integer_ops), cmocka_unit_test(test_branches),
             cmocka_unit_test(test_runall_six_workers), cmocka_unit_test(test_supervisor_cycles),
             cmocka_unit_test(test_run_one_worker), cmocka_unit_test(test_loads_stores_bundle),
             cmocka_unit_test(test_faults), cmocka_unit_test(test_view_and_entry),
             cmocka_unit_test(test_encode_roundtrip), cmocka_unit_test(test_float_edges),
             cmocka_unit_test(test_rpt), cmocka_unit_test(test_movz),
             cmocka_unit_test(test_pace), cmocka_unit_test(test_mem_conflicts),
             cmocka_unit_test(test_pace_rpt))
