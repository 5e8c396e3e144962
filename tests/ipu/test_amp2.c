/* tests/ipu/test_amp2.c: the AMP-side rows the public text leaves most open, as
 * docs/isa/ipu.md ("AMP and SLIC") decides them: the 4x4 half transposition of f16v4istacc
 * and f16v4stacc (PopLibs' BlockTransposeGradW_half), f32sisov2slic (the two-set f32 SLIC),
 * the ipu21 fp8 AMP and SLIC (f8v8hihov4amp, f8v8hihov4slic), and a worker's put to its
 * lower CSR space (the invalid-CSR exception). Programs are built from table rows by LLVM
 * name and run on one tile as in tests/ipu/test_amp.c (whose harness this file keeps small
 * and separate). Every expected value is worked out by hand in the comment above its test;
 * values are small integers or halves, so every sum is exact. */
#include "../testlib.h"
#include "ipu_elf.h"
#include "../../isa/isa.h"
#include "../../isa/ipu/ipu.h"
#include "../../isa/ipu/tile.h"

extern const isa_ops isa_ipu;

#define BASE 0x4c000u
#define SUP BASE             /* supervisor code */
#define WRK (BASE + 0x400)   /* worker code */
#define WTS (BASE + 0x1000)  /* weights: 64 CCCS words */
#define IN (BASE + 0x1200)   /* inputs */
#define PART (BASE + 0x1400) /* partials */
#define OUT (BASE + 0x1600)  /* results */
#define NWORDS 0x800
#define SLIC_1X3 4 /* our SLIC flags: weight column | 1x3 << 2 | upper element << 3 */
#define E4(p) (16 + (p)) /* our AMP flags: phase | log2(engines) << 3 */

typedef struct prog {
    uint32_t w[NWORDS];
    uint32_t at;
} prog;

static void put(prog *p, uint32_t w)
{
    assert_true(p->at >= BASE && p->at < BASE + 4 * NWORDS);
    p->w[(p->at - BASE) / 4] = w;
    p->at += 4;
}
static void emit(prog *p, const char *name, const int64_t *ops)
{
    uint32_t w = 0;
    if (ipu_encode(name, ops, &w))
        fail_msg("ipu_encode(%s) failed", name);
    put(p, w);
}
#define I(p, name, ...) emit(p, name, (const int64_t[]){__VA_ARGS__, 0})
static void data(prog *p, uint32_t addr, uint32_t v) { p->w[(addr - BASE) / 4] = v; }
static void data64(prog *p, uint32_t addr, uint64_t v)
{
    data(p, addr, (uint32_t)v);
    data(p, addr + 4, (uint32_t)(v >> 32));
}
static uint32_t fb(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
/* f16 bits of a small integer or half-integer (exact) */
static uint64_t h(double v)
{
    if (v == 0)
        return 0;
    uint64_t s = v < 0 ? 0x8000 : 0;
    double a = v < 0 ? -v : v;
    int e = 0;
    while (a >= 2) { a /= 2; e++; }
    while (a < 1) { a *= 2; e--; }
    return s | (uint64_t)(e + 15) << 10 | (uint64_t)((a - 1) * 1024);
}
static uint64_t h4(double a, double b, double c, double d) { return h(a) | h(b) << 16 | h(c) << 32 | h(d) << 48; }
/* fp8 1.4.3 (bias 8, $FP_NFMT 0) bits of the values these tests use */
static uint64_t q(double v)
{
    static const struct { double v; uint8_t b; } t[] = {
        {0, 0x00}, {0.25, 0x30}, {0.5, 0x38}, {1, 0x40}, {1.5, 0x44}, {2, 0x48}, {3, 0x4c}, {4, 0x50},
        {5, 0x52}, {6, 0x54}, {7, 0x56}, {8, 0x58}, {10, 0x5a}, {12, 0x5c},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (t[i].v == v)
            return t[i].b;
    fail_msg("no fp8 code for %g in the test table", v);
    return 0;
}

static size_t make_elf(const prog *p, uint8_t *out) { return ipu_test_elf(out, p->w, 4 * NWORDS, BASE, SUP); }

typedef struct run {
    sim_machine m;
    ld_image img;
    sim_stop_kind stop;
} run;

static run *run_prog(const prog *p, const char *arch, const char *opt)
{
    static uint8_t buf[0x100 + 4 * NWORDS];
    run *r = calloc(1, sizeof *r);
    char a[32];
    snprintf(a, sizeof a, "arch=%s", arch);
    ipu_test_boot(&r->m, &r->img, buf, make_elf(p, buf), (const char *const[]){a, NULL}, opt);
    r->m.image = &r->img;
    r->stop = sim_run(&r->m, 100000);
    return r;
}
static void run_free(run *r)
{
    sim_destroy(&r->m);
    ld_free(&r->img);
    free(r);
}
static ipu_tile *T(run *r) { return ipu_m(&r->m)->tiles; }
static uint32_t word(run *r, uint32_t addr) { return mem_ld32le(T(r)->mem + (addr - BASE)); }
static uint64_t dword(run *r, uint32_t addr) { return word(r, addr) | (uint64_t)word(r, addr + 4) << 32; }
static float fword(run *r, uint32_t addr) { uint32_t b = word(r, addr); float f; memcpy(&f, &b, 4); return f; }
static void expect_stop(run *r, sim_stop_kind k, const char *msg)
{
    if (r->stop != k)
        fail_msg("stop %s, expected %s: %s", sim_stop_name(r->stop), sim_stop_name(k), r->m.stop.msg);
    if (msg && !strstr(r->m.stop.msg, msg))
        fail_msg("stop message \"%s\" lacks \"%s\"", r->m.stop.msg, msg);
}

/* Supervisor: $CCCSLOAD = WTS, ld64putcs 0..63 (two AMP sets), run the worker at WRK,
 * return. Worker prologue: $m1 = IN, $m2 = PART, $m3 = OUT, $FP_CLR.ZAACC. */
static void start(prog *p)
{
    memset(p, 0, sizeof *p);
    p->at = SUP;
    I(p, "setzi_mmmn_zi", 1, WTS);
    I(p, "setzi_mmmn_zi", 0, WRK);
    I(p, "put_mmmn_zi", 0x50, 1);
    for (int i = 0; i < 64; i++)
        I(p, "ld64putcs_mmmn_zi", i);
    I(p, "run_mmmn_zi", 0, 15, 0);
    I(p, "br_mmmn", 10);
    p->at = WRK;
    I(p, "setzi_mmmn_zi", 1, IN);
    I(p, "setzi_mmmn_zi", 2, PART);
    I(p, "setzi_mmmn_zi", 3, OUT);
    I(p, "setzi_aaan_zi", 0, 8);
    I(p, "uput_aaan_zi", 1, 0); /* $FP_CLR.ZAACC */
}
static void ld64(prog *p, int a, int base, int i) { I(p, "ld64_mman_zi", a, base, 15, i); }
static void st64(prog *p, int a, int i) { I(p, "st64_mbmn_zi", a, 3, 15, i); }

/* The 4x4 transposition (BlockTransposeGradW_half's order): istacc P0 (rows 0, 1) and P1
 * (rows 2, 3) take block A, stacc 0 and 1 give out its columns 0 and 1, istacc P0/P1 with
 * block B give out A's columns 2 and 3, and so on; the last istacc pair takes $azeros.
 * Column c leaves as four halves (row 0, 1, 2, 3). A[r][c] = 10r + c + 1 except A[0][0], a
 * signalling NaN half 0x7d01, and A[3][3], the denormal 0x0001: bits move untouched and
 * raise nothing. B[r][c] = 100 + 10r + c. Outputs in OUT words (pairs) 0-7: A0 A1 A2 A3
 * B0 B1 B2 B3. */
static uint16_t blk(int b, int r, int c)
{
    if (!b && r == 0 && c == 0)
        return 0x7d01;
    if (!b && r == 3 && c == 3)
        return 0x0001;
    return (uint16_t)h(b ? 100 + 10 * r + c : 10 * r + c + 1);
}
static void test_transpose(void **state)
{
    (void)state;
    prog p;
    start(&p);
    for (int b = 0; b < 2; b++)
        for (int r = 0; r < 4; r++) {
            uint64_t row = 0;
            for (int c = 0; c < 4; c++)
                row |= (uint64_t)blk(b, r, c) << (16 * c);
            data64(&p, IN + 32 * b + 8 * r, row);
        }
    I(&p, "setzi_aaan_zi", 8, 7); /* $FP_CTL: INV, DIV0, OFLO exceptions on; none may fire */
    I(&p, "uput_aaan_zi", 2, 8);
    for (int r = 0; r < 4; r++)
        ld64(&p, 2 * r, 1, r); /* $a0:1 .. $a6:7 = A rows */
    I(&p, "f16v4istacc_aaan_ef", 14, 0, 2, 0);
    I(&p, "f16v4istacc_aaan_ef", 14, 4, 6, 1);
    I(&p, "f16v4stacc_aaan_ef", 8, 0);
    st64(&p, 8, 0);
    I(&p, "f16v4stacc_aaan_ef", 8, 1);
    st64(&p, 8, 1);
    for (int r = 0; r < 4; r++)
        ld64(&p, 2 * r, 1, 4 + r); /* B rows */
    I(&p, "f16v4istacc_aaan_ef", 8, 0, 2, 0);
    st64(&p, 8, 2);
    I(&p, "f16v4istacc_aaan_ef", 8, 4, 6, 1);
    st64(&p, 8, 3);
    I(&p, "f16v4stacc_aaan_ef", 8, 0);
    st64(&p, 8, 4);
    I(&p, "f16v4stacc_aaan_ef", 8, 1);
    st64(&p, 8, 5);
    I(&p, "f16v4istacc_aaan_ef", 8, 14, 14, 0);
    st64(&p, 8, 6);
    I(&p, "f16v4istacc_aaan_ef", 8, 14, 14, 1);
    st64(&p, 8, 7);
    I(&p, "exitz_mmmn", 15);
    run *r = run_prog(&p, "ipu2", NULL); /* the rows exist on every generation */
    expect_stop(r, SIM_STOP_HALT, NULL);
    for (int b = 0; b < 2; b++)
        for (int c = 0; c < 4; c++) {
            uint64_t col = 0;
            for (int k = 0; k < 4; k++)
                col |= (uint64_t)blk(b, k, c) << (16 * k);
            if (dword(r, OUT + 8 * (4 * b + c)) != col)
                fail_msg("block %d column %d: 0x%016llx, expected 0x%016llx", b, c,
                         (unsigned long long)dword(r, OUT + 8 * (4 * b + c)), (unsigned long long)col);
        }
    for (int k = 0; k < 6; k++)
        assert_int_equal(T(r)->ctx[IPU_WORKER(k)].fp_sts, 0);
    run_free(r);
}

/* f32sisov2slic (ipu2, two sets), 1x3 kernel. Set 0 is test_amp.c's test_slic_f32: CW_m =
 * (m + 1, 2), x_j = (j + 1, 1), tap x_j.CW_m = (m + 1)(j + 1) + 2; the element-0 step's
 * partials (0, 1) start set 0's pairs: R0_j = (9j + 20, 12j + 27), out at the element-0
 * step of x_j+3. Set 1: CW_m = (2(m + 1), 4), twice every tap: (18j + 40, 24j + 52), plus
 * the element-1 step's partials (10, 20), which join set 1's newest pair (started from zero
 * by the element-0 step): R1_j = (18j + 50, 24j + 72), held at the element-0 step of x_j+3
 * and out at its element-1 step. OUT pairs 2i (element 0) and 2i + 1 (element 1) for x_i:
 * pairs 6, 8 are R0_0, R0_1 and pairs 7, 9 R1_0, R1_1. */
static void test_slic_f32_v2(void **state)
{
    (void)state;
    prog p;
    start(&p);
    for (int m = 0; m < 8; m++) {
        data(&p, WTS + 8 * (4 * m), fb((float)(m + 1)));
        data(&p, WTS + 8 * (4 * m) + 4, fb(2.0f));
        data(&p, WTS + 256 + 8 * (4 * m), fb((float)(2 * (m + 1))));
        data(&p, WTS + 256 + 8 * (4 * m) + 4, fb(4.0f));
    }
    for (int j = 0; j < 5; j++) {
        data(&p, IN + 8 * j, fb((float)(j + 1)));
        data(&p, IN + 8 * j + 4, fb(1.0f));
    }
    data(&p, PART, fb(0.0f));
    data(&p, PART + 4, fb(1.0f));
    data(&p, PART + 8, fb(10.0f));
    data(&p, PART + 12, fb(20.0f));
    ld64(&p, 4, 2, 0);
    ld64(&p, 10, 2, 1);
    for (int j = 0; j < 5; j++) {
        ld64(&p, 0, 1, j);
        I(&p, "f32sisov2slic_aaan_ef", 6, 0, 4, SLIC_1X3);
        st64(&p, 6, 2 * j);
        I(&p, "f32sisov2slic_aaan_ef", 8, 1, 10, SLIC_1X3 | 8);
        st64(&p, 8, 2 * j + 1);
    }
    I(&p, "exitz_mmmn", 15);
    run *r = run_prog(&p, "ipu2", NULL);
    expect_stop(r, SIM_STOP_HALT, NULL);
    for (int j = 0; j < 2; j++) {
        uint32_t o0 = OUT + 16 * (j + 3), o1 = o0 + 8;
        assert_true(fword(r, o0) == 9.0f * (float)j + 20.0f);
        assert_true(fword(r, o0 + 4) == 12.0f * (float)j + 27.0f);
        assert_true(fword(r, o1) == 18.0f * (float)j + 50.0f);
        assert_true(fword(r, o1 + 4) == 24.0f * (float)j + 72.0f);
    }
    run_free(r);
    /* one AMP set: the two-set form is an invalid instruction (ld64putcs 32 faults first, so
     * this program loads only 32 words) */
    p.at = SUP + 4 * 35;
    I(&p, "run_mmmn_zi", 0, 15, 0);
    I(&p, "br_mmmn", 10);
    r = run_prog(&p, "ipu2", "amp_sets=1");
    expect_stop(r, SIM_STOP_ILLEGAL, "f32sisov2slic needs two AMP sets");
    run_free(r);
}

/* f8v8hihov4amp (ipu21): the f16v4hihov4amp pipeline with eight fp8 inputs and weights a
 * phase (1.4.3, $FP_NFMT 0) and each product x 2^$FP_SCL ($FP_SCL 63 = -1). Weights: unit u
 * of set s has, at every phase, lane u = 1 (set 0) or 2 (set 1), other lanes 0; every input
 * is v = (1, 2, 3, 0.5, 1.5, 0.25, 4, 8). Group 0 (steps 0-3) feeds zero inputs and the
 * partials P_g = g (unit g = 8s + u; at phase p the units 2p, 2p+1, 8+2p, 9+2p); group 1
 * (4-7) the inputs: S_g = 4 phases x v_u x (1 or 2) x 1/2 = 2 v_u (set 0), 4 v_u (set 1);
 * group 2 (8-11, zero inputs) gives R_g = P_g + S_g out as halves, (R 2p, R 2p+1, R 8+2p,
 * R 9+2p) at step 8 + p:
 *   set 0: R0..R7  = 2, 5, 8, 4, 7, 5.5, 14, 23
 *   set 1: R8..R15 = 12, 17, 22, 13, 18, 14, 30, 47
 * $FP_NFMT 2 (bit 1: the inputs in 1.5.2, bias 16): the same bytes are v' = (1, 4, 8,
 * 0.25, 2, 0.0625, 16, 64) (0x48: e 18, 2^2; 0x4c: e 19; 0x38: e 14; 0x44: e 17; 0x30:
 * e 12; 0x50: e 20; 0x58: e 22), the weights still 1 and 2:
 *   set 0: P + 2 v' = 2, 9, 18, 3.5, 8, 5.125, 38, 135
 *   set 1: P + 4 v' = 12, 25, 42, 12, 20, 13.25, 78, 271
 * $FP_NFMT 1 (bit 0: the weights in 1.5.2): set 0's 0x40 is still 1, set 1's 0x48 is 4:
 *   set 0 as with 0; set 1: P + 8 v = 16, 25, 34, 15, 24, 15, 46, 79 */
static void f8_amp_case(int nfmt, const double *r0, const double *r1)
{
    static const double v[8] = {1, 2, 3, 0.5, 1.5, 0.25, 4, 8};
    prog p;
    start(&p);
    for (int s = 0; s < 2; s++)
        for (int u = 0; u < 8; u++)
            for (int n = 0; n < 4; n++)
                data64(&p, WTS + 256 * (uint32_t)s + 8 * (4 * (uint32_t)u + (uint32_t)n), q(s ? 2 : 1) << (8 * u));
    uint64_t x = 0;
    for (int k = 0; k < 8; k++)
        x |= q(v[k]) << (8 * k);
    data64(&p, IN, x);
    for (int ph = 0; ph < 4; ph++)
        data64(&p, PART + 8 * (uint32_t)ph, h4(2 * ph, 2 * ph + 1, 8 + 2 * ph, 9 + 2 * ph));
    I(&p, "setzi_aaan_zi", 8, 63);
    I(&p, "uput_aaan_zi", 0x0a, 8); /* $FP_SCL = -1 */
    I(&p, "setzi_aaan_zi", 8, nfmt);
    I(&p, "uput_aaan_zi", 0x09, 8); /* $FP_NFMT */
    ld64(&p, 2, 1, 0);
    for (int i = 0; i < 12; i++) {
        int pr = 14;
        if (i < 4) {
            ld64(&p, 4, 2, i);
            pr = 4;
        }
        I(&p, "f8v8hihov4amp_aaan_ef", 6, i >= 4 && i < 8 ? 2 : 14, pr, E4(i & 3));
        st64(&p, 6, i);
    }
    I(&p, "exitz_mmmn", 15);
    run *r = run_prog(&p, "ipu21", NULL);
    expect_stop(r, SIM_STOP_HALT, NULL);
    for (int i = 0; i < 8; i++)
        assert_true(dword(r, OUT + 8 * i) == 0); /* the zeroed accumulators */
    for (int ph = 0; ph < 4; ph++) {
        uint64_t want = h4(r0[2 * ph], r0[2 * ph + 1], r1[2 * ph], r1[2 * ph + 1]);
        if (dword(r, OUT + 64 + 8 * ph) != want)
            fail_msg("$FP_NFMT %d phase %d: 0x%016llx, expected 0x%016llx", nfmt, ph,
                     (unsigned long long)dword(r, OUT + 64 + 8 * ph), (unsigned long long)want);
    }
    run_free(r);
}
static void test_f8_amp(void **state)
{
    (void)state;
    static const double r0[8] = {2, 5, 8, 4, 7, 5.5, 14, 23}, r1[8] = {12, 17, 22, 13, 18, 14, 30, 47};
    static const double r0i[8] = {2, 9, 18, 3.5, 8, 5.125, 38, 135}, r1i[8] = {12, 25, 42, 12, 20, 13.25, 78, 271};
    static const double r1w[8] = {16, 25, 34, 15, 24, 15, 46, 79};
    f8_amp_case(0, r0, r1);
    f8_amp_case(2, r0i, r1i);
    f8_amp_case(1, r0, r1w);
}

/* f8v8hihov4slic (ipu21), 1x3: test_amp.c's test_slic_v4 in fp8 with $FP_SCL = +1. Set 0's
 * CW_m = (m + 1, 1, 0 ...), set 1's twice that, x_j = (j + 1, 10, 0 ...), zero partials:
 * a tap x_j.CW_m = (m + 1)(j + 1) + 10 (set 1: twice), so without the scale set 0 gives
 * (5(j+1) + 3(j+2) + (j+3) + 30, 6(j+1) + 4(j+2) + 2(j+3) + 30) = (9j + 44, 12j + 50) and
 * set 1 (18j + 88, 24j + 100); x 2 for the scale. Out as four halves at step j + 3. */
static void test_f8_slic(void **state)
{
    (void)state;
    prog p;
    start(&p);
    for (int m = 0; m < 6; m++) {
        data64(&p, WTS + 8 * (4 * (uint32_t)m), q(m + 1) | q(1) << 8);
        data64(&p, WTS + 256 + 8 * (4 * (uint32_t)m), q(2 * (m + 1)) | q(2) << 8);
    }
    for (int j = 0; j < 7; j++)
        data64(&p, IN + 8 * (uint32_t)j, q(j + 1) | q(10) << 8);
    I(&p, "setzi_aaan_zi", 8, 1);
    I(&p, "uput_aaan_zi", 0x0a, 8); /* $FP_SCL = +1 */
    for (int i = 0; i < 7; i++) {
        ld64(&p, 2, 1, i);
        I(&p, "f8v8hihov4slic_aaan_ef", 6, 2, 14, SLIC_1X3);
        st64(&p, 6, i);
    }
    I(&p, "exitz_mmmn", 15);
    run *r = run_prog(&p, "ipu21", NULL);
    expect_stop(r, SIM_STOP_HALT, NULL);
    for (int j = 0; j < 4; j++) {
        uint64_t want = h4(18 * j + 88, 24 * j + 100, 36 * j + 176, 48 * j + 200);
        if (dword(r, OUT + 8 * (uint32_t)(j + 3)) != want)
            fail_msg("step %d: 0x%016llx, expected 0x%016llx", j + 3,
                     (unsigned long long)dword(r, OUT + 8 * (uint32_t)(j + 3)), (unsigned long long)want);
    }
    run_free(r);
}

/* A worker's put to its lower CSR space ($REPEAT_COUNT, 0x04) raises the invalid-CSR
 * exception: TEXCPT_INVALID_OP, CAUSEID_INVALID_CSR 41 (docs/isa/ipu.md). */
static void test_worker_put(void **state)
{
    (void)state;
    prog p;
    start(&p);
    I(&p, "put_mmmn_zi", 0x04, 1);
    I(&p, "exitz_mmmn", 15);
    run *r = run_prog(&p, "ipu2", NULL);
    expect_stop(r, SIM_STOP_FAULT, "put: worker CSR 0x4 is not writable (TEXCPT_INVALID_OP, cause 41)");
    run_free(r);
}

XPUSIM_TESTS(ipu_amp2, cmocka_unit_test(test_transpose), cmocka_unit_test(test_slic_f32_v2),
             cmocka_unit_test(test_f8_amp), cmocka_unit_test(test_f8_slic), cmocka_unit_test(test_worker_put))
