/* isa/nyuzi/asm_expr.c: operand and expression parsing for the Nyuzi assembler.
 * Expressions are the shared evaluator's (core/asm/expr.c, LLVM MC syntax) with register
 * names reserved; an unresolved symbol in the first pass marks the value as not yet known.
 * Registers are s0-s31 (gp fp sp ra) and v0-v31. Values carry their relocatable base for
 * object files. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "asm.h"
#include "../../core/asm/expr.h"

int nyz_asm_reg(const char *s, int *is_vector)
{
    static const char *const alias[4] = {"gp", "fp", "sp", "ra"};
    for (int i = 0; i < 4; i++)
        if (strcmp(s, alias[i]) == 0) {
            *is_vector = 0;
            return 28 + i;
        }
    if ((s[0] == 's' || s[0] == 'v') && isdigit((unsigned char)s[1])) {
        char *end;
        long n = strtol(s + 1, &end, 10);
        if (*end == 0 && n >= 0 && n < 32 && !(s[1] == '0' && s[2])) {
            *is_vector = s[0] == 'v';
            return (int)n;
        }
    }
    return -1;
}

static int is_register(const char *name)
{
    int vec;
    return nyz_asm_reg(name, &vec) >= 0;
}

int nyz_asm_eval(const char *text, nyz_asm_lookup_fn look, void *ctx, int64_t *out, int *base, int *unresolved,
                 char *err, size_t errlen)
{
    static const asm_expr_syntax syntax = {is_register};
    asm_expr_result r;
    if (asm_expr_eval_rel(text, &syntax, look, ctx, &r, err, errlen))
        return -1;
    *out = r.value;
    *base = r.base;
    *unresolved = r.unresolved;
    return 0;
}

/* Classify one operand: register, memory reference off(reg), or expression. */
int nyz_asm_operand(char *s, nyz_operand *o)
{
    memset(o, 0, sizeof *o);
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = 0;
    while (isspace((unsigned char)*s))
        s++;
    o->text = s;
    int vec;
    int r = nyz_asm_reg(s, &vec);
    if (r >= 0) {
        o->kind = vec ? OPK_VREG : OPK_SREG;
        o->reg = r;
        return 0;
    }
    if (n && s[strlen(s) - 1] == ')') {
        char *open = strrchr(s, '(');
        if (open) {
            char regname[16];
            size_t rl = strlen(open + 1) - 1;
            if (rl < sizeof regname) {
                memcpy(regname, open + 1, rl);
                regname[rl] = 0;
                char *rn = regname;
                while (isspace((unsigned char)*rn))
                    rn++;
                size_t k = strlen(rn);
                while (k && isspace((unsigned char)rn[k - 1]))
                    rn[--k] = 0;
                r = nyz_asm_reg(rn, &vec);
                if (r >= 0) {
                    o->kind = vec ? OPK_VMEM : OPK_SMEM;
                    o->reg = r;
                    *open = 0;
                    o->text = s;
                    o->has_off = 0;
                    for (char *q = s; *q; q++)
                        if (!isspace((unsigned char)*q))
                            o->has_off = 1;
                    return 0;
                }
            }
        }
    }
    o->kind = OPK_EXPR;
    return 0;
}
