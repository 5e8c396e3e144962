/* isa/ipu/exec_float.c: the IPU's f32 and f16 arithmetic on the aux pipe (workers only:
 * supervisor code cannot do floating point) and the accumulators $AACC. Every instruction
 * here is an element-wise operation over 1, 2 or 4 lanes (f32 in one register, f32v2 in a
 * pair, f16v2 in the two halves of one register -- lane 0 the low half --, f16v4 in a pair),
 * a conversion, a lateral sum, or an accumulator operation. Arithmetic follows IEEE 754 with
 * round-to-nearest-even: f32 results are computed in f32 by the host (exactly rounded),
 * f16 results in double from the exact operands and rounded once to f16 by ipu_h16_round
 * (so they are exactly rounded too). What the public material leaves open is decided here
 * and listed in docs/isa/ipu.md, "Floating point": canonical NaNs, maxNum/minNum for
 * max/min, -0 < +0, half overflow clipped or NaN by $FP_CTL.NANOO, $FP_CTL.RND for the
 * conversions, the f32int rounding immediates, denormals kept or flushed by option,
 * transcendentals from double-precision libm rounded once, the accumulator layout PopLibs
 * relies on, and exceptions ($FP_STS flags always, TEXCPT_FP when $FP_CTL enables them). */
#include <math.h>
#include <string.h>
#include "exec.h"

/* operations (lane-wise unless noted) */
enum {
    O_NONE = 0, O_ADD, O_SUB, O_MUL, O_DIV, O_MAX, O_MIN, O_ABSMAX, O_ABSADD, O_CLAMP,
    O_CMPEQ, O_CMPNE, O_CMPLT, O_CMPLE, O_CMPGT, O_CMPGE,
    /* unary */
    O_SQRT, O_OOX, O_OORX, O_EXP, O_EXP2, O_LN, O_LOG2, O_SIGM, O_TANH,
    /* conversions and the rest (one format each) */
    O_INT, O_TOI32, O_TOUI32, O_FROMI32, O_FROMUI32, O_TOF16, O_V2TOF16, O_V4TOF16, O_F16TOF32, O_V2TOF32,
    O_SUM, O_MAC, O_AXPY, O_ACC, O_SQACC, O_ABSACC
};
/* element formats: lanes and their width */
enum { T_F32 = 1, T_F32V2, T_F16V2, T_F16V4, T_F32V4, T_F16V8 };

typedef struct fname {
    const char *prefix; /* the LLVM row name up to its operand-kind suffix */
    uint8_t op, t;
} fname;

static const fname fnames[] = {
    {"f32add_", O_ADD, T_F32}, {"f32sub_", O_SUB, T_F32}, {"f32mul_", O_MUL, T_F32}, {"f32div_", O_DIV, T_F32},
    {"f32max_", O_MAX, T_F32}, {"f32min_", O_MIN, T_F32}, {"f32absmax_", O_ABSMAX, T_F32},
    {"f32absadd_", O_ABSADD, T_F32}, {"f32clamp_", O_CLAMP, T_F32}, {"f32cmpeq_", O_CMPEQ, T_F32},
    {"f32cmpne_", O_CMPNE, T_F32}, {"f32cmplt_", O_CMPLT, T_F32}, {"f32cmple_", O_CMPLE, T_F32},
    {"f32cmpgt_", O_CMPGT, T_F32}, {"f32cmpge_", O_CMPGE, T_F32}, {"f32sqrt_", O_SQRT, T_F32},
    {"f32oox_", O_OOX, T_F32}, {"f32oorx_", O_OORX, T_F32}, {"f32exp_", O_EXP, T_F32}, {"f32exp2_", O_EXP2, T_F32},
    {"f32ln_", O_LN, T_F32}, {"f32log2_", O_LOG2, T_F32}, {"f32sigm_", O_SIGM, T_F32}, {"f32tanh_", O_TANH, T_F32},
    {"f32int_", O_INT, T_F32}, {"f32toi32_", O_TOI32, T_F32}, {"f32toui32_", O_TOUI32, T_F32},
    {"f32fromi32_", O_FROMI32, T_F32}, {"f32fromui32_", O_FROMUI32, T_F32}, {"f32tof16_", O_TOF16, T_F32},
    {"f16tof32_", O_F16TOF32, T_F16V2}, {"f32mac_", O_MAC, T_F32},
    {"f32v2add_", O_ADD, T_F32V2}, {"f32v2sub_", O_SUB, T_F32V2}, {"f32v2mul_", O_MUL, T_F32V2},
    {"f32v2max_", O_MAX, T_F32V2}, {"f32v2min_", O_MIN, T_F32V2}, {"f32v2absmax_", O_ABSMAX, T_F32V2},
    {"f32v2absadd_", O_ABSADD, T_F32V2}, {"f32v2clamp_", O_CLAMP, T_F32V2}, {"f32v2cmpeq_", O_CMPEQ, T_F32V2},
    {"f32v2cmpne_", O_CMPNE, T_F32V2}, {"f32v2cmplt_", O_CMPLT, T_F32V2}, {"f32v2cmple_", O_CMPLE, T_F32V2},
    {"f32v2cmpgt_", O_CMPGT, T_F32V2}, {"f32v2cmpge_", O_CMPGE, T_F32V2}, {"f32v2mac_", O_MAC, T_F32V2},
    {"f32v2axpy_", O_AXPY, T_F32V2}, {"f32v2tof16_", O_V2TOF16, T_F32V2}, {"f32v4tof16_", O_V4TOF16, T_F32V4},
    {"f32v4acc_", O_ACC, T_F32V4}, /* f32v2gina: exec_amp.c */ {"f32v4sqacc_", O_SQACC, T_F32V4},
    {"f32v4absacc_", O_ABSACC, T_F32V4},
    {"f16v2add_", O_ADD, T_F16V2}, {"f16v2sub_", O_SUB, T_F16V2}, {"f16v2mul_", O_MUL, T_F16V2},
    {"f16v2max_", O_MAX, T_F16V2}, {"f16v2min_", O_MIN, T_F16V2}, {"f16v2absmax_", O_ABSMAX, T_F16V2},
    {"f16v2absadd_", O_ABSADD, T_F16V2}, {"f16v2clamp_", O_CLAMP, T_F16V2}, {"f16v2cmpeq_", O_CMPEQ, T_F16V2},
    {"f16v2cmpne_", O_CMPNE, T_F16V2}, {"f16v2cmplt_", O_CMPLT, T_F16V2}, {"f16v2cmple_", O_CMPLE, T_F16V2},
    {"f16v2cmpgt_", O_CMPGT, T_F16V2}, {"f16v2cmpge_", O_CMPGE, T_F16V2}, {"f16v2exp_", O_EXP, T_F16V2},
    {"f16v2exp2_", O_EXP2, T_F16V2}, {"f16v2ln_", O_LN, T_F16V2}, {"f16v2log2_", O_LOG2, T_F16V2},
    {"f16v2sigm_", O_SIGM, T_F16V2}, {"f16v2tanh_", O_TANH, T_F16V2}, {"f16v2tof32_", O_V2TOF32, T_F16V2},
    {"f16v2sum_", O_SUM, T_F16V2},
    {"f16v4add_", O_ADD, T_F16V4}, {"f16v4sub_", O_SUB, T_F16V4}, {"f16v4mul_", O_MUL, T_F16V4},
    {"f16v4max_", O_MAX, T_F16V4}, {"f16v4min_", O_MIN, T_F16V4}, {"f16v4absmax_", O_ABSMAX, T_F16V4},
    {"f16v4absadd_", O_ABSADD, T_F16V4}, {"f16v4clamp_", O_CLAMP, T_F16V4}, {"f16v4cmpeq_", O_CMPEQ, T_F16V4},
    {"f16v4cmpne_", O_CMPNE, T_F16V4}, {"f16v4cmplt_", O_CMPLT, T_F16V4}, {"f16v4cmple_", O_CMPLE, T_F16V4},
    {"f16v4cmpgt_", O_CMPGT, T_F16V4}, {"f16v4cmpge_", O_CMPGE, T_F16V4}, {"f16v4sum_", O_SUM, T_F16V4},
    {"f16v4acc_", O_ACC, T_F16V4}, {"f16v4absacc_", O_ABSACC, T_F16V4},
    {"f16v8acc_", O_ACC, T_F16V8}, {"f16v8sqacc_", O_SQACC, T_F16V8}, {"f16v8absacc_", O_ABSACC, T_F16V8},
};
#define NFNAMES (sizeof fnames / sizeof fnames[0])

/* fsem = index into fnames + 1 */
int ipu_float_sem(const char *llvm_name)
{
    for (size_t i = 0; i < NFNAMES; i++)
        if (!strncmp(llvm_name, fnames[i].prefix, strlen(fnames[i].prefix)))
            return (int)i + 1;
    return 0;
}

int ipu_float_writes_op0(int fsem)
{
    if (fsem <= 0 || fsem > (int)NFNAMES)
        return 0;
    int op = fnames[fsem - 1].op;
    return op != O_MAC && op != O_ACC && op != O_SQACC && op != O_ABSACC;
}

void ipu_fp_clear(ipu_ctx *c, uint32_t v)
{
    c->fp_sts &= ~(v & 7u);        /* INV, DIV0, OFLO */
    if (v >> 3 & 1)                /* ZAACC */
        memset(c->aacc, 0, sizeof c->aacc);
}

/* ---- IEEE half precision ---- */

enum { FL_INV = 1, FL_DIV0 = 2, FL_OFLO = 4 };
/* Rounding modes: $FP_CTL.RND and the f32int immediate. 2 (toward -inf) and 3 (toward zero)
 * are PopLibs' (poprand Uniform.S's comment, popops TFPU_ROUND_ZERO); 1 toward +inf is the
 * remaining directed mode (inferred). */
enum { RND_NEAREST = 0, RND_UP = 1, RND_DOWN = 2, RND_ZERO = 3 };

#define H16_QNAN 0x7e00u
#define F32_QNAN 0x7fc00000u
#define H16_MAX 65504.0

/* f16 bits -> double, exactly */
static double h16_to_d(uint32_t h, int flush)
{
    uint32_t e = h >> 10 & 31, m = h & 1023;
    double s = h & 0x8000 ? -1.0 : 1.0;
    if (e == 31)
        return m ? NAN : s * INFINITY;
    if (e == 0)
        return flush ? s * 0.0 : s * ldexp((double)m, -24);
    return s * ldexp((double)(m | 1024), (int)e - 25);
}

/* round a non-negative dyadic m to an integer by mode (neg: the value's sign) */
static double round_mode(double m, int mode, int neg)
{
    double fl = floor(m), d = m - fl;
    if (d == 0)
        return fl;
    switch (mode) {
    case RND_ZERO: return fl;
    case RND_UP: return neg ? fl : fl + 1;
    case RND_DOWN: return neg ? fl + 1 : fl;
    default: return d > 0.5 || (d == 0.5 && fmod(fl, 2.0) != 0) ? fl + 1 : fl;
    }
}

/* double -> f16 bits with one rounding. *fl gets FL_OFLO on overflow of a finite value;
 * nanoo: overflow gives NaN, else it clips to +-65504 ($FP_CTL.NANOO, "clipping or
 * generating a NaN when a half-precision number overflows"). */
static uint32_t ipu_h16_round(double v, int mode, int nanoo, int flush, uint32_t *fl)
{
    if (isnan(v))
        return H16_QNAN;
    uint32_t sign = signbit(v) ? 0x8000u : 0;
    double a = fabs(v);
    if (isinf(a))
        return sign | 0x7c00u;
    if (a == 0)
        return sign;
    int e = ilogb(a); /* a = 1.f x 2^e */
    uint32_t bits;
    if (e < -14) { /* subnormal range: units of 2^-24 */
        double m = round_mode(ldexp(a, 24), mode, sign != 0);
        bits = (uint32_t)m; /* 1024 becomes the smallest normal, as the encoding has it */
        if (flush && bits < 1024)
            bits = 0;
    } else {
        double m = round_mode(ldexp(a, 10 - e), mode, sign != 0);
        if (m >= 2048) {
            m /= 2;
            e++;
        }
        if (e > 15) {
            *fl |= FL_OFLO;
            return nanoo ? H16_QNAN : sign | 0x7bffu;
        }
        bits = (uint32_t)(e + 15) << 10 | ((uint32_t)m & 1023);
    }
    return sign | bits;
}

/* ---- one instruction ---- */

typedef struct fx {
    ipu_xs *x;
    const ipu_insn *in;
    uint32_t fl;     /* FL_* raised by this instruction */
    int f32_flush, f16_flush, nanoo, rnd;
    int sr;          /* $FP_CTL.ESR: f16 results rounded stochastically */
    uint64_t rbits;  /* PRNG bits drawn for it, 16 a result */
    int nr;          /* 16-bit chunks of rbits left */
} fx;

static float bits_f(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static uint32_t f_bits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }

static int f32_snan(uint32_t b) { return (b & 0x7f800000u) == 0x7f800000u && (b & 0x7fffff) && !(b & 0x400000); }
static int h16_snan(uint32_t h) { return (h & 0x7c00u) == 0x7c00u && (h & 0x3ff) && !(h & 0x200); }

/* An f32 operand as a double (exact), flushed if -o f32_denormals=flush */
static double in32(fx *f, uint32_t b)
{
    if (f32_snan(b))
        f->fl |= FL_INV;
    if (f->f32_flush && !(b & 0x7f800000u))
        b &= 0x80000000u;
    return (double)bits_f(b);
}
static double in16(fx *f, uint32_t h)
{
    if (h16_snan(h))
        f->fl |= FL_INV;
    return h16_to_d(h & 0xffff, f->f16_flush);
}

/* A result: canonical NaN (INV when no operand was a NaN), overflow of finite operands
 * (OFLO), flushing. any_nan/any_inf describe the operands. */
static uint32_t out32(fx *f, double r, int any_nan, int any_inf)
{
    float v = (float)r; /* r is exact or already f32-rounded: one rounding in total */
    if (isnan(v)) {
        if (!any_nan)
            f->fl |= FL_INV;
        return F32_QNAN;
    }
    if (isinf(v) && !any_inf && !(f->fl & FL_DIV0))
        f->fl |= FL_OFLO;
    uint32_t b = f_bits(v);
    if (f->f32_flush && !(b & 0x7f800000u))
        b &= 0x80000000u;
    return b;
}
/* 16 random bits for the next f16 result of this instruction: one PRNG draw serves four
 * results (docs/isa/ipu.md "Stochastic rounding"). */
static uint32_t sr_bits(fx *f)
{
    if (!f->nr) {
        f->rbits = ipu_prng_next(f->x);
        f->nr = 4;
    }
    uint32_t r = (uint32_t)(f->rbits & 0xffff);
    f->rbits >>= 16;
    f->nr--;
    return r;
}

static uint32_t out16(fx *f, double r, int any_nan, int mode)
{
    if (isnan(r)) {
        if (!any_nan)
            f->fl |= FL_INV;
        return H16_QNAN;
    }
    if (f->sr && isfinite(r) && r != 0)
        return ipu_h16_round_sr(r, 1, sr_bits(f), f->nanoo, f->f16_flush, &f->fl);
    return ipu_h16_round(r, mode, f->nanoo, f->f16_flush, &f->fl);
}

/* maxNum/minNum (IEEE 754-2008): a NaN operand yields the other; -0 < +0 */
static double fmaxnum(double a, double b)
{
    if (isnan(a)) return b;
    if (isnan(b)) return a;
    if (a == b) return signbit(a) ? b : a;
    return a > b ? a : b;
}
static double fminnum(double a, double b)
{
    if (isnan(a)) return b;
    if (isnan(b)) return a;
    if (a == b) return signbit(a) ? a : b;
    return a < b ? a : b;
}

static int lanes_of(int t) { return t == T_F32 ? 1 : t == T_F32V2 || t == T_F16V2 ? 2 : t == T_F16V8 ? 8 : 4; }
static int is16(int t) { return t == T_F16V2 || t == T_F16V4 || t == T_F16V8; }

/* Operand i's lanes as doubles, by its kind: a register, a pair, a quad, or a broadcast. */
static void get_lanes(fx *f, int i, int t, double *v, uint32_t *raw)
{
    const ipu_insn *in = f->in;
    ipu_xs *x = f->x;
    uint32_t r = in->v[i];
    int n = lanes_of(t);
    uint32_t w[4] = {0, 0, 0, 0};
    switch (in->op->op[i].kind) {
    case IPU_K_AR: w[0] = ipu_ra(x, r); break;
    case IPU_K_ARP: { uint64_t p = ipu_rap(x, r); w[0] = (uint32_t)p; w[1] = (uint32_t)(p >> 32); break; }
    case IPU_K_ARQ: {
        uint64_t p = ipu_rap(x, r), q = ipu_rap(x, r + 2);
        w[0] = (uint32_t)p; w[1] = (uint32_t)(p >> 32); w[2] = (uint32_t)q; w[3] = (uint32_t)(q >> 32);
        break;
    }
    case IPU_K_ARB: w[0] = w[1] = ipu_ra(x, r); break;
    case IPU_K_ARBL: { uint32_t h = ipu_ra(x, r) & 0xffff; w[0] = w[1] = h | h << 16; break; }
    case IPU_K_ARBU: { uint32_t h = ipu_ra(x, r) >> 16; w[0] = w[1] = h | h << 16; break; }
    default: break;
    }
    for (int k = 0; k < n; k++) {
        uint32_t e = is16(t) ? (w[k / 2] >> (16 * (k & 1))) & 0xffff : w[k];
        if (raw)
            raw[k] = e;
        v[k] = is16(t) ? in16(f, e) : in32(f, e);
    }
}

/* Write n lanes of format t into operand 0 (a register or a pair). */
static void put_lanes(fx *f, int t, const uint32_t *e)
{
    uint32_t w[2];
    if (is16(t)) {
        w[0] = (e[0] & 0xffff) | e[1] << 16;
        w[1] = t == T_F16V4 ? (e[2] & 0xffff) | e[3] << 16 : 0;
    } else {
        w[0] = e[0];
        w[1] = e[1];
    }
    if (f->in->op->op[0].kind == IPU_K_ARP)
        ipu_wap(f->x, f->in->v[0], (uint64_t)w[1] << 32 | w[0]);
    else
        ipu_wa(f->x, f->in->v[0], w[0]);
}

/* The result of one lane-wise operation on exact operands a, b. */
static double lane_op(fx *f, int op, double a, double b, int t)
{
    switch (op) {
    case O_ADD: return a + b;
    case O_SUB: return a - b;
    case O_MUL: return a * b;
    case O_DIV:
        if (b == 0 && a != 0 && !isnan(a) && !isinf(a))
            f->fl |= FL_DIV0;
        return t == T_F32 ? (double)((float)a / (float)b) : a / b;
    case O_MAX: return fmaxnum(a, b);
    case O_MIN: return fminnum(a, b);
    case O_ABSMAX: return fmaxnum(fabs(a), fabs(b));
    case O_ABSADD: return fabs(a) + fabs(b);
    default: return NAN;
    }
}

/* Unary: sqrt and 1/x exactly rounded; the transcendentals in double precision (libm)
 * and rounded once to the result format (docs/isa/ipu.md: accuracy). */
static double unary_op(fx *f, int op, double a, int t)
{
    switch (op) {
    case O_SQRT: return t == T_F32 ? (double)sqrtf((float)a) : sqrt(a);
    case O_OOX:
        if (a == 0)
            f->fl |= FL_DIV0;
        return t == T_F32 ? (double)(1.0f / (float)a) : 1.0 / a;
    case O_OORX:
        if (a == 0)
            f->fl |= FL_DIV0;
        return 1.0 / sqrt(a);
    case O_EXP: return exp(a);
    case O_EXP2: return exp2(a);
    case O_LN:
        if (a == 0)
            f->fl |= FL_DIV0;
        return log(a);
    case O_LOG2:
        if (a == 0)
            f->fl |= FL_DIV0;
        return log2(a);
    case O_SIGM: return 1.0 / (1.0 + exp(-a));
    case O_TANH: return tanh(a);
    default: return NAN;
    }
}

static int is_cmp(int op) { return op >= O_CMPEQ && op <= O_CMPGE; }
static int is_unary(int op) { return op >= O_SQRT && op <= O_TANH; }

static int cmp_op(int op, double a, double b)
{
    switch (op) {
    case O_CMPEQ: return a == b;
    case O_CMPNE: return !(a == b); /* unordered: NaN compares not equal */
    case O_CMPLT: return a < b;
    case O_CMPLE: return a <= b;
    case O_CMPGT: return a > b;
    default: return a >= b;
    }
}

/* integer conversions: round by mode, saturate, NaN -> 0; INV when out of range or NaN */
static uint32_t to_int(fx *f, double a, int mode, int is_signed)
{
    if (isnan(a)) {
        f->fl |= FL_INV;
        return 0;
    }
    double r = isinf(a) ? a : (signbit(a) ? -round_mode(-a, mode, 1) : round_mode(a, mode, 0));
    double lo = is_signed ? -2147483648.0 : 0.0, hi = is_signed ? 2147483647.0 : 4294967295.0;
    if (r < lo || r > hi) {
        f->fl |= FL_INV;
        r = r < lo ? lo : hi;
    }
    return is_signed ? (uint32_t)(int32_t)r : (uint32_t)r;
}

/* Accumulators: $AACC[0], [2], ... [14] form the chain f32v2gina reads two at a time
 * (PopLibs' reductions: lane i of f32v4acc / f16v8acc accumulates into chain entry i and
 * comes out of the (i/2+1)-th gina). Each step rounds once to f32. */
static uint32_t *acc(ipu_ctx *c, int i) { return &c->aacc[2 * i]; }

static int acc_add(fx *f, int i, double v, int any_nan, int any_inf)
{
    uint32_t *p = acc(f->x->c, i);
    double a = in32(f, *p);
    *p = out32(f, (double)((float)a + (float)v), any_nan || isnan(a), any_inf || isinf(a));
    return 0;
}

static int accumulate(fx *f, int op, int t)
{
    double v[8];
    get_lanes(f, 0, t, v, NULL);
    for (int k = 0; k < lanes_of(t); k++) {
        double e = op == O_SQACC ? (double)((float)v[k] * (float)v[k]) : op == O_ABSACC ? fabs(v[k]) : v[k];
        acc_add(f, k, e, isnan(v[k]), isinf(v[k]));
    }
    return 0;
}

static int fp_done(fx *f)
{
    ipu_ctx *c = f->x->c;
    c->fp_sts |= f->fl;
    uint32_t en = f->fl & c->fp_ctl & 7u; /* $FP_CTL INV, DIV0, OFLO enable the exception */
    if (en)
        return ipu_xfail(f->x, SIM_STOP_FAULT, IPU_TEXCPT_FP, IPU_CAUSE_FLOATING_POINT, "%s: floating-point %s",
                         f->in->op->mnemonic, en & FL_INV ? "invalid operation" : en & FL_DIV0 ? "division by zero"
                                                                                              : "overflow");
    return 0;
}

/* The transcendental group of an operation (IPU_TR_*), -1 for the rest: f32oox, f32oorx,
 * f32sqrt and f32div take one thread cycle here (no public figure). */
static int tr_group(int op, int t)
{
    const int f32 = t == T_F32;
    switch (op) {
    case O_EXP: case O_EXP2: return f32 ? IPU_TR_F32EXP : IPU_TR_F16EXP;
    case O_LN: case O_LOG2: return f32 ? IPU_TR_F32LN : IPU_TR_F16EXP;
    case O_SIGM: return f32 ? IPU_TR_F32SIGM : IPU_TR_F16SIGM;
    case O_TANH: return f32 ? IPU_TR_F32SIGM : IPU_TR_F16TANH;
    default: return -1;
    }
}

int ipu_exec_float(ipu_xs *x, const ipu_insn *in, int fsem)
{
    const fname *d = &fnames[fsem - 1];
    ipu_ctx *c = x->c;
    fx f = {.x = x, .in = in, .f32_flush = x->im->f32_flush, .f16_flush = x->im->f16_flush,
            .nanoo = (int)(c->fp_ctl >> 20 & 1), .rnd = (int)(c->fp_ctl >> 16 & 7)};
    const int op = d->op, t = d->t, n = lanes_of(t);
    double a[8], b[8];
    uint32_t ra[8], out[8] = {0};
    if (x->tid == IPU_SUP)
        return ipu_not_modelled(x, in, "in the supervisor (supervisor code cannot do floating point)");
    const int tr = tr_group(op, t);
    if (tr >= 0 && x->im->tr_cycles[tr] > 1) /* the worker is held for the extra turns (barrel.c) */
        x->is->busy = x->im->tr_cycles[tr] - 1u;
    const int converts = op == O_TOI32 || op == O_TOUI32 || op == O_TOF16 || op == O_V2TOF16 || op == O_V4TOF16;
    f.sr = (int)(c->fp_ctl >> 19 & 1); /* $FP_CTL.ESR: every f16 result rounds stochastically */
    if (converts && f.rnd > RND_ZERO)
        return ipu_not_modelled(x, in, "with a $FP_CTL.RND value above 3 (meaning not public)");

    if (op == O_ACC || op == O_SQACC || op == O_ABSACC) {
        accumulate(&f, op, t);
        return fp_done(&f);
    }
    if (op == O_MAC) { /* f32mac, f32v2mac: chain entries 0 (and 1) += a x b */
        get_lanes(&f, 0, t, a, NULL);
        get_lanes(&f, 1, t, b, NULL);
        for (int k = 0; k < n; k++)
            acc_add(&f, k, (double)((float)a[k] * (float)b[k]), isnan(a[k]) || isnan(b[k]), isinf(a[k]) || isinf(b[k]));
        return fp_done(&f);
    }
    if (op == O_AXPY) { /* z = $TAS x x + y into the accumulators; the old ones to the destination */
        get_lanes(&f, 1, t, a, NULL);
        get_lanes(&f, 2, t, b, NULL);
        double s = in32(&f, c->tas);
        uint32_t old0 = *acc(c, 0), old1 = *acc(c, 1);
        for (int k = 0; k < 2; k++) {
            float p = (float)s * (float)a[k];
            int nn = isnan(s) || isnan(a[k]) || isnan(b[k]), ii = isinf(s) || isinf(a[k]) || isinf(b[k]);
            *acc(c, k) = out32(&f, (double)(p + (float)b[k]), nn, ii);
        }
        out[0] = old0;
        out[1] = old1;
        put_lanes(&f, T_F32V2, out);
        return fp_done(&f);
    }
    switch (op) {
    case O_INT: {
        int mode = (int)ipu_operand_value(in, 2);
        if (mode > RND_ZERO)
            return ipu_not_modelled(x, in, "with a rounding immediate above 3 (meaning not public)");
        get_lanes(&f, 1, T_F32, a, ra);
        double r = isnan(a[0]) || isinf(a[0]) ? a[0]
                   : signbit(a[0]) ? -round_mode(-a[0], mode, 1) : round_mode(a[0], mode, 0);
        if (r == 0)
            r = copysign(0.0, a[0]);
        out[0] = out32(&f, r, isnan(a[0]), 1);
        ipu_wa(x, in->v[0], out[0]);
        return fp_done(&f);
    }
    case O_TOI32: case O_TOUI32:
        get_lanes(&f, 1, T_F32, a, NULL);
        ipu_wa(x, in->v[0], to_int(&f, a[0], f.rnd, op == O_TOI32));
        return fp_done(&f);
    case O_FROMI32: case O_FROMUI32: {
        uint32_t v = ipu_ra(x, in->v[1]);
        float r = op == O_FROMI32 ? (float)(int32_t)v : (float)v; /* round to nearest even */
        ipu_wa(x, in->v[0], out32(&f, r, 0, 1));
        return fp_done(&f);
    }
    case O_TOF16: { /* the f16 result is broadcast to both halves (help text) */
        get_lanes(&f, 1, T_F32, a, NULL);
        uint32_t h = out16(&f, a[0], isnan(a[0]), f.rnd);
        ipu_wa(x, in->v[0], h | h << 16);
        return fp_done(&f);
    }
    case O_V2TOF16: case O_V4TOF16:
        get_lanes(&f, 1, t, a, NULL);
        for (int k = 0; k < n; k++)
            out[k] = out16(&f, a[k], isnan(a[k]), f.rnd);
        put_lanes(&f, op == O_V2TOF16 ? T_F16V2 : T_F16V4, out);
        return fp_done(&f);
    case O_F16TOF32: /* lane 0 (the low half) */
        get_lanes(&f, 1, T_F16V2, a, NULL);
        ipu_wa(x, in->v[0], out32(&f, a[0], 1, 1));
        return fp_done(&f);
    case O_V2TOF32:
        get_lanes(&f, 1, T_F16V2, a, NULL);
        out[0] = out32(&f, a[0], 1, 1);
        out[1] = out32(&f, a[1], 1, 1);
        put_lanes(&f, T_F32V2, out);
        return fp_done(&f);
    case O_SUM: /* lateral: f16v2sum h0+h1 -> f32; f16v4sum (h0+h1, h2+h3) -> f32v2 */
        get_lanes(&f, 1, t, a, NULL);
        for (int k = 0; k < n / 2; k++)
            out[k] = out32(&f, a[2 * k] + a[2 * k + 1], isnan(a[2 * k]) || isnan(a[2 * k + 1]),
                           isinf(a[2 * k]) || isinf(a[2 * k + 1]));
        if (t == T_F16V2)
            ipu_wa(x, in->v[0], out[0]);
        else
            put_lanes(&f, T_F32V2, out);
        return fp_done(&f);
    default: break;
    }

    /* element-wise: operand 1 (and 2) to operand 0 */
    get_lanes(&f, 1, t, a, NULL);
    if (!is_unary(op))
        get_lanes(&f, 2, op == O_CLAMP && t == T_F32 ? T_F32V2 : op == O_CLAMP && t == T_F16V4 ? T_F16V2 : t, b, NULL);
    for (int k = 0; k < n; k++) {
        double r;
        int nn = isnan(a[k]), ii = isinf(a[k]);
        if (is_cmp(op)) {
            out[k] = cmp_op(op, a[k], b[k]) ? (is16(t) ? 0xffffu : 0xffffffffu) : 0;
            if (isnan(a[k]) || isnan(b[k])) /* ordered comparisons of a NaN are invalid (IEEE) */
                f.fl |= op == O_CMPEQ || op == O_CMPNE ? 0 : FL_INV;
            continue;
        }
        if (op == O_CLAMP) { /* min(max(x, lower), upper): the bounds are lanes 0, 1 of operand 2 */
            r = fminnum(fmaxnum(a[k], b[0]), b[1]);
            nn = 1; /* never raises INV: NaN only if every input is one */
        } else if (is_unary(op)) {
            r = unary_op(&f, op, a[k], t);
        } else {
            nn |= isnan(b[k]);
            ii |= isinf(b[k]);
            r = lane_op(&f, op, a[k], b[k], t);
        }
        out[k] = is16(t) ? out16(&f, r, nn, RND_NEAREST) : out32(&f, r, nn, ii);
    }
    put_lanes(&f, t, out);
    return fp_done(&f);
}

/* exported for exec_amp.c (exec.h) */
double ipu_f16_to_d(uint32_t h, int flush) { return h16_to_d(h & 0xffff, flush); }
uint32_t ipu_f16_from_d(double v, int mode, int nanoo, int flush, uint32_t *fl)
{
    return ipu_h16_round(v, mode, nanoo, flush, fl);
}

/* One rounding of v to f16: to nearest even, or (sr) stochastically -- truncate toward zero,
 * then step one unit away from zero with probability (|v| - |truncated|) / ulp, decided by
 * r16 < that fraction x 65536 (16 random bits; docs/isa/ipu.md "Stochastic rounding"). A
 * step past 65504 overflows as a rounding past it would ($FP_CTL.NANOO). */
uint32_t ipu_h16_round_sr(double v, int sr, uint32_t r16, int nanoo, int flush, uint32_t *fl)
{
    if (!sr || isnan(v) || isinf(v) || v == 0)
        return ipu_h16_round(v, RND_NEAREST, nanoo, flush, fl);
    uint32_t z = ipu_h16_round(v, RND_ZERO, nanoo, 0, fl);
    if ((z & 0x7fffu) >= 0x7c00u) /* overflowed already (clipped or NaN) */
        return z;
    uint32_t e = z >> 10 & 31;
    double ulp = ldexp(1.0, e ? (int)e - 25 : -24), lo = fabs(h16_to_d(z, 0));
    double frac = (fabs(v) - lo) / ulp; /* in [0, 1) */
    uint32_t r = z;
    if ((double)(r16 & 0xffff) < frac * 65536.0) {
        r = z + 1; /* the next magnitude up (a carry into the exponent is right) */
        if ((r & 0x7fffu) == 0x7c00u) {
            *fl |= FL_OFLO;
            r = nanoo ? H16_QNAN : (z & 0x8000u) | 0x7bffu;
        }
    }
    if (flush && !(r & 0x7c00u))
        r &= 0x8000u;
    return r;
}
