/* isa/ipu/asm_enc.c: encodes one IPU instruction from its mnemonic and operand texts by
 * walking the one instruction table (table.inc), the same rows decode.c and disasm.c read.
 * Operands are parsed as llvm-mc's Colossus parser reads them: `$m0`..`$m15` and `$a0`..
 * `$a15` with their ABI names, pairs `$a0:1`, quads `$a0:3`, broadcasts `$a2:BL`, the
 * post-modify suffixes `+=`, `++`, `>>`, `@`, CSR names (`$WSR`, `$TAS`...) as numbers, and
 * expressions. The rows with the mnemonic that the architecture and the current context
 * (`.worker` / `.supervisor`) decode are tried in table order and the first whose operand
 * kinds and ranges fit is used; the table is ordered by LLVM encoding name, which puts
 * `add ..._si` before `..._zi` and `or ..._iz` before `..._zi`, the choices llvm-mc makes
 * (checked against the bootloader words). A symbol value in a field LLVM relocates
 * (setzi's 20 bits, branch and call targets, 16-bit immediates, rpt counts, run's vertex
 * offset) becomes an R_COLOSSUS_* fix-up in an object file; anywhere else it is an error. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "asm.h"
#include "link.h"
#include "../../core/asm/expr.h"

/* CSR names and indices: the ipu1 values of Saghetti0/graphcore-ipu-research
 * research/ipu1/ipu1_consts.c (CSR_C_*, CSR_S_*, CSR_W_*__INDEX); we assume ipu2 and ipu21
 * keep them (not verified, docs/isa/ipu.md). Upper-space worker CSRs (>= 0x100) are the
 * uget/uput ones. */
typedef struct ipu_csr { const char *name; uint16_t index; uint8_t ctx; } ipu_csr;
static const ipu_csr csrs[] = {
    {"PC", 0x00, IPU_CTX_BOTH}, {"DBG_DATA", 0x70, IPU_CTX_BOTH}, {"DBG_BRK_ID", 0x71, IPU_CTX_BOTH},
    {"SSR", 0x01, IPU_CTX_SUPERVISOR}, {"CR", 0x02, IPU_CTX_SUPERVISOR}, {"TILE_ID", 0x03, IPU_CTX_SUPERVISOR},
    {"FP_ICTL", 0x20, IPU_CTX_SUPERVISOR}, {"WORKER0_BASE", 0x21, IPU_CTX_SUPERVISOR},
    {"WORKER1_BASE", 0x22, IPU_CTX_SUPERVISOR}, {"WORKER2_BASE", 0x23, IPU_CTX_SUPERVISOR},
    {"WORKER3_BASE", 0x24, IPU_CTX_SUPERVISOR}, {"WORKER4_BASE", 0x25, IPU_CTX_SUPERVISOR},
    {"WORKER5_BASE", 0x26, IPU_CTX_SUPERVISOR}, {"CCCSLOAD", 0x50, IPU_CTX_SUPERVISOR},
    {"SCOUNT_L", 0x60, IPU_CTX_SUPERVISOR}, {"SCOUNT_U", 0x61, IPU_CTX_SUPERVISOR},
    {"CTXT_STS", 0x72, IPU_CTX_SUPERVISOR}, {"DBG_CTL", 0x73, IPU_CTX_SUPERVISOR},
    {"DBG_ECSR", 0x74, IPU_CTX_SUPERVISOR}, {"DBG_ECLR", 0x75, IPU_CTX_SUPERVISOR},
    {"DBG_IBRK0_CTL", 0x80, IPU_CTX_SUPERVISOR}, {"DBG_IBRK0_PC", 0x81, IPU_CTX_SUPERVISOR},
    {"DBG_IBRK0_VERT", 0x82, IPU_CTX_SUPERVISOR}, {"DBG_DBRK0_CTL", 0x90, IPU_CTX_SUPERVISOR},
    {"DBG_DBRK0_BASE", 0x91, IPU_CTX_SUPERVISOR}, {"DBG_DBRK0_SIDA", 0x92, IPU_CTX_SUPERVISOR},
    {"INCOMING_MUX", 0xa0, IPU_CTX_SUPERVISOR}, {"INCOMING_MUXPAIR", 0xa1, IPU_CTX_SUPERVISOR},
    {"INCOMING_DELTA", 0xa2, IPU_CTX_SUPERVISOR}, {"INCOMING_FORMAT", 0xa3, IPU_CTX_SUPERVISOR},
    {"INCOMING_BASE", 0xa4, IPU_CTX_SUPERVISOR}, {"INCOMING_SINIT", 0xa5, IPU_CTX_SUPERVISOR},
    {"INCOMING_DCOUNT", 0xa6, IPU_CTX_SUPERVISOR}, {"OUTGOING_BASE", 0xa7, IPU_CTX_SUPERVISOR},
    {"OUTGOING_DELTA", 0xa8, IPU_CTX_SUPERVISOR}, {"EXCHANGE_CTL", 0xa9, IPU_CTX_SUPERVISOR},
    {"ANS_DCOUNT", 0xaa, IPU_CTX_SUPERVISOR}, {"EXCHANGE_ADJ", 0xab, IPU_CTX_SUPERVISOR},
    {"WSR", 0x01, IPU_CTX_WORKER}, {"VERTEX_BASE", 0x02, IPU_CTX_WORKER}, {"WORKER_BASE", 0x03, IPU_CTX_WORKER},
    {"REPEAT_COUNT", 0x04, IPU_CTX_WORKER}, {"REPEAT_FIRST", 0x05, IPU_CTX_WORKER},
    {"REPEAT_END", 0x06, IPU_CTX_WORKER}, {"COUNT_L", 0x60, IPU_CTX_WORKER}, {"COUNT_U", 0x61, IPU_CTX_WORKER},
    {"FP_STS", 0x100, IPU_CTX_WORKER}, {"FP_CLR", 0x101, IPU_CTX_WORKER}, {"FP_CTL", 0x102, IPU_CTX_WORKER},
    {"PRNG_0_0", 0x103, IPU_CTX_WORKER}, {"PRNG_0_1", 0x104, IPU_CTX_WORKER},
    {"PRNG_1_0", 0x105, IPU_CTX_WORKER}, {"PRNG_1_1", 0x106, IPU_CTX_WORKER},
    {"PRNG_SEED", 0x107, IPU_CTX_WORKER}, {"TAS", 0x108, IPU_CTX_WORKER},
};

int ipu_asm_csr(const char *name, int arch, int ctx)
{
    (void)arch;
    if (name[0] != '$')
        return -1;
    for (size_t i = 0; i < sizeof csrs / sizeof csrs[0]; i++)
        if (!strcmp(name + 1, csrs[i].name) && (csrs[i].ctx & ctx))
            return csrs[i].index;
    return -1;
}

/* A register operand as written. */
typedef struct ipu_reg {
    char file;      /* 'm' or 'a' */
    int lo, span;   /* first register, 1/2/4 registers */
    int bcast;      /* 0, or IPU_K_ARBL/ARBU/ARB */
    int mod;        /* IPU_M_* */
} ipu_reg;

/* ABI and zero-register names (LLVM ColossusRegisterInfo.td). */
static const struct { const char *name; char file; int lo, span; } reg_alias[] = {
    {"mzero", 'm', 15, 1}, {"azero", 'a', 15, 1}, {"azeros", 'a', 14, 2}, {"aq15", 'a', 12, 4},
    {"lr", 'm', 10, 1}, {"sp", 'm', 11, 1}, {"fp", 'm', 9, 1}, {"bp", 'm', 8, 1},
    {"mworker_base", 'm', 12, 1}, {"mvertex_base", 'm', 13, 1},
};

/* Parse `$name[:hi|:B|:BL|:BU][suffix]`; 0 ok, -1 not a register. */
static int parse_reg(const char *s, ipu_reg *r)
{
    memset(r, 0, sizeof *r);
    if (*s++ != '$')
        return -1;
    char name[32];
    size_t n = 0;
    while ((isalnum((unsigned char)s[n]) || s[n] == '_') && n + 1 < sizeof name)
        name[n] = s[n], n++;
    name[n] = 0;
    const char *p = s + n;
    int found = 0;
    if ((name[0] == 'm' || name[0] == 'a') && isdigit((unsigned char)name[1])) {
        char *end;
        long v = strtol(name + 1, &end, 10);
        if (!*end && v >= 0 && v < 16 && !(name[1] == '0' && name[2])) {
            r->file = name[0];
            r->lo = (int)v;
            r->span = 1;
            found = 1;
        }
    }
    for (size_t i = 0; !found && i < sizeof reg_alias / sizeof reg_alias[0]; i++)
        if (!strcmp(name, reg_alias[i].name)) {
            r->file = reg_alias[i].file, r->lo = reg_alias[i].lo, r->span = reg_alias[i].span;
            found = 1;
        }
    if (!found)
        return -1;
    if (*p == ':' && r->span == 1) {
        p++;
        if (p[0] == 'B' && p[1] == 'L')
            r->bcast = IPU_K_ARBL, p += 2;
        else if (p[0] == 'B' && p[1] == 'U')
            r->bcast = IPU_K_ARBU, p += 2;
        else if (p[0] == 'B')
            r->bcast = IPU_K_ARB, p += 1;
        else {
            char *end;
            long hi = strtol(p, &end, 10);
            if (end == p)
                return -1;
            p = end;
            if (hi == r->lo + 1)
                r->span = 2;
            else if (hi == r->lo + 3 && r->file == 'a')
                r->span = 4;
            else
                return -1;
        }
    }
    while (*p == ' ' || *p == '\t')
        p++;
    if (!strcmp(p, "++"))
        r->mod = IPU_M_INC;
    else if (!strcmp(p, "+="))
        r->mod = IPU_M_INCOFF;
    else if (!strcmp(p, ">>"))
        r->mod = IPU_M_INCDELTA;
    else if (!strcmp(p, "@"))
        r->mod = IPU_M_POSTMOD;
    else if (*p)
        return -1;
    return 0;
}

int ipu_asm_is_reserved(const char *name)
{
    ipu_reg r;
    return name[0] == '$' && parse_reg(name, &r) == 0;
}

int ipu_asm_eval(const char *text, ipu_asm_lookup_fn look, void *ctx, int64_t *v, int *base, int *unresolved,
                 char *err, size_t errlen)
{
    static const asm_expr_syntax syntax = {ipu_asm_is_reserved};
    asm_expr_result r;
    if (asm_expr_eval_rel(text, &syntax, look, ctx, &r, err, errlen))
        return -1;
    *v = r.value;
    *base = r.base;
    *unresolved = r.unresolved;
    return 0;
}

/* llvm-mc's half-precision literals (`1.0h`, `-0.5h`, `infh`): their IEEE binary16 bits,
 * rounded to nearest even. 1 if s is one. */
static int half_literal(const char *s, int64_t *v)
{
    size_t n = strlen(s);
    int neg = s[0] == '-';
    const char *p = s + neg;
    double x;
    if (!strcmp(p, "infh"))
        x = 1.0 / 0.0;
    else {
        if (n < 3 || s[n - 1] != 'h' || !strchr(p, '.'))
            return 0;
        char *end;
        x = strtod(p, &end);
        if (end != s + n - 1)
            return 0;
    }
    uint32_t bits = 0;
    if (x >= 65520.0)
        bits = 0x7c00; /* overflow and infinity */
    else if (x > 0) {
        int e = 0;
        double m = x;
        while (m >= 2.0)
            m /= 2, e++;
        while (m < 1.0 && e > -14)
            m *= 2, e--;
        if (m < 1.0) { /* subnormal: units of 2^-24 */
            double q = x * 16777216.0, f = (double)(uint32_t)q;
            uint32_t u = (uint32_t)f + (q - f > 0.5 || (q - f == 0.5 && ((uint32_t)f & 1)));
            bits = u;
        } else {
            double q = (m - 1.0) * 1024.0, f = (double)(uint32_t)q;
            uint32_t u = (uint32_t)f + (q - f > 0.5 || (q - f == 0.5 && ((uint32_t)f & 1)));
            bits = (uint32_t)(e + 15) * 1024u + u; /* a mantissa carry moves into the exponent */
        }
    }
    *v = bits | (neg ? 0x8000u : 0);
    return 1;
}

/* One operand: a register, or a value (CSR names are values). */
typedef struct ipu_arg {
    int is_reg;
    ipu_reg reg;
    int64_t v;
    int base, evaluated;
    const char *text;
} ipu_arg;

static int reg_fits(int kind, int mod, const ipu_reg *r)
{
    if (r->mod != mod)
        return 0;
    switch (kind) {
    case IPU_K_MR: return r->file == 'm' && r->span == 1 && !r->bcast;
    case IPU_K_AR: return r->file == 'a' && r->span == 1 && !r->bcast;
    case IPU_K_MRP: return r->file == 'm' && r->span == 2 && !(r->lo & 1) && r->lo < 12;
    case IPU_K_ARP: return r->file == 'a' && r->span == 2 && !(r->lo & 1);
    case IPU_K_ARQ: return r->file == 'a' && r->span == 4 && !(r->lo & 3);
    /* PopLibs writes `$aN:B` on f16v4 forms too (OuterProduct.S, after an ldb16 that put the
     * same half in both halves); no mnemonic has both :B and :BL rows, so :B takes the :BL
     * row there (docs/isa/ipu.md, "Assembler": which one llvm-mc picks is not public). */
    case IPU_K_ARBL: return r->file == 'a' && (r->bcast == kind || r->bcast == IPU_K_ARB);
    case IPU_K_ARBU: case IPU_K_ARB: return r->file == 'a' && r->bcast == kind;
    }
    return 0;
}

static uint32_t wmask(unsigned w) { return w >= 32 ? 0xffffffffu : (1u << w) - 1; }

static uint32_t place(const ipu_operand *o, uint32_t v)
{
    uint32_t w = 0;
    for (int i = 0; i < o->npieces; i++)
        w |= ((v >> o->p[i].shift) & wmask(o->p[i].width)) << o->p[i].lo;
    return w;
}

/* The relocation LLVM uses for a symbolic value in operand o of row d (0: none allowed). */
static int reloc_for(const ipu_opdef *d, const ipu_operand *o)
{
    unsigned w = ipu_operand_width(o);
    if (o->kind == IPU_K_BR)
        return R_COLOSSUS_19_S2;
    if (!strcmp(d->mnemonic, "run") || !strcmp(d->mnemonic, "runall"))
        return o->npieces == 2 ? R_COLOSSUS_RUN : 0;
    if ((o->kind == IPU_K_UIMM || o->kind == IPU_K_SIMM) && o->npieces == 1 && o->p[0].lo == 0) {
        if (w == 20)
            return R_COLOSSUS_20;
        if (w == 16)
            return R_COLOSSUS_16;
        if (w == 8 && !strcmp(d->mnemonic, "rpt"))
            return R_COLOSSUS_8;
    }
    return 0;
}

/* Fit value a into operand o of row d: field bits in *bits, or -1 with why. */
static int fit_value(const ipu_asm_env *env, const ipu_opdef *d, const ipu_operand *o, const ipu_arg *a,
                     uint32_t *bits, ipu_fixup *fx, char *why, size_t whylen)
{
    unsigned w = ipu_operand_width(o);
    int64_t v = a->v;
    if (a->base) {
        int rt = reloc_for(d, o);
        if (!rt) {
            snprintf(why, whylen, "'%s' is not a constant (an undefined symbol or an address) and this field takes no relocation", a->text);
            return -1;
        }
        fx->type = rt;
        fx->base = a->base;
        fx->addend = v;
        *bits = 0;
        return 0;
    }
    switch (o->kind) {
    case IPU_K_SIMM:
        if (v < -((int64_t)1 << (w - 1)) || v >= ((int64_t)1 << (w - 1))) {
            snprintf(why, whylen, "%lld out of range [%lld, %lld]", (long long)v, -((long long)1 << (w - 1)),
                     ((long long)1 << (w - 1)) - 1);
            return -1;
        }
        break;
    case IPU_K_UIMM:
        if (!strcmp(d->mnemonic, "run") || !strcmp(d->mnemonic, "runall")) {
            /* a resolved address in a linked image: word offset from the tile memory base, as
             * the linker writes R_COLOSSUS_RUN */
            if (a->evaluated == 2) {
                uint64_t sv;
                char rwhy[160];
                if (v < 0 || ipu_reloc_value(ipu_reloc_find(R_COLOSSUS_RUN), (uint64_t)v, env->tmem_base, &sv, rwhy,
                                             sizeof rwhy)) {
                    snprintf(why, whylen, "address 0x%llx is not a word in tile memory", (long long)v);
                    return -1;
                }
                v = (int64_t)sv;
            }
        }
        if (v < 0 || v > (int64_t)wmask(w)) {
            snprintf(why, whylen, "%lld out of range [0, %u]", (long long)v, wmask(w));
            return -1;
        }
        break;
    case IPU_K_IZ: {
        /* a value the zero-extended form holds takes that form (its row follows): llvm-mc
         * encodes `mov $m7, $m0` (or with 0) as or_mmmn_zi, as the bootloader shows */
        if (v >= 0 && v <= (int64_t)wmask(w)) {
            snprintf(why, whylen, "%lld fits the zero-extended form", (long long)v);
            return -1;
        }
        uint64_t u = (uint64_t)v;
        if (v < 0 && v >= -0x80000000ll)
            u = (uint32_t)v;
        if (u > 0xffffffffu || (u & wmask(32 - w))) {
            snprintf(why, whylen, "%lld is not a %u-bit value in bits 31..%u", (long long)v, w, 32 - w);
            return -1;
        }
        v = (int64_t)(u >> (32 - w));
        break;
    }
    case IPU_K_BR: { /* as the linker writes R_COLOSSUS_19_S2 (call's 20-bit field too, as LLVM relocates it) */
        uint64_t sv;
        char rwhy[160];
        if (v < 0 || ipu_reloc_value(ipu_reloc_find(R_COLOSSUS_19_S2), (uint64_t)v, 0, &sv, rwhy, sizeof rwhy)) {
            snprintf(why, whylen, "branch target 0x%llx is not a word address below 0x%llx", (long long)v,
                     (long long)((int64_t)wmask(19) + 1) * 4);
            return -1;
        }
        v = (int64_t)sv;
        break;
    }
    default:
        return -1;
    }
    *bits = place(o, (uint32_t)v);
    return 0;
}

/* Registers a row writes (bundle checks): its first printed register unless the row only
 * reads it (stores, branches, put/uput, rpt, run, exit, sync, the accumulator inputs), every
 * post-modified base, and the second data register of the double-load pace forms. Derived
 * from the LLVM tables' `outs` lists; the table rows do not carry them. */
static int first_is_read(const char *mn)
{
    static const char *const readers[] = {"br", "bri", "brz", "brnz", "brneg", "brpos", "brnzdec", "put", "uput",
                                          "trap", "rpt", "run", "runall", "delay", "sync", "sans", "send",
                                          "exitz", "exitnz", "exitneg", "exitpos", "ld64putcs", "ld128putcs",
                                          "f32v2aop", NULL};
    if (!strncmp(mn, "st", 2)) /* st32, st64, stm32 and their step/pace forms */
        return 1;
    for (int i = 0; readers[i]; i++)
        if (!strcmp(mn, readers[i]))
            return 1;
    size_t n = strlen(mn); /* accumulator inputs: f32v4acc, f16v8sqacc, f32mac, f16v4cmac... */
    if (n > 3 && !strcmp(mn + n - 3, "acc") && !strstr(mn, "stacc") && !strstr(mn, "gacc"))
        return 1;
    return n > 3 && !strcmp(mn + n - 3, "mac");
}

static void mark(ipu_enc *e, const ipu_reg *r)
{
    uint16_t bits = (uint16_t)(((1u << r->span) - 1) << r->lo);
    if (r->file == 'm')
        e->mwrites |= bits;
    else
        e->awrites |= bits;
}

static int name_eq(const char *a, const char *b) { return strcmp(a, b) == 0; }

int ipu_asm_encode(const ipu_asm_env *env, const char *mn, char **ops, int nops, ipu_enc *out, char *err,
                   size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (nops > IPU_MAX_OPS + 1) {
        snprintf(err, errlen, "too many operands for '%s'", mn);
        return -1;
    }
    /* aliases that need no operands of their own */
    char *alias_ops[IPU_MAX_OPS + 1];
    char num[64];
    if (name_eq(mn, "nop") && nops == 0) { /* LLVM's nop: setzi $m14, 0 (its nop padding word) */
        static char r[] = "$m14", z[] = "0";
        alias_ops[0] = r, alias_ops[1] = z, ops = alias_ops, nops = 2, mn = "setzi";
    } else if (name_eq(mn, "fnop") && nops == 0) { /* the aux-pipe nop: setzi $a13, 0 (disasm alias) */
        static char r[] = "$a13", z[] = "0";
        alias_ops[0] = r, alias_ops[1] = z, ops = alias_ops, nops = 2, mn = "setzi";
    }
    ipu_arg args[IPU_MAX_OPS + 1];
    for (int i = 0; i < nops; i++) {
        ipu_arg *a = &args[i];
        memset(a, 0, sizeof *a);
        a->text = ops[i];
        if (!ops[i][0]) {
            snprintf(err, errlen, "empty operand %d of '%s'", i + 1, mn);
            return -1;
        }
        if (parse_reg(ops[i], &a->reg) == 0) {
            a->is_reg = 1;
            continue;
        }
        int csr = ops[i][0] == '$' ? ipu_asm_csr(ops[i], env->arch, env->ctx) : -1;
        if (csr >= 0) {
            a->v = csr;
            a->evaluated = 1;
            continue;
        }
        if (ops[i][0] == '$' && ipu_asm_csr(ops[i], env->arch, IPU_CTX_BOTH) >= 0) {
            snprintf(err, errlen, "the CSR %s cannot be used in %s mode", ops[i],
                     env->ctx == IPU_CTX_SUPERVISOR ? "supervisor" : "worker");
            return -1;
        }
        if (half_literal(ops[i], &a->v)) {
            a->evaluated = 1;
            continue;
        }
        int unres;
        char e[200];
        if (ipu_asm_eval(ops[i], env->look, env->look_ctx, &a->v, &a->base, &unres, e, sizeof e) < 0) {
            snprintf(err, errlen, "bad operand '%s': %s", ops[i], e);
            return -1;
        }
        if (unres) {
            snprintf(err, errlen, "undefined symbol in '%s'", ops[i]);
            return -1;
        }
        /* a label's address in a linked image (what run/runall convert to a word offset) */
        a->evaluated = strpbrk(ops[i], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_.") ? 2 : 1;
    }
    /* zero and mov: the LLVM printing aliases, accepted as input the same way */
    if (name_eq(mn, "zero") && nops == 1 && args[0].is_reg) {
        const char *z = args[0].reg.file == 'm' ? "$m15" : args[0].reg.span == 2 ? "$a14:15" : "$a15";
        mn = args[0].reg.span == 2 ? "or64" : "or";
        args[1] = args[0], args[2] = args[0];
        parse_reg(z, &args[1].reg), parse_reg(z, &args[2].reg);
        args[1].text = args[2].text = z;
        nops = 3;
    } else if (name_eq(mn, "mov") && nops == 2 && args[0].is_reg && args[1].is_reg) {
        if (args[0].reg.file == 'm' && args[1].reg.file == 'a')
            mn = "atom";
        else if (args[0].reg.span == 2) {
            mn = "or64";
            args[2] = args[1];
            parse_reg("$a14:15", &args[2].reg);
            nops = 3;
        } else {
            mn = "or";
            memset(&args[2], 0, sizeof args[2]);
            args[2].text = "0";
            args[2].evaluated = 1;
            nops = 3;
        }
    } else if (name_eq(mn, "swap16") && nops == 2 && args[1].is_reg) { /* roll16 with equal sources */
        mn = "roll16";
        args[2] = args[1];
        nops = 3;
    } else if (name_eq(mn, "movnz")) { /* the printing alias of movz (disasm.c) */
        mn = "movz";
    } else if (name_eq(mn, "sub") && nops == 3 && args[0].is_reg && args[1].is_reg && !args[2].is_reg &&
               !args[2].base) { /* llvm-mc's SUB_IMM: add with the negated immediate */
        mn = "add";
        args[2].v = -args[2].v;
        snprintf(num, sizeof num, "%lld", (long long)args[2].v);
        args[2].text = num;
    }
    char why[200] = "";
    int seen = 0, seen_ctx = 0, seen_arch = 0;
    for (int pass = 0; pass < 2; pass++) {
        const char *m = mn;
        if (pass == 1) { /* get/put of an upper-space CSR (>= 256) are uget/uput */
            if (name_eq(mn, "get"))
                m = "uget";
            else if (name_eq(mn, "put"))
                m = "uput";
            else
                break;
        }
        for (int i = 0; i < ipu_nops; i++) {
            const ipu_opdef *d = &ipu_ops[i];
            if (strcmp(d->mnemonic, m))
                continue;
            seen = 1;
            if (!(d->arch & env->arch)) {
                seen_arch = 1;
                continue;
            }
            if (!(d->ctx & env->ctx)) {
                seen_ctx = 1;
                continue;
            }
            if (d->nops != nops) {
                snprintf(why, sizeof why, "'%s' takes %d operands", m, d->nops);
                continue;
            }
            uint32_t word = d->match;
            ipu_fixup fx = {0, 0, 0};
            int ok = 1;
            for (int k = 0; k < nops && ok; k++) {
                const ipu_operand *o = &d->op[k];
                ipu_arg a = args[k];
                if (o->kind <= IPU_K_ARB) {
                    if (!a.is_reg || !reg_fits(o->kind, o->mod, &a.reg)) {
                        snprintf(why, sizeof why, "operand %d ('%s') is not the register this form takes", k + 1,
                                 a.text);
                        ok = 0;
                        break;
                    }
                    word |= place(o, (uint32_t)a.reg.lo);
                    continue;
                }
                if (a.is_reg) {
                    snprintf(why, sizeof why, "operand %d ('%s') must be a value", k + 1, a.text);
                    ok = 0;
                    break;
                }
                if ((name_eq(m, "uget") || name_eq(m, "uput")) && a.v >= 256 && a.v < 512 && !a.base)
                    a.v -= 256;
                uint32_t bits;
                char w2[160];
                if (fit_value(env, d, o, &a, &bits, &fx, w2, sizeof w2)) {
                    snprintf(why, sizeof why, "operand %d: %s", k + 1, w2);
                    ok = 0;
                    break;
                }
                word |= bits;
            }
            if (!ok)
                continue;
            if (fx.type && !env->object) {
                snprintf(err, errlen, "internal: a relocation in a linked image ('%s')", mn);
                return -1;
            }
            out->row = d;
            out->word = word;
            out->fx = fx;
            /* the registers it writes */
            int first = 1;
            for (int k = 0; k < nops; k++) {
                const ipu_operand *o = &d->op[k];
                if (o->kind > IPU_K_ARB)
                    continue;
                if (first && !first_is_read(m))
                    mark(out, &args[k].reg);
                else if (o->mod != IPU_M_NONE)
                    mark(out, &args[k].reg);
                else if (k == 1 && (name_eq(m, "ld2x64pace") || name_eq(m, "ld64a32pace") || name_eq(m, "ld64b16pace")))
                    mark(out, &args[k].reg);
                first = 0;
            }
            return 0;
        }
    }
    /* llvm-mc's short memory operands: `ld32 $d, $base, imm` and `ld32 $d, $base, $off` have
     * the delta register $mzero (parseMEM3Operand's MEMri3 / MEMrr3) */
    if (seen && (!strncmp(mn, "ld", 2) || !strncmp(mn, "st", 2)) && nops >= 3 && nops <= IPU_MAX_OPS &&
        !(nops > 2 && !strcmp(ops[2], "$m15"))) {
        char *more[IPU_MAX_OPS + 1];
        static char zero[] = "$m15";
        for (int i = 0, j = 0; i <= nops; i++)
            more[i] = i == 2 ? zero : ops[j++];
        char e2[300];
        if (ipu_asm_encode(env, mn, more, nops + 1, out, e2, sizeof e2) == 0)
            return 0;
    }
    if (!seen)
        snprintf(err, errlen, "unknown instruction '%s'", mn);
    else if (why[0])
        snprintf(err, errlen, "invalid operands for '%s': %s", mn, why);
    else if (seen_ctx)
        snprintf(err, errlen, "'%s' is not available in %s code", mn,
                 env->ctx == IPU_CTX_SUPERVISOR ? "supervisor (.supervisor)" : "worker (.worker)");
    else if (seen_arch)
        snprintf(err, errlen, "'%s' is not available on %s", mn, ipu_arch_name(env->arch));
    else
        snprintf(err, errlen, "invalid operands for '%s'", mn);
    return -1;
}
