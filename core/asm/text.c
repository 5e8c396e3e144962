/* core/asm/text.c: the shared lexical layer of the assemblers (see text.h). A quote
 * preceded by a backslash does not open or close a string, as in every assembler we mirror. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "text.h"
#include "limits.h"

static int starts(const char *p, const char *m)
{
    return m && *m && strncmp(p, m, strlen(m)) == 0;
}

void asm_strip_comment(char *s, const asm_comment_syntax *syn)
{
    int q = 0;
    for (char *p = s; *p; p++) {
        if (*p == '"' && (p == s || p[-1] != '\\'))
            q = !q;
        if (q)
            continue;
        for (int i = 0; i < 3; i++)
            if (starts(p, syn->anywhere[i]) ||
                (starts(p, syn->after_blank[i]) && (p == s || isspace((unsigned char)p[-1])))) {
                *p = 0;
                return;
            }
    }
}

char *asm_trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = 0;
    return s;
}

int asm_is_ident_start(int c) { return isalpha(c) || c == '_' || c == '.' || c == '$'; }
int asm_is_ident_char(int c) { return isalnum(c) || c == '_' || c == '.' || c == '$'; }

size_t asm_ident_len(const char *s)
{
    if (!asm_is_ident_start((unsigned char)*s))
        return 0;
    size_t n = 1;
    while (asm_is_ident_char((unsigned char)s[n]))
        n++;
    return n;
}

char *asm_first_word(char *s, char *word, size_t cap)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = 0;
    while (s[n] && !isspace((unsigned char)s[n])) {
        if (n + 1 < cap)
            word[n] = s[n];
        n++;
    }
    if (cap)
        word[n + 1 < cap ? n : cap - 1] = 0;
    s += n;
    while (isspace((unsigned char)*s))
        s++;
    return s;
}

int asm_take_label(char **p, char **name)
{
    char *s = *p;
    while (isspace((unsigned char)*s))
        s++;
    char *q = s;
    while (asm_is_ident_char((unsigned char)*q))
        q++;
    char *end = q;
    while (*q == ' ' || *q == '\t')
        q++;
    int kind = *q == ':' ? 1 : (*q == '=' && q[1] != '=') ? 2 : 0;
    if (end == s || !kind)
        return 0;
    if (end - s > ASM_MAX_IDENT)
        return -1;
    *end = 0;
    *name = s;
    *p = q + 1;
    return kind;
}

int asm_split_operands(char *s, char **ops, int max)
{
    s = asm_trim(s);
    if (!*s)
        return 0;
    int n = 0, depth = 0, q = 0;
    char *start = s;
    for (char *p = s;; p++) {
        if (*p == '"' && (p == s || p[-1] != '\\'))
            q = !q;
        if (!q && *p == '(')
            depth++;
        if (!q && *p == ')')
            depth--;
        if (*p == 0 || (!q && depth == 0 && *p == ',')) {
            int end = *p == 0;
            *p = 0;
            if (n < max)
                ops[n] = asm_trim(start);
            n++;
            if (end)
                break;
            start = p + 1;
        }
    }
    return n;
}

int asm_is_annotation(const char *d)
{
    static const char *const names[] = {".file", ".loc", ".type", ".ident", ".addrsig", ".addrsig_sym", ".hidden",
                                        ".protected", ".internal", ".extern", ".end", ".loc_mark_labels"};
    if (!strncmp(d, ".cfi_", 5))
        return 1;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(d, names[i]))
            return 1;
    return 0;
}

int asm_count_operands(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    if (!*s)
        return 0;
    int n = 1, depth = 0, q = 0;
    for (const char *p = s; *p; p++) {
        if (*p == '"' && (p == s || p[-1] != '\\'))
            q = !q;
        else if (!q && *p == '(')
            depth++;
        else if (!q && *p == ')')
            depth--;
        else if (!q && depth == 0 && *p == ',')
            n++;
    }
    return n;
}

static int hexval(int c)
{
    return isdigit(c) ? c - '0' : isxdigit(c) ? (tolower(c) - 'a' + 10) : -1;
}

/* One escape after the backslash at *pp; advances *pp past it. */
static int escape(const char **pp)
{
    const char *p = *pp;
    int c = (unsigned char)*p++;
    switch (c) {
    case 'n': c = '\n'; break;
    case 't': c = '\t'; break;
    case 'r': c = '\r'; break;
    case 'b': c = '\b'; break;
    case 'f': c = '\f'; break;
    case 'x': /* every following hex digit counts; the byte is the low 8 bits (GNU as) */
        c = 0;
        while (hexval((unsigned char)*p) >= 0)
            c = (c * 16 + hexval((unsigned char)*p++)) & 0xff;
        break;
    default:
        if (c >= '0' && c <= '7') { /* up to three octal digits */
            c -= '0';
            for (int k = 0; k < 2 && *p >= '0' && *p <= '7'; k++)
                c = c * 8 + (*p++ - '0');
            c &= 0xff;
        }
        break; /* \\ \" and any other character stand for themselves */
    }
    *pp = p;
    return c;
}

int asm_string_list(const char *s, int nul_each, char *out, size_t cap, size_t *len, char *err, size_t errlen)
{
    size_t n = 0;
    for (;;) {
        while (isspace((unsigned char)*s))
            s++;
        if (*s != '"') {
            snprintf(err, errlen, "expected a string in quotes at '%.40s'", *s ? s : "the end");
            return -1;
        }
        s++;
        while (*s && *s != '"') {
            int c = (unsigned char)*s++;
            if (c == '\\' && *s)
                c = escape(&s);
            if (n < cap)
                out[n] = (char)c;
            n++;
        }
        if (*s != '"') {
            snprintf(err, errlen, "unterminated string");
            return -1;
        }
        s++;
        if (nul_each) {
            if (n < cap)
                out[n] = 0;
            n++;
        }
        while (isspace((unsigned char)*s))
            s++;
        if (!*s)
            break;
        if (*s != ',') {
            snprintf(err, errlen, "unexpected '%.40s' after a string", s);
            return -1;
        }
        s++;
    }
    *len = n;
    return 0;
}
