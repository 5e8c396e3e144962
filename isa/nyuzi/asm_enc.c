/* isa/nyuzi/asm_enc.c: encodes one Nyuzi instruction from its mnemonic and operands by
 * walking the instruction table (table.c): the entries with the mnemonic are tried in
 * table order and the first whose operand syntax matches the operands is encoded, so the
 * assembler, decoder and disassembler share one description. Immediates and branch
 * displacements are range-checked with messages that say the allowed range. LLVM's operand
 * modifiers hi(x) (bits 31..13, for movehi) and lo(x) (bits 12..0) are understood; in an
 * object file they, branches to other sections or undefined symbols, are left to the
 * linker as R_NYUZI_HI19, R_NYUZI_IMM_LO13 and R_NYUZI_BRANCH20/25 (as llvm-mc does). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "nyuzi.h"
#include "asm.h"
#include "../../core/asm/limits.h"

typedef struct pat { uint8_t syn; const char *ops; } pat;
/* Operand kinds per syntax: S scalar reg, V vector reg, E expression, M off(sN), G off(vN),
 * P pointer (sN or off(sN)). */
static const char *syn_ops(int syn)
{
    switch (syn) {
    case SYN_NONE: return "";
    case SYN_R_SSS: case SYN_C_SSS: return "SSS";
    case SYN_R_VVS: return "VVS";
    case SYN_R_VSVS: return "VSVS";
    case SYN_R_VVV: return "VVV";
    case SYN_R_VSVV: return "VSVV";
    case SYN_R1_SS: return "SS";
    case SYN_R1_VS: return "VS";
    case SYN_R1_VSS: return "VSS";
    case SYN_R1_VV: return "VV";
    case SYN_R1_VSV: return "VSV";
    case SYN_C_SVS: case SYN_GL_SVS: return "SVS";
    case SYN_C_SVV: return "SVV";
    case SYN_I_SSI: case SYN_C_SSI: return "SSE";
    case SYN_I_VVI: return "VVE";
    case SYN_C_SVI: case SYN_GL_SVI: return "SVE";
    case SYN_I_VSVI: return "VSVE";
    case SYN_I_SI: return "SE";
    case SYN_I_VI: return "VE";
    case SYN_I_VSI: return "VSE";
    case SYN_MOVEHI: return "SE";
    case SYN_SYSCALL: return "E";
    case SYN_M_S: return "SM";
    case SYN_M_V: return "VM";
    case SYN_M_VM: return "VSM";
    case SYN_M_G: return "VG";
    case SYN_M_GM: return "VSG";
    case SYN_M_CR: return "SE";
    case SYN_CC_PTR: return "P";
    case SYN_CC_2REG: return "SS";
    case SYN_B_REG: return "S";
    case SYN_B_COND: return "SE";
    case SYN_B_OFF: return "E";
    }
    return "?";
}

static int kind_ok(char k, const nyz_operand *o)
{
    switch (k) {
    case 'S': return o->kind == OPK_SREG;
    case 'V': return o->kind == OPK_VREG;
    case 'E': return o->kind == OPK_EXPR;
    case 'M': return o->kind == OPK_SMEM;
    case 'G': return o->kind == OPK_VMEM;
    case 'P': return o->kind == OPK_SMEM || o->kind == OPK_SREG;
    }
    return 0;
}

static int range(int64_t v, int bits, int is_signed, const char *what, char *err, size_t errlen)
{
    int64_t lo = is_signed ? -(1ll << (bits - 1)) : 0;
    int64_t hi = is_signed ? (1ll << (bits - 1)) - 1 : (1ll << bits) - 1;
    if (v < lo || v > hi) {
        snprintf(err, errlen, "%s %lld out of range [%lld, %lld]", what, (long long)v, (long long)lo,
                 (long long)hi);
        return -1;
    }
    return 0;
}

enum { MOD_NONE, MOD_HI, MOD_LO };

/* hi(...) or lo(...) around the whole operand: the modifier, and the text inside in buf. */
static int modifier(const char *t, char *buf, size_t n)
{
    while (isspace((unsigned char)*t))
        t++;
    int m = !strncmp(t, "hi", 2) ? MOD_HI : !strncmp(t, "lo", 2) ? MOD_LO : MOD_NONE;
    if (!m)
        return MOD_NONE;
    const char *p = t + 2;
    while (isspace((unsigned char)*p))
        p++;
    size_t len = strlen(p);
    while (len && isspace((unsigned char)p[len - 1]))
        len--;
    if (*p != '(' || len < 2 || p[len - 1] != ')' || len - 2 >= n)
        return MOD_NONE;
    /* the parentheses must enclose the whole operand: hi(a) + lo(b) is not one modifier */
    int depth = 0;
    for (size_t i = 0; i < len; i++) {
        depth += p[i] == '(' ? 1 : p[i] == ')' ? -1 : 0;
        if (depth == 0 && i + 1 < len)
            return MOD_NONE;
    }
    memcpy(buf, p + 1, len - 2);
    buf[len - 2] = 0;
    return m;
}

/* An operand's value: *base as nyz_asm_eval's, *mod the modifier (applied here to an
 * absolute value; a relocatable one keeps its offset, for the linker). */
static int eval(const nyz_operand *o, nyz_asm_lookup_fn look, void *ctx, int64_t *v, int *base, int *mod, char *err,
                size_t errlen)
{
    int unres = 0;
    char e[200], inner[ASM_MAX_LINE + 1];
    *base = 0;
    *mod = MOD_NONE;
    if ((o->kind == OPK_SMEM || o->kind == OPK_VMEM) && !o->has_off) {
        *v = 0;
        return 0;
    }
    const char *text = o->text;
    if (o->kind == OPK_EXPR && (*mod = modifier(text, inner, sizeof inner)) != MOD_NONE)
        text = inner;
    if (nyz_asm_eval(text, look, ctx, v, base, &unres, e, sizeof e) < 0) {
        snprintf(err, errlen, "bad expression '%s': %s", o->text, e);
        return -1;
    }
    if (unres) {
        snprintf(err, errlen, "undefined symbol in '%s'", o->text);
        return -1;
    }
    if (!*base && *mod == MOD_HI)
        *v = (int64_t)((uint32_t)*v >> 13);
    else if (!*base && *mod == MOD_LO)
        *v = (int64_t)((uint32_t)*v & 0x1fff);
    return 0;
}

/* A relocatable value in a field: the fixup if the field has the relocation the value's
 * modifier asks for, else an error. */
static int fixup(nyz_fixup *fx, int type, int want_mod, int mod, int base, int64_t v, const nyz_operand *o,
                 char *err, size_t errlen)
{
    if (mod != want_mod) {
        snprintf(err, errlen, "'%s' is not a constant (it needs a relocation): %s", o->text,
                 want_mod == MOD_HI ? "use hi(...) in movehi"
                 : want_mod == MOD_LO ? "use lo(...) in an immediate"
                                      : "only a branch, movehi hi(...) or an immediate lo(...) can refer to it");
        return -1;
    }
    *fx = (nyz_fixup){type, base, v};
    return 0;
}

/* 0 ok, -1 error (err set). */
int nyz_encode(const char *mn, nyz_operand *ops, int nops, uint32_t pc, int pc_base, nyz_asm_lookup_fn look,
               void *ctx, uint32_t *word, nyz_fixup *fx, char *err, size_t errlen)
{
    int seen = 0;
    *fx = (nyz_fixup){0, 0, 0};
    for (int i = 0; i < nyz_noptab; i++) {
        const nyz_opdef *d = &nyz_optab[i];
        if (!d->asm_ok || strcmp(d->name, mn) != 0)
            continue;
        seen = 1;
        const char *k = syn_ops(d->syn);
        if ((int)strlen(k) != nops)
            continue;
        int ok = 1;
        for (int j = 0; j < nops && ok; j++)
            ok = kind_ok(k[j], &ops[j]);
        if (!ok)
            continue;
        uint32_t w = d->match;
        int64_t v = 0;
        int base = 0, mod = 0;
#define R(j) ((uint32_t)ops[j].reg)
/* the operand's value; a relocatable one only where a relocation exists (RELOC(...)) */
#define EV(j) do { if (eval(&ops[j], look, ctx, &v, &base, &mod, err, errlen) < 0) return -1; \
                   if (base && fixup(fx, R_NYUZI_NONE, -1, mod, base, v, &ops[j], err, errlen)) return -1; } while (0)
#define EV_RELOC(j, type, want) do { if (eval(&ops[j], look, ctx, &v, &base, &mod, err, errlen) < 0) return -1; \
                   if (base) { if (fixup(fx, type, want, mod, base, v, &ops[j], err, errlen)) return -1; v = 0; } } while (0)
        switch ((nyz_syn)d->syn) {
        case SYN_NONE: break;
        case SYN_R_SSS: case SYN_C_SSS: case SYN_R_VVS: case SYN_R_VVV: case SYN_C_SVS:
        case SYN_C_SVV: case SYN_GL_SVS:
            w |= R(0) << 5 | R(1) | R(2) << 15; break;
        case SYN_R_VSVS: case SYN_R_VSVV:
            w |= R(0) << 5 | R(1) << 10 | R(2) | R(3) << 15; break;
        case SYN_R1_SS: case SYN_R1_VS: case SYN_R1_VV:
            w |= R(0) << 5 | R(1) << 15; break;
        case SYN_R1_VSS: case SYN_R1_VSV:
            w |= R(0) << 5 | R(1) << 10 | R(2) << 15; break;
        case SYN_I_SSI: case SYN_C_SSI: case SYN_I_VVI: case SYN_C_SVI: case SYN_GL_SVI:
            EV_RELOC(2, R_NYUZI_IMM_LO13, MOD_LO);
            if (range(v, 14, 1, "immediate", err, errlen)) return -1;
            w |= R(0) << 5 | R(1) | ((uint32_t)v & 0x3fff) << 10; break;
        case SYN_I_VSVI:
            EV(3);
            if (range(v, 9, 1, "immediate", err, errlen)) return -1;
            w |= R(0) << 5 | R(1) << 10 | R(2) | ((uint32_t)v & 0x1ff) << 15; break;
        case SYN_I_SI: case SYN_I_VI:
            EV(1);
            if (range(v, 14, 1, "immediate", err, errlen)) return -1;
            w |= R(0) << 5 | ((uint32_t)v & 0x3fff) << 10; break;
        case SYN_I_VSI:
            EV(2);
            if (range(v, 9, 1, "immediate", err, errlen)) return -1;
            w |= R(0) << 5 | R(1) << 10 | ((uint32_t)v & 0x1ff) << 15; break;
        case SYN_MOVEHI:
            EV_RELOC(1, R_NYUZI_HI19, MOD_HI);
            if (range(v, 19, 0, "movehi immediate", err, errlen)) return -1;
            w |= R(0) << 5 | ((uint32_t)v >> 5 & 0x3fff) << 10 | ((uint32_t)v & 31); break;
        case SYN_SYSCALL:
            EV(0);
            if (range(v, 14, 0, "syscall index", err, errlen)) return -1;
            w |= ((uint32_t)v & 0x3fff) << 10; break;
        case SYN_M_S: case SYN_M_V: case SYN_M_G:
            EV(1);
            if (range(v, 15, 1, "memory offset", err, errlen)) return -1;
            w |= R(0) << 5 | R(1) | ((uint32_t)v & 0x7fff) << 10; break;
        case SYN_M_VM: case SYN_M_GM:
            EV(2);
            if (range(v, 10, 1, "memory offset", err, errlen)) return -1;
            w |= R(0) << 5 | R(1) << 10 | R(2) | ((uint32_t)v & 0x3ff) << 15; break;
        case SYN_M_CR:
            EV(1);
            if (range(v, 5, 0, "control register", err, errlen)) return -1;
            w |= R(0) << 5 | (uint32_t)v; break;
        case SYN_CC_PTR:
            if (ops[0].kind == OPK_SMEM)
                EV(0);
            if (range(v, 10, 1, "offset", err, errlen)) return -1;
            w |= R(0) | ((uint32_t)v & 0x3ff) << 15; break;
        case SYN_CC_2REG:
            w |= R(0) | R(1) << 5; break;
        case SYN_B_REG:
            w |= R(0);
            if (d->kind == K_CALL_REG)
                w |= R(0) << 5; /* LLVM puts the register in both fields */
            break;
        case SYN_B_COND: case SYN_B_OFF: {
            int j = d->syn == SYN_B_COND ? 1 : 0;
            if (eval(&ops[j], look, ctx, &v, &base, &mod, err, errlen) < 0)
                return -1;
            if (base != pc_base) { /* another section or an undefined symbol: the linker's */
                if (fixup(fx, j ? R_NYUZI_BRANCH20 : R_NYUZI_BRANCH25, MOD_NONE, mod, base, v, &ops[j], err, errlen))
                    return -1;
                break;
            }
            int64_t disp = (int32_t)((uint32_t)v - pc); /* addresses wrap at 32 bits */
            if (disp & 3) {
                snprintf(err, errlen, "branch target 0x%llx is not 4-byte aligned", (long long)v);
                return -1;
            }
            disp /= 4;
            if (range(disp, j ? 20 : 25, 1, "branch displacement (words)", err, errlen)) return -1;
            if (j)
                w |= R(0) | ((uint32_t)disp & 0xfffff) << 5;
            else
                w |= (uint32_t)disp & 0x1ffffff;
            break;
        }
        }
#undef R
#undef EV
#undef EV_RELOC
        *word = w;
        return 0;
    }
    if (!seen)
        snprintf(err, errlen, "unknown instruction '%s'", mn);
    else
        snprintf(err, errlen, "invalid operands for '%s'", mn);
    return -1;
}
