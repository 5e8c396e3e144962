/* tests/ipu/test_misc.c: the instruction groups of exec_misc*.c -- the PRNG and what draws
 * from it, stochastic rounding, classification, lateral maxima, permutations, fp8, the other
 * three-access loads, stm32, and sync/delay/send on one tile. Each instruction is encoded by
 * its LLVM row name (ipu_encode), placed in tile memory and executed once through
 * ipu_exec_bundle in a context whose registers the test sets; the timing cases run small
 * programs through the barrel. Every expected value is worked out by hand from the rules in
 * docs/isa/ipu.md, the derivation next to it; the PRNG draws are the published
 * xoroshiro128aox C code (James Hanlon's note, IEEE TC 2023) evaluated independently in
 * Python from the seeded state, as noted. */
#include "../testlib.h"
#include "ipu_elf.h"
#include "../../isa/isa.h"
#include "../../isa/ipu/ipu.h"
#include "../../isa/ipu/tile.h"

extern const isa_ops isa_ipu;

#define NW 0x1000 /* words of the image (16 KiB) */

typedef struct mach {
    sim_machine m;
    ld_image img;
    uint32_t base;
    uint32_t w[NW];
} mach;

/* A machine (arch and options) with an image of NW words at the tile memory base; the
 * supervisor enters at the base. */
static mach *mk_img(const char *const *opts, const uint32_t *img)
{
    static uint8_t buf[0x100 + 4 * NW];
    mach *r = calloc(1, sizeof *r);
    if (img)
        memcpy(r->w, img, sizeof r->w);
    r->base = 0x4c000u;
    for (int i = 0; opts && opts[i]; i++)
        if (!strcmp(opts[i], "arch=ipu1"))
            r->base = 0x40000u;
    ipu_test_boot(&r->m, &r->img, buf, ipu_test_elf(buf, r->w, 4 * NW, r->base, r->base), opts, NULL);
    return r;
}
static mach *mk(const char *const *opts) { return mk_img(opts, NULL); }
static void rm(mach *r)
{
    sim_destroy(&r->m);
    ld_free(&r->img);
    free(r);
}
static ipu_tile *T(mach *r) { return ipu_m(&r->m)->tiles; }
static ipu_ctx *C(mach *r, int tid) { return &T(r)->ctx[tid]; }
#define W0 IPU_WORKER(0)

#define enc ipu_test_enc

/* Execute one instruction in context tid (made active) at a fixed code address: 0 retired,
 * -1 raised (the stop message in r->m.stop.msg). Registers are whatever the test set. */
static int xq(mach *r, int tid, const char *name, const int64_t *ops)
{
    const uint32_t code = r->base + 0x3000;
    ipu_tile *tl = T(r);
    ipu_ctx *c = C(r, tid);
    c->state = IPU_CS_ACTIVE;
    c->pc = code;
    c->etype = c->cause = 0;
    mem_st32le(tl->mem + (code - r->base), enc(name, ops));
    r->m.stop.kind = SIM_STOP_NONE;
    ipu_issue is;
    return ipu_exec_bundle(&r->m, &r->m.units[0], tl, tid, 600 + (uint64_t)(tid ? tid - 1 : 0), &is);
}
#define X(r, tid, name, ...) xq(r, tid, name, (const int64_t[]){__VA_ARGS__, 0})
#define OK(call) do { if ((call) != 0) fail_msg("%s: %s", #call, r->m.stop.msg); } while (0)

static uint32_t mw(mach *r, uint32_t a) { return mem_ld32le(T(r)->mem + (a - r->base)); }
static void setw(mach *r, uint32_t a, uint32_t v) { mem_st32le(T(r)->mem + (a - r->base), v); }

/* ---- PRNG ---- */

static void test_prng_seed_and_draws(void **state)
{
    (void)state;
    mach *r = mk(NULL);
    ipu_ctx *c = C(r, W0);
    c->a[1] = 0x12345678u;
    OK(X(r, W0, "uput_aaan_zi", 7, 1)); /* $PRNG_SEED (0x107) = v */
    /* help text: $PRNG_0_0 = v, $PRNG_0_1 = ~v = 0xedcba987,
     * $PRNG_1_0 = v << 13 | ~v >> 19 = 0x8acf0000 | 0x1db9 = 0x8acf1db9,
     * $PRNG_1_1 = ~v << 13 | v >> 19 = 0x7530e000 | 0x246 = 0x7530e246; $PRNG_SEED reads 0 */
    const uint32_t want[5] = {0x12345678u, 0xedcba987u, 0x8acf1db9u, 0x7530e246u, 0};
    for (int i = 0; i < 5; i++) {
        OK(X(r, W0, "uget_aaan_zi", 2, 3 + i));
        assert_int_equal(c->a[2], want[i]);
    }
    /* xoroshiro128aox from s0 = 0xedcba98712345678, s1 = 0x7530e2468acf1db9 (Python, the
     * published C code): draws 0x46f88bdd94e33330, 0xe53244053136cdc3; state after the first
     * 0x767dc82b898211ea, 0x8fb4bc198fb4bc19 */
    OK(X(r, W0, "urand64_aaan", 4));
    assert_int_equal(c->a[4], 0x94e33330u);
    assert_int_equal(c->a[5], 0x46f88bddu);
    OK(X(r, W0, "uget_aaan_zi", 2, 3));
    assert_int_equal(c->a[2], 0x898211eau);
    OK(X(r, W0, "uget_aaan_zi", 2, 6));
    assert_int_equal(c->a[2], 0x8fb4bc19u);
    OK(X(r, W0, "urand32_aaan", 6)); /* the low word of the second draw */
    assert_int_equal(c->a[6], 0x3136cdc3u);
    /* the state survives a worker launch (help text: retained between exit and launch) */
    uint64_t s0 = c->prng[0];
    ipu_start_worker(T(r), 0, r->base, r->base, 700);
    assert_true(c->prng[0] == s0);
    /* urand64 into $azeros still advances (PopLibs SetSeed warms up that way) */
    OK(X(r, W0, "urand64_aaan", 14));
    assert_true(c->prng[0] != s0);
    rm(r);
}

static void test_prng_plus_and_default_seed(void **state)
{
    (void)state;
    /* -o prng=plus: output s0 + s1: 0xedcba98712345678 + 0x7530e2468acf1db9 =
     * 0x62fc8bcd9d037431 (mod 2^64) */
    const char *const o1[] = {"prng=plus", NULL};
    mach *r = mk(o1);
    ipu_ctx *c = C(r, W0);
    c->a[1] = 0x12345678u;
    OK(X(r, W0, "uput_aaan_zi", 7, 1));
    OK(X(r, W0, "urand64_aaan", 4));
    assert_int_equal(c->a[4], 0x9d037431u);
    assert_int_equal(c->a[5], 0x62fc8bcdu);
    rm(r);
    /* never seeded: -o prng_seed (default 0): s0 = 0xffffffff00000000, s1 = 0xffffe00000001fff;
     * first aox draw 0xffffdfff00001ffc (Python) */
    r = mk(NULL);
    c = C(r, W0);
    OK(X(r, W0, "urand64_aaan", 4));
    assert_int_equal(c->a[4], 0x00001ffcu);
    assert_int_equal(c->a[5], 0xffffdfffu);
    rm(r);
}

static void test_grand_rmask(void **state)
{
    (void)state;
    mach *r = mk(NULL);
    ipu_ctx *c = C(r, W0);
    /* seed 0x12345678: draws 0x46f88bdd94e33330, 0xe53244053136cdc3. grand of a draw: the
     * sum of its twelve 5-bit fields minus 186, over 32: 190 -> 0.125 and 156 -> -0.9375
     * (fields of 0x...94e33330: 16,25,12,6,14,9,13,23,8,31,17,16 = 190; of the second 156) */
    c->a[1] = 0x12345678u;
    OK(X(r, W0, "uput_aaan_zi", 7, 1));
    OK(X(r, W0, "f32v2grand_aaan", 2));
    assert_int_equal(c->a[2], 0x3e000000u); /* 0.125f */
    assert_int_equal(c->a[3], 0xbf700000u); /* -0.9375f */
    OK(X(r, W0, "uput_aaan_zi", 7, 1));
    OK(X(r, W0, "f16v2grand_aaan", 4));
    assert_int_equal(c->a[4], 0xbb803000u); /* halves 0.125 (0x3000), -0.9375 (0xbb80) */
    /* f32v2rmask $a4:5, $a2:3, $a6 with P = 0x8000 (probability 1/2), first draw again:
     * lane 0 bits 0-15 = 0x3330 < 0x8000 kept, lane 1 bits 32-47 = 0x8bdd not */
    OK(X(r, W0, "uput_aaan_zi", 7, 1));
    c->a[2] = 0x3f800000u;
    c->a[3] = 0x40000000u;
    c->a[6] = 0x8000u;
    OK(X(r, W0, "f32v2rmask_aaan", 4, 2, 6));
    assert_int_equal(c->a[4], 0x3f800000u);
    assert_int_equal(c->a[5], 0);
    /* f16v4rmask: lanes' bits 0x3330, 0x94e3, 0x8bdd, 0x46f8: lanes 0 and 3 kept */
    OK(X(r, W0, "uput_aaan_zi", 7, 1));
    c->a[2] = 0x3c003c00u;
    c->a[3] = 0x3c003c00u;
    OK(X(r, W0, "f16v4rmask_aaan", 4, 2, 6));
    assert_int_equal(c->a[4], 0x00003c00u);
    assert_int_equal(c->a[5], 0x3c000000u);
    /* P[16] set: a copy; P = 0: zeros */
    c->a[6] = 0x10000u;
    OK(X(r, W0, "f16v4rmask_aaan", 4, 2, 6));
    assert_int_equal(c->a[4], 0x3c003c00u);
    c->a[6] = 0x20000u; /* bits above 16 are ignored: P = 0 */
    OK(X(r, W0, "f16v4rmask_aaan", 4, 2, 6));
    assert_int_equal(c->a[4], 0);
    assert_int_equal(c->a[5], 0);
    rm(r);
}

static void test_sufromui(void **state)
{
    (void)state;
    mach *r = mk(NULL);
    ipu_ctx *c = C(r, W0);
    /* (u - 2^31 + 1/2) / 2^32: u = 0 -> -1/2 + 2^-33, which rounds to -0.5f (the f32 ulp
     * below 0.5 is 2^-25); u = 2^31 -> 2^-33 (0x2f000000); u = 2^31 - 1 -> -2^-33 */
    c->a[1] = 0;
    OK(X(r, W0, "f32sufromui_aaan", 2, 1));
    assert_int_equal(c->a[2], 0xbf000000u);
    c->a[1] = 0x80000000u;
    OK(X(r, W0, "f32sufromui_aaan", 2, 1));
    assert_int_equal(c->a[2], 0x2f000000u);
    c->a[0] = 0x7fffffffu;
    c->a[1] = 0xffffffffu; /* 2^32 - 1 -> 1/2 - 2^-33 -> 0.5f */
    OK(X(r, W0, "f32v2sufromui_aaan", 2, 0));
    assert_int_equal(c->a[2], 0xaf000000u);
    assert_int_equal(c->a[3], 0x3f000000u);
    /* 16 bits: (u - 2^15 + 1/2) / 2^16: 0x8000 -> 2^-17, an f16 subnormal 2^7 x 2^-24 =
     * 0x0080; 0x7fff -> -2^-17 = 0x8080 */
    c->a[1] = 0x7fff8000u;
    OK(X(r, W0, "f16v2sufromui_aaan", 2, 1));
    assert_int_equal(c->a[2], 0x80800080u);
    rm(r);
}

/* ---- stochastic rounding ---- */

static void test_stochastic_rounding(void **state)
{
    (void)state;
    const char *const o[] = {"fp_ctl=0x80000", NULL}; /* ESR (bit 19) at launch */
    mach *r = mk(o);
    ipu_ctx *c = C(r, W0);
    c->fp_ctl = 0x80000u;
    /* f32tof16 of 1 + 2^-11 (0x3f801000), halfway between 1.0 (0x3c00) and 1 + 2^-10
     * (0x3c01): rounds up when the 16 random bits are below 0.5 x 65536. Seed 0x12345678:
     * first draw's low bits 0x3330 = 13104 < 32768 -> up; the result broadcast */
    c->a[1] = 0x12345678u;
    OK(X(r, W0, "uput_aaan_zi", 7, 1));
    c->a[2] = 0x3f801000u;
    OK(X(r, W0, "f32tof16_aaan", 3, 2));
    assert_int_equal(c->a[3], 0x3c013c01u);
    /* 1 + 2^-20 (0x3f800008): 2^-10 of an ulp above 1.0, up only below 64: the second draw's
     * low bits 0xcdc3 -> down */
    c->a[2] = 0x3f800008u;
    OK(X(r, W0, "f32tof16_aaan", 3, 2));
    assert_int_equal(c->a[3], 0x3c003c00u);
    /* 1 + 2^-13 (0x3f800400) is 1/8 of an ulp above 1.0: up when the bits are below 8192.
     * Third draw 0xb56baa1b5705ef1a: 0xef1a -> down; seed 0: first draw 0xffffdfff00001ffc,
     * 0x1ffc = 8188 -> up */
    c->a[2] = 0x3f800400u;
    OK(X(r, W0, "f32tof16_aaan", 3, 2));
    assert_int_equal(c->a[3], 0x3c003c00u);
    c->a[1] = 0;
    OK(X(r, W0, "uput_aaan_zi", 7, 1));
    OK(X(r, W0, "f32tof16_aaan", 3, 2));
    assert_int_equal(c->a[3], 0x3c013c01u);
    /* f16 arithmetic too: f16v2add (1, 1) + (2^-11, 2^-11) = 1 + 2^-11 per lane; seed
     * 0x12345678: lane 0 bits 0x3330 -> up (0x3c01), lane 1 bits 0x94e3 = 38115 -> down */
    c->a[1] = 0x12345678u;
    OK(X(r, W0, "uput_aaan_zi", 7, 1));
    c->a[4] = 0x3c003c00u;
    c->a[5] = 0x10001000u; /* 2^-11 = 0x1000 */
    OK(X(r, W0, "f16v2add_aaan", 6, 4, 5));
    assert_int_equal(c->a[6], 0x3c003c01u);
    /* the supervisor's $FP_ICTL (0x20) is the $FP_CTL a launched worker starts with: before
     * any put it reads -o fp_ctl (0x80000 here) */
    ipu_ctx *s = C(r, IPU_SUP);
    OK(X(r, IPU_SUP, "get_mmmn_zi", 2, 0x20));
    assert_int_equal(s->m[2], 0x80000u);
    s->m[1] = 0x100001u; /* NANOO | INV enable */
    OK(X(r, IPU_SUP, "put_mmmn_zi", 0x20, 1));
    ipu_start_worker(T(r), 1, r->base, r->base, 700);
    assert_int_equal(C(r, IPU_WORKER(1))->fp_ctl, 0x100001u);
    /* ESR clear: nearest even, 1 + 2^-11 -> 1.0 */
    c->fp_ctl = 0;
    OK(X(r, W0, "f16v2add_aaan", 6, 4, 5));
    assert_int_equal(c->a[6], 0x3c003c00u);
    rm(r);
}

/* ---- class, maxc ---- */

static void test_class(void **state)
{
    (void)state;
    const char *const o[] = {"arch=ipu21", NULL};
    mach *r = mk(o);
    ipu_ctx *c = C(r, W0);
    /* TFPU_CLASS (docs/isa/ipu.md "Classification"): 1 sNaN, 2 qNaN, 3 -inf, 4 -normal, 5 -0,
     * 6 +0, 7 +normal, 8 +inf, 9 -subnormal, 10 +subnormal */
    const struct { uint32_t f; uint32_t cl; } f32[] = {
        {0x7fa00000u, 1}, {0x7fc00000u, 2}, {0xff800000u, 3}, {0xbf800000u, 4}, {0x80000000u, 5},
        {0, 6}, {0x3f800000u, 7}, {0x7f800000u, 8}, {0x80000001u, 9}, {1, 10}};
    for (size_t i = 0; i < sizeof f32 / sizeof f32[0]; i++) {
        c->a[1] = f32[i].f;
        OK(X(r, W0, "f32class_aaan", 2, 1));
        assert_int_equal(c->a[2], f32[i].cl);
    }
    /* f32v2class: lane k in byte k */
    c->a[4] = 0x7fc00000u;
    c->a[5] = 0xff800000u;
    OK(X(r, W0, "f32v2class_aaan", 2, 4));
    assert_int_equal(c->a[2], 0x0302u);
    /* f16v4class: sNaN 0x7d00 (1), +subnormal 0x0001 (10), -0 (5), +inf 0x7c00 (8); PopLibs'
     * fp8 casts look for 5 in these bytes to find the half -0 */
    c->a[4] = 0x00017d00u;
    c->a[5] = 0x7c008000u;
    OK(X(r, W0, "f16v4class_aaan", 2, 4));
    assert_int_equal(c->a[2], 0x08050a01u);
    c->a[4] = 0xbc003c00u; /* f16v2class: +1 (7), -1 (4) */
    OK(X(r, W0, "f16v2class_aaan", 2, 4));
    assert_int_equal(c->a[2], 0x0407u);
    /* f8v4class, 1.4.3: 0x80 the NaN (2), 0x00 (6), 0x01 subnormal (10), 0xb8 -normal (4) */
    c->a[1] = 0xb8010080u;
    OK(X(r, W0, "f8v4class_aaan", 2, 1));
    assert_int_equal(c->a[2], 0x040a0602u);
    rm(r);
}

static void test_maxc(void **state)
{
    (void)state;
    mach *r = mk(NULL);
    ipu_ctx *c = C(r, W0);
    c->a[1] = 0x40003c00u; /* (1.0, 2.0) -> 2.0 broadcast */
    OK(X(r, W0, "f16v2maxc_aaan", 2, 1));
    assert_int_equal(c->a[2], 0x40004000u);
    c->a[1] = 0x3c007e00u; /* (qNaN, 1.0) -> 1.0 (maxNum) */
    OK(X(r, W0, "f16v2maxc_aaan", 2, 1));
    assert_int_equal(c->a[2], 0x3c003c00u);
    /* f16v4maxc 2x2: (max(-1, -0), max(+0, -0)) = (-0, +0) */
    c->a[4] = 0x8000bc00u;
    c->a[5] = 0x80000000u;
    OK(X(r, W0, "f16v4maxc_aaan", 2, 4));
    assert_int_equal(c->a[2], 0x00008000u);
    /* a signalling NaN sets $FP_STS.INV and raises TEXCPT_FP when $FP_CTL enables it */
    c->fp_sts = 0;
    c->a[1] = 0x3c007d00u;
    OK(X(r, W0, "f16v2maxc_aaan", 2, 1));
    assert_int_equal(c->fp_sts & 1, 1);
    c->fp_ctl = 1;
    assert_int_equal(X(r, W0, "f16v2maxc_aaan", 2, 1), -1);
    assert_int_equal(c->etype, IPU_TEXCPT_FP);
    rm(r);
}

/* ---- permutations ---- */

static void test_permutations(void **state)
{
    (void)state;
    mach *r = mk(NULL);
    ipu_ctx *c = C(r, W0), *s = C(r, IPU_SUP);
    const uint32_t a = 0x44332211u, b = 0x88776655u;
    /* bytes of a: 11 22 33 44, of b: 55 66 77 88 (lane 0 first) */
    const struct { const char *m; uint32_t want; } p[] = {
        {"roll8r", 0x55443322u},     /* b:a >> 8: 22 33 44 55 (BroadcastSelect shifts bytes in at the top) */
        {"roll8l", 0x77665544u},     /* (b:a << 8) upper word: 44 55 66 77 (SliceCopy_8bit) */
        {"roll16", 0x66554433u},     /* (a1, b0): CastToGfloat32 puts a new half under an old one */
        {"shuf8x8lo", 0x66225511u},  /* 11 55 22 66: combine8bit, Fill's byte broadcast */
        {"shuf8x8hi", 0x88447733u},  /* 33 77 44 88 */
        {"sort8x8lo", 0x77553311u},  /* 11 33 55 77: NormaliseImage, the int8 casts */
        {"sort8x8hi", 0x88664422u},  /* 22 44 66 88: CastHalfToGF8 takes the high bytes */
        {"sort4x16lo", 0x66552211u}, /* (a0, b0): Clamp pairs its bounds */
        {"sort4x16hi", 0x88774433u}, /* (a1, b1) */
    };
    c->a[1] = a;
    c->a[2] = b;
    s->m[1] = a;
    s->m[2] = b;
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "%s_mmmn", p[i].m); /* MRF form, in the supervisor */
        OK(X(r, IPU_SUP, name, 3, 1, 2));
        assert_int_equal(s->m[3], p[i].want);
        if (!strncmp(p[i].m, "roll8", 5) || !strncmp(p[i].m, "shuf8", 5) || !strncmp(p[i].m, "sort8x8", 7))
            continue; /* the ARF forms of roll8*, shuf8x8*, sort8x8* are ipu21 only */
        snprintf(name, sizeof name, "%s_aaan", p[i].m);
        OK(X(r, W0, name, 3, 1, 2));
        assert_int_equal(c->a[3], p[i].want);
    }
    OK(X(r, IPU_SUP, "sort8_mmmn", 3, 1)); /* 11 33 22 44 */
    assert_int_equal(s->m[3], 0x44223311u);
    OK(X(r, IPU_SUP, "swap8_mmmn", 3, 1)); /* 22 11 44 33 */
    assert_int_equal(s->m[3], 0x33441122u);
    /* broadcast forms: sort4x16lo $d, $a:BU, $b = (a1, b0); sort4x16hi $d, $a:BL, $b (ipu2)
     * = (a0, b1) */
    OK(X(r, W0, "sort4x16lo_aaau", 3, 1, 2));
    assert_int_equal(c->a[3], 0x66554433u);
    OK(X(r, W0, "sort4x16hi_aaal", 3, 1, 2));
    assert_int_equal(c->a[3], 0x88772211u);
    /* 32-bit lanes of pairs: A = (0x11111111, 0x22222222), B = (0x33333333, 0x44444444) */
    c->a[4] = 0x11111111u, c->a[5] = 0x22222222u, c->a[6] = 0x33333333u, c->a[7] = 0x44444444u;
    OK(X(r, W0, "roll32_aaan", 8, 4, 6)); /* (A1, B0): dynamicSlice1D realigns by a word */
    assert_int_equal(c->a[8], 0x22222222u);
    assert_int_equal(c->a[9], 0x33333333u);
    OK(X(r, W0, "sort4x32lo_aaan", 8, 4, 6)); /* (A0, B0) */
    assert_int_equal(c->a[8], 0x11111111u);
    assert_int_equal(c->a[9], 0x33333333u);
    OK(X(r, W0, "sort4x32hi_aaan", 8, 4, 6)); /* (A1, B1) */
    assert_int_equal(c->a[8], 0x22222222u);
    assert_int_equal(c->a[9], 0x44444444u);
    rm(r);
}

/* ---- fp8 (ipu21) ---- */

static void test_fp8(void **state)
{
    (void)state;
    const char *const o[] = {"arch=ipu21", NULL};
    mach *r = mk(o);
    ipu_ctx *c = C(r, W0);
    /* 1.4.3, bias 8: 0x38 = exponent 7, 2^-1 = 0.5 (f16 0x3800); 0x01 the smallest
     * subnormal 2^(1-8-3) = 2^-10 (f16 0x1400) */
    c->a[1] = 0x0138u;
    OK(X(r, W0, "f8v2tof16_aaan", 2, 1));
    assert_int_equal(c->a[2], 0x14003800u);
    /* $FP_SCL = 1 scales by 2: 1.0 (0x3c00), 2^-9 (0x1800) */
    c->a[5] = 1;
    OK(X(r, W0, "uput_aaan_zi", 10, 5)); /* $FP_SCL 0x10a */
    OK(X(r, W0, "f8v2tof16_aaan", 2, 1));
    assert_int_equal(c->a[2], 0x18003c00u);
    c->a[5] = 0;
    OK(X(r, W0, "uput_aaan_zi", 10, 5));
    /* f8v4tof16: bytes 0x80 (NaN -> 0x7e00), 0x40 (1.0), 0xc0 (-1.0), 0x00 */
    c->a[1] = 0x00c04080u;
    OK(X(r, W0, "f8v4tof16_aaan", 2, 1));
    assert_int_equal(c->a[2], 0x3c007e00u);
    assert_int_equal(c->a[3], 0x0000bc00u);
    /* 1.5.2 ($FP_NFMT bit 1), bias 16: 0x3c = exponent 15, 0.5 */
    c->a[5] = 2;
    OK(X(r, W0, "uput_aaan_zi", 9, 5)); /* $FP_NFMT 0x109 */
    c->a[1] = 0x3cu;
    OK(X(r, W0, "f8v2tof16_aaan", 2, 1));
    assert_int_equal(c->a[2] & 0xffff, 0x3800u);
    c->a[5] = 0;
    OK(X(r, W0, "uput_aaan_zi", 9, 5));
    /* f16v2tof8 (1.4.3): 1.0 -> 0x40; 240 (0x5b80) the largest -> 0x7f */
    c->a[1] = 0x5b803c00u;
    OK(X(r, W0, "f16v2tof8_aaan", 2, 1));
    assert_int_equal(c->a[2], 0x7f40u);
    /* ties to even: 1.0625 (0x3c40) between 1.0 and 1.125 -> 1.0 (0x40); 1.1875 (0x3cc0)
     * between 1.125 and 1.25 -> 1.25 (0x42) */
    c->a[1] = 0x3cc03c40u;
    OK(X(r, W0, "f16v2tof8_aaan", 2, 1));
    assert_int_equal(c->a[2], 0x4240u);
    /* 300 (0x5cb0) overflows: OFLO, clipped to 0x7f (NANOO 0) or the NaN 0x80 (NANOO 1);
     * a NaN is 0x80 */
    c->fp_sts = 0;
    c->a[1] = 0x7e005cb0u;
    OK(X(r, W0, "f16v2tof8_aaan", 2, 1));
    assert_int_equal(c->a[2], 0x807fu);
    assert_int_equal(c->fp_sts & 4, 4);
    c->fp_ctl = 1u << 20;
    OK(X(r, W0, "f16v2tof8_aaan", 2, 1));
    assert_int_equal(c->a[2], 0x8080u);
    c->fp_ctl = 0;
    /* f16v8tof8: eight halves to eight bytes, lane order kept */
    c->a[4] = 0xbc003c00u, c->a[5] = 0x00003800u, c->a[6] = 0x3c003c00u, c->a[7] = 0x3c003c00u;
    OK(X(r, W0, "f16v8tof8_aaan", 2, 4));
    assert_int_equal(c->a[2], 0x0038c040u);
    assert_int_equal(c->a[3], 0x40404040u);
    rm(r);
}

/* ---- memory ---- */

static void test_loads(void **state)
{
    (void)state;
    mach *r = mk(NULL);
    ipu_ctx *c = C(r, W0);
    const uint32_t D = r->base + 0x4000, E = D + 0x8000; /* two SRAM elements (16 KiB each) apart */
    for (int i = 0; i < 16; i++) {
        setw(r, D + 4 * (uint32_t)i, 0xd0000000u + (uint32_t)i);
        setw(r, E + 4 * (uint32_t)i, 0xe0000000u + (uint32_t)i);
    }
    /* ld64a32 $a0:3 (writes a1..a3), $m1++, $m2, $m3: [m1] -> a2:a3, [m2 + m3[15:0]] -> a1 */
    c->a[0] = 0xaaaaaaaau;
    c->m[1] = D;
    c->m[2] = E;
    c->m[3] = 0x12340008u; /* only the low 16 bits: offset 8 */
    OK(X(r, W0, "ld64a32_mmbn", 0, 1, 2, 3));
    assert_int_equal(c->a[0], 0xaaaaaaaau);
    assert_int_equal(c->a[1], 0xe0000002u);
    assert_int_equal(c->a[2], 0xd0000000u);
    assert_int_equal(c->a[3], 0xd0000001u);
    assert_int_equal(c->m[1], D + 8);
    /* ldd16a32 $a4, $m1++, $m2, $m3@: the half at m1 (0x0001 of 0xd0000001... at D + 8:
     * word 0xd0000002, low half 0x0002) becomes the new delta; data at m2 + old delta (8) */
    OK(X(r, W0, "ldd16a32_mmbn", 4, 1, 2, 3));
    assert_int_equal(c->a[4], 0xe0000002u);
    assert_int_equal(c->m[3], 0x0002u);
    assert_int_equal(c->m[1], D + 10);
    /* ldd16b16: half at m1 = D + 10 (0xd000) is the new delta; data: half at E + 2 (0xe000)
     * broadcast */
    OK(X(r, W0, "ldd16b16_mmbn", 5, 1, 2, 3));
    assert_int_equal(c->a[5], 0xe000e000u);
    assert_int_equal(c->m[3], 0xd000u);
    assert_int_equal(c->m[1], D + 12);
    /* ldd16a64 $a6:7: delta 0x0010 -> data pair at E + 16 */
    c->m[1] = D + 16;
    c->m[3] = 0x10;
    OK(X(r, W0, "ldd16a64_mmbn", 6, 1, 2, 3));
    assert_int_equal(c->a[6], 0xe0000004u);
    assert_int_equal(c->a[7], 0xe0000005u);
    assert_int_equal(c->m[3], 0x0004u); /* the half at D + 16 */
    /* ldd16v2a32: the word at m1 (0xd0000004) becomes the delta pair; the data is at m2 +
     * old delta[31:16] = E + 12 */
    c->m[1] = D + 16;
    c->m[3] = 0x000c0000u; /* delta[31:16] = 12 */
    OK(X(r, W0, "ldd16v2a32_mmbn", 8, 1, 2, 3));
    assert_int_equal(c->a[8], 0xe0000003u);
    assert_int_equal(c->m[3], 0xd0000004u);
    assert_int_equal(c->m[1], D + 20);
    /* ldb16b16 $a8:9, $m2, $m3++, $m4>>: halves at E + 0 (0x0000) and E + 0x8006 (another
     * element: 0xbeef, the high half of the word at E + 0x8004) broadcast; then delta lo += 2,
     * hi += mini[3:0] (3) halves = 6 bytes; mini >>= 4 */
    setw(r, E + 0x8004, 0xbeef0000u);
    c->m[3] = 0x80060000u;
    c->m[4] = 0x23u;
    OK(X(r, W0, "ldb16b16_mmbn", 8, 2, 3, 4));
    assert_int_equal(c->a[8], 0x00000000u);
    assert_int_equal(c->a[9], 0xbeefbeefu);
    assert_int_equal(c->m[3], 0x800c0002u);
    assert_int_equal(c->m[4], 0x2u);
    /* the same element for both accesses: TEXCPT_CONFLICT, cause CONFLICT_EA1 (8) */
    c->m[1] = D;
    c->m[2] = D;
    c->m[3] = 0x40;
    assert_int_equal(X(r, W0, "ld64a32_mmbn", 0, 1, 2, 3), -1);
    assert_int_equal(c->etype, IPU_TEXCPT_CONFLICT);
    assert_int_equal(c->cause, 8);
    assert_int_equal(c->m[1], D); /* nothing written */
    rm(r);
}

static void test_pace_narrow_ldb8_stm32(void **state)
{
    (void)state;
    mach *r = mk(NULL);
    ipu_ctx *c = C(r, W0), *s = C(r, IPU_SUP);
    const uint32_t D = r->base + 0x4000, E = D + 0x8000;
    for (int i = 0; i < 16; i++) {
        setw(r, D + 4 * (uint32_t)i, 0xd0000000u + (uint32_t)i);
        setw(r, E + 4 * (uint32_t)i, 0x00010000u * (uint32_t)(i + 1) + (uint32_t)i);
    }
    /* tapack: lo = A0 | A2[10:0] << 21, hi = A1 | A2[21:11] << 21; A2 = 0 here */
    c->m[4] = D;
    c->m[5] = E;
    /* ld64a32pace $a0:1, $a2, $m4:5+=, $m6, 0: [A0] -> a0:1, [A1] -> a2; select 0 adds one
     * element: A0 += 8, A1 += 4 */
    c->m[6] = 0;
    OK(X(r, W0, "ld64a32pace_mmbn_ef", 0, 2, 4, 6, 0));
    assert_int_equal(c->a[0], 0xd0000000u);
    assert_int_equal(c->a[1], 0xd0000001u);
    assert_int_equal(c->a[2], 0x00010000u);
    assert_int_equal(c->m[4], D + 8);
    assert_int_equal(c->m[5], E + 4);
    /* ld64b16pace, select 0b0100: A1 takes field 0 of the stride register (3) in halves: the
     * half at E + 4 (0x0001, low half of 0x00020001) broadcast, then A1 += 6 */
    c->m[6] = 3;
    OK(X(r, W0, "ld64b16pace_mmbn_ef", 0, 2, 4, 6, 4));
    assert_int_equal(c->a[2], 0x00010001u);
    assert_int_equal(c->m[5], E + 10);
    /* a destination inside the pair: TEXCPT_INVALID_OP (help text) */
    assert_int_equal(X(r, W0, "ld64a32pace_mmbn_ef", 0, 1, 4, 6, 0), -1);
    assert_int_equal(c->etype, IPU_TEXCPT_INVALID_OP);
    /* stm32 $m1, $m2, $m3: [m2 + m3 x 4] = m1; stm32step: [m2] = m1, m2 += m3 x 4 */
    s->m[1] = 0xcafef00du;
    s->m[2] = D;
    s->m[3] = 2;
    OK(X(r, IPU_SUP, "stm32_mmmn", 1, 2, 3));
    assert_int_equal(mw(r, D + 8), 0xcafef00du);
    OK(X(r, IPU_SUP, "stm32step_mmmn", 1, 2, 3));
    assert_int_equal(mw(r, D), 0xcafef00du);
    assert_int_equal(s->m[2], D + 8);
    rm(r);
    /* ldb8 (ipu21): the byte at base + delta + offset broadcast; ldb8step adds the stride */
    const char *const o[] = {"arch=ipu21", NULL};
    r = mk(o);
    c = C(r, W0);
    setw(r, D, 0x00ab0000u);
    c->m[1] = D;
    c->m[2] = 1;
    OK(X(r, W0, "ldb8_mman_zi", 3, 1, 2, 1)); /* D + 1 + 1 */
    assert_int_equal(c->a[3], 0xababababu);
    c->m[2] = 2;
    OK(X(r, W0, "ldb8step_mmbn_si", 4, 1, 2, -2));
    assert_int_equal(c->a[4], 0xababababu);
    assert_int_equal(c->m[2], 0);
    rm(r);
}

/* ---- sync, delay, send: whole runs through the barrel ---- */

/* A program: supervisor code at the base, worker code at base + 0x400; run to the end. */
static uint32_t img[NW];
static void ins(int at, const char *name, const int64_t *ops) { img[at] = enc(name, ops); }
#define I(at, name, ...) ins(at, name, (const int64_t[]){__VA_ARGS__, 0})

static mach *run_img(const char *const *opts)
{
    mach *r = mk_img(opts, img);
    sim_run(&r->m, 100000);
    if (r->m.stop.kind != SIM_STOP_HALT)
        fail_msg("stop %s: %s", sim_stop_name(r->m.stop.kind), r->m.stop.msg);
    return r;
}
static uint64_t sync_stalls(mach *r) { return r->m.units[0].threads[IPU_SUP].stalls[IPU_STALL_SYNC]; }

static void test_sync_local(void **state)
{
    (void)state;
    memset(img, 0, sizeof img);
    /* supervisor: setzi $m0, WRK (cycle 0); run $m0, $m15, 0 reads $m0, ready 6 cycles after
     * its write: issues at 6, slot 0, so W0 runs and first issues at the first cycle >= 12 in
     * slot 0: 12; sync 2 (LOCAL) at 7; W0: nop, nop, exitz at 12, 18, 24 -> exited at 25;
     * the supervisor's br $m10 waits for it: issues at 25 (slot 1, free); the cycles 8..24
     * (17) are "sync" stalls. */
    const uint32_t base = 0x4c000u, wrk = base + 0x400;
    I(0, "setzi_mmmn_zi", 0, wrk);
    I(1, "run_mmmn_zi", 0, 15, 0);
    I(2, "sync_mmmn_zi", 2);
    I(3, "br_mmmn", 10);
    I(0x100, "setzi_mmmn_zi", 14, 0);
    I(0x101, "setzi_mmmn_zi", 14, 0);
    I(0x102, "exitz_mmmn", 15);
    mach *r = run_img(NULL);
    assert_int_equal(C(r, IPU_SUP)->last_issue, 25);
    assert_int_equal(C(r, W0)->exited_at, 25);
    assert_int_equal(sync_stalls(r), 17);
    rm(r);
    /* with no worker active, sync LOCAL waits for nothing: sync at 0, br at 1 */
    memset(img, 0, sizeof img);
    I(0, "sync_mmmn_zi", 2);
    I(1, "br_mmmn", 10);
    r = run_img(NULL);
    assert_int_equal(C(r, IPU_SUP)->last_issue, 1);
    assert_int_equal(sync_stalls(r), 0);
    rm(r);
}

static void test_sync_delay_send(void **state)
{
    (void)state;
    /* sync 3 (INTERNAL, the tile alone in its zone) costs -o sync_cycles: 5 -> br at 0 + 1 + 5 */
    memset(img, 0, sizeof img);
    I(0, "sync_mmmn_zi", 3);
    I(1, "br_mmmn", 10);
    const char *const o[] = {"sync_cycles=5", NULL};
    mach *r = run_img(o);
    assert_int_equal(C(r, IPU_SUP)->last_issue, 6);
    assert_int_equal(sync_stalls(r), 5);
    rm(r);
    /* delay 10: the next issue waits 10 more cycles: br at 11 */
    memset(img, 0, sizeof img);
    I(0, "delay_mmmn_zi", 10);
    I(1, "br_mmmn", 10);
    r = run_img(NULL);
    assert_int_equal(C(r, IPU_SUP)->last_issue, 11);
    assert_int_equal(sync_stalls(r), 10);
    rm(r);
    /* send 3, A, 0: four words from word address A, one a cycle: br at 0 + 4 */
    memset(img, 0, sizeof img);
    I(0, "send_mmmn_zi", 3, (0x4c000 + 0x800) / 4, 0);
    I(1, "br_mmmn", 10);
    r = run_img(NULL);
    assert_int_equal(C(r, IPU_SUP)->last_issue, 4);
    assert_int_equal(sync_stalls(r), 3);
    rm(r);
    /* send from outside tile memory: TEXCPT_INVALID_ADDR; sync 9: no zone, TEXCPT_INVALID_OP
     * with CAUSEID_INVALID_SYNCZONE (79) */
    r = mk(NULL);
    assert_int_equal(X(r, IPU_SUP, "send_mmmn_zi", 0, 0, 0), -1);
    assert_int_equal(C(r, IPU_SUP)->etype, 8);
    assert_int_equal(X(r, IPU_SUP, "sync_mmmn_zi", 9), -1);
    assert_int_equal(C(r, IPU_SUP)->etype, IPU_TEXCPT_INVALID_OP);
    assert_int_equal(C(r, IPU_SUP)->cause, 79);
    rm(r);
}

/* stm32 reads the register it stores: in the supervisor it waits for it like any source.
 * setzi $m2 at 0, setzi $m1 at 1, stm32 $m1, $m2, $m15 needs $m2 (ready 6) and $m1 (ready
 * 7): issues at 7 (5 dependency cycles, 2..6), br $m10 at 8. Had the store's data register
 * not counted, it would issue at 6. */
static void test_stm32_dependency(void **state)
{
    (void)state;
    memset(img, 0, sizeof img);
    I(0, "setzi_mmmn_zi", 2, 0x4c000 + 0x800);
    I(1, "setzi_mmmn_zi", 1, 0x1234);
    I(2, "stm32_mmmn", 1, 2, 15);
    I(3, "br_mmmn", 10);
    mach *r = run_img(NULL);
    assert_int_equal(C(r, IPU_SUP)->last_issue, 8);
    assert_int_equal(r->m.units[0].threads[IPU_SUP].stalls[IPU_STALL_DEP], 5);
    assert_int_equal(mw(r, 0x4c000 + 0x800), 0x1234);
    rm(r);
}

/* A 64-bit bundle at 4 mod 8 (docs/isa/ipu.md "Bundles"): by default it executes, both
 * halves ({ add $m1, $m15, 7 ; setzi $a2, 0x123 }); -o bundle_align=raise makes it raise
 * TEXCPT_INVALID_PC with cause MISALIGNED_EXEBUNDLE (67) and retire nothing. */
static int odd_bundle(mach *r)
{
    const uint32_t code = r->base + 0x3004;
    ipu_tile *tl = T(r);
    ipu_ctx *c = C(r, W0);
    c->state = IPU_CS_ACTIVE;
    c->pc = code;
    c->m[1] = 0;
    c->a[2] = 0;
    mem_st32le(tl->mem + (code - r->base), enc("add_mmmn_si", (const int64_t[]){1, 15, 7, 0}) | 1u << 31);
    mem_st32le(tl->mem + (code + 4 - r->base), enc("setzi_aaan_zi", (const int64_t[]){2, 0x123, 0}));
    r->m.stop.kind = SIM_STOP_NONE;
    ipu_issue is;
    return ipu_exec_bundle(&r->m, &r->m.units[0], tl, W0, 600, &is);
}

static void test_bundle_at_4_mod_8(void **state)
{
    (void)state;
    mach *r = mk(NULL);
    assert_int_equal(odd_bundle(r), 0);
    assert_int_equal(C(r, W0)->m[1], 7);
    assert_int_equal(C(r, W0)->a[2], 0x123);
    assert_int_equal(C(r, W0)->pc, r->base + 0x300c);
    rm(r);
    r = mk((const char *const[]){"bundle_align=raise", NULL});
    assert_int_equal(odd_bundle(r), -1);
    assert_int_equal(C(r, W0)->cause, IPU_CAUSE_MISALIGNED_EXEBUNDLE);
    assert_int_equal(C(r, W0)->m[1], 0);
    assert_int_equal(C(r, W0)->a[2], 0);
    rm(r);
}

XPUSIM_TESTS(ipu_misc, cmocka_unit_test(test_bundle_at_4_mod_8), cmocka_unit_test(test_prng_seed_and_draws), cmocka_unit_test(test_prng_plus_and_default_seed),
             cmocka_unit_test(test_grand_rmask), cmocka_unit_test(test_sufromui),
             cmocka_unit_test(test_stochastic_rounding), cmocka_unit_test(test_class), cmocka_unit_test(test_maxc),
             cmocka_unit_test(test_permutations), cmocka_unit_test(test_fp8), cmocka_unit_test(test_loads),
             cmocka_unit_test(test_pace_narrow_ldb8_stm32), cmocka_unit_test(test_sync_local),
             cmocka_unit_test(test_sync_delay_send), cmocka_unit_test(test_stm32_dependency))
