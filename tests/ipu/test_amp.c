/* tests/ipu/test_amp.c: AMP and SLIC, the supervisor's weight loads into the common compute
 * configuration space, and the accumulator operations around them (isa/ipu/exec_amp.c).
 * Programs are built from table rows by LLVM name (ipu_encode), wrapped in a minimal ELF32
 * and run on one tile, as tests/ipu/test_exec.c does. Expected values are worked out by hand
 * from the help text's step tables as docs/isa/ipu.md ("AMP and SLIC") reads them: a result
 * group starts at phase 0 from the partials fed one group earlier, takes one input per
 * phase, and leaves two results a phase during the next group; SLIC results leave the step
 * after their last tap. Weights and inputs are small integers so every sum is exact unless
 * a case is about rounding. Cycle expectations follow the barrel rules (derivations next to
 * the checks). */
#include "../testlib.h"
#include "ipu_elf.h"
#include "../../isa/isa.h"
#include "../../isa/ipu/ipu.h"
#include "../../isa/ipu/tile.h"

extern const isa_ops isa_ipu;

#define BASE 0x4c000u
#define SUP BASE            /* supervisor code */
#define WRK (BASE + 0x400)  /* worker code */
#define WTS (BASE + 0x1000) /* weights, 16-byte aligned */
#define IN (BASE + 0x1200)  /* inputs */
#define PART (BASE + 0x1400) /* partials */
#define OUT (BASE + 0x1600) /* results */
#define NWORDS 0x800

/* our AMP/SLIC flag values (docs/isa/ipu.md): phase | log2(engines) << 3; SLIC weight
 * column | 1x3 << 2 | upper element << 3 */
#define E4(p) (16 + (p))
#define SLIC_1X3 4

typedef struct prog {
    uint32_t w[NWORDS];
    uint32_t at;
    int bundles; /* worker instructions emitted (one bundle each here) */
} prog;

#define enc ipu_test_enc
static void put(prog *p, uint32_t w)
{
    assert_true(p->at >= BASE && p->at < BASE + 4 * NWORDS);
    p->w[(p->at - BASE) / 4] = w;
    p->at += 4;
    if (p->at > WRK)
        p->bundles++;
}
#define I(p, name, ...) put(p, enc(name, (const int64_t[]){__VA_ARGS__, 0}))
static void data(prog *p, uint32_t addr, uint32_t v) { p->w[(addr - BASE) / 4] = v; }
static void data64(prog *p, uint32_t addr, uint64_t v)
{
    data(p, addr, (uint32_t)v);
    data(p, addr + 4, (uint32_t)(v >> 32));
}

static uint32_t fb(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static float bf(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
/* f16 bits of a small integer or half-integer (exact: |v| <= 2048) */
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
static uint64_t f2(float a, float b) { return fb(a) | (uint64_t)fb(b) << 32; }

static size_t make_elf(const prog *p, uint8_t *out) { return ipu_test_elf(out, p->w, 4 * NWORDS, BASE, SUP); }

typedef struct run {
    sim_machine m;
    ld_image img;
    sim_stop_kind stop;
} run;

static run *run_prog(const prog *p, const char *const *opts)
{
    static uint8_t buf[0x100 + 4 * NWORDS];
    run *r = calloc(1, sizeof *r);
    /* interleaved_base=0x4c000: ld128putcs from our small image */
    ipu_test_boot(&r->m, &r->img, buf, make_elf(p, buf), opts, "interleaved_base=0x4c000");
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
static float fword(run *r, uint32_t addr) { return bf(word(r, addr)); }
static void expect_stop(run *r, sim_stop_kind k, const char *msg)
{
    if (r->stop != k)
        fail_msg("stop %s, expected %s: %s", sim_stop_name(r->stop), sim_stop_name(k), r->m.stop.msg);
    if (msg && !strstr(r->m.stop.msg, msg))
        fail_msg("stop message \"%s\" lacks \"%s\"", r->m.stop.msg, msg);
}

/* Supervisor: $CCCSLOAD = WTS, then n64 ld64putcs (indices 0..n64-1) and ld128putcs for the
 * rest up to 32 words, run the worker at WRK, return. Cycles: setzi $m1 at 0, setzi $m0 at
 * 1, put $CCCSLOAD waits for $m1 (ready 0 + 6) and issues at 6; the putcs read no MRF
 * register and issue back to back from 7. */
static void sup_load(prog *p, int n64)
{
    p->at = SUP;
    I(p, "setzi_mmmn_zi", 1, WTS);
    I(p, "setzi_mmmn_zi", 0, WRK);
    I(p, "put_mmmn_zi", 0x50, 1); /* $CCCSLOAD */
    for (int i = 0; i < n64; i++)
        I(p, "ld64putcs_mmmn_zi", i);
    for (int i = n64; i < 32; i += 2)
        I(p, "ld128putcs_mmmn_zi", i);
    I(p, "run_mmmn_zi", 0, 15, 0);
    I(p, "br_mmmn", 10);
    p->at = WRK;
    p->bundles = 0;
    I(p, "setzi_mmmn_zi", 1, IN);
    I(p, "setzi_mmmn_zi", 2, PART);
    I(p, "setzi_mmmn_zi", 3, OUT);
    I(p, "setzi_aaan_zi", 0, 8);
    I(p, "uput_aaan_zi", 1, 0); /* $FP_CLR.ZAACC */
}

/* f16v4sisoamp, 8 output channels x 16 input channels, the help text's 8x1x1x16 sequence:
 * W[m][c] = 1 if c == m, 2 if c == m + 8, else 0 ($CWEI_m_n lane k is channel 4n + k).
 * Steps 0-3: warm-up, input 0, partials P0..P7 (group 0); 4-7: x0..x3 (group 0's inputs,
 * channel c = c + 1), partials P8..P15; 8-11: x4..x7 (group 1, channel c = 2c), partials
 * P16..P23, and out R0..R7; 12-15: zero input (drain) and R8..R15; 16-19: R16..R23.
 * R_m = P_m + x[m] + 2 x[m + 8]:
 *   group 0, P_m = 1000 + m: 1000 + m + (m + 1) + 2 (m + 9) = 1019 + 4m
 *   group 1, P = -m:         -m + 2m + 2 x 2 (m + 8)       = 5m + 32
 *   group 2, P = m / 2, zero inputs:                          m / 2
 * Steps 0-7 give out what the zeroed accumulators held: 0. */
/* The worker sup_load starts: run issues at 7 + n64 + (32 - n64) / 2, in that cycle's slot. */
static int wk(int n64) { return (7 + n64 + (32 - n64) / 2) % 6; }

static void amp_f16_prog(prog *p, int n64, const char *row)
{
    sup_load(p, n64);
    for (int m = 0; m < 8; m++)
        for (int n = 0; n < 4; n++) {
            double l[4];
            for (int k = 0; k < 4; k++) {
                int c = 4 * n + k;
                l[k] = c == m ? 1 : c == m + 8 ? 2 : 0;
            }
            data64(p, WTS + 8 * (4 * m + n), h4(l[0], l[1], l[2], l[3]));
        }
    for (int j = 0; j < 8; j++) {
        double x[4];
        for (int k = 0; k < 4; k++) {
            int c = 4 * (j & 3) + k;
            x[k] = j < 4 ? c + 1 : 2 * c;
        }
        data64(p, IN + 8 * j, h4(x[0], x[1], x[2], x[3]));
    }
    for (int q = 0; q < 24; q++)
        data(p, PART + 4 * q, fb(q < 8 ? 1000.0f + q : q < 16 ? -(float)(q - 8) : 0.5f * (float)(q - 16)));
    for (int i = 0; i < 20; i++) {
        int xr = 14, pr = 14; /* $azeros */
        if (i >= 4 && i < 12) {
            I(p, "ld64_mman_zi", 2, 1, 15, i - 4);
            xr = 2;
        }
        if (i < 12) {
            I(p, "ld64_mman_zi", 4, 2, 15, i);
            pr = 4;
        }
        I(p, row, 6, xr, pr, E4(i & 3));
        I(p, "st64_mbmn_zi", 6, 3, 15, i);
    }
    I(p, "exitz_mmmn", 15);
}

static void test_amp_f16_pipeline(void **state)
{
    (void)state;
    prog p = {.at = SUP};
    amp_f16_prog(&p, 16, "f16v4sisoamp_aaan_ef");
    run *r = run_prog(&p, NULL);
    expect_stop(r, SIM_STOP_HALT, NULL);
    for (int i = 0; i < 8; i++)
        for (int l = 0; l < 2; l++)
            assert_int_equal(word(r, OUT + 8 * i + 4 * l), 0);
    for (int m = 0; m < 8; m++) {
        assert_true(fword(r, OUT + 64 + 4 * m) == 1019.0f + 4.0f * (float)m);  /* steps 8-11 */
        assert_true(fword(r, OUT + 96 + 4 * m) == 5.0f * (float)m + 32.0f);    /* steps 12-15 */
        assert_true(fword(r, OUT + 128 + 4 * m) == 0.5f * (float)m);           /* steps 16-19 */
    }
    /* the CCCS: $CWEI_3_2 (index 14, an ld64putcs) has channel 11 = m + 8 at lane 3 */
    assert_true(T(r)->cccs[14] == h4(0, 0, 0, 2));
    assert_true(T(r)->cccs[31] == h4(0, 0, 0, 2)); /* $CWEI_7_3 (ld128putcs 30, high word) */
    assert_int_equal(T(r)->cccsload, WTS + 256);  /* 16 x 8 + 8 x 16 bytes */
    /* Cycles: putcs at 7..22 (16 ld64) and 23..30 (8 ld128), run at 31 (slot 1: W1), br at
     * 32, the supervisor returned at 33. W1 first issues at 37 (>= 31 + 6 in slot 1) and
     * then once a turn: its last bundle at 37 + 6 (B - 1), exit one cycle later. */
    assert_int_equal(wk(16), 1);
    const ipu_ctx *w = &T(r)->ctx[IPU_WORKER(1)];
    assert_int_equal(T(r)->ctx[IPU_SUP].exited_at, 33);
    assert_int_equal(r->m.units[0].threads[IPU_SUP].stalls[IPU_STALL_DEP], 4); /* put waits 2..5 */
    assert_int_equal(w->exited_at, 37 + 6 * (uint64_t)(p.bundles - 1) + 1);
    assert_int_equal(r->m.units[0].threads[IPU_WORKER(1)].instructions, (uint64_t)p.bundles);
    /* the debugger's views: `info cccs` shows $CCCSLOAD and unit 3's weights: channel 3 = 1.0
     * (0x3c00) in lane 3 of $CWEI_3_0, channel 11 = 2.0 (0x4000) in lane 3 of $CWEI_3_2;
     * `info acc` the second set's accumulators too (ipu2: two sets) */
    char *txt = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&txt, &len);
    assert_int_equal(isa_view_find(&isa_ipu, "cccs")->show(&r->m, 0, f), 0);
    assert_int_equal(isa_view_find(&isa_ipu, "acc")->show(&r->m, 0, f), 0);
    fclose(f);
    assert_non_null(strstr(txt, "$CCCSLOAD 0x4d100, 2 AMP set(s)"));
    assert_non_null(strstr(txt, "  0.3 3c00000000000000 0000000000000000 4000000000000000 0000000000000000\n"));
    assert_non_null(strstr(txt, "[24..31]"));
    free(txt);
    run_free(r);
}

/* f16v4hihoamp: half partials and half results. Group 0 as above with P_m = 8m (halves,
 * two per 32-bit register): R_m = 8m + (m + 1) + 2 (m + 9) = 11m + 19. Then the internal
 * precision: unit 0 gets products 4096 x 4096, 1 x 1, 4096 x -4096, 0 in one step; fused
 * (default) sums them exactly: 1; chained rounds 2^24 + 1 to 2^24 (tie to even) and ends
 * at 0. */
static void test_amp_half_and_precision(void **state)
{
    (void)state;
    prog p = {.at = SUP};
    sup_load(&p, 32);
    for (int m = 0; m < 8; m++)
        for (int n = 0; n < 4; n++) {
            double l[4];
            for (int k = 0; k < 4; k++) {
                int c = 4 * n + k;
                l[k] = c == m ? 1 : c == m + 8 ? 2 : 0;
            }
            data64(&p, WTS + 8 * (4 * m + n), h4(l[0], l[1], l[2], l[3]));
        }
    for (int j = 0; j < 4; j++)
        data64(&p, IN + 8 * j, h4(4 * j + 1, 4 * j + 2, 4 * j + 3, 4 * j + 4));
    for (int i = 0; i < 4; i++)
        data(&p, PART + 4 * i, (uint32_t)(h(16 * i) | h(16 * i + 8) << 16)); /* P_2i = 16i = 8 (2i) */
    for (int i = 0; i < 12; i++) {
        int xr = 14, pr = 15; /* $azeros, $azero */
        if (i >= 4 && i < 8) {
            I(&p, "ld64_mman_zi", 2, 1, 15, i - 4);
            xr = 2;
        }
        if (i < 4) {
            I(&p, "ld32_mman_zi", 4, 2, 15, i);
            pr = 4;
        }
        I(&p, "f16v4hihoamp_aaan_ef", 6, xr, pr, E4(i & 3));
        I(&p, "st32_mbmn_zi", 6, 3, 15, i);
    }
    I(&p, "exitz_mmmn", 15);
    run *r = run_prog(&p, NULL);
    expect_stop(r, SIM_STOP_HALT, NULL);
    for (int i = 8; i < 12; i++) {
        int m = 2 * (i - 8);
        assert_int_equal(word(r, OUT + 4 * i), (uint32_t)(h(11 * m + 19) | h(11 * m + 30) << 16));
    }
    run_free(r);

    prog q = {.at = SUP};
    sup_load(&q, 32);
    data64(&q, WTS, h4(4096, 1, -4096, 0)); /* $CWEI_0_0 */
    data64(&q, IN, h4(4096, 1, 4096, 0));
    for (int i = 0; i < 9; i++) {
        if (i == 4)
            I(&q, "ld64_mman_zi", 2, 1, 15, 0);
        I(&q, "f16v4hihoamp_aaan_ef", 6, i == 4 ? 2 : 14, 15, E4(i & 3));
    }
    I(&q, "st32_mbmn_zi", 6, 3, 15, 0); /* step 8 (phase 0): R0, R1 */
    I(&q, "exitz_mmmn", 15);
    r = run_prog(&q, NULL);
    expect_stop(r, SIM_STOP_HALT, NULL);
    assert_int_equal(word(r, OUT), 0x3c00u); /* R0 = 1.0, R1 = 0 */
    run_free(r);
    r = run_prog(&q, (const char *const[]){"amp_sum=chained", NULL});
    expect_stop(r, SIM_STOP_HALT, NULL);
    assert_int_equal(word(r, OUT), 0u);
    run_free(r);
}

/* $FP_CTL.ESR: half results round stochastically (docs/isa/ipu.md "Stochastic rounding").
 * Every unit's weights are (1, 1, 0, 0) and the input (1, 2^-12, 0, 0): each sum is 1 + 2^-12,
 * between the halves 1.0 (0x3c00) and 1 + 2^-10 (0x3c01). Nearest (ESR 0) gives 0x3c00
 * everywhere; with ESR each result is one of the two neighbours, the same on every run (the
 * PRNG starts from -o prng_seed). */
static void test_amp_sr(void **state)
{
    (void)state;
    prog p = {.at = SUP};
    sup_load(&p, 32);
    for (int m = 0; m < 8; m++)
        data64(&p, WTS + 8 * (4 * m), h4(1, 1, 0, 0));
    data64(&p, IN, h(1) | 0x0c00ull << 16); /* 2^-12 = 0x0c00 */
    I(&p, "ld64_mman_zi", 2, 1, 15, 0);
    for (int i = 0; i < 12; i++) {
        I(&p, "f16v4hihoamp_aaan_ef", 6, i == 4 ? 2 : 14, 15, E4(i & 3));
        if (i >= 8)
            I(&p, "st32_mbmn_zi", 6, 3, 15, i - 8);
    }
    I(&p, "exitz_mmmn", 15);
    run *r = run_prog(&p, NULL);
    expect_stop(r, SIM_STOP_HALT, NULL);
    for (int i = 0; i < 4; i++)
        assert_int_equal(word(r, OUT + 4 * i), 0x3c003c00u);
    run_free(r);
    uint32_t first[4];
    for (int k = 0; k < 2; k++) {
        r = run_prog(&p, (const char *const[]){"fp_ctl=0x80000", NULL});
        expect_stop(r, SIM_STOP_HALT, NULL);
        for (int i = 0; i < 4; i++) {
            uint32_t w = word(r, OUT + 4 * i);
            for (int l = 0; l < 2; l++) {
                uint32_t hb = w >> (16 * l) & 0xffff;
                assert_true(hb == 0x3c00 || hb == 0x3c01);
            }
            if (k == 0)
                first[i] = w;
            else
                assert_int_equal(w, first[i]);
        }
        run_free(r);
    }
}

/* f32sisoamp: 8 output channels x 8 f32 input channels, phases P0..P7 (E4); an input each
 * phase, partials and results only at even phases (PopLibs' conv_partial_1x1_float_float
 * warms up with P0, P2, P4, P6). $CWEI_m_n = (W[m][2n], W[m][2n + 1]) with W[m][c] = 1 if
 * c == m, 0.5 if c == 7 - m; x_c = c + 1; P_m = 10m. R_m = 10m + (m + 1) + 0.5 (8 - m) =
 * 10.5m + 5. Steps: 4 warm-up (P0,2,4,6 with partials, no input), 8 inputs (P0..P7, no
 * partials: group 1 gets 0), 4 drain (P0,2,4,6) whose results are R0..R7. An odd phase
 * leaves its destination alone: $a6 keeps 0x12345 across step 5 (phase 1). */
static void test_amp_f32(void **state)
{
    (void)state;
    prog p = {.at = SUP};
    sup_load(&p, 0);
    for (int m = 0; m < 8; m++)
        for (int n = 0; n < 4; n++) {
            float l[2];
            for (int k = 0; k < 2; k++) {
                int c = 2 * n + k;
                l[k] = c == m ? 1.0f : c == 7 - m ? 0.5f : 0.0f;
            }
            data64(&p, WTS + 8 * (4 * m + n), f2(l[0], l[1]));
        }
    for (int c = 0; c < 8; c++)
        data(&p, IN + 4 * c, fb((float)(c + 1)));
    for (int m = 0; m < 8; m++)
        data(&p, PART + 4 * m, fb(10.0f * (float)m));
    int outn = 0;
    for (int i = 0; i < 16; i++) {
        int ph = i < 4 ? 2 * i : i < 12 ? i - 4 : 2 * (i - 12);
        int xr = 15, pr = 14;
        if (i < 4) {
            I(&p, "ld64_mman_zi", 4, 2, 15, i);
            pr = 4;
        }
        if (i >= 4 && i < 12) {
            I(&p, "ld32_mman_zi", 2, 1, 15, i - 4);
            xr = 2;
        }
        if (i == 5)
            I(&p, "setzi_aaan_zi", 6, 0x12345);
        I(&p, "f32sisoamp_aaan_ef", 6, xr, pr, E4(ph));
        if (i >= 12)
            I(&p, "st64_mbmn_zi", 6, 3, 15, outn++);
        if (i == 5)
            I(&p, "st32_mbmn_zi", 6, 3, 15, 16);
    }
    I(&p, "exitz_mmmn", 15);
    run *r = run_prog(&p, NULL);
    expect_stop(r, SIM_STOP_HALT, NULL);
    for (int m = 0; m < 8; m++)
        assert_true(fword(r, OUT + 4 * m) == 10.5f * (float)m + 5.0f);
    assert_int_equal(word(r, OUT + 64), 0x12345u);
    run_free(r);
}

/* Two engines (4 units, f32 phases P0..P3) and a one-engine drain, the shape of PopLibs'
 * StaticBlock4x4SparseDenseMatMul_float_float: $CWEI_m_0 = (W[m][0], W[m][1]), $CWEI_m_1 =
 * (W[m][2], W[m][3]), W[m][c] = (m + 1)(c + 1); x_c = 1; P_m = m. R_m = m + (m + 1)(1 + 2 + 3
 * + 4) = 11m + 10: 10, 21, 32, 43. Warm-up E2 P0 and P2 carry the partials, four input
 * phases, then E2 P0 gives out R0, R1 and TAMP_F32_E1_P2 (units 0-1 compute, phase 2's
 * units 2, 3 leave) gives out R2, R3. */
#define E2(p) (8 + (p))
#define E1(p) (p)
static void test_amp_engines(void **state)
{
    (void)state;
    prog p = {.at = SUP};
    sup_load(&p, 32);
    for (int m = 0; m < 4; m++)
        for (int n = 0; n < 2; n++)
            data64(&p, WTS + 8 * (4 * m + n), f2((float)((m + 1) * (2 * n + 1)), (float)((m + 1) * (2 * n + 2))));
    data(&p, IN, fb(1.0f));
    data64(&p, PART, f2(0.0f, 1.0f));
    data64(&p, PART + 8, f2(2.0f, 3.0f));
    I(&p, "ld64_mman_zi", 4, 2, 15, 0);
    I(&p, "f32sisoamp_aaan_ef", 6, 15, 4, E2(0));
    I(&p, "ld64_mman_zi", 4, 2, 15, 1);
    I(&p, "f32sisoamp_aaan_ef", 6, 15, 4, E2(2));
    I(&p, "ld32_mman_zi", 2, 1, 15, 0);
    for (int ph = 0; ph < 4; ph++)
        I(&p, "f32sisoamp_aaan_ef", 6, 2, 14, E2(ph));
    I(&p, "f32sisoamp_aaan_ef", 6, 15, 14, E2(0));
    I(&p, "st64_mbmn_zi", 6, 3, 15, 0);
    I(&p, "f32sisoamp_aaan_ef", 6, 15, 14, E1(2));
    I(&p, "st64_mbmn_zi", 6, 3, 15, 1);
    I(&p, "exitz_mmmn", 15);
    run *r = run_prog(&p, NULL);
    expect_stop(r, SIM_STOP_HALT, NULL);
    for (int m = 0; m < 4; m++)
        assert_true(fword(r, OUT + 4 * m) == 11.0f * (float)m + 10.0f);
    run_free(r);
}

/* f16v4sisoslic, the help text's 2x1x3x4 sequence (flags: W0, 1x3): step j feeds x_j and
 * P_2j, P_2j+1; R_2j+oc = P + x_j.CW(4+oc) + x_j+1.CW(2+oc) + x_j+2.CW(oc) leaves at step
 * j + 3. CW_m = (m + 1, 1, 0, 0), x_j = (j + 1, 10, 0, 0): x_j.CW_m = (m + 1)(j + 1) + 10.
 *   oc 0: 5(j+1) + 3(j+2) + 1(j+3) + 30 = 9j + 44;  P = 100j:     R = 109j + 44
 *   oc 1: 6(j+1) + 4(j+2) + 2(j+3) + 30 = 12j + 50; P = 100j + 1: R = 112j + 51
 * Warm-up: step 0 gives out the zeroed $AACC[0], [2]; steps 1 and 2 give out the pairs
 * "j = -2, -1" that started before x0 from zeros and took only the taps of x0 (and x1):
 *   step 1: x0.CW0 = 1 + 10 = 11, x0.CW1 = 2 + 10 = 12
 *   step 2: x0.CW2 + x1.CW0 = 13 + 12 = 25, x0.CW3 + x1.CW1 = 14 + 14 = 28 */
static void test_slic_f16(void **state)
{
    (void)state;
    prog p = {.at = SUP};
    sup_load(&p, 32);
    for (int m = 0; m < 8; m++)
        data64(&p, WTS + 8 * (4 * m), h4(m + 1, 1, 0, 0)); /* $CWEI_m_0 */
    for (int j = 0; j < 7; j++) {
        data64(&p, IN + 8 * j, h4(j + 1, 10, 0, 0));
        data64(&p, PART + 8 * j, f2(100.0f * (float)j, 100.0f * (float)j + 1));
    }
    for (int i = 0; i < 7; i++) {
        I(&p, "ld64_mman_zi", 2, 1, 15, i);
        I(&p, "ld64_mman_zi", 4, 2, 15, i);
        I(&p, "f16v4sisoslic_aaan_ef", 6, 2, 4, SLIC_1X3);
        I(&p, "st64_mbmn_zi", 6, 3, 15, i);
    }
    I(&p, "exitz_mmmn", 15);
    run *r = run_prog(&p, NULL);
    expect_stop(r, SIM_STOP_HALT, NULL);
    assert_true(word(r, OUT) == 0 && word(r, OUT + 4) == 0);
    assert_true(fword(r, OUT + 8) == 11.0f && fword(r, OUT + 12) == 12.0f);
    assert_true(fword(r, OUT + 16) == 25.0f && fword(r, OUT + 20) == 28.0f);
    for (int j = 0; j < 4; j++) {
        assert_true(fword(r, OUT + 8 * (j + 3)) == 109.0f * (float)j + 44.0f);
        assert_true(fword(r, OUT + 8 * (j + 3) + 4) == 112.0f * (float)j + 51.0f);
    }
    run_free(r);
}

/* f16v4hihov4slic (ipu2, two sets): set 1 runs the same 1x3 pipeline on its own weights
 * (CCCS 32 + 4m) and gives output channels 2, 3. Set 0's CW_m = (m + 1, 1, 0, 0), set 1's
 * twice that; x_j = (j + 1, 10, 0, 0), zero partials. From test_slic_f16 without P: set 0
 * (9j + 44, 12j + 50), set 1 (18j + 88, 24j + 100), as four halves at step j + 3. */
static void test_slic_v4(void **state)
{
    (void)state;
    prog p = {.at = SUP};
    sup_load(&p, 32);
    p.at = SUP + 4 * 35; /* after the 32 ld64putcs: 32 more for the second set */
    for (int i = 32; i < 64; i++)
        I(&p, "ld64putcs_mmmn_zi", i);
    I(&p, "run_mmmn_zi", 0, 15, 0);
    I(&p, "br_mmmn", 10);
    p.at = WRK + 4 * 5; /* sup_load's worker prologue stays */
    for (int m = 0; m < 8; m++) {
        data64(&p, WTS + 8 * (4 * m), h4(m + 1, 1, 0, 0));
        data64(&p, WTS + 256 + 8 * (4 * m), h4(2 * (m + 1), 2, 0, 0));
    }
    for (int j = 0; j < 7; j++)
        data64(&p, IN + 8 * j, h4(j + 1, 10, 0, 0));
    for (int i = 0; i < 7; i++) {
        I(&p, "ld64_mman_zi", 2, 1, 15, i);
        I(&p, "f16v4hihov4slic_aaan_ef", 6, 2, 14, SLIC_1X3);
        I(&p, "st64_mbmn_zi", 6, 3, 15, i);
    }
    I(&p, "exitz_mmmn", 15);
    run *r = run_prog(&p, NULL);
    expect_stop(r, SIM_STOP_HALT, NULL);
    for (int j = 0; j < 4; j++) {
        assert_int_equal(word(r, OUT + 8 * (j + 3)), (uint32_t)(h(9 * j + 44) | h(12 * j + 50) << 16));
        assert_int_equal(word(r, OUT + 8 * (j + 3) + 4), (uint32_t)(h(18 * j + 88) | h(24 * j + 100) << 16));
    }
    run_free(r);
    r = run_prog(&p, (const char *const[]){"amp_sets=1", NULL}); /* ld64putcs 32 faults first */
    expect_stop(r, SIM_STOP_FAULT, "cause 36");
    run_free(r);
}

/* f32sisoslic, the help text's 2x1x3x2 sequence: an element-0 step (flags 1x3) moves the
 * pipeline and feeds P; an element-1 step (flags | 8) adds the upper products. CW_m =
 * (m + 1, 2) (f32 L, U), x_j = (j + 1, 1): tap x_j.CW_m = (m + 1)(j + 1) + 2.
 *   oc 0: 5(j+1) + 3(j+2) + (j+3) + 6 = 9j + 20, P = 0:  R = 9j + 20
 *   oc 1: 6(j+1) + 4(j+2) + 2(j+3) + 6 = 12j + 26, P = 1: R = 12j + 27
 * R_j leaves at the element-0 step of x_j+3. */
static void test_slic_f32(void **state)
{
    (void)state;
    prog p = {.at = SUP};
    sup_load(&p, 32);
    for (int m = 0; m < 8; m++)
        data64(&p, WTS + 8 * (4 * m), f2((float)(m + 1), 2.0f));
    for (int j = 0; j < 5; j++)
        data64(&p, IN + 8 * j, f2((float)(j + 1), 1.0f));
    data64(&p, PART, f2(0.0f, 1.0f));
    I(&p, "ld64_mman_zi", 4, 2, 15, 0);
    for (int j = 0; j < 5; j++) {
        I(&p, "ld64_mman_zi", 0, 1, 15, j);
        I(&p, "f32sisoslic_aaan_ef", 6, 0, 4, SLIC_1X3);
        I(&p, "st64_mbmn_zi", 6, 3, 15, j);
        I(&p, "f32sisoslic_aaan_ef", 8, 1, 14, SLIC_1X3 | 8);
    }
    I(&p, "exitz_mmmn", 15);
    run *r = run_prog(&p, NULL);
    expect_stop(r, SIM_STOP_HALT, NULL);
    for (int j = 0; j < 2; j++) {
        assert_true(fword(r, OUT + 8 * (j + 3)) == 9.0f * (float)j + 20.0f);
        assert_true(fword(r, OUT + 8 * (j + 3) + 4) == 12.0f * (float)j + 27.0f);
    }
    run_free(r);
}

/* The accumulator operations (chain L0..L7 = $AACC[0, 2, ... 14]; odd chain $AACC[1, 3 ...]):
 *  f16v4cmac (1,2,3,4).(5,6,7,8): L0 += 5 + 12 = 17, L1 += 21 + 32 = 53; twice: 34, 106;
 *  f32v2gina imm 0 reads (34, 106) -> OUT[0..1];
 *  f16v2cmac (1,2).(3,4) into a zeroed L0 (after the gina shifted zeros in): 11 -> gacc:
 *  L0..L3 as halves (11, 0, 0, 0) -> OUT[2..3];
 *  f16v4mix with $TAS = (a 2, b 3) halves, x (1,2,3,4), y (1,1,1,1): L0..3 = (5, 7, 9, 11),
 *  a second mix of zeros gives them out as halves -> OUT[4..5];
 *  f32v2gina imm 1 (odd chain): writing (7, 8) four times moves it from L6, L7 to L0, L1
 *  ($AACC[1], [3]), and the fifth reads (7, 8) -> OUT[6..7]; the even chain is untouched;
 *  f16v2gina imm 0 writes halves (1.5, -2) into L6, L7 (f32) and gives out L0, L1 (from
 *  the mix's zeros: 0);
 *  f32v2aop (1, 2) x (3, 4) into zeros: L(2j+i) += a_i b_j: (3, 6, 4, 8) -> two ginas. */
static void test_acc_ops(void **state)
{
    (void)state;
    prog p = {.at = SUP};
    sup_load(&p, 32);
    data64(&p, IN, h4(1, 2, 3, 4));
    data64(&p, IN + 8, h4(5, 6, 7, 8));
    data64(&p, IN + 16, h4(1, 1, 1, 1));
    data64(&p, IN + 24, f2(7.0f, 8.0f));
    data(&p, IN + 32, (uint32_t)(h(2) | h(3) << 16));
    data(&p, IN + 36, (uint32_t)(h(1.5) | h(-2) << 16));
    data64(&p, IN + 40, f2(1.0f, 2.0f));
    data64(&p, IN + 48, f2(3.0f, 4.0f));
    I(&p, "ld64_mman_zi", 0, 1, 15, 0);
    I(&p, "ld64_mman_zi", 2, 1, 15, 1);
    I(&p, "f16v4cmac_aaan", 0, 2);
    I(&p, "f16v4cmac_aaan", 0, 2);
    I(&p, "f32v2gina_aaan_zi", 4, 14, 0);
    I(&p, "st64_mbmn_zi", 4, 3, 15, 0);
    I(&p, "f16v2cmac_aaan", 0, 1); /* $a0 = (1, 2), $a1 = (3, 4) */
    I(&p, "f16v4gacc_aaan", 4);
    I(&p, "st64_mbmn_zi", 4, 3, 15, 1);
    I(&p, "ld32_mman_zi", 8, 1, 15, 8);
    I(&p, "uput_aaan_zi", 8, 8); /* $TAS (0x108) */
    I(&p, "ld64_mman_zi", 2, 1, 15, 2);
    I(&p, "f16v4mix_aaan", 14, 0, 2);
    I(&p, "f16v4mix_aaan", 4, 14, 14);
    I(&p, "st64_mbmn_zi", 4, 3, 15, 2);
    I(&p, "ld64_mman_zi", 2, 1, 15, 3);
    for (int i = 0; i < 4; i++)
        I(&p, "f32v2gina_aaan_zi", 14, 2, 1);
    I(&p, "f32v2gina_aaan_zi", 4, 14, 1);
    I(&p, "st64_mbmn_zi", 4, 3, 15, 3);
    I(&p, "ld32_mman_zi", 9, 1, 15, 9);
    I(&p, "f16v2gina_aaan_zi", 10, 9, 0);
    I(&p, "st32_mbmn_zi", 10, 3, 15, 8);
    I(&p, "exitz_mmmn", 15);
    run *r = run_prog(&p, NULL);
    expect_stop(r, SIM_STOP_HALT, NULL);
    assert_true(fword(r, OUT) == 34.0f && fword(r, OUT + 4) == 106.0f);
    assert_true(word(r, OUT + 8) == (uint32_t)h(11) && word(r, OUT + 12) == 0);
    assert_true(word(r, OUT + 16) == (uint32_t)(h(5) | h(7) << 16));
    assert_true(word(r, OUT + 20) == (uint32_t)(h(9) | h(11) << 16));
    assert_true(fword(r, OUT + 24) == 7.0f && fword(r, OUT + 28) == 8.0f);
    assert_int_equal(word(r, OUT + 32), 0);
    const ipu_ctx *w = &T(r)->ctx[IPU_WORKER(wk(32))];
    assert_true(bf(w->aacc[12]) == 1.5f && bf(w->aacc[14]) == -2.0f); /* f16v2gina wrote L6, L7 */
    run_free(r);

    prog q = {.at = SUP};
    sup_load(&q, 32);
    data64(&q, IN, f2(1.0f, 2.0f));
    data64(&q, IN + 8, f2(3.0f, 4.0f));
    I(&q, "ld64_mman_zi", 0, 1, 15, 0);
    I(&q, "ld64_mman_zi", 2, 1, 15, 1);
    I(&q, "f32v2aop_aaan_ef", 0, 2, 0);
    I(&q, "f32v2gina_aaan_zi", 4, 14, 0);
    I(&q, "f32v2gina_aaan_zi", 6, 14, 0);
    I(&q, "st64_mbmn_zi", 4, 3, 15, 0);
    I(&q, "st64_mbmn_zi", 6, 3, 15, 1);
    /* f16v4stacc imm 0 as PopLibs' ReductionSpecial01Acc uses it after f32v4acc: (L0, L1)
     * out as they are, L2.. to the odd chain (not shifting the even one), where a gina with
     * immediate 1 finds them. f32v4acc (1, 2, 3, 4) into the zeros the ginas left:
     * stacc gives (1, 2), gina 1 gives (3, 4), and the even chain still holds 1, 2. */
    I(&q, "ld128_mman_zi", 8, 1, 15, 1);  /* $a8:11 = IN + 16 */
    I(&q, "f32v4acc_aaan", 8);
    I(&q, "f16v4stacc_aaan_ef", 4, 0);
    I(&q, "f32v2gina_aaan_zi", 6, 14, 1);
    I(&q, "st64_mbmn_zi", 4, 3, 15, 2);
    I(&q, "st64_mbmn_zi", 6, 3, 15, 3);
    I(&q, "exitz_mmmn", 15);
    data64(&q, IN + 16, f2(1.0f, 2.0f));
    data64(&q, IN + 24, f2(3.0f, 4.0f));
    r = run_prog(&q, NULL);
    expect_stop(r, SIM_STOP_HALT, NULL);
    assert_true(fword(r, OUT) == 3.0f && fword(r, OUT + 4) == 6.0f);
    assert_true(fword(r, OUT + 8) == 4.0f && fword(r, OUT + 12) == 8.0f);
    assert_true(fword(r, OUT + 16) == 1.0f && fword(r, OUT + 20) == 2.0f);
    assert_true(fword(r, OUT + 24) == 3.0f && fword(r, OUT + 28) == 4.0f);
    const ipu_ctx *w3 = &T(r)->ctx[IPU_WORKER(wk(32))];
    assert_true(bf(w3->aacc[0]) == 1.0f && bf(w3->aacc[2]) == 2.0f);
    run_free(r);
}

/* Misuse: each stops with its exception (types inferred, causes ipu1_consts.c). */
static void sup_only(prog *p, uint32_t cccsload, const char *row, int idx)
{
    p->at = SUP;
    I(p, "setzi_mmmn_zi", 1, cccsload);
    I(p, "put_mmmn_zi", 0x50, 1);
    I(p, row, idx);
    I(p, "br_mmmn", 10);
}
static void worker_one(prog *p, const char *row, int64_t a, int64_t b, int64_t c, int64_t f)
{
    sup_load(p, 32);
    put(p, enc(row, (const int64_t[]){a, b, c, f}));
    I(p, "exitz_mmmn", 15);
}

static void test_amp_faults(void **state)
{
    (void)state;
    prog p = {.at = SUP};
    run *r;
    sup_only(&p, WTS, "ld128putcs_mmmn_zi", 3);
    r = run_prog(&p, NULL);
    expect_stop(r, SIM_STOP_FAULT, "odd CCCS index (TEXCPT_INVALID_OP, cause 40)");
    run_free(r);
    sup_only(&p, WTS, "ld64putcs_mmmn_zi", 32); /* ipu1: one set, 32 words */
    r = run_prog(&p, (const char *const[]){"amp_sets=1", NULL});
    expect_stop(r, SIM_STOP_FAULT, "cause 36");
    run_free(r);
    r = run_prog(&p, NULL); /* ipu2: two sets, index 32 is the second set's $CWEI_0_0 */
    expect_stop(r, SIM_STOP_HALT, NULL);
    run_free(r);
    sup_only(&p, WTS + 4, "ld64putcs_mmmn_zi", 0);
    r = run_prog(&p, NULL);
    expect_stop(r, SIM_STOP_FAULT, "not 8-byte aligned (TEXCPT_INVALID_ADDR, cause 58)");
    run_free(r);
    sup_only(&p, WTS, "ld128putcs_mmmn_zi", 0);
    r = run_prog(&p, (const char *const[]){"interleaved_base=0x80000", NULL});
    expect_stop(r, SIM_STOP_FAULT, "below the interleaved region (0x80000) (TEXCPT_INVALID_ADDR, cause 43)");
    run_free(r);
    sup_only(&p, 0x1000, "ld64putcs_mmmn_zi", 0);
    r = run_prog(&p, NULL);
    expect_stop(r, SIM_STOP_FAULT, "outside tile memory (TEXCPT_INVALID_ADDR, cause 27)");
    run_free(r);

    worker_one(&p, "f16v4sisoamp_aaan_ef", 6, 14, 14, E4(4)); /* phase 4: f16 has P0..P3 */
    r = run_prog(&p, NULL);
    expect_stop(r, SIM_STOP_ILLEGAL, "names a phase past the last of its format (TEXCPT_INVALID_INSTR, cause 23)");
    run_free(r);
    worker_one(&p, "f16v4sisoamp_aaan_ef", 6, 14, 14, 0x20);
    r = run_prog(&p, NULL);
    expect_stop(r, SIM_STOP_ILLEGAL, "bits outside");
    run_free(r);
    worker_one(&p, "f16v4hihov4amp_aaan_ef", 6, 14, 14, E4(0));
    r = run_prog(&p, (const char *const[]){"amp_sets=1", NULL});
    expect_stop(r, SIM_STOP_ILLEGAL, "needs two AMP sets");
    run_free(r);
    /* the stacc/istacc immediates beyond TSTACC_P1/TISTACC_P1 (1) are invalid instructions */
    worker_one(&p, "f16v4stacc_aaan_ef", 6, 2, -1, -1);
    r = run_prog(&p, NULL);
    expect_stop(r, SIM_STOP_ILLEGAL, "f16v4stacc: flags 2 is not TSTACC_P0 (0) or TSTACC_P1 (1) (TEXCPT_INVALID_INSTR, cause 23)");
    run_free(r);
    worker_one(&p, "f16v4istacc_aaan_ef", 6, 0, 2, 2);
    r = run_prog(&p, NULL);
    expect_stop(r, SIM_STOP_ILLEGAL, "f16v4istacc: flags 2 is not TISTACC_P0 (0) or TISTACC_P1 (1)");
    run_free(r);
    /* f32aop flags other than 0 still stop as not modelled (their format is not public) */
    worker_one(&p, "f32v2aop_aaan_ef", 2, 4, 1, -1);
    r = run_prog(&p, NULL);
    expect_stop(r, SIM_STOP_ILLEGAL, "not modelled yet: f32v2aop with flags other than 0");
    run_free(r);
    worker_one(&p, "f32v2gina_aaan_zi", 6, 14, 2, -1); /* the second set on one set */
    r = run_prog(&p, (const char *const[]){"amp_sets=1", NULL});
    expect_stop(r, SIM_STOP_ILLEGAL, "needs -o amp_sets=2");
    run_free(r);
}

/* $CR.ZCWEI (bit 2) zeroes the weights: load 32 words of ones, clear, check. */
static void test_zcwei(void **state)
{
    (void)state;
    prog p = {.at = SUP};
    for (int i = 0; i < 32; i++)
        data64(&p, WTS + 8 * i, ~0ull);
    p.at = SUP;
    I(&p, "setzi_mmmn_zi", 1, WTS);
    I(&p, "setzi_mmmn_zi", 2, 4);
    I(&p, "put_mmmn_zi", 0x50, 1);
    I(&p, "ld128putcs_mmmn_zi", 0);
    I(&p, "ld64putcs_mmmn_zi", 5);
    I(&p, "get_mmmn_zi", 3, 0x50); /* $CCCSLOAD after 16 + 8 bytes */
    I(&p, "put_mmmn_zi", 0x02, 2); /* $CR.ZCWEI */
    I(&p, "ld64putcs_mmmn_zi", 7);
    I(&p, "br_mmmn", 10);
    run *r = run_prog(&p, NULL);
    expect_stop(r, SIM_STOP_HALT, NULL);
    assert_int_equal(T(r)->ctx[IPU_SUP].m[3], WTS + 24);
    assert_true(T(r)->cccs[0] == 0 && T(r)->cccs[1] == 0 && T(r)->cccs[5] == 0);
    assert_true(T(r)->cccs[7] == ~0ull);
    run_free(r);
}

XPUSIM_TESTS(ipu_amp, cmocka_unit_test(test_amp_f16_pipeline), cmocka_unit_test(test_amp_half_and_precision), cmocka_unit_test(test_amp_sr),
             cmocka_unit_test(test_amp_f32), cmocka_unit_test(test_amp_engines), cmocka_unit_test(test_slic_f16), cmocka_unit_test(test_slic_v4), cmocka_unit_test(test_slic_f32),
             cmocka_unit_test(test_acc_ops), cmocka_unit_test(test_amp_faults), cmocka_unit_test(test_zcwei))
