/* isa/ipu/exec_misc.c: semantics of the instruction groups the other exec files do not
 * cover: the class instructions, the lateral maxima, the byte/halfword/word permutations,
 * ipu21's fp8 conversions, and the supervisor's exchange and sync instructions on a tile
 * alone (sync, sans, delay, send); it also maps the PRNG rows (exec_misc_prng.c) and the
 * remaining memory rows (exec_misc_mem.c) and owns their CSRs. exec.c maps each table row to
 * an id here by its LLVM name (ipu_misc_sem) and calls ipu_exec_misc for it. Nothing here is
 * in the public help text beyond one line per instruction; every layout is inferred from
 * PopLibs' use of the instruction (graphcore/poplibs, MIT) or decided where nothing shows
 * it, and docs/isa/ipu.md ("Classification", "Permutations", "fp8", "Sync and exchange on
 * one tile") names the evidence for each. Sync and exchange are written as a tile alone in
 * its zone: the waits are per-context readiness (barrel.c) so that a later multi-tile model
 * can complete them from events between tiles instead. */
#include <math.h>
#include <string.h>
#include "exec_misc.h"

typedef struct mname {
    const char *prefix; /* mnemonic + "_": every row of that mnemonic */
    uint8_t sem;
} mname;

static const mname mnames[] = {
    {"urand32_", M_URAND32}, {"urand64_", M_URAND64}, {"f16v2grand_", M_F16V2GRAND}, {"f32v2grand_", M_F32V2GRAND},
    {"f16v4rmask_", M_F16V4RMASK}, {"f32v2rmask_", M_F32V2RMASK}, {"f32sufromui_", M_F32SUFROMUI},
    {"f32v2sufromui_", M_F32V2SUFROMUI}, {"f16v2sufromui_", M_F16V2SUFROMUI}, {"f16v4sufromui_", M_F16V4SUFROMUI},
    {"f32class_", M_F32CLASS}, {"f32v2class_", M_F32V2CLASS}, {"f16v2class_", M_F16V2CLASS},
    {"f16v4class_", M_F16V4CLASS}, {"f8v4class_", M_F8V4CLASS}, {"f16v2maxc_", M_F16V2MAXC},
    {"f16v4maxc_", M_F16V4MAXC},
    {"roll8l_", M_ROLL8L}, {"roll8r_", M_ROLL8R}, {"roll16_", M_ROLL16}, {"roll32_", M_ROLL32},
    {"shuf8x8lo_", M_SHUF8X8LO}, {"shuf8x8hi_", M_SHUF8X8HI}, {"sort8x8lo_", M_SORT8X8LO},
    {"sort8x8hi_", M_SORT8X8HI}, {"sort4x16lo_", M_SORT4X16LO}, {"sort4x16hi_", M_SORT4X16HI},
    {"sort4x32lo_", M_SORT4X32LO}, {"sort4x32hi_", M_SORT4X32HI}, {"sort8_", M_SORT8}, {"swap8_", M_SWAP8},
    {"f8v2tof16_", M_F8V2TOF16}, {"f8v4tof16_", M_F8V4TOF16}, {"f16v2tof8_", M_F16V2TOF8}, {"f16v8tof8_", M_F16V8TOF8},
    {"ld64a32_", M_LD64A32}, {"ld64a32pace_", M_LD64A32PACE}, {"ld64b16pace_", M_LD64B16PACE},
    {"ldd16a32_", M_LDD16A32}, {"ldd16a64_", M_LDD16A64}, {"ldd16b16_", M_LDD16B16}, {"ldd16v2a32_", M_LDD16V2A32},
    {"ldb16b16_", M_LDB16B16}, {"ldb8_", M_LDB8}, {"ldb8step_", M_LDB8STEP}, {"stm32_", M_STM32},
    {"stm32step_", M_STM32STEP},
    {"sync_", M_SYNC}, {"sans_", M_SANS}, {"delay_", M_DELAY}, {"send_", M_SEND},
    {"delaypic_", M_DELAYPIC}, {"delayxpic_", M_DELAYXPIC}, {"sendoff_", M_SENDOFF}, {"sendpic_", M_SENDPIC},
    {"sendpicp_", M_SENDPICP},
};

int ipu_misc_sem(const char *llvm_name)
{
    for (size_t i = 0; i < sizeof mnames / sizeof mnames[0]; i++)
        if (!strncmp(llvm_name, mnames[i].prefix, strlen(mnames[i].prefix)))
            return mnames[i].sem;
    return 0;
}

static uint32_t reg_mask(const ipu_insn *in, int i)
{
    uint32_t r = in->v[i];
    switch (in->op->op[i].kind) {
    case IPU_K_AR: return r < 15 ? 1u << r : 0;
    case IPU_K_ARP: return r < 14 ? 3u << r : 0;
    case IPU_K_ARQ: return (r < 14 ? 3u << r : 0) | (r + 2 < 14 ? 3u << (r + 2) : 0);
    default: return 0;
    }
}

/* ARF registers written (bundle pairing check): the first operand when it is an $a register,
 * pair or quad, except ld64a32 (the quad's first register is left alone) and the pace loads'
 * second destination. */
uint32_t ipu_misc_arf_writes(const ipu_insn *in, int msem)
{
    if (msem == M_STM32 || msem == M_STM32STEP || msem >= M_SYNC)
        return 0;
    uint32_t w = reg_mask(in, 0);
    if (msem == M_LD64A32)
        w &= ~(1u << in->v[0]);
    if (msem == M_LD64A32PACE || msem == M_LD64B16PACE)
        w |= reg_mask(in, 1);
    return w;
}

/* stm32/stm32step read the register they store (the supervisor's dependency check). */
int ipu_misc_reads_op0(const ipu_insn *in, int msem)
{
    (void)in;
    return msem == M_STM32 || msem == M_STM32STEP;
}

/* CSRs: $FP_ICTL, the PRNG ones (exec_misc_prng.c) and ipu21's $FP_NFMT (0x109), $FP_SCL (0x10a):
 * workers' upper CSRs after $TAS in the register list of the SDK's target-access library
 * (Saghetti0/graphcore-ipu-research ghidra/register_list.json, in index order; the indices
 * are inferred from that order). */
int ipu_misc_csr(ipu_xs *x, unsigned idx, int put, uint32_t *v)
{
    /* the supervisor's $FP_ICTL (0x20, ipu1_consts.c; its fields are $FP_CTL's: INV, DIV0,
     * OFLO, RND, ESR, NANOO): the $FP_CTL a worker starts with (help text: "the initial value
     * of this register on worker launch is provided by" it); -o fp_ctl until written. PopLibs'
     * convolutions save, change (ESR) and restore it (poplin conv_sr_ctrl.h.S). */
    if (x->tid == IPU_SUP && idx == 0x20) {
        if (put) {
            x->tl->fp_ictl = *v;
            x->tl->fp_ictl_set = 1;
        } else {
            *v = x->tl->fp_ictl_set ? x->tl->fp_ictl : x->im->fp_ctl_launch;
        }
        return 1;
    }
    int rc = ipu_misc_prng_csr(x, idx, put, v);
    if (rc || x->tid == IPU_SUP || x->im->arch != IPU_ARCH_IPU21 || (idx != 0x109 && idx != 0x10a))
        return rc;
    uint32_t *r = idx == 0x109 ? &x->c->fp_nfmt : &x->c->fp_scl;
    if (put)
        *r = *v;
    else
        *v = *r;
    return 1;
}

/* ---- operands ---- */

/* A 32-bit source: an $m or $a register, or a broadcast half (:BL low, :BU high). */
static uint32_t src32(ipu_xs *x, const ipu_insn *in, int i)
{
    uint32_t r = in->v[i], v;
    switch (in->op->op[i].kind) {
    case IPU_K_MR: return ipu_rm(x, r);
    case IPU_K_ARBL: v = ipu_ra(x, r) & 0xffff; return v | v << 16;
    case IPU_K_ARBU: v = ipu_ra(x, r) >> 16; return v | v << 16;
    default: return ipu_ra(x, r);
    }
}
static void dst32(ipu_xs *x, const ipu_insn *in, uint32_t v)
{
    if (in->op->op[0].kind == IPU_K_MR)
        ipu_wm(x, in->v[0], v);
    else
        ipu_wa(x, in->v[0], v);
}
static uint32_t byte(uint32_t v, int k) { return v >> (8 * k) & 0xff; }
static uint32_t bytes4(uint32_t b0, uint32_t b1, uint32_t b2, uint32_t b3) { return b0 | b1 << 8 | b2 << 16 | b3 << 24; }

/* The permutations, lanes numbered from the least significant (docs/isa/ipu.md
 * "Permutations" gives the PopLibs use each follows). a and b are the first and second
 * source in printing order. */
static int permute(ipu_xs *x, const ipu_insn *in, int msem)
{
    if (msem == M_ROLL32 || msem == M_SORT4X32LO || msem == M_SORT4X32HI) {
        uint64_t a = ipu_rap(x, in->v[1]), b = ipu_rap(x, in->v[2]), r;
        if (msem == M_ROLL32)
            r = a >> 32 | b << 32;                      /* (a1, b0) */
        else if (msem == M_SORT4X32LO)
            r = (a & 0xffffffffu) | b << 32;            /* (a0, b0) */
        else
            r = a >> 32 | (b & 0xffffffff00000000ull);  /* (a1, b1) */
        ipu_wap(x, in->v[0], r);
        return 0;
    }
    uint32_t a = src32(x, in, 1), b = in->op->nops > 2 ? src32(x, in, 2) : 0, r;
    switch (msem) {
    case M_ROLL8R: r = a >> 8 | b << 24; break;          /* the word pair b:a shifted right a byte */
    case M_ROLL8L: r = a >> 24 | b << 8; break;          /* b:a shifted left a byte, upper word */
    case M_ROLL16: r = a >> 16 | b << 16; break;         /* (a1, b0) halfwords */
    case M_SHUF8X8LO: r = bytes4(byte(a, 0), byte(b, 0), byte(a, 1), byte(b, 1)); break; /* interleave */
    case M_SHUF8X8HI: r = bytes4(byte(a, 2), byte(b, 2), byte(a, 3), byte(b, 3)); break;
    case M_SORT8X8LO: r = bytes4(byte(a, 0), byte(a, 2), byte(b, 0), byte(b, 2)); break; /* de-interleave */
    case M_SORT8X8HI: r = bytes4(byte(a, 1), byte(a, 3), byte(b, 1), byte(b, 3)); break;
    case M_SORT4X16LO: r = (a & 0xffff) | b << 16; break; /* (a0, b0) halfwords */
    case M_SORT4X16HI: r = a >> 16 | (b & 0xffff0000u); break; /* (a1, b1) */
    case M_SORT8: r = bytes4(byte(a, 0), byte(a, 2), byte(a, 1), byte(a, 3)); break;
    default: /* M_SWAP8 */ r = bytes4(byte(a, 1), byte(a, 0), byte(a, 3), byte(a, 2)); break;
    }
    dst32(x, in, r);
    return 0;
}

/* ---- floating-point status ---- */

/* Set $FP_STS flags (1 INV, 4 OFLO); raise TEXCPT_FP when $FP_CTL enables one (as
 * exec_float.c does). */
static int fp_flags(ipu_xs *x, const ipu_insn *in, uint32_t fl)
{
    x->c->fp_sts |= fl;
    uint32_t en = fl & x->c->fp_ctl & 7u;
    if (en)
        return ipu_xfail(x, SIM_STOP_FAULT, IPU_TEXCPT_FP, IPU_CAUSE_FLOATING_POINT, "%s: floating-point %s",
                         in->op->mnemonic, en & 1 ? "invalid operation" : "overflow");
    return 0;
}

/* ---- classification (IEEE 754-2008 5.7.2's classes, numbered as the SDK's TFPU_CLASS) ---- */

/* TFPU_CLASS_UNC 0, SNAN 1, QNAN 2: a Graphcore example vertex's comment on
 * __builtin_ipu_f32class; PopLibs tests class 2 for NaN (HasNaN.S f32class, the f16->fp8
 * casts' f16v4class "nan class mask" 0x02000002). -0 is 5: PopLibs' fp8->f16 casts find the
 * fp8 NaN, which their shifts turn into the half -0, with f16v4class == 0x05 in a byte
 * (inlineAssemblerCast.hpp, "fp16 class" 0x05000005). So not the standard's list order (which
 * would put -0 at 6); the rest is inferred by symmetry around the zeros: -inf 3, -normal 4,
 * -0 5, +0 6, +normal 7, +inf 8, and the subnormals after them, -9, +10 (docs/isa/ipu.md). */
enum { CL_SNAN = 1, CL_QNAN, CL_NINF, CL_NNORM, CL_NZERO, CL_PZERO, CL_PNORM, CL_PINF, CL_NSUB, CL_PSUB };

static uint32_t classify(uint32_t bits, int eb, int mb)
{
    uint32_t s = bits >> (eb + mb) & 1, e = bits >> mb & ((1u << eb) - 1), m = bits & ((1u << mb) - 1);
    if (e == (1u << eb) - 1)
        return m ? (m >> (mb - 1) & 1 ? CL_QNAN : CL_SNAN) : s ? CL_NINF : CL_PINF;
    if (e == 0)
        return m ? (s ? CL_NSUB : CL_PSUB) : s ? CL_NZERO : CL_PZERO;
    return s ? CL_NNORM : CL_PNORM;
}

/* ---- fp8 (ipu21) ---- */

/* The two formats of the SDK's `quarter` type (poplar QuarterMetadata F143, F152): 1.4.3
 * with exponent bias 8 and 1.5.2 with bias 16, no infinities, the negative-zero code 0x80
 * the only NaN. The bias and ranges follow PopLibs' inlineAssemblerCast.hpp ("f143 ~
 * [2^-10, 2^7], f152 ~ [2^-17, 2^15]"); the NaN code is Graphcore's published 8-bit format
 * proposal (Noune et al., arXiv:2206.02915). Which $FP_NFMT bit selects the format of ARF
 * values (ARF_FMT, bit 1: PopLibs setFp8Format puts the input metadata's format bit there)
 * and the sign of $FP_SCL are decided in docs/isa/ipu.md "fp8". */
typedef struct f8fmt {
    int eb, mb, bias;
} f8fmt;
static f8fmt f8_format(const ipu_xs *x)
{
    return x->c->fp_nfmt >> 1 & 1 ? (f8fmt){5, 2, 16} : (f8fmt){4, 3, 8};
}
static int f8_scale(const ipu_xs *x) { return (int)((x->c->fp_scl & 63) ^ 32) - 32; } /* signed 6 bits */

static double f8_to_d(uint32_t b, f8fmt f)
{
    if (b == 0x80)
        return NAN;
    uint32_t e = b >> f.mb & ((1u << f.eb) - 1), m = b & ((1u << f.mb) - 1);
    double v = e ? ldexp((double)(m | 1u << f.mb), (int)e - f.bias - f.mb) : ldexp((double)m, 1 - f.bias - f.mb);
    return b & 0x80 ? -v : v;
}

/* v rounded once to fp8: to nearest even, or stochastically with 16 random bits (as f16);
 * beyond the largest finite value: OFLO, and NaN when $FP_CTL.NANOO else the largest
 * value; infinities likewise; NaN 0x80; a result of zero is 0x00 (0x80 is the NaN). */
static uint32_t d_to_f8(double v, f8fmt f, int nanoo, int sr, uint32_t r16, uint32_t *fl)
{
    if (isnan(v))
        return 0x80;
    uint32_t s = signbit(v) ? 0x80u : 0;
    const int emax = (1 << f.eb) - 1 - f.bias;
    const double maxv = ldexp((double)((2u << f.mb) - 1), emax - f.mb);
    double a = fabs(v);
    if (a == 0)
        return 0;
    if (isinf(a)) {
        *fl |= 4;
        return nanoo ? 0x80 : s | 0x7f;
    }
    int e = ilogb(a);
    if (e < 1 - f.bias)
        e = 1 - f.bias; /* subnormal range: the quantum of the smallest binade */
    double q = ldexp(1.0, e - f.mb), m = a / q, fl0 = floor(m), d = m - fl0;
    if (sr)
        m = fl0 + ((double)(r16 & 0xffff) < d * 65536.0);
    else
        m = d > 0.5 || (d == 0.5 && fmod(fl0, 2.0) != 0) ? fl0 + 1 : fl0;
    double r = m * q;
    if (r > maxv) {
        *fl |= 4;
        return nanoo ? 0x80 : s | 0x7f;
    }
    if (r == 0)
        return 0;
    int re = ilogb(r);
    uint32_t bits;
    if (re < 1 - f.bias)
        bits = (uint32_t)ldexp(r, f.bias - 1 + f.mb);
    else
        bits = (uint32_t)(re + f.bias) << f.mb | ((uint32_t)ldexp(r, f.mb - re) & ((1u << f.mb) - 1));
    return s | bits;
}

double ipu_f8_value(const ipu_xs *x, uint32_t byte, int weights)
{
    int fmt = (int)(x->c->fp_nfmt >> (weights ? 0 : 1) & 1);
    return f8_to_d(byte & 0xff, fmt ? (f8fmt){5, 2, 16} : (f8fmt){4, 3, 8});
}
int ipu_f8_scl(const ipu_xs *x) { return f8_scale(x); }

/* f8v2tof16 $d, $s: bytes 0, 1 of $s to the halves of $d; f8v4tof16 $d:d+1, $s: bytes 0-3
 * to four halves. Each value x 2^$FP_SCL, rounded once to f16. */
static int f8_to_f16(ipu_xs *x, const ipu_insn *in, int lanes)
{
    f8fmt f = f8_format(x);
    int sc = f8_scale(x), nanoo = (int)(x->c->fp_ctl >> 20 & 1);
    uint32_t s = ipu_ra(x, in->v[1]), fl = 0;
    uint64_t out = 0;
    for (int k = 0; k < lanes; k++) {
        double v = f8_to_d(byte(s, k), f);
        uint32_t h = isnan(v) ? 0x7e00u : ipu_h16_round_sr(ldexp(v, sc), 0, 0, nanoo, x->im->f16_flush, &fl);
        out |= (uint64_t)h << (16 * k);
    }
    if (lanes == 2)
        ipu_wa(x, in->v[0], (uint32_t)out);
    else
        ipu_wap(x, in->v[0], out);
    return fp_flags(x, in, fl);
}

/* f16v2tof8 $d, $s: the two halves of $s x 2^-$FP_SCL to bytes 0, 1 of $d (bytes 2, 3
 * zero); f16v8tof8 $d:d+1, $s:s+3: eight halves to eight bytes. $FP_CTL.ESR rounds
 * stochastically (16 PRNG bits a value, one draw per four values). */
static int f16_to_f8(ipu_xs *x, const ipu_insn *in, int lanes)
{
    f8fmt f = f8_format(x);
    int sc = f8_scale(x), nanoo = (int)(x->c->fp_ctl >> 20 & 1), sr = (int)(x->c->fp_ctl >> 19 & 1);
    uint32_t w[4] = {ipu_ra(x, in->v[1]), 0, 0, 0}, fl = 0;
    if (lanes == 8) {
        uint64_t p = ipu_rap(x, in->v[1]), q = ipu_rap(x, in->v[1] + 2);
        w[0] = (uint32_t)p, w[1] = (uint32_t)(p >> 32), w[2] = (uint32_t)q, w[3] = (uint32_t)(q >> 32);
    }
    uint64_t out = 0, rb = 0;
    for (int k = 0; k < lanes; k++) {
        uint32_t h = w[k / 2] >> (16 * (k & 1)) & 0xffff;
        if ((h & 0x7c00u) == 0x7c00u && (h & 0x3ff) && !(h & 0x200))
            fl |= 1; /* a signalling NaN */
        double v = (h & 0x7c00u) == 0x7c00u ? ((h & 0x3ff) ? NAN : (h & 0x8000 ? -INFINITY : INFINITY))
                   : ldexp((double)((h & 0x3ff) | ((h & 0x7c00u) ? 0x400u : 0)),
                           (h & 0x7c00u) ? (int)(h >> 10 & 31) - 25 : -24);
        if ((h & 0x8000) && !isnan(v))
            v = -fabs(v);
        if (x->im->f16_flush && !(h & 0x7c00u))
            v = 0;
        if (sr && !(k & 3))
            rb = ipu_prng_next(x);
        out |= (uint64_t)d_to_f8(ldexp(v, -sc), f, nanoo, sr, (uint32_t)(rb >> (16 * (k & 3))), &fl) << (8 * k);
    }
    if (lanes == 2)
        ipu_wa(x, in->v[0], (uint32_t)out);
    else
        ipu_wap(x, in->v[0], out);
    return fp_flags(x, in, fl);
}

/* ---- class, maxc ---- */

static int fclass(ipu_xs *x, const ipu_insn *in, int msem)
{
    uint32_t r = 0;
    if (msem == M_F32CLASS) {
        r = classify(ipu_ra(x, in->v[1]), 8, 23);
    } else if (msem == M_F32V2CLASS) {
        uint64_t p = ipu_rap(x, in->v[1]);
        r = classify((uint32_t)p, 8, 23) | classify((uint32_t)(p >> 32), 8, 23) << 8;
    } else if (msem == M_F16V2CLASS || msem == M_F16V4CLASS) {
        uint64_t p = msem == M_F16V2CLASS ? ipu_ra(x, in->v[1]) : ipu_rap(x, in->v[1]);
        for (int k = 0; k < (msem == M_F16V2CLASS ? 2 : 4); k++)
            r |= classify((uint32_t)(p >> (16 * k)) & 0xffff, 5, 10) << (8 * k);
    } else { /* f8v4class: no infinities, 0x80 the only (quiet) NaN */
        uint32_t s = ipu_ra(x, in->v[1]);
        f8fmt f = f8_format(x);
        for (int k = 0; k < 4; k++) {
            uint32_t b = byte(s, k), c;
            if (b == 0x80)
                c = CL_QNAN;
            else if (!(b >> f.mb & ((1u << f.eb) - 1)))
                c = (b & ((1u << f.mb) - 1)) ? (b & 0x80 ? CL_NSUB : CL_PSUB) : CL_PZERO;
            else
                c = b & 0x80 ? CL_NNORM : CL_PNORM;
            r |= c << (8 * k);
        }
    }
    ipu_wa(x, in->v[0], r);
    return 0;
}

/* maxNum on f16 bits (as f16v2max: a NaN yields the other operand, -0 < +0); a signalling
 * NaN raises INV. */
static uint32_t h16_max(uint32_t a, uint32_t b, int flush, uint32_t *fl)
{
    if (flush) {
        if (!(a & 0x7c00u)) a &= 0x8000u;
        if (!(b & 0x7c00u)) b &= 0x8000u;
    }
    int an = (a & 0x7fffu) > 0x7c00u, bn = (b & 0x7fffu) > 0x7c00u;
    if ((an && !(a & 0x200)) || (bn && !(b & 0x200)))
        *fl |= 1;
    if (an && bn)
        return 0x7e00u;
    if (an)
        return b;
    if (bn)
        return a;
    int ka = a & 0x8000u ? -(int)(a & 0x7fffu) - 1 : (int)a, kb = b & 0x8000u ? -(int)(b & 0x7fffu) - 1 : (int)b;
    return ka >= kb ? a : b;
}

/* f16v2maxc $d, $s: max(h0, h1) in both halves of $d (a lone half result is broadcast, as
 * f32tof16's); f16v4maxc $d, $s:s+1 "2x2": (max(h0, h1), max(h2, h3)). */
static int maxc(ipu_xs *x, const ipu_insn *in, int msem)
{
    uint32_t fl = 0, fz = x->im->f16_flush, r;
    if (msem == M_F16V2MAXC) {
        uint32_t s = ipu_ra(x, in->v[1]), m = h16_max(s & 0xffff, s >> 16, fz, &fl);
        r = m | m << 16;
    } else {
        uint64_t p = ipu_rap(x, in->v[1]);
        r = h16_max((uint32_t)p & 0xffff, (uint32_t)(p >> 16) & 0xffff, fz, &fl) |
            h16_max((uint32_t)(p >> 32) & 0xffff, (uint32_t)(p >> 48), fz, &fl) << 16;
    }
    ipu_wa(x, in->v[0], r);
    return fp_flags(x, in, fl);
}

/* ---- sync and exchange on a tile alone ---- */

/* sync ZONE (TEXCH_SYNCZONE_*: RECV 0, ANS 1, LOCAL 2, INTERNAL 3, EXTERNAL0-3 4-7 and their
 * masters 12-15; 8-11 are no zone). LOCAL waits until no worker is active; RECV until
 * $INCOMING_DCOUNT words have come, INTERNAL and EXTERNAL for every other tile
 * (exchange.c), and on a tile alone they complete at once, INTERNAL and EXTERNAL after
 * -o sync_cycles; ANS completes at once. sans ("waiting on multiple syncs") completes at
 * once; delay N makes the next issue wait N cycles more (N + 1 "events"); send W-1, A, C
 * reads W items from $OUTGOING_BASE + word address A (checked as a load) and sends them
 * (exchange.c), and the supervisor's next issue waits one cycle per item (TEXCH_DATA_WIDTH
 * 32 bits a cycle; a 64-bit item borrows the partner's lane). */
static int ipu21_exchange(ipu_xs *x, const ipu_insn *in, int msem);

static int sync_ops(ipu_xs *x, const ipu_insn *in, int msem)
{
    ipu_ctx *c = x->c;
    uint64_t ready = x->t + 1;
    uint32_t n = (uint32_t)ipu_operand_value(in, 0);
    switch (msem) {
    case M_SYNC:
        if (n >= 8 && n <= 11)
            return ipu_xfail(x, SIM_STOP_FAULT, IPU_TEXCPT_INVALID_OP, 79 /* CAUSEID_INVALID_SYNCZONE */,
                             "sync %u: not a sync zone (TEXCH_SYNCZONE_* are 0-7 and 12-15)", n);
        if (n == 2)
            c->sync_local = 1;
        else if (n != 1 && ipu_xchg_sync(x, n))
            return 0; /* waits for other tiles or words (exchange.c) */
        else if (n >= 3)
            ready += x->im->sync_cycles;
        break;
    case M_SANS: break;
    case M_DELAY: ready += n; break;
    case M_DELAYPIC: case M_DELAYXPIC: case M_SENDOFF: case M_SENDPIC: case M_SENDPICP:
        return ipu21_exchange(x, in, msem);
    default: { /* send */
        uint32_t words = n + 1;
        if (ipu_xchg_send(x, words, (uint32_t)ipu_operand_value(in, 1), (uint32_t)ipu_operand_value(in, 2)))
            return -1;
        ready = x->t + words;
        break;
    }
    }
    if (ready > c->sync_ready)
        c->sync_ready = ready;
    return 0;
}

/* ipu21's exchange instructions (docs/isa/ipu.md "IPU21 exchange instructions"; encodings
 * and meanings from osmarks/ipu-stack). Each field N is events - 1: the supervisor's next
 * issue waits N + 1 cycles, one an exchange event, as after a delay N or a send of N + 1
 * items. delaypic N, S, V / delayxpic N, S, V: a PIC (S 0: the incoming pointer := word
 * address V; S 1: $INCOMING_FORMAT := V) or XPIC (S 0: $INCOMING_MUX := V; S 1:
 * $INCOMING_MUXPAIR := V) control at the terminal event, issue + N. sendoff N, D, C: N + 1
 * items from the outgoing stream + 4 D with send control C. sendpic N, S, V: N + 1 items on
 * from the stream with its send control, and the control S (0-1 XPIC, 2-3 PIC) at the
 * first event. sendpicp N, A, C, S (+ payload XPIC [31:18], PIC [17:0]): N + 1 items from
 * word address A (restarting the stream) and both controls at the first event, XPIC's
 * bit 13 choosing the pair mux and S the PIC's kind. A control at event e applies to the
 * items arriving after e (as a put at e: exchange.c). */
static int ipu21_exchange(ipu_xs *x, const ipu_insn *in, int msem)
{
    const uint32_t n = in->v[0], sel = in->v[msem == M_SENDPICP ? 3 : 1], val = in->v[2];
    int rc = 0;
    switch (msem) {
    case M_DELAYPIC: rc = ipu_xchg_control(x, sel ? IPU_XCTL_FORMAT : IPU_XCTL_PTR, val, x->t + n); break;
    case M_DELAYXPIC: rc = ipu_xchg_control(x, sel ? IPU_XCTL_MUXPAIR : IPU_XCTL_MUX, val, x->t + n); break;
    case M_SENDOFF: rc = ipu_xchg_stream(x, n + 1, in->v[1], (int)val, 0); break;
    case M_SENDPIC:
        rc = ipu_xchg_control(x, sel >= 2 ? (sel == 3 ? IPU_XCTL_FORMAT : IPU_XCTL_PTR) : sel, val, x->t);
        if (!rc)
            rc = ipu_xchg_stream(x, n + 1, 0, -1, 0);
        break;
    default: { /* sendpicp */
        const uint32_t xp = x->payload >> 18, pic = x->payload & 0x3ffff;
        rc = ipu_xchg_control(x, xp >> 13 ? IPU_XCTL_MUXPAIR : IPU_XCTL_MUX, xp & 0x1fff, x->t);
        if (!rc)
            rc = ipu_xchg_control(x, sel ? IPU_XCTL_FORMAT : IPU_XCTL_PTR, pic, x->t);
        if (!rc)
            rc = ipu_xchg_stream(x, n + 1, in->v[1], (int)in->v[2], 1);
        break;
    }
    }
    if (rc)
        return -1;
    const uint64_t ready = x->t + 1 + n;
    if (ready > x->c->sync_ready)
        x->c->sync_ready = ready;
    return 0;
}

int ipu_exec_misc(ipu_xs *x, const ipu_insn *in, int msem)
{
    switch (msem) {
    case M_URAND32: case M_URAND64: return ipu_misc_urand(x, in, msem == M_URAND64);
    case M_F16V2GRAND: case M_F32V2GRAND: return ipu_misc_grand(x, in, msem == M_F16V2GRAND);
    case M_F16V4RMASK: case M_F32V2RMASK: return ipu_misc_rmask(x, in, msem == M_F16V4RMASK);
    case M_F32SUFROMUI: return ipu_misc_sufromui(x, in, 0, 1);
    case M_F32V2SUFROMUI: return ipu_misc_sufromui(x, in, 0, 2);
    case M_F16V2SUFROMUI: return ipu_misc_sufromui(x, in, 1, 2);
    case M_F16V4SUFROMUI: return ipu_misc_sufromui(x, in, 1, 4);
    case M_F32CLASS: case M_F32V2CLASS: case M_F16V2CLASS: case M_F16V4CLASS: case M_F8V4CLASS:
        return fclass(x, in, msem);
    case M_F16V2MAXC: case M_F16V4MAXC: return maxc(x, in, msem);
    case M_F8V2TOF16: return f8_to_f16(x, in, 2);
    case M_F8V4TOF16: return f8_to_f16(x, in, 4);
    case M_F16V2TOF8: return f16_to_f8(x, in, 2);
    case M_F16V8TOF8: return f16_to_f8(x, in, 8);
    case M_SYNC: case M_SANS: case M_DELAY: case M_SEND: case M_DELAYPIC: case M_DELAYXPIC: case M_SENDOFF:
    case M_SENDPIC: case M_SENDPICP:
        return sync_ops(x, in, msem);
    default:
        if (msem >= M_ROLL8L && msem <= M_SWAP8)
            return permute(x, in, msem);
        if (msem >= M_LD64A32 && msem <= M_STM32STEP)
            return ipu_misc_mem(x, in, msem);
        return ipu_not_modelled(x, in, NULL);
    }
}
