/* isa/nyuzi/asm_expr.c: operand and expression parsing for the Nyuzi assembler.
 * Expressions follow the GNU/LLVM assembler: integers (decimal, 0x, 0b, 'c'), symbols,
 * unary - ~ !, binary * / % << >> & | ^ + - with C precedence, and parentheses. A symbol
 * lookup callback resolves names; an unresolved symbol in the first pass marks the value
 * as not yet known. Registers are s0-s31 (gp fp sp ra) and v0-v31. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "asm.h"
#include "../../core/asm/arith.h"

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

typedef struct ep {
    const char *p;
    nyz_asm_lookup_fn look;
    void *ctx;
    int unresolved;
    const char *err;
} ep;

static void skipws(ep *e)
{
    while (*e->p == ' ' || *e->p == '\t')
        e->p++;
}

static int64_t parse_binary(ep *e, int prec);

static int64_t parse_primary(ep *e)
{
    skipws(e);
    const char *p = e->p;
    if (*p == '(') {
        e->p++;
        int64_t v = parse_binary(e, 0);
        skipws(e);
        if (*e->p != ')') {
            e->err = "expected ')'";
            return 0;
        }
        e->p++;
        return v;
    }
    if (*p == '-') { e->p++; return asm_negate(parse_primary(e)); }
    if (*p == '+') { e->p++; return parse_primary(e); }
    if (*p == '~') { e->p++; return ~parse_primary(e); }
    if (*p == '!') { e->p++; return !parse_primary(e); }
    if (*p == '\'') {
        int64_t v;
        if (p[1] == '\\') {
            char c = p[2];
            v = c == 'n' ? '\n' : c == 't' ? '\t' : c == '0' ? 0 : c == 'r' ? '\r' : c;
            e->p = p + 3;
        } else {
            v = (unsigned char)p[1];
            e->p = p + 2;
        }
        if (*e->p == '\'')
            e->p++;
        return v;
    }
    if (isdigit((unsigned char)*p)) {
        char *end;
        int64_t v;
        if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B') && (p[2] == '0' || p[2] == '1'))
            v = (int64_t)strtoull(p + 2, &end, 2);
        else
            v = (int64_t)strtoull(p, &end, 0);
        e->p = end;
        if (isalnum((unsigned char)*end) || *end == '_') {
            e->err = "malformed number";
            return 0;
        }
        return v;
    }
    if (isalpha((unsigned char)*p) || *p == '_' || *p == '.' || *p == '$') {
        char name[128];
        size_t n = 0;
        while ((isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == '$') && n + 1 < sizeof name)
            name[n++] = *p++;
        name[n] = 0;
        e->p = p;
        int dummy;
        if (nyz_asm_reg(name, &dummy) >= 0) {
            e->err = "register where a value was expected";
            return 0;
        }
        int64_t v;
        int r = e->look(e->ctx, name, &v);
        if (r < 0) {
            e->unresolved = 1;
            return 0;
        }
        return v;
    }
    e->err = *p ? "unexpected character in expression" : "missing value";
    return 0;
}

static int binop_prec(const char *p, int *len)
{
    *len = 2;
    if (p[0] == '<' && p[1] == '<') return 5;
    if (p[0] == '>' && p[1] == '>') return 5;
    if (p[0] == '&' && p[1] == '&') return -1;
    if (p[0] == '|' && p[1] == '|') return -1;
    *len = 1;
    switch (p[0]) {
    case '*': case '/': case '%': return 6;
    case '+': case '-': return 4;
    case '&': return 3;
    case '^': return 2;
    case '|': return 1;
    default: return -1;
    }
}

static int64_t parse_binary(ep *e, int prec)
{
    int64_t lhs = parse_primary(e);
    for (;;) {
        if (e->err)
            return 0;
        skipws(e);
        int len, pr = binop_prec(e->p, &len);
        if (pr < 0 || pr < prec)
            return lhs;
        char op0 = e->p[0];
        e->p += len;
        int64_t rhs = parse_binary(e, pr + 1);
        /* an unresolved symbol (pass 1) reads as 0: its division is not an error yet */
        const char *why = asm_arith(op0, lhs, rhs, &lhs);
        if (why) {
            if (!e->unresolved)
                e->err = why;
            lhs = 0;
        }
    }
}

int nyz_asm_eval(const char *text, nyz_asm_lookup_fn look, void *ctx, int64_t *out, int *unresolved,
                 const char **err)
{
    ep e = {text, look, ctx, 0, NULL};
    int64_t v = parse_binary(&e, 0);
    skipws(&e);
    if (!e.err && *e.p)
        e.err = "unexpected text after expression";
    if (e.err) {
        *err = e.err;
        return -1;
    }
    *out = v;
    *unresolved = e.unresolved;
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
