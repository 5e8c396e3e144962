/* isa/dpu/asmline.c: one DPU instruction in SDK assembler syntax to its 48-bit word.
 * The mnemonic selects the candidate forms of the instruction table; the operand list
 * (registers, pairs dN, stack registers sN, condition names of the form's class, !little /
 * !big, expressions) picks the form whose operand kinds match and whose fields can hold the
 * values. Also the expression evaluator shared with the directive parser of asm.c. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dpu.h"
#include "../../core/asm/arith.h"

/* ---- expressions ---- */
typedef struct ex_state {
    const char *p;
    const dpu_sym_resolver *res;
    int code;
    char *err;
    size_t errlen;
    int bad;
} ex_state;

static void ex_skip(ex_state *e) { while (*e->p == ' ' || *e->p == '\t') e->p++; }
static int64_t ex_or(ex_state *e);

static int64_t ex_prim(ex_state *e)
{
    ex_skip(e);
    char c = *e->p;
    if (c == '(') {
        e->p++;
        int64_t v = ex_or(e);
        ex_skip(e);
        if (*e->p != ')') {
            if (!e->bad) snprintf(e->err, e->errlen, "missing ')'");
            e->bad = 1;
            return 0;
        }
        e->p++;
        return v;
    }
    if (c == '-') { e->p++; return asm_negate(ex_prim(e)); }
    if (c == '+') { e->p++; return ex_prim(e); }
    if (c == '~') { e->p++; return ~ex_prim(e); }
    if (isdigit((unsigned char)c)) {
        char *end;
        int64_t v = (int64_t)strtoull(e->p, &end, 0);
        e->p = end;
        return v;
    }
    if (isalpha((unsigned char)c) || c == '_' || c == '.' || c == '$') {
        char name[256];
        size_t n = 0;
        while ((isalnum((unsigned char)*e->p) || *e->p == '_' || *e->p == '.' || *e->p == '$') && n + 1 < sizeof name)
            name[n++] = *e->p++;
        name[n] = 0;
        int64_t v = 0;
        if (!e->res || !e->res->lookup || e->res->lookup(e->res->ctx, name, e->code, &v)) {
            if (!e->bad) snprintf(e->err, e->errlen, "undefined symbol '%s'", name);
            e->bad = 1;
        }
        return v;
    }
    if (!e->bad) snprintf(e->err, e->errlen, "expected a number or symbol at '%s'", e->p);
    e->bad = 1;
    return 0;
}

static int64_t ex_mul(ex_state *e)
{
    int64_t v = ex_prim(e);
    for (;;) {
        ex_skip(e);
        char c = *e->p;
        if (c != '*' && c != '/' && c != '%')
            return v;
        e->p++;
        const char *why = asm_arith(c, v, ex_prim(e), &v);
        if (why) {
            if (!e->bad) snprintf(e->err, e->errlen, "%s", why);
            e->bad = 1;
            v = 0;
        }
    }
}
static int64_t ex_add(ex_state *e)
{
    int64_t v = ex_mul(e);
    for (;;) {
        ex_skip(e);
        char c = *e->p;
        if (c != '+' && c != '-')
            return v;
        e->p++;
        asm_arith(c, v, ex_mul(e), &v);
    }
}
static int64_t ex_shift(ex_state *e)
{
    int64_t v = ex_add(e);
    for (;;) {
        ex_skip(e);
        if ((e->p[0] != '<' && e->p[0] != '>') || e->p[1] != e->p[0])
            return v;
        char c = e->p[0];
        e->p += 2;
        asm_arith(c, v, ex_add(e), &v);
    }
}
static int64_t ex_or(ex_state *e)
{
    int64_t v = ex_shift(e);
    for (;;) {
        ex_skip(e);
        if (*e->p == '&') { e->p++; v &= ex_shift(e); }
        else if (*e->p == '|') { e->p++; v |= ex_shift(e); }
        else if (*e->p == '^') { e->p++; v ^= ex_shift(e); }
        else return v;
    }
}

int dpu_eval_expr(const char *s, const dpu_sym_resolver *res, int code, int64_t *val, char *err, size_t errlen)
{
    ex_state e = {s, res, code, err, errlen, 0};
    int64_t v = ex_or(&e);
    ex_skip(&e);
    if (!e.bad && *e.p) {
        snprintf(err, errlen, "unexpected '%s' in expression", e.p);
        e.bad = 1;
    }
    *val = v;
    return e.bad ? -1 : 0;
}

/* ---- operands ---- */
static int reg_index(const char *s)
{
    for (int i = 0; i < 32; i++)
        if (!strcmp(s, dpu_reg_names[i]))
            return i;
    return -1;
}

static int prefixed_num(const char *s, char pfx, int max)
{
    if (s[0] != pfx || !isdigit((unsigned char)s[1]))
        return -1;
    char *end;
    long v = strtol(s + 1, &end, 10);
    if (*end || v < 0 || v > max)
        return -1;
    return (int)v;
}

static int is_regname(const char *s)
{
    return reg_index(s) >= 0 || prefixed_num(s, 'd', 31) >= 0 || prefixed_num(s, 's', 31) >= 0;
}

/* Try form fi with the operand strings; 0 ok (word set), 1 kinds do not match, -1 value error. */
static int try_form(int fi, char **ops, int nops, const dpu_sym_resolver *res, uint64_t *w, char *err, size_t errlen)
{
    const dpu_form *f = dpu_form_at(fi);
    int k0 = 0, n = nops;
    if (f->flags & DPU_F_ZDEST) {
        if (n < 1 || strcmp(ops[0], "zero"))
            return 1;
        k0 = 1;
        n--;
    }
    if (f->flags & DPU_F_FALSE) {
        if (n < 1 || strcmp(ops[nops - 1], "false"))
            return 1;
        n--;
    }
    if (n != f->nops)
        return 1;
    int64_t vals[6];
    int code = f->op == DPU_OP_CALL || f->op == DPU_OP_JUMP;
    for (int k = 0; k < n; k++) {
        const char *o = ops[k0 + k];
        const dpu_field *d = dpu_field_at(f->ops[k]);
        int sreg = (f->smask >> k) & 1;
        int v;
        switch (d->role) {
        case DPU_R_RA: case DPU_R_RB: case DPU_R_RC:
            if (sreg) {
                v = prefixed_num(o, 's', d->role == DPU_R_RA ? 31 : 23);
            } else
                v = reg_index(o);
            if (v < 0) return 1;
            vals[k] = v;
            break;
        case DPU_R_DC: case DPU_R_DB:
            v = prefixed_num(o, 'd', 31);
            if (v < 0) return 1;
            vals[k] = v;
            break;
        case DPU_R_CC:
            v = dpu_cc_value(f->cls, o);
            if (v < 0) return 1;
            vals[k] = v;
            break;
        case DPU_R_ENDIAN:
            if (!strcmp(o, "!little")) vals[k] = 0;
            else if (!strcmp(o, "!big")) vals[k] = 1;
            else return 1;
            break;
        default: {
            if (is_regname(o) || o[0] == '!')
                return 1;
            /* a condition name where a number is expected means another form */
            if (isalpha((unsigned char)o[0]) && f->cls >= 0 && dpu_cc_value(f->cls, o) >= 0)
                return 1;
            int64_t x;
            int c = code || d->role == DPU_R_PC;
            if (dpu_eval_expr(o, res, c, &x, err, errlen))
                return -1;
            vals[k] = x;
            break;
        }
        }
    }
    return dpu_encode(fi, vals, w, err, errlen) ? -1 : 0;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) *--e = 0;
    return s;
}

int dpu_assemble_line(const char *text, const dpu_sym_resolver *res, uint64_t *w, char *err, size_t errlen)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", text);
    char *s = trim(buf);
    char *sp = s;
    while (*sp && !isspace((unsigned char)*sp)) sp++;
    char *rest = "";
    if (*sp) { *sp = 0; rest = sp + 1; }
    char mn[64];
    snprintf(mn, sizeof mn, "%s", s);
    char *ops[8];
    int nops = 0;
    rest = trim(rest);
    if (*rest) {
        char *p = rest;
        int depth = 0;
        ops[nops++] = p;
        for (; *p; p++) {
            if (*p == '(') depth++;
            else if (*p == ')') depth--;
            else if (*p == ',' && depth == 0) {
                *p = 0;
                if (nops == 8) { snprintf(err, errlen, "too many operands"); return -1; }
                ops[nops++] = p + 1;
            }
        }
        for (int i = 0; i < nops; i++) ops[i] = trim(ops[i]);
    }
    int any = 0, rc = 1;
    char e1[256] = "";
    for (int i = 0; i < DPU_NFORMS; i++) {
        const dpu_form *f = dpu_form_at(i);
        if (strcmp(f->mnem, mn))
            continue;
        any = 1;
        char e2[256];
        int r = try_form(i, ops, nops, res, w, e2, sizeof e2);
        if (r == 0)
            return i;
        if (r < 0 && !e1[0]) {
            snprintf(e1, sizeof e1, "%s", e2);
            rc = -1;
        }
    }
    if (!any)
        snprintf(err, errlen, "unknown instruction '%s'", mn);
    else if (rc < 0)
        snprintf(err, errlen, "%s", e1);
    else
        snprintf(err, errlen, "no form of '%s' takes these operands", mn);
    return -1;
}
