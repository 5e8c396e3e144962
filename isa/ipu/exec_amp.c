/* isa/ipu/exec_amp.c: semantics of the AMP (accumulating matrix product) and SLIC (slim
 * convolution) instructions, the supervisor's weight loads into the common compute
 * configuration space (CCCS: ld64putcs, ld128putcs, $CCCSLOAD, $CR.ZCWEI), and the
 * accumulator operations around them (f16v4gacc, f32v2aop, f16v4mix, f16v2cmac, f16v4cmac,
 * f16v2gina, f32v2gina with every immediate we model, f16v4stacc and f16v4istacc: the 4x4
 * half transposition). The two-set forms include f32sisov2slic and ipu21's fp8 AMP/SLIC
 * (f8v8hihov4amp/slic: the f16 forms on fp8 inputs and weights). exec.c maps each table
 * row to an id here by its LLVM name (ipu_amp_sem) and calls ipu_exec_amp for it.
 *
 * The model follows the help text's AMP step tables (docs/isa/ipu.md, "AMP and SLIC"): an
 * AMP set has 8 units, each with two accumulators (TFPU_AACC_PER_AMP_UNIT 2): $AACC[2g]
 * holds unit g's running sum, $AACC[2g+1] the partial sum waiting for the next group and,
 * from the group boundary (phase 0) until its turn to leave, the finished result. The phase
 * comes from the instruction's flags, so the pipeline is a function of the instruction
 * sequence, not of cycles. SLIC keeps its in-flight output pairs in the even accumulators as
 * the SLIC tables place them. Everything the public text leaves open (the flag encodings,
 * the internal precision, the CCCS index layout, the accumulators gacc/aop/cmac use, the
 * transposition's immediates, where f32sisov2slic's second set leaves, how the fp8 forms
 * scale) is a decision written in docs/isa/ipu.md; the precision is `-o amp_sum`. */
#include <math.h>
#include <string.h>
#include "exec.h"

enum {
    A_NONE = 0,
    A_HIHOAMP, A_SIHOAMP, A_SISOAMP, A_F32SISOAMP, A_HIHOV4AMP, A_F32SISOV2AMP, A_F8HIHOV4AMP,
    A_HIHOSLIC, A_SIHOSLIC, A_SISOSLIC, A_F32SISOSLIC, A_HIHOV4SLIC, A_F32SISOV2SLIC, A_F8HIHOV4SLIC,
    A_LD64PUTCS, A_LD128PUTCS,
    A_STACC, A_ISTACC, A_GACC, A_AOP, A_MIX, A_CMAC2, A_CMAC4, A_GINA16, A_GINA32
};

typedef struct aname {
    const char *prefix;
    uint8_t id;
} aname;

static const aname anames[] = {
    {"f16v4hihoamp_", A_HIHOAMP}, {"f16v4sihoamp_", A_SIHOAMP}, {"f16v4sisoamp_", A_SISOAMP},
    {"f32sisoamp_", A_F32SISOAMP}, {"f16v4hihov4amp_", A_HIHOV4AMP}, {"f32sisov2amp_", A_F32SISOV2AMP},
    {"f16v4hihoslic_", A_HIHOSLIC}, {"f16v4sihoslic_", A_SIHOSLIC}, {"f16v4sisoslic_", A_SISOSLIC},
    {"f32sisoslic_", A_F32SISOSLIC}, {"f16v4hihov4slic_", A_HIHOV4SLIC}, {"f32sisov2slic_", A_F32SISOV2SLIC},
    {"f8v8hihov4amp_", A_F8HIHOV4AMP}, {"f8v8hihov4slic_", A_F8HIHOV4SLIC},
    {"ld64putcs_", A_LD64PUTCS}, {"ld128putcs_", A_LD128PUTCS},
    {"f16v4stacc_", A_STACC}, {"f16v4istacc_", A_ISTACC}, {"f16v4gacc_", A_GACC}, {"f32v2aop_", A_AOP},
    {"f16v4mix_", A_MIX}, {"f16v2cmac_", A_CMAC2}, {"f16v4cmac_", A_CMAC4}, {"f16v2gina_", A_GINA16},
    {"f32v2gina_", A_GINA32},
};

int ipu_amp_sem(const char *llvm_name)
{
    for (size_t i = 0; i < sizeof anames / sizeof anames[0]; i++)
        if (!strncmp(llvm_name, anames[i].prefix, strlen(anames[i].prefix)))
            return anames[i].id;
    return 0;
}

/* ---- numbers ---- */

enum { FL_INV = 1, FL_OFLO = 4 };
#define F32_QNAN 0x7fc00000u

typedef struct ax {
    ipu_xs *x;
    const ipu_insn *in;
    uint32_t fl;
    int rnd, nanoo, f16_flush, sr; /* sr: $FP_CTL.ESR, stochastic rounding of f16 results */
    uint64_t rbits;                /* PRNG bits left for stochastic rounding */
    int nr;                        /* 16-bit draws left in rbits */
} ax;

static float bits_f(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static uint32_t f_bits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static double f32d(uint32_t b) { return (double)bits_f(b); }
static double h16d(const ax *a, uint32_t h) { return ipu_f16_to_d(h & 0xffff, a->f16_flush); }

/* A sum rounded to f32: canonical NaN (INV when nothing fed in was a NaN), OFLO when a
 * finite computation overflowed. */
static uint32_t to_f32(ax *a, double v, int in_nan, int in_inf)
{
    float f = (float)v;
    if (isnan(f)) {
        if (!in_nan)
            a->fl |= FL_INV;
        return F32_QNAN;
    }
    if (isinf(f) && !in_inf)
        a->fl |= FL_OFLO;
    return f_bits(f);
}
/* An f32 result to f16: by $FP_CTL.RND, or with $FP_CTL.ESR stochastically as exec_float.c
 * rounds every f16 result (16 random bits each, one PRNG draw serving four results). */
static uint32_t to_f16(ax *a, double v)
{
    if (a->sr && isfinite(v) && v != 0) {
        if (!a->nr) {
            a->rbits = ipu_prng_next(a->x);
            a->nr = 4;
        }
        uint32_t r = (uint32_t)(a->rbits & 0xffff);
        a->rbits >>= 16;
        a->nr--;
        return ipu_h16_round_sr(v, 1, r, a->nanoo, a->f16_flush, &a->fl);
    }
    return ipu_f16_from_d(v, a->rnd, a->nanoo, a->f16_flush, &a->fl);
}

/* acc (f32 bits) + the products p[0..n-1] in order, rounded to f32: fused (exact products
 * summed in double, one rounding) or chained (-o amp_sum=chained: each product rounded to
 * f32, each addition rounded to f32). */
static uint32_t sum_into(ax *a, uint32_t acc, const double *p, int n)
{
    double s = f32d(acc);
    int nn = isnan(s), ii = isinf(s);
    for (int i = 0; i < n; i++) {
        nn |= isnan(p[i]);
        ii |= isinf(p[i]);
    }
    if (a->x->im->amp_chained) {
        float f = (float)s;
        for (int i = 0; i < n; i++)
            f = f + (float)p[i];
        return to_f32(a, (double)f, nn, ii);
    }
    for (int i = 0; i < n; i++)
        s += p[i];
    return to_f32(a, s, nn, ii);
}

/* Raise FP exceptions $FP_CTL enables; the sticky $FP_STS flags always. */
static int fp_done(ax *a)
{
    ipu_ctx *c = a->x->c;
    c->fp_sts |= a->fl;
    uint32_t en = a->fl & c->fp_ctl & 7u;
    if (en)
        return ipu_xfail(a->x, SIM_STOP_FAULT, IPU_TEXCPT_FP, IPU_CAUSE_FLOATING_POINT, "%s: floating-point %s",
                         a->in->op->mnemonic, en & FL_INV ? "invalid operation" : "overflow");
    return 0;
}

/* Register operand i as up to four 32-bit words (AR: 1, ARP: 2). */
static int words(const ipu_xs *x, const ipu_insn *in, int i, uint32_t *w)
{
    uint32_t r = in->v[i];
    if (in->op->op[i].kind == IPU_K_ARP) {
        uint64_t p = ipu_rap(x, r);
        w[0] = (uint32_t)p;
        w[1] = (uint32_t)(p >> 32);
        return 2;
    }
    w[0] = ipu_ra(x, r);
    return 1;
}
/* Operand i's lanes: halves (h16) or f32 words, as doubles; returns the lane count. */
static int lanes(const ax *a, int i, int h16, double *v)
{
    uint32_t w[2];
    int n = words(a->x, a->in, i, w);
    if (!h16) {
        for (int k = 0; k < n; k++)
            v[k] = f32d(w[k]);
        return n;
    }
    for (int k = 0; k < 2 * n; k++)
        v[k] = h16d(a, w[k / 2] >> (16 * (k & 1)));
    return 2 * n;
}
/* Write lanes e[] (f16 bits or f32 bits) to operand 0. */
static void put_out(ax *a, int h16, const uint32_t *e)
{
    const ipu_insn *in = a->in;
    uint32_t w0 = h16 ? (e[0] & 0xffff) | e[1] << 16 : e[0];
    uint32_t w1 = h16 ? (e[2] & 0xffff) | e[3] << 16 : e[1];
    if (in->op->op[0].kind == IPU_K_ARP)
        ipu_wap(a->x, in->v[0], (uint64_t)w1 << 32 | w0);
    else
        ipu_wa(a->x, in->v[0], w0);
}

/* The weight $CWEI_m_n of set s as four halves or two f32s. */
static void cwei(const ax *a, int s, int m, int n, int h16, double *w)
{
    uint64_t v = a->x->tl->cccs[32 * s + 4 * m + n];
    if (h16)
        for (int k = 0; k < 4; k++)
            w[k] = h16d(a, (uint32_t)(v >> (16 * k)));
    else
        for (int k = 0; k < 2; k++)
            w[k] = f32d((uint32_t)(v >> (32 * k)));
}

/* fp8 (ipu21): operand i's eight bytes (lane k in byte k) and the weight $CWEI_m_n of set s
 * as eight fp8 values, in the formats $FP_NFMT gives inputs (bit 1) and weights (bit 0);
 * exact in double (exec_misc.c's fp8 rules, docs/isa/ipu.md "fp8"). */
static void f8_lanes(const ax *a, int i, double *v)
{
    uint32_t w[2];
    words(a->x, a->in, i, w);
    for (int k = 0; k < 8; k++)
        v[k] = ipu_f8_value(a->x, w[k / 4] >> (8 * (k & 3)), 0);
}
static void cwei8(const ax *a, int s, int m, int n, double *w)
{
    uint64_t v = a->x->tl->cccs[32 * s + 4 * m + n];
    for (int k = 0; k < 8; k++)
        w[k] = ipu_f8_value(a->x, (uint32_t)(v >> (8 * k)), 1);
}

static int bad_flags(ipu_xs *x, const ipu_insn *in, unsigned f, const char *why)
{
    return ipu_xfail(x, SIM_STOP_ILLEGAL, IPU_TEXCPT_INVALID_INSTR, IPU_CAUSE_ILLEGAL_INSTRUCTION,
                     "%s: flags %u %s", in->op->mnemonic, f, why);
}

/* Conversions to f16 use $FP_CTL.RND (0-3) or ESR as exec_float.c does. */
static int f16_out_ok(ax *a)
{
    if (!a->sr && a->rnd > 3)
        return ipu_not_modelled(a->x, a->in, "with a $FP_CTL.RND value above 3 (meaning not public)");
    return 0;
}

/* ---- AMP ---- */

typedef struct amp_kind {
    uint8_t in16, pin16, out16; /* f16v4 inputs, half partials, half results */
    uint8_t sets;               /* AMP sets used: 2 for the v4/v2 forms (16 units) */
    uint8_t f32;                /* one f32 input a phase, phases 0..2E-1 */
    uint8_t f8;                 /* eight fp8 inputs and weights a phase (f8v8hihov4amp) */
} amp_kind;

static const amp_kind amp_kinds[] = {
    [A_HIHOAMP] = {1, 1, 1, 1, 0, 0}, [A_SIHOAMP] = {1, 0, 1, 1, 0, 0}, [A_SISOAMP] = {1, 0, 0, 1, 0, 0},
    [A_F32SISOAMP] = {0, 0, 0, 1, 1, 0}, [A_HIHOV4AMP] = {1, 1, 1, 2, 0, 0}, [A_F32SISOV2AMP] = {0, 0, 0, 2, 1, 0},
    [A_F8HIHOV4AMP] = {1, 1, 1, 2, 0, 1},
};

/* The AMP flags (ours; docs/isa/ipu.md): phase in bits 0-2, log2 of the engines (2 units
 * each) in bits 3-4 (0 E1, 1 E2, 2 E4), bit 5 zero. TAMP_F16V4_E4_P2 = 2 | 2 << 3. The
 * engines say which units compute; the phase alone picks the results that leave (PopLibs'
 * StaticBlock4x4 float drains units 2, 3 with TAMP_F32_E1_P2 after E2 phases), so any
 * phase of the format is valid: 0-3 for f16 inputs, 0-7 for f32. */
static int amp_flags(ipu_xs *x, const ipu_insn *in, const amp_kind *k, int *phase, int *units)
{
    unsigned f = (unsigned)ipu_operand_value(in, 3), el = f >> 3 & 3, e = 1u << el;
    unsigned nph = k->f32 ? 8 : 4;
    if (f >> 5 || el == 3)
        return bad_flags(x, in, f, "has bits outside the phase and engine fields");
    if ((f & 7) >= nph)
        return bad_flags(x, in, f, "names a phase past the last of its format");
    if (k->sets > x->im->amp_sets)
        return ipu_xfail(x, SIM_STOP_ILLEGAL, IPU_TEXCPT_INVALID_INSTR, IPU_CAUSE_ILLEGAL_INSTRUCTION,
                         "%s needs two AMP sets (-o amp_sets=%u)", in->op->mnemonic, x->im->amp_sets);
    *phase = (int)(f & 7);
    *units = (int)(2 * e);
    return 0;
}

/* The units (global index 8 x set + unit) whose results leave, and whose partials enter,
 * at this phase. */
static int amp_out_units(int asem, int p, int *g)
{
    switch (asem) {
    case A_HIHOV4AMP: case A_F8HIHOV4AMP: g[0] = 2 * p; g[1] = 2 * p + 1; g[2] = 8 + 2 * p; g[3] = 9 + 2 * p; return 4;
    case A_F32SISOAMP:
        if (p & 1)
            return 0; /* odd phases only feed the input (PopLibs passes $azeros there) */
        g[0] = p; g[1] = p + 1; return 2;
    case A_F32SISOV2AMP: g[0] = 8 * (p & 1) + 2 * (p >> 1); g[1] = g[0] + 1; return 2;
    default: g[0] = 2 * p; g[1] = 2 * p + 1; return 2;
    }
}

static int amp(ax *a, int asem)
{
    ipu_xs *x = a->x;
    const amp_kind *k = &amp_kinds[asem];
    uint32_t *acc = x->c->aacc;
    int p = 0, units = 0, g[4];
    if (amp_flags(x, a->in, k, &p, &units))
        return -1;
    if (k->out16 && f16_out_ok(a))
        return -1;
    double xin[8], pin[4];
    if (k->f8)
        f8_lanes(a, 1, xin);
    else
        lanes(a, 1, k->in16, xin);
    lanes(a, 2, k->pin16, pin);
    const int no = amp_out_units(asem, p, g), scl = k->f8 ? ipu_f8_scl(x) : 0;
    /* group boundary: the partial waiting in the odd accumulator starts the new sum, the
     * finished sum waits there for its turn to leave */
    if (p == 0)
        for (int s = 0; s < k->sets; s++)
            for (int u = 0; u < units; u++) {
                int i = 2 * (8 * s + u);
                uint32_t t = acc[i + 1];
                acc[i + 1] = acc[i];
                acc[i] = t;
            }
    for (int s = 0; s < k->sets; s++)
        for (int u = 0; u < units; u++) {
            double w[8], pr[8];
            int n = k->f8 ? 8 : k->in16 ? 4 : 1;
            if (k->f8)
                cwei8(a, s, u, p, w);
            else
                cwei(a, s, u, k->in16 ? p : p >> 1, k->in16, w);
            /* fp8: each exact product x 2^$FP_SCL (PopLibs' setFp8Scale: "half(input*weights)
             * * 2^(scaleIn+scaleWeights)"), still exact */
            for (int l = 0; l < n; l++)
                pr[l] = k->f8 ? ldexp(xin[l] * w[l], scl) : xin[l] * (k->in16 ? w[l] : w[p & 1]);
            acc[2 * (8 * s + u)] = sum_into(a, acc[2 * (8 * s + u)], pr, n);
        }
    uint32_t out[4] = {0, 0, 0, 0};
    for (int j = 0; j < no; j++) {
        uint32_t *hold = &acc[2 * g[j] + 1];
        out[j] = k->out16 ? to_f16(a, f32d(*hold)) : *hold;
        *hold = to_f32(a, pin[j], 1, 1); /* exact: a half or an f32 */
    }
    if (no)
        put_out(a, k->out16, out);
    return fp_done(a);
}

/* ---- SLIC ---- */

/* SLIC flags (ours): bits 0-1 the weight column n ($CWEI_m_n), bit 2 a 1x3 kernel (else
 * 1x4), bit 3 (f32sisoslic, f32sisov2slic) the upper-element step. TSLIC_F16V4_1x4_W1 = 1.
 *
 * The two-set forms run set 0's pipeline on $AACC[0..15] and CCCS 0..31 and set 1's on
 * $AACC[16..31] and CCCS 32..63 (output channels 2, 3). f16v4hihov4slic and f8v8hihov4slic
 * (eight fp8 lanes and weights, products x 2^$FP_SCL) give both sets' pairs out in one
 * step. f32sisov2slic has room for one f32 pair a step, so, as f32sisov2amp alternates the
 * sets by phase, its element-0 step gives set 0's pair out and takes set 0's partials, and
 * its element-1 step gives set 1's (held since the element-0 step in set 1's odd
 * accumulators $AACC[17], [19]) and adds set 1's partials to set 1's newest pair (which the
 * element-0 step started from zero). Decisions, docs/isa/ipu.md "AMP and SLIC". */
static int slic(ax *a, int asem)
{
    ipu_xs *x = a->x;
    const ipu_insn *in = a->in;
    uint32_t *acc = x->c->aacc;
    unsigned f = (unsigned)ipu_operand_value(in, 3);
    const int v2 = asem == A_F32SISOV2SLIC, is32 = asem == A_F32SISOSLIC || v2, f8 = asem == A_F8HIHOV4SLIC;
    const int in16 = !is32, v4 = asem == A_HIHOV4SLIC || f8;
    const int pin16 = asem == A_HIHOSLIC || v4, out16 = pin16 || asem == A_SIHOSLIC, sets = v4 || v2 ? 2 : 1;
    if (f >> (is32 ? 4 : 3))
        return bad_flags(x, in, f, "has bits outside the weight, kernel and element fields");
    if (sets > x->im->amp_sets)
        return ipu_xfail(x, SIM_STOP_ILLEGAL, IPU_TEXCPT_INVALID_INSTR, IPU_CAUSE_ILLEGAL_INSTRUCTION,
                         "%s needs two AMP sets (-o amp_sets=%u)", in->op->mnemonic, x->im->amp_sets);
    const int n = (int)(f & 3), kw = f & 4 ? 3 : 4, upper = is32 && (f & 8), scl = f8 ? ipu_f8_scl(x) : 0;
    if (out16 && !upper && f16_out_ok(a))
        return -1;
    double xin[8], pin[4], w[8];
    if (f8)
        f8_lanes(a, 1, xin);
    else
        lanes(a, 1, in16, xin);
    lanes(a, 2, pin16, pin);
    uint32_t out[4] = {0, 0, 0, 0};
#define POS(s, oc) (4 * (kw - 1 - (s)) + 2 * (oc))
    if (upper) { /* f32: the element-1 products join every pair the element-0 step moved */
        for (int set = 0; set < sets; set++) {
            uint32_t *sa = acc + 16 * set;
            for (int s = 0; s < kw; s++)
                for (int oc = 0; oc < 2; oc++) {
                    double pr[2];
                    cwei(a, set, 2 * (kw - 1 - s) + oc, n, 0, w);
                    pr[0] = xin[0] * w[1];
                    pr[1] = s == 0 && set == sets - 1 ? pin[oc] : 0; /* D: normally $azeros (help text) */
                    sa[POS(s, oc)] = sum_into(a, sa[POS(s, oc)], pr, 2);
                }
        }
        if (!v2)
            return fp_done(a);
        out[0] = acc[17]; /* set 1's pair, held since the element-0 step */
        out[1] = acc[19];
        put_out(a, 0, out);
        return fp_done(a);
    }
    for (int set = 0; set < sets; set++) {
        uint32_t *sa = acc + 16 * set;
        for (int oc = 0; oc < 2; oc++) { /* the pair finished by the previous step leaves */
            if (v2 && set)
                sa[2 * oc + 1] = sa[2 * oc]; /* ... or waits for the element-1 step */
            else
                out[2 * set + oc] = out16 ? to_f16(a, f32d(sa[2 * oc])) : sa[2 * oc];
        }
        for (int s = kw - 1; s >= 0; s--)
            for (int oc = 0; oc < 2; oc++) {
                double pr[8];
                int np = is32 ? 1 : f8 ? 8 : 4;
                if (f8)
                    cwei8(a, set, 2 * (kw - 1 - s) + oc, n, w);
                else
                    cwei(a, set, 2 * (kw - 1 - s) + oc, n, in16, w);
                for (int l = 0; l < np; l++)
                    pr[l] = f8 ? ldexp(xin[l] * w[l], scl) : xin[l] * w[l];
                uint32_t from = s ? sa[POS(s - 1, oc)] : v2 && set ? 0 : to_f32(a, pin[2 * set + oc], 1, 1);
                sa[POS(s, oc)] = sum_into(a, from, pr, np);
            }
    }
#undef POS
    put_out(a, out16, out);
    return fp_done(a);
}

/* ---- the supervisor's weight loads ---- */

static int putcs(ipu_xs *x, const ipu_insn *in, unsigned size)
{
    ipu_tile *tl = x->tl;
    const ipu_machine *im = x->im;
    uint32_t ea = tl->cccsload, idx = (uint32_t)ipu_operand_value(in, 0), ncccs = 32u * im->amp_sets;
    if (!ipu_in_mem(im, ea, size))
        return ipu_xfail(x, SIM_STOP_FAULT, IPU_TEXCPT_INVALID_ADDR, IPU_CAUSE_INVALID_ADDRESS_EA0,
                         "%s: $CCCSLOAD 0x%x outside tile memory", in->op->mnemonic, ea);
    if (ea & (size - 1))
        return ipu_xfail(x, SIM_STOP_FAULT, IPU_TEXCPT_INVALID_ADDR, IPU_CAUSE_MISALIGNED_EA0,
                         "%s: $CCCSLOAD 0x%x not %u-byte aligned", in->op->mnemonic, ea, size);
    if (size == 16 && ea < im->interleaved_base)
        return ipu_xfail(x, SIM_STOP_FAULT, IPU_TEXCPT_INVALID_ADDR, IPU_CAUSE_INVALID_REGION_EA0,
                         "ld128putcs at 0x%x, below the interleaved region (0x%x)", ea, im->interleaved_base);
    if (size == 16 && (idx & 1))
        return ipu_xfail(x, SIM_STOP_FAULT, IPU_TEXCPT_INVALID_OP, IPU_CAUSE_INVALID_CCCS_MISALIGNED,
                         "ld128putcs %u: an odd CCCS index", idx);
    if (idx + size / 8 > ncccs)
        return ipu_xfail(x, SIM_STOP_FAULT, IPU_TEXCPT_INVALID_OP, IPU_CAUSE_INVALID_CCCS_0,
                         "%s %u: the CCCS has %u words (-o amp_sets=%u)", in->op->mnemonic, idx, ncccs, im->amp_sets);
    mem_space *sp = tl->tmem;
    if (sp->nwatch && mem_watch_check(sp, ea, size, MEM_R))
        sim_set_stop_at(x->m, SIM_STOP_WATCH, x->u->index, x->tid, x->c->pc, x->t, "watchpoint %d at tmem 0x%x",
                        sp->watch_hit_id, ea);
    const uint8_t *p = tl->mem + (ea - im->mem_base);
    for (unsigned j = 0; j < size / 8; j++) {
        uint64_t v = 0;
        for (int b = 7; b >= 0; b--)
            v = v << 8 | p[8 * j + (unsigned)b];
        tl->cccs[idx + j] = v;
    }
    tl->cccsload = ea + size;
    return 0;
}

int ipu_amp_csr(ipu_xs *x, unsigned idx, int put, uint32_t *v)
{
    if (x->tid != IPU_SUP)
        return 0;
    if (idx == 0x50) { /* $CCCSLOAD */
        if (put)
            x->tl->cccsload = *v;
        else
            *v = x->tl->cccsload;
        return 1;
    }
    if (idx == 0x02 && put) { /* $CR: ZCWEI (bit 2) zeroes the weights; LC_CLR/LC_SET not modelled */
        if (*v & ~4u)
            return ipu_xfail(x, SIM_STOP_ILLEGAL, 0, 0, "not modelled yet: put $CR with bits 0x%x (LC_CLR/LC_SET)",
                             *v & ~4u);
        if (*v & 4)
            memset(x->tl->cccs, 0, sizeof x->tl->cccs);
        return 1;
    }
    return 0;
}

/* ---- accumulator operations ---- */

/* The accumulator chain L0..L7 of exec_float.c (even $AACC) and the gina immediates: bit 0
 * the odd chain ($AACC[1, 3, ...]: help text b), bit 1 the second AMP set (c, d). */
static uint32_t *chain(ipu_ctx *c, unsigned sel, int i) { return &c->aacc[16 * (sel >> 1) + (sel & 1) + 2 * i]; }

static int gina(ax *a, int h16)
{
    ipu_xs *x = a->x;
    unsigned sel = (unsigned)ipu_operand_value(a->in, 2);
    if (sel > 3)
        return ipu_not_modelled(x, a->in, "with an immediate above 3 (its format is not public)");
    if ((sel >> 1) >= x->im->amp_sets)
        return ipu_xfail(x, SIM_STOP_ILLEGAL, IPU_TEXCPT_INVALID_INSTR, IPU_CAUSE_ILLEGAL_INSTRUCTION,
                         "%s %u: the second AMP set needs -o amp_sets=2", a->in->op->mnemonic, sel);
    if (h16 && f16_out_ok(a))
        return -1;
    double in[4];
    uint32_t w[2], out[4] = {0, 0, 0, 0};
    lanes(a, 1, h16, in);
    words(x, a->in, 1, w);
    uint32_t r0 = *chain(x->c, sel, 0), r1 = *chain(x->c, sel, 1);
    for (int i = 0; i < 6; i++)
        *chain(x->c, sel, i) = *chain(x->c, sel, i + 2);
    if (h16) {
        *chain(x->c, sel, 6) = to_f32(a, in[0], 1, 1);
        *chain(x->c, sel, 7) = to_f32(a, in[1], 1, 1);
        out[0] = to_f16(a, f32d(r0));
        out[1] = to_f16(a, f32d(r1));
    } else {
        for (int k = 0; k < 2; k++) /* a signalling NaN written in is invalid (as exec_float.c did) */
            if ((w[k] & 0x7f800000u) == 0x7f800000u && (w[k] & 0x7fffff) && !(w[k] & 0x400000))
                a->fl |= FL_INV;
        *chain(x->c, sel, 6) = w[0];
        *chain(x->c, sel, 7) = w[1];
        out[0] = r0;
        out[1] = r1;
    }
    put_out(a, h16, out);
    return fp_done(a);
}

/* The 4x4 half transposition of f16v4stacc/f16v4istacc (BlockTransposeGradW_half): the
 * odd chain's first two accumulators (one column: four halves) leave, and the odd chain
 * moves down two places (O6, O7 keep their values). */
static void odd_out(ipu_ctx *c, uint32_t *out)
{
    out[0] = *chain(c, 1, 0);
    out[1] = *chain(c, 1, 1);
    for (int i = 0; i < 6; i++)
        *chain(c, 1, i) = *chain(c, 1, i + 2);
}

static int acc_ops(ax *a, int asem)
{
    ipu_xs *x = a->x;
    ipu_ctx *c = x->c;
    double p[4], q[4];
    uint32_t out[4] = {0, 0, 0, 0};
    switch (asem) {
    case A_GACC: /* L0..L3 as halves, no propagation */
        if (f16_out_ok(a))
            return -1;
        for (int i = 0; i < 4; i++)
            out[i] = to_f16(a, f32d(*chain(c, 0, i)));
        put_out(a, 1, out);
        return fp_done(a);
    case A_CMAC2: case A_CMAC4: { /* L0 (+= L1) += lateral sums of the lane products */
        int n = lanes(a, 0, 1, p);
        lanes(a, 1, 1, q);
        for (int i = 0; i < n / 2; i++) {
            double pr[2] = {p[2 * i] * q[2 * i], p[2 * i + 1] * q[2 * i + 1]};
            *chain(c, 0, i) = sum_into(a, *chain(c, 0, i), pr, 2);
        }
        return fp_done(a);
    }
    case A_AOP: { /* L(2j + i) += a_i x b_j */
        if (ipu_operand_value(a->in, 2) != 0)
            return ipu_not_modelled(x, a->in, "with flags other than 0 (their format is not public)");
        lanes(a, 0, 0, p);
        lanes(a, 1, 0, q);
        for (int j = 0; j < 2; j++)
            for (int i = 0; i < 2; i++) {
                double pr = p[i] * q[j];
                *chain(c, 0, 2 * j + i) = sum_into(a, *chain(c, 0, 2 * j + i), &pr, 1);
            }
        return fp_done(a);
    }
    case A_MIX: { /* L0..L3 = a x + b y ($TAS: a the low half, b the high); the old ones out */
        if (f16_out_ok(a))
            return -1;
        double sa = h16d(a, c->tas), sb = h16d(a, c->tas >> 16);
        lanes(a, 1, 1, p);
        lanes(a, 2, 1, q);
        for (int i = 0; i < 4; i++) {
            out[i] = to_f16(a, f32d(*chain(c, 0, i)));
            double v = sa * p[i] + sb * q[i];
            *chain(c, 0, i) = to_f32(a, v, isnan(sa) || isnan(sb) || isnan(p[i]) || isnan(q[i]),
                                     isinf(sa) || isinf(sb) || isinf(p[i]) || isinf(q[i]));
        }
        put_out(a, 1, out);
        return fp_done(a);
    }
    case A_STACC: { /* imm 0 (TSTACC_P0; PopLibs ReductionSpecial01Acc: "move ACC0 and ACC2
                     * to VALUES0_1 and shift the remaining results to the odd accumulators.
                     * This does not shift the accumulator delay line"; a gina with immediate 1
                     * then reads them); imm 1 (TSTACC_P1): the odd chain's first two out */
        unsigned imm = (unsigned)ipu_operand_value(a->in, 1);
        if (imm > 1)
            return bad_flags(x, a->in, imm, "is not TSTACC_P0 (0) or TSTACC_P1 (1)");
        if (imm == 0) {
            out[0] = *chain(c, 0, 0);
            out[1] = *chain(c, 0, 1);
            for (int i = 0; i < 6; i++)
                *chain(c, 1, i) = *chain(c, 0, i + 2);
        } else {
            odd_out(c, out);
        }
        put_out(a, 0, out);
        return 0;
    }
    case A_ISTACC: { /* TISTACC_P0 (0): rows 0, 1 in; TISTACC_P1 (1): rows 2, 3 */
        unsigned imm = (unsigned)ipu_operand_value(a->in, 3);
        if (imm > 1)
            return bad_flags(x, a->in, imm, "is not TISTACC_P0 (0) or TISTACC_P1 (1)");
        uint32_t r0[2], r1[2];
        words(x, a->in, 1, r0);
        words(x, a->in, 2, r1);
        odd_out(c, out);
        for (int col = 0; col < 4; col++) { /* L(2 col + imm) = (row 2imm, row 2imm+1) of col */
            uint32_t h0 = r0[col / 2] >> (16 * (col & 1)) & 0xffff, h1 = r1[col / 2] >> (16 * (col & 1)) & 0xffff;
            *chain(c, 0, 2 * col + (int)imm) = h0 | h1 << 16;
        }
        put_out(a, 0, out);
        return 0;
    }
    case A_GINA16: return gina(a, 1);
    case A_GINA32: return gina(a, 0);
    default:
        return ipu_not_modelled(x, a->in, NULL);
    }
}

/* ---- entry points ---- */

uint32_t ipu_amp_arf_writes(const ipu_insn *in, int asem)
{
    switch (asem) {
    case A_LD64PUTCS: case A_LD128PUTCS: case A_CMAC2: case A_CMAC4: case A_AOP: return 0;
    case A_F32SISOAMP:
        if (ipu_operand_value(in, 3) & 1) /* odd phases write nothing */
            return 0;
        break;
    case A_F32SISOSLIC:
        if (ipu_operand_value(in, 3) & 8) /* the upper-element step writes nothing (the v2
                                           * form's gives set 1's pair out) */
            return 0;
        break;
    default: break;
    }
    uint32_t r = in->v[0];
    return in->op->op[0].kind == IPU_K_ARP ? (r < 14 ? 3u << r : 0) : (r < 15 ? 1u << r : 0);
}

int ipu_exec_amp(ipu_xs *x, const ipu_insn *in, int asem)
{
    if (asem == A_LD64PUTCS || asem == A_LD128PUTCS)
        return putcs(x, in, asem == A_LD64PUTCS ? 8 : 16);
    ipu_ctx *c = x->c;
    ax a = {.x = x, .in = in, .rnd = (int)(c->fp_ctl >> 16 & 7), .nanoo = (int)(c->fp_ctl >> 20 & 1),
            .f16_flush = x->im->f16_flush, .sr = (int)(c->fp_ctl >> 19 & 1)};
    if (asem <= A_F8HIHOV4AMP)
        return amp(&a, asem);
    if (asem <= A_F8HIHOV4SLIC)
        return slic(&a, asem);
    return acc_ops(&a, asem);
}
