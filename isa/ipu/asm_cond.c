/* isa/ipu/asm_cond.c: GNU conditional assembly for the IPU assembler (asm.c): .if, .ifeq,
 * .ifne, .iflt/.ifle/.ifgt/.ifge, .ifc/.ifnc (string compare, quotes dropped), .ifdef/
 * .ifndef, .elseif, .else, .endif, nested. PopLibs' macros need them, with GNU as's `==`,
 * `!=`, `<`, `>`, `<=`, `>=`, `&&` and `||` (true is -1), which the shared evaluator refuses,
 * and with `(. - 1b) & 7` on section offsets known in pass 1. */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <elf.h>
#include "asm.h"
#include "../../core/asm/text.h"
#include "../../core/mem.h"

/* ---- conditionals ---- */
/* GNU as's `||`, `&&` and comparisons (true is -1), which the shared evaluator refuses, on
 * top of it: split at the loosest operator outside parentheses. */
static int cond_expr(actx *a, const char *text, int64_t *v)
{
    static const char *const levels[3][6] = {{"||"}, {"&&"}, {"==", "!=", "<=", ">=", "<", ">"}};
    for (int lv = 0; lv < 3; lv++) {
        int depth = 0;
        for (const char *p = text; *p; p++) {
            if (*p == '(')
                depth++;
            else if (*p == ')')
                depth--;
            if (depth)
                continue;
            for (int k = 0; k < 6 && levels[lv][k]; k++) {
                const char *op = levels[lv][k];
                size_t n = strlen(op);
                if (strncmp(p, op, n))
                    continue;
                /* `<` and `>` alone, not shifts, not the second char of a two-char operator */
                if (n == 1 && (p[1] == op[0] || p[1] == '=' || (p > text && (p[-1] == op[0] || p[-1] == '!' ||
                                                                                p[-1] == '=' || p[-1] == '<' ||
                                                                                p[-1] == '>'))))
                    continue;
                char left[ASM_MAX_LINE + 1];
                snprintf(left, sizeof left, "%.*s", (int)(p - text), text);
                int64_t x, y;
                if (cond_expr(a, left, &x) || cond_expr(a, p + n, &y))
                    return -1;
                int r = lv == 0 ? (x || y) : lv == 1 ? (x && y) : !strcmp(op, "==") ? x == y : !strcmp(op, "!=") ? x != y
                    : !strcmp(op, "<=") ? x <= y : !strcmp(op, ">=") ? x >= y : !strcmp(op, "<") ? x < y : x > y;
                *v = r ? -1 : 0;
                return 0;
            }
        }
    }
    return ipu_eval_now(a, text, v, NULL, 1);
}

static int cond_value(actx *a, const char *d, char *rest, int *val)
{
    if (!strcmp(d, ".ifc") || !strcmp(d, ".ifnc")) {
        char *ops[3];
        if (asm_split_operands(rest, ops, 3) != 2)
            return asm_unit_fail(&a->u, "%s needs two strings", d);
        ipu_unquote(ops[0]), ipu_unquote(ops[1]);
        *val = !strcmp(ops[0], ops[1]) == !strcmp(d, ".ifc");
        return 0;
    }
    if (!strcmp(d, ".ifdef") || !strcmp(d, ".ifndef")) {
        const asm_symbol *s = asm_sym_find(&a->u.syms, asm_trim(rest), 0);
        *val = (s && s->defined) == !strcmp(d, ".ifdef");
        return 0;
    }
    int64_t v;
    char ren[RENAMED];
    if (asm_unit_rename(&a->u, rest, ren, RENAMED) || cond_expr(a, ren, &v)) /* `(. - 1b) & 7` */
        return -1;
    if (!strcmp(d, ".ifeq"))
        *val = v == 0;
    else if (!strcmp(d, ".iflt"))
        *val = v < 0;
    else if (!strcmp(d, ".ifle"))
        *val = v <= 0;
    else if (!strcmp(d, ".ifgt"))
        *val = v > 0;
    else if (!strcmp(d, ".ifge"))
        *val = v >= 0;
    else
        *val = v != 0; /* .if, .ifne, .elseif */
    return 0;
}

/* 1: a conditional directive (handled), 0: not one, -1: error. */
int ipu_conditional(actx *a, const char *d, char *rest)
{
    if (!strncmp(d, ".if", 3)) {
        if (a->ncond == IPU_MAX_COND)
            return asm_unit_fail(&a->u, "conditionals nested deeper than %d", IPU_MAX_COND);
        int outer = !ipu_skipping(a), val = 0;
        if (outer && cond_value(a, d, rest, &val))
            return -1;
        a->cond[a->ncond].outer = (unsigned)outer;
        a->cond[a->ncond].taken = (unsigned)(outer && val);
        a->cond[a->ncond].done = (unsigned)(outer && val);
        a->ncond++;
        return 1;
    }
    if (strcmp(d, ".else") && strcmp(d, ".elseif") && strcmp(d, ".endif"))
        return 0;
    if (!a->ncond)
        return asm_unit_fail(&a->u, "%s without .if", d);
    ipu_cond *c = &a->cond[a->ncond - 1];
    if (!strcmp(d, ".endif")) {
        a->ncond--;
        return 1;
    }
    if (!c->outer || c->done) {
        c->taken = 0;
        return 1;
    }
    int val = 1;
    if (!strcmp(d, ".elseif") && cond_value(a, ".if", rest, &val))
        return -1;
    c->taken = (unsigned)val;
    c->done = (unsigned)val;
    return 1;
}

