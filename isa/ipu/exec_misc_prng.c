/* isa/ipu/exec_misc_prng.c: the worker's hardware pseudorandom number generator and the
 * instructions that draw from it: urand32/urand64 (uniform bits), f32v2grand/f16v2grand
 * (approximately Gaussian), f32v2rmask/f16v4rmask (random masks), the $PRNG_0_0..$PRNG_1_1
 * and $PRNG_SEED CSRs, and the symmetric unbiased conversions *sufromui that pair with
 * urand. The state is two 64-bit words per worker context ($PRNG_0, $PRNG_1), kept across
 * worker launches (help text). The generator is Graphcore's published xoroshiro128aox
 * (Hanlon and Felix, IEEE Trans. Computers 72(5), 2023; arXiv:2203.04058): the xoroshiro128
 * state update with the AND-OR-XOR output function; -o prng=plus takes PopLibs' C++ model of
 * it instead (xoroshiro128+, the same update with output s0 + s1). Which state word is s0,
 * the reset state, how many draws each instruction makes and how its result bits are laid
 * out are not public: the decisions and their evidence are in docs/isa/ipu.md, "PRNG". */
#include <math.h>
#include <string.h>
#include "exec_misc.h"

static uint64_t rotl64(uint64_t x, int k) { return x << k | x >> (64 - k); }

/* $PRNG_SEED's rule (help text): $PRNG_0_0 = v, $PRNG_0_1 = ~v, $PRNG_1_0 = v << 13 | ~v >> 19,
 * $PRNG_1_1 = ~v << 13 | v >> 19, all 32-bit. */
static void prng_seed(ipu_ctx *c, uint32_t v)
{
    uint32_t n = ~v;
    c->prng[0] = (uint64_t)n << 32 | v;
    c->prng[1] = (uint64_t)(n << 13 | v >> 19) << 32 | (v << 13 | n >> 19);
    c->prng_set = 1;
}

/* The reset state is not public: a context that was never seeded starts from -o prng_seed. */
static void prng_ready(ipu_xs *x)
{
    if (!x->c->prng_set)
        prng_seed(x->c, x->im->prng_seed);
}

uint64_t ipu_prng_next(ipu_xs *x)
{
    prng_ready(x);
    uint64_t s0 = x->c->prng[0], s1 = x->c->prng[1], sx = s0 ^ s1, r;
    if (x->im->prng_alg == 0) { /* xoroshiro128aox: sx ^ (rotl(s0 & s1, 1) | rotl(s0 & s1, 2)) */
        uint64_t sa = s0 & s1;
        r = sx ^ (rotl64(sa, 1) | rotl64(sa, 2));
    } else {                    /* xoroshiro128+ (PopLibs RandomUtils.hpp next()) */
        r = s0 + s1;
    }
    x->c->prng[0] = rotl64(s0, 55) ^ sx ^ (sx << 14);
    x->c->prng[1] = rotl64(sx, 36);
    return r;
}

/* $PRNG_0_0 (0x103), $PRNG_0_1, $PRNG_1_0, $PRNG_1_1 (0x106): the 32-bit halves of the state,
 * low half first; $PRNG_SEED (0x107) seeds it and reads 0 (help text). Workers only. */
int ipu_misc_prng_csr(ipu_xs *x, unsigned idx, int put, uint32_t *v)
{
    if (x->tid == IPU_SUP || idx < 0x103 || idx > 0x107)
        return 0;
    if (idx == 0x107) {
        if (put)
            prng_seed(x->c, *v);
        else
            *v = 0;
        return 1;
    }
    prng_ready(x);
    uint64_t *w = &x->c->prng[(idx - 0x103) / 2];
    int sh = (int)((idx - 0x103) & 1) * 32;
    if (put)
        *w = (*w & ~(0xffffffffull << sh)) | (uint64_t)*v << sh;
    else
        *v = (uint32_t)(*w >> sh);
    return 1;
}

/* One Gaussian sample from 64 PRNG bits: the sum of the twelve 5-bit fields of bits 0-59,
 * centred (12 x 31 / 2 = 186) and scaled by 1/32 -- PopLibs' model of grand (RandomUtils.hpp
 * grand(): "not an exact model of the actual hardware"). Mean 0, variance 1023/1024; every
 * value is a multiple of 1/32 within +-5.8125, exact in f16 and f32. */
static double grand1(uint64_t r)
{
    int acc = 0;
    for (int j = 0; j < 12; j++, r >>= 5)
        acc += (int)(r & 31);
    return (acc - 186) / 32.0;
}

static uint32_t f_bits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }

/* urand32 $a: the low 32 bits of one draw; urand64 $a:a+1: one draw, bits 0-31 in $a. */
int ipu_misc_urand(ipu_xs *x, const ipu_insn *in, int is64)
{
    uint64_t r = ipu_prng_next(x);
    if (is64)
        ipu_wap(x, in->v[0], r);
    else
        ipu_wa(x, in->v[0], (uint32_t)r);
    return 0;
}

/* f32v2grand $a:a+1 / f16v2grand $a: one draw per lane, lane 0 first (the low register or
 * half). */
int ipu_misc_grand(ipu_xs *x, const ipu_insn *in, int half)
{
    double g0 = grand1(ipu_prng_next(x)), g1 = grand1(ipu_prng_next(x));
    if (!half) {
        ipu_wap(x, in->v[0], (uint64_t)f_bits((float)g1) << 32 | f_bits((float)g0));
        return 0;
    }
    uint32_t fl = 0; /* exact in f16: no rounding, no flag */
    uint32_t h0 = ipu_h16_round_sr(g0, 0, 0, 0, 0, &fl), h1 = ipu_h16_round_sr(g1, 0, 0, 0, 0, &fl);
    ipu_wa(x, in->v[0], h1 << 16 | h0);
    return 0;
}

/* f16v4rmask $d:d+1, $s:s+1, $p / f32v2rmask: with P = $p[16:0] (help text) -- P[16] set:
 * a copy; P == 0: zeros; else each lane kept when its 16 random bits are below P[15:0]
 * (probability P/65536), else cleared to +0. One draw per instruction in every case; f16
 * lane k uses bits 16k..16k+15, f32 lane k bits 32k..32k+15 (PopLibs' Bernoulli/Dropout
 * models: thisVal = r & 0xffff per lane, r >>= bitsPerVal). */
int ipu_misc_rmask(ipu_xs *x, const ipu_insn *in, int half)
{
    uint64_t v = ipu_rap(x, in->v[1]), out = 0;
    uint32_t p = ipu_ra(x, in->v[2]) & 0x1ffff;
    uint64_t r = ipu_prng_next(x);
    const int lanes = half ? 4 : 2, w = half ? 16 : 32;
    const uint64_t lane_mask = half ? 0xffffull : 0xffffffffull;
    for (int k = 0; k < lanes; k++) {
        int keep = (p >> 16) ? 1 : p == 0 ? 0 : (uint32_t)(r >> (w * k) & 0xffff) < (p & 0xffff);
        if (keep)
            out |= v & lane_mask << (w * k);
    }
    ipu_wap(x, in->v[0], out);
    return 0;
}

/* Symmetric, unbiased conversion of an unsigned n-bit integer u to (u - 2^(n-1) + 1/2) / 2^n:
 * within [-1/2, 1/2], never 0, magnitude at least 2^-(n+1) (the help text's bounds: 2^-33
 * for 32 bits, 2^-17 for 16); u and ~u give opposite values. Rounded once to nearest even
 * (f32 by the host, f16 by ipu_h16_round_sr); f16 results may be subnormal and are never
 * flushed (the help text says they can lie in the denormal range and are never 0). */
static double sufromui(uint32_t u, int n) { return ((double)u - ldexp(1.0, n - 1) + 0.5) * ldexp(1.0, -n); }

int ipu_misc_sufromui(ipu_xs *x, const ipu_insn *in, int half, int lanes)
{
    uint32_t fl = 0;
    if (!half) {
        if (lanes == 1) {
            ipu_wa(x, in->v[0], f_bits((float)sufromui(ipu_ra(x, in->v[1]), 32)));
            return 0;
        }
        uint64_t s = ipu_rap(x, in->v[1]);
        uint32_t r0 = f_bits((float)sufromui((uint32_t)s, 32)), r1 = f_bits((float)sufromui((uint32_t)(s >> 32), 32));
        ipu_wap(x, in->v[0], (uint64_t)r1 << 32 | r0);
        return 0;
    }
    uint64_t s = lanes == 2 ? ipu_ra(x, in->v[1]) : ipu_rap(x, in->v[1]), out = 0;
    for (int k = 0; k < lanes; k++)
        out |= (uint64_t)ipu_h16_round_sr(sufromui((uint32_t)(s >> (16 * k)) & 0xffff, 16), 0, 0, 0, 0, &fl) << (16 * k);
    if (lanes == 2)
        ipu_wa(x, in->v[0], (uint32_t)out);
    else
        ipu_wap(x, in->v[0], out);
    return 0;
}
