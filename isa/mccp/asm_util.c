/* isa/mccp/asm_util.c: helpers of the MCCP assembler (see asm_util.h): line and program
 * containers, label tables, the original assembler's suffix, register and number rules
 * (Python's int() for numbers), and the movl/movh split of a value. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mccp.h"
#include "asm_util.h"

int masm_fail(actx *a, int line, const char *fmt, ...)
{
    if (a->failed)
        return -1;
    a->failed = 1;
    int k = line > 0 ? snprintf(a->err, a->errlen, "%s:%d: ", a->file, line) : snprintf(a->err, a->errlen, "%s: ", a->file);
    if (k < 0 || (size_t)k >= a->errlen)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->err + k, a->errlen - (size_t)k, fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- small containers ---- */
aline *masm_prog_add(actx *a, aprog *p, int src)
{
    if (p->n == p->cap) {
        int cap = p->cap ? p->cap * 2 : 256;
        aline *v = realloc(p->v, (size_t)cap * sizeof *v);
        if (!v) {
            masm_fail(a, src, "out of memory");
            return NULL;
        }
        p->v = v;
        p->cap = cap;
    }
    aline *l = &p->v[p->n++];
    l->n = 0;
    l->src = src;
    return l;
}

int masm_tok_set(actx *a, aline *l, int i, const char *s)
{
    if (strlen(s) >= TOKLEN)
        return masm_fail(a, l->src, "token '%.40s...' is longer than %d characters", s, TOKLEN - 1);
    snprintf(l->t[i], TOKLEN, "%s", s);
    return 0;
}

/* Append a line of up to 3 tokens (NULL ends). */
aline *masm_emit(actx *a, aprog *p, int src, const char *t0, const char *t1, const char *t2)
{
    aline *l = masm_prog_add(a, p, src);
    if (!l)
        return NULL;
    const char *ts[3] = {t0, t1, t2};
    for (int i = 0; i < 3 && ts[i]; i++) {
        if (masm_tok_set(a, l, i, ts[i]))
            return NULL;
        l->n = i + 1;
    }
    return l;
}

alabel *masm_lab_find(alabels *ls, const char *name)
{
    return asm_sym_find(ls, name, 0);
}

int masm_lab_set(actx *a, alabels *ls, const char *name, long long v, int src)
{
    if (strlen(name) >= TOKLEN)
        return masm_fail(a, src, "label name too long");
    alabel *l = asm_sym_get(ls, name, 0);
    if (!l)
        return masm_fail(a, src, "out of memory");
    l->value = v; /* a later definition replaces an earlier one, as in the original */
    return 0;
}

int masm_is_label(actx *a, const char *s) { return masm_lab_find(&a->jump, s) || masm_lab_find(&a->val, s); }

/* Jump labels after position 'at' move down by delta instructions. */
void masm_lab_shift(actx *a, long long at, long long delta)
{
    for (int i = 0; i < a->jump.n; i++)
        if (a->jump.v[i].value > at)
            a->jump.v[i].value += delta;
}

/* Bounded string copy (truncates; tokens are length-checked when created). */
void masm_scpy(char *d, size_t n, const char *s)
{
    size_t k = strnlen(s, n - 1);
    memcpy(d, s, k);
    d[k] = 0;
}

/* ---- the original's tables, as predicates ---- */
int masm_is_suffix(const char *s)
{
    for (int i = 0; i < 16; i++)
        if (strcmp(s, mccp_cond_names[i]) == 0)
            return 1;
    return 0;
}
int masm_cond_code(const char *s)
{
    for (int i = 0; i < 16; i++)
        if (strcmp(s, mccp_cond_names[i]) == 0)
            return i;
    return -1;
}
const char *masm_last2(const char *s)
{
    size_t n = strlen(s);
    return n >= 2 ? s + n - 2 : s;
}
int masm_has_suffix(const char *s) { return strlen(s) >= 2 && masm_is_suffix(masm_last2(s)); }
void masm_strip2(char *dst, const char *s)
{
    size_t n = strlen(s);
    n = n >= 2 ? n - 2 : 0;
    memcpy(dst, s, n);
    dst[n] = 0;
}
int masm_reg_code(const char *s)
{
    static const char *const names[] = {"reg0", "reg1", "reg2", "reg3", "reg4", "reg5", "reg6", "reg7"};
    for (int i = 0; i < 8; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    if (strcmp(s, "bp") == 0)
        return 4;
    if (strcmp(s, "sp") == 0)
        return 6;
    if (strcmp(s, "ip") == 0)
        return 7;
    return -1;
}
int masm_in_list(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(s, *list) == 0)
            return 1;
    return 0;
}
const char *const masm_alu_names[] = {"add", "addc", "sub", "subc", "mul", "div", "and", "or", "xor",
                                        "lsh", "rsh", "not", "cmp", "inc", "dec", NULL};
const char *const masm_alu_one[] = {"not", "inc", "dec", NULL};
const char *const masm_jumps[] = {"je", "jne", "jgt", "jge", "jlt", "jle", "jmp", NULL};
const char *const masm_not_suffix[] = {"je", "jne", "jgt", "jge", "jlt", "jle", "jmp", "movf", NULL};
const char *const masm_mls[] = {"mov", "load", "store", NULL};
const char *const masm_movlh[] = {"movh", "movl", NULL};
const char *const masm_suffixes0[] = {"eq", "ne", "gt", "lt", "ge", "le", "cs", "cc", NULL};
const char *const masm_macros[] = {"push", "pop", "stack_size", "exception_addresses", "call", "ret",
                                     "load_macro", "store_macro", "movimm", NULL};

/* Python int(): optional sign, decimal digits. */
int masm_py_int(const char *s, long long *out)
{
    const char *p = s;
    if (*p == '+' || *p == '-')
        p++;
    if (!isdigit((unsigned char)*p))
        return -1;
    for (const char *q = p; *q; q++)
        if (!isdigit((unsigned char)*q))
            return -1;
    errno = 0;
    long long v = strtoll(s, NULL, 10);
    if (errno)
        return -1;
    *out = v;
    return 0;
}

/* utils.to_bin: 32-bit (or longer) binary string split after its first 16 characters. */
int masm_to_bin(actx *a, int src, long long v, char *lo, char *hi)
{
    if (v < 0)
        return masm_fail(a, src, "negative value %lld cannot be split into movl/movh halves (the original assembler "
                            "writes garbage for it)", v);
    unsigned long long u = (unsigned long long)v;
    int len = 0;
    for (unsigned long long t = u; t; t >>= 1)
        len++;
    if (len < 32)
        len = 32;
    int lob = len - 16;
    unsigned long long l = lob >= 64 ? u : u & ((1ull << lob) - 1);
    snprintf(lo, TOKLEN, "%llu", l);
    snprintf(hi, TOKLEN, "%llu", u >> lob);
    return 0;
}
