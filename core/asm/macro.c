/* core/asm/macro.c: assembler macros and numeric local labels (see macro.h). Macros are
 * looked up by index, never kept by pointer across an expansion: a body may define another
 * macro, which can move the table. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "macro.h"
#include "limits.h"
#include "text.h"
#include "../grow.h"

void asm_macros_init(asm_macros *m)
{
    memset(m, 0, sizeof *m);
    m->defining = -1;
}

void asm_macros_free(asm_macros *m)
{
    for (int i = 0; i < m->n; i++) {
        asm_macro *x = &m->v[i];
        free(x->name);
        for (int k = 0; k < x->nparams; k++) {
            free(x->params[k]);
            free(x->defs[k]);
        }
        for (int k = 0; k < x->nlines; k++)
            free(x->lines[k]);
        free(x->lines);
    }
    free(m->v);
    asm_macros_init(m);
}

int asm_macro_begin(asm_macros *m, char *rest, char *err, size_t errlen)
{
    asm_macro *v = grow_array_int(m->v, &m->cap, m->n + 1, sizeof *v, 32);
    if (!v) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    m->v = v;
    char *save = NULL, *t = strtok_r(rest, " \t,", &save);
    if (!t) {
        snprintf(err, errlen, ".macro needs a name");
        return -1;
    }
    asm_macro *x = &m->v[m->n];
    memset(x, 0, sizeof *x);
    if (!(x->name = strdup(t))) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    m->n++; /* from here on freed with the table, whatever happens */
    while ((t = strtok_r(NULL, " \t,", &save))) {
        if (x->nparams == ASM_MACRO_MAX_PARAMS) {
            snprintf(err, errlen, "macro '%s' has more than %d parameters", x->name, ASM_MACRO_MAX_PARAMS);
            return -1;
        }
        if (x->vararg) {
            snprintf(err, errlen, "macro '%s': a :vararg parameter must be the last", x->name);
            return -1;
        }
        char *eq = strchr(t, '=');
        char *q = strchr(t, ':');
        if (q && (!eq || q < eq)) { /* NAME:req or NAME:vararg, then perhaps =DEFAULT */
            size_t ql = (size_t)((eq ? eq : q + strlen(q)) - (q + 1));
            if (ql == 6 && !strncmp(q + 1, "vararg", 6))
                x->vararg = 1;
            else if (!(ql == 3 && !strncmp(q + 1, "req", 3))) {
                snprintf(err, errlen, "macro '%s': unknown parameter qualifier in '%s'", x->name, t);
                return -1;
            }
            memmove(q, q + 1 + ql, strlen(q + 1 + ql) + 1);
            eq = strchr(t, '=');
        }
        if (eq) {
            *eq = 0;
            if (!(x->defs[x->nparams] = strdup(eq + 1))) {
                snprintf(err, errlen, "out of memory");
                return -1;
            }
        }
        if (!(x->params[x->nparams++] = strdup(t))) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    m->defining = m->n - 1;
    return 0;
}

int asm_macro_record(asm_macros *m, const char *line)
{
    char word[16];
    char tmp[ASM_MAX_LINE + 1];
    snprintf(tmp, sizeof tmp, "%s", line);
    asm_first_word(tmp, word, sizeof word);
    if (!strcmp(word, ".endm") || !strcmp(word, ".endmacro")) {
        m->defining = -1;
        return 0;
    }
    asm_macro *x = &m->v[m->defining];
    char **l = grow_array_int(x->lines, &x->caplines, x->nlines + 1, sizeof *l, 16);
    if (!l)
        return -1;
    x->lines = l;
    if (!(x->lines[x->nlines] = strdup(line)))
        return -1;
    x->nlines++;
    return 0;
}

int asm_macro_find(const asm_macros *m, const char *name)
{
    for (int i = m->n - 1; i >= 0; i--)
        if (!strcmp(m->v[i].name, name))
            return i;
    return -1;
}

/* GNU as also separates macro arguments by blanks ("m op a, b"): split pieces at their
 * first top-level blank while there are fewer pieces than parameters; blanks around a
 * binary operator belong to one expression. */
static int split_blanks(char **vals, int n, int nparams)
{
    for (int i = 0; i < n && n < nparams; i++) {
        int depth = 0;
        for (char *p = vals[i]; *p; p++) {
            if (*p == '(') depth++;
            if (*p == ')') depth--;
            if (depth == 0 && (*p == ' ' || *p == '\t')) {
                char *rest = p + 1;
                while (*rest == ' ' || *rest == '\t')
                    rest++;
                if (strchr("+-*/|&^<>", *rest) || strchr("+-*/|&^<>", p[-1]))
                    continue;
                *p = 0;
                memmove(&vals[i + 2], &vals[i + 1], sizeof vals[0] * (size_t)(n - i - 1));
                vals[i + 1] = rest;
                n++;
                break;
            }
        }
    }
    return n;
}

/* llvm-mc substitutes a string-token argument without its quotes: "text" -> text, when the
 * whole argument is that one string. */
static const char *unquoted(const char *v, int strip, size_t *len)
{
    size_t l = strlen(v);
    if (strip && l >= 2 && v[0] == '"' && v[l - 1] == '"' && !memchr(v + 1, '"', l - 2)) {
        *len = l - 2;
        return v + 1;
    }
    *len = l;
    return v;
}

/* Where the arguments after the first nfixed start: each fixed one ends at a top-level comma
 * or at a blank that is not next to a binary operator (split_blanks' rule). */
static const char *vararg_rest(const char *s, int nfixed)
{
    for (int k = 0; k < nfixed && *s; k++) {
        int depth = 0;
        while (*s == ' ' || *s == '\t')
            s++;
        for (; *s; s++) {
            if (*s == '(')
                depth++;
            else if (*s == ')')
                depth--;
            else if (*s == '"') {
                while (s[1] && s[1] != '"')
                    s++;
                if (s[1])
                    s++;
            } else if (depth == 0 && *s == ',')
                break;
            else if (depth == 0 && (*s == ' ' || *s == '\t')) {
                const char *r = s;
                while (*r == ' ' || *r == '\t')
                    r++;
                if (*r && *r != ',' && (strchr("+-*/|&^<>", *r) || strchr("+-*/|&^<>", s[-1])))
                    continue;
                s = r;
                break;
            }
        }
        if (*s == ',')
            s++;
    }
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* One body line with the parameters substituted into out. 0 ok, -1 too long. */
static int substitute(const asm_macro *x, const char *line, char **vals, int n, int strip, char *out, size_t cap)
{
    size_t o = 0;
    for (const char *p = line; *p;) {
        const char *piece = p;
        size_t len = 1;
        if (*p == '\\' && p[1] == '(' && p[2] == ')') {
            p += 3;
            continue;
        }
        if (*p == '\\')
            for (int k = 0; k < x->nparams; k++) {
                size_t l = strlen(x->params[k]);
                if (strncmp(p + 1, x->params[k], l) == 0 && !(isalnum((unsigned char)p[1 + l]) || p[1 + l] == '_')) {
                    piece = unquoted(k < n && vals[k][0] ? vals[k] : (x->defs[k] ? x->defs[k] : ""), strip, &len);
                    p += l; /* and the backslash below */
                    break;
                }
            }
        p++;
        if (o + len >= cap)
            return -1;
        memcpy(out + o, piece, len);
        o += len;
    }
    out[o] = 0;
    return 0;
}

int asm_macro_expand(asm_macros *m, int idx, const char *args, asm_line_fn fn, void *ctx, char *err, size_t errlen)
{
    err[0] = 0;
    char buf[ASM_MAX_LINE + 1], vbuf[ASM_MAX_LINE + 1], empty[1] = "";
    snprintf(buf, sizeof buf, "%s", args);
    char *vals[ASM_MACRO_MAX_PARAMS + 2] = {0};
    int n = asm_split_operands(buf, vals, ASM_MACRO_MAX_PARAMS);
    const char *name = m->v[idx].name;
    const asm_macro *mx = &m->v[idx];
    if (mx->vararg) {
        /* the fixed arguments, then the :vararg one takes the rest as written (commas kept) */
        const char *rest = vararg_rest(args, mx->nparams - 1);
        snprintf(vbuf, sizeof vbuf, "%s", rest);
        buf[rest - args < (long)sizeof buf ? rest - args : (long)sizeof buf - 1] = 0;
        n = asm_split_operands(buf, vals, ASM_MACRO_MAX_PARAMS);
        if (n <= ASM_MACRO_MAX_PARAMS)
            n = split_blanks(vals, n, mx->nparams - 1);
        if (n < mx->nparams - 1) /* fewer fixed arguments: defaults (or empty) for the rest */
            for (; n < mx->nparams - 1; n++)
                vals[n] = empty;
        if (n == mx->nparams - 1)
            vals[n++] = vbuf;
    } else if (n <= ASM_MACRO_MAX_PARAMS)
        n = split_blanks(vals, n, mx->nparams);
    if (n > m->v[idx].nparams) {
        snprintf(err, errlen, "macro '%s' takes %d arguments, got %d", name, m->v[idx].nparams, n);
        return -1;
    }
    if (m->depth >= ASM_MACRO_MAX_DEPTH) {
        snprintf(err, errlen, "macro expansion too deep (recursive macro '%s'?)", name);
        return -1;
    }
    m->depth++;
    int rc = 0;
    for (int i = 0; i < m->v[idx].nlines && rc == 0; i++) {
        char out[ASM_MAX_LINE + 1];
        if (substitute(&m->v[idx], m->v[idx].lines[i], vals, n, m->strip_quotes, out, sizeof out)) {
            snprintf(err, errlen, "macro '%s': an expanded line is longer than %d characters", m->v[idx].name,
                     ASM_MAX_LINE);
            rc = -1;
        } else
            rc = fn(ctx, out);
    }
    m->depth--;
    return rc;
}

int asm_local_define(asm_locals *l, const char *s, char *out, size_t n)
{
    char *end;
    long num = strtol(s, &end, 10);
    if (*end)
        return -2;
    if (num < 0 || num >= ASM_LOCAL_LABELS || end - s > 4)
        return -1;
    snprintf(out, n, ".Llocal_label_%ld_%d", num, l->count[num]++);
    return 0;
}

int asm_local_rename(const asm_locals *l, const char *in, char *out, size_t n)
{
    size_t o = 0;
    const char *p = in;
    while (*p && o + 40 < n) {
        if (isdigit((unsigned char)*p) && (p == in || !(isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.'))) {
            const char *q = p;
            while (isdigit((unsigned char)*q))
                q++;
            if ((*q == 'b' || *q == 'f') && !(isalnum((unsigned char)q[1]) || q[1] == '_') && q - p < 4) {
                int num = atoi(p);
                int k = *q == 'b' ? l->count[num] - 1 : l->count[num];
                if (k < 0)
                    o += (size_t)snprintf(out + o, n - o, "no_earlier_local_label_%d", num);
                else
                    o += (size_t)snprintf(out + o, n - o, ".Llocal_label_%d_%d", num, k);
                p = q + 1;
                continue;
            }
            while (p < q && o + 1 < n)
                out[o++] = *p++;
            while ((isalnum((unsigned char)*p) || *p == '_') && o + 1 < n)
                out[o++] = *p++;
            continue;
        }
        if (isalpha((unsigned char)*p) || *p == '_' || *p == '.') {
            while ((isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == '$') && o + 1 < n)
                out[o++] = *p++;
            continue;
        }
        out[o++] = *p++;
    }
    out[o] = 0;
    return *p ? -1 : 0;
}
