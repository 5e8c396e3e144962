/* core/asm/expr.c: the assemblers' expression evaluator (see expr.h): a precedence-climbing
 * parser over the text, evaluating as it parses. Each value carries its relocatable base
 * (always 0 unless the caller asked for relocatable values). The first error stops the
 * evaluation and is the one reported; the position in the text is named so that a user sees
 * what was expected where. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "expr.h"
#include "arith.h"

/* A value: an offset from base (0: absolute). */
typedef struct val {
    int64_t v;
    int base;
    const char *sym;    /* where in the text the symbol that brought the base in is named */
    int symlen;
} val;

typedef struct parser {
    const char *p;
    const asm_expr_syntax *syn;
    asm_expr_lookup_fn look;
    asm_expr_lookup_rel_fn look_rel;
    void *ctx;
    asm_expr_result *r;
    char *err;
    size_t errlen;
    int bad;
} parser;

static void skipws(parser *e)
{
    while (*e->p == ' ' || *e->p == '\t')
        e->p++;
}

static val fail(parser *e, const char *fmt, const char *what)
{
    if (!e->bad)
        snprintf(e->err, e->errlen, fmt, what);
    e->bad = 1;
    return (val){0, 0, NULL, 0};
}

static val absolute(int64_t v) { return (val){v, 0, NULL, 0}; }

static int is_ident_start(int c) { return isalpha(c) || c == '_' || c == '.' || c == '$'; }
static int is_ident(int c) { return isalnum(c) || c == '_' || c == '.' || c == '$'; }

/* Binary operators: LLVM MC's GNU precedence (higher binds tighter); 0 = not an operator.
 * `<<` and `>>` are returned as '<' and '>' (asm_arith's names). */
static int binop(const char *p, char *op, int *len)
{
    *len = 1;
    *op = *p;
    switch (*p) {
    case '*': case '/': case '%': return 3;
    case '<': case '>':
        if (p[1] != p[0])
            return 0;
        *len = 2;
        return 3;
    case '|': case '&':
        return p[1] == p[0] ? 0 : 2; /* || and && are not supported: an error, not a guess */
    case '^': return 2;
    case '+': case '-': return 1;
    default: return 0;
    }
}

static val parse_binary(parser *e, int min_prec);

static val parse_number(parser *e)
{
    const char *p = e->p;
    char *end;
    int base = 0;
    if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B') && (p[2] == '0' || p[2] == '1')) {
        base = 2;
        p += 2;
    }
    errno = 0;
    uint64_t v = strtoull(p, &end, base);
    if (errno == ERANGE)
        return fail(e, "number '%.40s' does not fit in 64 bits", e->p);
    if (is_ident((unsigned char)*end)) {
        const char *start = e->p;
        e->p = end;
        return fail(e, "malformed number at '%.40s'", start);
    }
    e->p = end;
    return absolute((int64_t)v);
}

static val parse_char(parser *e)
{
    const char *p = e->p + 1;
    int64_t v;
    if (*p == 0)
        return fail(e, "expected a character after '%s'", "'");
    if (*p == '\\' && p[1]) {
        char c = p[1];
        v = c == 'n' ? '\n' : c == 't' ? '\t' : c == '0' ? 0 : c == 'r' ? '\r' : (unsigned char)c;
        p += 2;
    } else {
        v = (unsigned char)*p++;
    }
    if (*p == '\'')
        p++;
    e->p = p;
    return absolute(v);
}

static val parse_symbol(parser *e)
{
    char name[ASM_MAX_IDENT + 1];
    size_t n = 0;
    const char *start = e->p;
    while (is_ident((unsigned char)*e->p)) {
        if (n == ASM_MAX_IDENT)
            return fail(e, "name longer than %s characters", "255");
        name[n++] = *e->p++;
    }
    name[n] = 0;
    if (e->syn && e->syn->is_reserved && e->syn->is_reserved(name))
        return fail(e, "register '%s' where a value was expected", name);
    val x = {0, 0, start, (int)n};
    int unknown = e->look_rel ? e->look_rel(e->ctx, name, &x.v, &x.base) : !e->look || e->look(e->ctx, name, &x.v);
    if (unknown) {
        if (!e->r->unresolved++)
            snprintf(e->r->first_unresolved, sizeof e->r->first_unresolved, "%s", name);
        return absolute(0);
    }
    return x;
}

/* A unary operator on v: only on absolute values. */
static val unary(parser *e, char op, val v)
{
    if (v.base)
        return fail(e, "'%s' of a relocatable value (an object file can only add a constant to it)",
                    op == '-' ? "-" : op == '~' ? "~" : "!");
    return absolute(op == '-' ? asm_negate(v.v) : op == '~' ? ~v.v : !v.v);
}

static val parse_unary(parser *e)
{
    skipws(e);
    char c = *e->p;
    if (c == '(') {
        e->p++;
        val v = parse_binary(e, 1);
        skipws(e);
        if (*e->p != ')')
            return fail(e, "expected ')' at '%.40s'", *e->p ? e->p : "the end");
        e->p++;
        return v;
    }
    if (c == '-' || c == '~' || c == '!') {
        e->p++;
        return unary(e, c, parse_unary(e));
    }
    if (c == '+') { e->p++; return parse_unary(e); }
    if (c == '\'')
        return parse_char(e);
    if (isdigit((unsigned char)c))
        return parse_number(e);
    if (is_ident_start((unsigned char)c))
        return parse_symbol(e);
    if (!c)
        return fail(e, "expected a value at %s", "the end");
    return fail(e, "expected a number or symbol at '%.40s'", e->p);
}

/* The base of lhs op rhs (GNU as's rules for object files), or -1 if it has none. */
static int combine_base(char op, int l, int r)
{
    if (!l && !r)
        return 0;
    if (op == '+')
        return l && r ? -1 : l | r;
    if (op == '-')
        return !r ? l : l == r ? 0 : -1;
    return -1;
}

static val parse_binary(parser *e, int min_prec)
{
    val lhs = parse_unary(e);
    for (;;) {
        if (e->bad)
            return absolute(0);
        skipws(e);
        char op;
        int len, prec = binop(e->p, &op, &len);
        if (!prec || prec < min_prec)
            return lhs;
        const char *at = e->p;
        e->p += len;
        val rhs = parse_binary(e, prec + 1);
        if (e->bad)
            return absolute(0);
        int base = combine_base(op, lhs.base, rhs.base);
        if (base < 0) {
            e->p = at;
            return fail(e, "relocatable values cannot be combined at '%.40s' (an object file allows "
                           "symbol + constant, symbol - constant, and the difference of two symbols in one section)", at);
        }
        const char *why = asm_arith(op, lhs.v, rhs.v, &lhs.v);
        if (why) {
            /* an unresolved symbol reads as 0: its division is not an error yet */
            if (!e->r->unresolved)
                return fail(e, "%s", why);
            lhs.v = 0;
        }
        if (base != lhs.base) {
            lhs.sym = rhs.sym;
            lhs.symlen = rhs.symlen;
        }
        lhs.base = base;
    }
}

static int eval(parser *e)
{
    memset(e->r, 0, sizeof *e->r);
    val v = parse_binary(e, 1);
    skipws(e);
    if (!e->bad && *e->p)
        fail(e, "unexpected '%.40s' after the expression", e->p);
    e->r->value = e->bad ? 0 : v.v;
    e->r->base = e->bad ? 0 : v.base;
    if (e->r->base)
        snprintf(e->r->base_sym, sizeof e->r->base_sym, "%.*s", v.symlen, v.sym);
    return e->bad ? -1 : 0;
}

int asm_expr_eval(const char *text, const asm_expr_syntax *syn, asm_expr_lookup_fn look, void *ctx,
                  asm_expr_result *r, char *err, size_t errlen)
{
    parser e = {text, syn, look, NULL, ctx, r, err, errlen, 0};
    return eval(&e);
}

int asm_expr_eval_rel(const char *text, const asm_expr_syntax *syn, asm_expr_lookup_rel_fn look, void *ctx,
                      asm_expr_result *r, char *err, size_t errlen)
{
    parser e = {text, syn, NULL, look, ctx, r, err, errlen, 0};
    return eval(&e);
}
