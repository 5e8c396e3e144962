/* isa/dpu/asmline.c: one DPU instruction in SDK assembler syntax to its 48-bit word.
 * The mnemonic selects the candidate forms of the instruction table; the operand list
 * (registers, pairs dN, stack registers sN, condition names of the form's class, !little /
 * !big, expressions) picks the form whose operand kinds match and whose fields can hold the
 * values. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dpu.h"
#include "../../core/asm/expr.h"
#include "../../core/asm/limits.h"
#include "../../core/asm/text.h"

/* ---- expressions: the shared evaluator; every symbol must be known ---- */
int dpu_eval_expr(const char *s, const dpu_sym_resolver *res, int64_t *val, char *err, size_t errlen)
{
    asm_expr_result r;
    if (asm_expr_eval(s, NULL, res ? res->lookup : NULL, res ? res->ctx : NULL, &r, err, errlen)) {
        *val = 0;
        return -1;
    }
    *val = r.value;
    if (r.unresolved) {
        snprintf(err, errlen, "undefined symbol '%s'", r.first_unresolved);
        return -1;
    }
    return 0;
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
            if (dpu_eval_expr(o, res, &x, err, errlen))
                return -1;
            vals[k] = x;
            break;
        }
        }
    }
    return dpu_encode(fi, vals, w, err, errlen) ? -1 : 0;
}

int dpu_assemble_line(const char *text, const dpu_sym_resolver *res, uint64_t *w, char *err, size_t errlen)
{
    char buf[ASM_MAX_LINE + 1];
    if (snprintf(buf, sizeof buf, "%s", text) >= (int)sizeof buf) {
        snprintf(err, errlen, "line longer than %d characters", ASM_MAX_LINE);
        return -1;
    }
    char mn[64];
    char *rest = asm_first_word(buf, mn, sizeof mn);
    char *ops[8];
    int nops = asm_split_operands(rest, ops, 8);
    if (nops > 8) {
        snprintf(err, errlen, "too many operands");
        return -1;
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
        /* The SDK's encodings overlap (an `add ssi` immediate can spell an `add sss` word,
         * tests/dpu/test_overlap.c): a word the decoder would run as another form is not an
         * encoding of this one. The rri/rki pair with a constant register is the documented
         * exception (docs/isa/dpu.md: the SDK emits those bits; they decode as rki). */
        int other = r == 0 ? dpu_decode_exec(*w) : -1;
        if (r == 0 && other != f->exec &&
            !(other >= 0 && ((f->flags | dpu_form_at(other)->flags) & DPU_F_KREG))) {
            snprintf(e2, sizeof e2, "'%s' cannot be encoded as %s %s: the word %012llx would run as %s %s", text, f->mnem,
                     f->form, (unsigned long long)*w, other >= 0 ? dpu_form_at(other)->mnem : "an illegal",
                     other >= 0 ? dpu_form_at(other)->form : "instruction");
            r = -1;
        }
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
