/* core/asm/expr.c: the assemblers' expression evaluator (see expr.h): a precedence-climbing
 * parser over the text, evaluating as it parses. The first error stops the evaluation and is
 * the one reported; the position in the text is named so that a user sees what was
 * expected where. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "expr.h"
#include "arith.h"

typedef struct parser {
    const char *p;
    const asm_expr_syntax *syn;
    asm_expr_lookup_fn look;
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

static int64_t fail(parser *e, const char *fmt, const char *what)
{
    if (!e->bad)
        snprintf(e->err, e->errlen, fmt, what);
    e->bad = 1;
    return 0;
}

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

static int64_t parse_binary(parser *e, int min_prec);

static int64_t parse_number(parser *e)
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
    return (int64_t)v;
}

static int64_t parse_char(parser *e)
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
    return v;
}

static int64_t parse_symbol(parser *e)
{
    char name[ASM_MAX_IDENT + 1];
    size_t n = 0;
    while (is_ident((unsigned char)*e->p)) {
        if (n == ASM_MAX_IDENT)
            return fail(e, "name longer than %s characters", "255");
        name[n++] = *e->p++;
    }
    name[n] = 0;
    if (e->syn && e->syn->is_reserved && e->syn->is_reserved(name))
        return fail(e, "register '%s' where a value was expected", name);
    int64_t v = 0;
    if (!e->look || e->look(e->ctx, name, &v)) {
        if (!e->r->unresolved++)
            snprintf(e->r->first_unresolved, sizeof e->r->first_unresolved, "%s", name);
        return 0;
    }
    return v;
}

static int64_t parse_unary(parser *e)
{
    skipws(e);
    char c = *e->p;
    if (c == '(') {
        e->p++;
        int64_t v = parse_binary(e, 1);
        skipws(e);
        if (*e->p != ')')
            return fail(e, "expected ')' at '%.40s'", *e->p ? e->p : "the end");
        e->p++;
        return v;
    }
    if (c == '-') { e->p++; return asm_negate(parse_unary(e)); }
    if (c == '+') { e->p++; return parse_unary(e); }
    if (c == '~') { e->p++; return ~parse_unary(e); }
    if (c == '!') { e->p++; return !parse_unary(e); }
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

static int64_t parse_binary(parser *e, int min_prec)
{
    int64_t lhs = parse_unary(e);
    for (;;) {
        if (e->bad)
            return 0;
        skipws(e);
        char op;
        int len, prec = binop(e->p, &op, &len);
        if (!prec || prec < min_prec)
            return lhs;
        e->p += len;
        int64_t rhs = parse_binary(e, prec + 1);
        if (e->bad)
            return 0;
        const char *why = asm_arith(op, lhs, rhs, &lhs);
        if (why) {
            /* an unresolved symbol reads as 0: its division is not an error yet */
            if (!e->r->unresolved)
                return fail(e, "%s", why);
            lhs = 0;
        }
    }
}

int asm_expr_eval(const char *text, const asm_expr_syntax *syn, asm_expr_lookup_fn look, void *ctx,
                  asm_expr_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    parser e = {text, syn, look, ctx, r, err, errlen, 0};
    int64_t v = parse_binary(&e, 1);
    skipws(&e);
    if (!e.bad && *e.p)
        fail(&e, "unexpected '%.40s' after the expression", e.p);
    r->value = e.bad ? 0 : v;
    return e.bad ? -1 : 0;
}
