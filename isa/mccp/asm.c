/* isa/mccp/asm.c: the MCCP assembler, compatible with the original pure_assembler.py.
 * It follows the original's pipeline step by step so that every program assembles to the
 * same ROM words: strip comments and lower-case; collect jump labels (NAME:) and value
 * labels (NAME=int); insert the default `stack_size 1000 1000 1000 1000` prologue; early
 * `$NAME` and core_num substitution; macro and label expansion (reg5 is the label register);
 * NOP insertion before odd jump targets and odd movl/movh; suffix normalisation (al,
 * load0/load1...); label values (jump labels as word addresses) split into movl/movh
 * halves; final padding; then encoding through the instruction table (table.c). Known bugs
 * of the original are kept on purpose (`mul reg5 N` multiplies reg5 by itself, value labels
 * cannot be the 2nd operand of load/store, store_macro ignores the sign); inputs on which
 * the original crashes or writes garbage get an error naming file:line instead. An output
 * name ending in ".prep" gets the preprocessed text (the original's -p) instead of words. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "mccp.h"
#include "../../core/file.h"

#define TOKLEN 128
#define MAXTOK 16

typedef struct aline {
    int n;
    int src;                  /* source line number */
    char t[MAXTOK][TOKLEN];
} aline;

typedef struct aprog {
    aline *v;
    int n, cap;
} aprog;

typedef struct alabel {
    char name[TOKLEN];
    long long value;
} alabel;

typedef struct alabels {
    alabel *v;
    int n, cap;
} alabels;

typedef struct actx {
    const char *file;
    char *err;
    size_t errlen;
    int failed;
    alabels jump, val;
} actx;

static int fail(actx *a, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(actx *a, int line, const char *fmt, ...)
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
static aline *prog_add(actx *a, aprog *p, int src)
{
    if (p->n == p->cap) {
        int cap = p->cap ? p->cap * 2 : 256;
        aline *v = realloc(p->v, (size_t)cap * sizeof *v);
        if (!v) {
            fail(a, src, "out of memory");
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

static int tok_set(actx *a, aline *l, int i, const char *s)
{
    if (strlen(s) >= TOKLEN)
        return fail(a, l->src, "token '%.40s...' is longer than %d characters", s, TOKLEN - 1);
    snprintf(l->t[i], TOKLEN, "%s", s);
    return 0;
}

/* Append a line of up to 3 tokens (NULL ends). */
static aline *emit(actx *a, aprog *p, int src, const char *t0, const char *t1, const char *t2)
{
    aline *l = prog_add(a, p, src);
    if (!l)
        return NULL;
    const char *ts[3] = {t0, t1, t2};
    for (int i = 0; i < 3 && ts[i]; i++) {
        if (tok_set(a, l, i, ts[i]))
            return NULL;
        l->n = i + 1;
    }
    return l;
}

static alabel *lab_find(alabels *ls, const char *name)
{
    for (int i = 0; i < ls->n; i++)
        if (strcmp(ls->v[i].name, name) == 0)
            return &ls->v[i];
    return NULL;
}

static int lab_set(actx *a, alabels *ls, const char *name, long long v, int src)
{
    alabel *l = lab_find(ls, name);
    if (!l) {
        if (ls->n == ls->cap) {
            int cap = ls->cap ? ls->cap * 2 : 64;
            alabel *nv = realloc(ls->v, (size_t)cap * sizeof *nv);
            if (!nv)
                return fail(a, src, "out of memory");
            ls->v = nv;
            ls->cap = cap;
        }
        l = &ls->v[ls->n++];
        if (strlen(name) >= TOKLEN)
            return fail(a, src, "label name too long");
        snprintf(l->name, TOKLEN, "%s", name);
    }
    l->value = v; /* a later definition replaces an earlier one, as in the original */
    return 0;
}

static int is_label(actx *a, const char *s) { return lab_find(&a->jump, s) || lab_find(&a->val, s); }

/* Jump labels after position 'at' move down by delta instructions. */
static void lab_shift(actx *a, long long at, long long delta)
{
    for (int i = 0; i < a->jump.n; i++)
        if (a->jump.v[i].value > at)
            a->jump.v[i].value += delta;
}

/* Bounded string copy (truncates; tokens are length-checked when created). */
static void scpy(char *d, size_t n, const char *s)
{
    size_t k = strnlen(s, n - 1);
    memcpy(d, s, k);
    d[k] = 0;
}

/* ---- the original's tables, as predicates ---- */
static int is_suffix(const char *s)
{
    for (int i = 0; i < 16; i++)
        if (strcmp(s, mccp_cond_names[i]) == 0)
            return 1;
    return 0;
}
static int cond_code(const char *s)
{
    for (int i = 0; i < 16; i++)
        if (strcmp(s, mccp_cond_names[i]) == 0)
            return i;
    return -1;
}
static const char *last2(const char *s)
{
    size_t n = strlen(s);
    return n >= 2 ? s + n - 2 : s;
}
static int has_suffix(const char *s) { return strlen(s) >= 2 && is_suffix(last2(s)); }
static void strip2(char *dst, const char *s)
{
    size_t n = strlen(s);
    n = n >= 2 ? n - 2 : 0;
    memcpy(dst, s, n);
    dst[n] = 0;
}
static int reg_code(const char *s)
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
static int in_list(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(s, *list) == 0)
            return 1;
    return 0;
}
static const char *const alu_names[] = {"add", "addc", "sub", "subc", "mul", "div", "and", "or", "xor",
                                        "lsh", "rsh", "not", "cmp", "inc", "dec", NULL};
static const char *const alu_one[] = {"not", "inc", "dec", NULL};
static const char *const jumps[] = {"je", "jne", "jgt", "jge", "jlt", "jle", "jmp", NULL};
static const char *const not_suffix[] = {"je", "jne", "jgt", "jge", "jlt", "jle", "jmp", "movf", NULL};
static const char *const mls[] = {"mov", "load", "store", NULL};
static const char *const movlh[] = {"movh", "movl", NULL};
static const char *const suffixes0[] = {"eq", "ne", "gt", "lt", "ge", "le", "cs", "cc", NULL};
static const char *const macros[] = {"push", "pop", "stack_size", "exception_addresses", "call", "ret",
                                     "load_macro", "store_macro", "movimm", NULL};

/* Python int(): optional sign, decimal digits. */
static int py_int(const char *s, long long *out)
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
static int to_bin(actx *a, int src, long long v, char *lo, char *hi)
{
    if (v < 0)
        return fail(a, src, "negative value %lld cannot be split into movl/movh halves (the original assembler "
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

/* ---- step 1: labels, comments, prologue, call return labels, early substitution ---- */
static int word_len(const char *s)
{
    int n = 0;
    while (isalnum((unsigned char)s[n]) || s[n] == '_')
        n++;
    return n;
}

static int parse_source(actx *a, const char *text, aprog *out)
{
    long long counter = 0;
    int ret_k = 0, lineno = 0;
    const char *p = text;
    char buf[4096];
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        lineno++;
        if (len >= sizeof buf)
            return fail(a, lineno, "line longer than %zu characters", sizeof buf - 1);
        memcpy(buf, p, len);
        buf[len] = 0;
        p = e ? e + 1 : p + len;
        char *c = strstr(buf, "//");
        if (c)
            *c = 0;
        char *s = buf;
        while (isspace((unsigned char)*s))
            s++;
        size_t n = strlen(s);
        while (n && isspace((unsigned char)s[n - 1]))
            s[--n] = 0;
        if (!n)
            continue;
        for (char *q = s; *q; q++)
            *q = (char)tolower((unsigned char)*q);
        int w = word_len(s);
        if (w) {
            const char *q = s + w;
            while (isspace((unsigned char)*q))
                q++;
            char name[TOKLEN];
            if (w >= TOKLEN)
                return fail(a, lineno, "label name longer than %d characters", TOKLEN - 1);
            memcpy(name, s, (size_t)w);
            name[w] = 0;
            if (*q == ':') { /* jump label; the rest of the line is ignored, as in the original */
                if (lab_set(a, &a->jump, name, counter, lineno))
                    return -1;
                continue;
            }
            if (*q == '=') {
                const char *d = q + 1;
                while (isspace((unsigned char)*d))
                    d++;
                if (*d == '-')
                    d++;
                if (isdigit((unsigned char)*d)) { /* value label */
                    const char *f = strchr(s, '=');
                    while (f && !(isdigit((unsigned char)f[1]) || (f[1] == '-' && isdigit((unsigned char)f[2]))))
                        f = strchr(f + 1, '=');
                    if (!f)
                        return fail(a, lineno, "value label '%s': the number must follow '=' directly (NAME=123)", name);
                    char num[32];
                    size_t k = 0;
                    const char *g = f + 1;
                    if (*g == '-')
                        num[k++] = *g++;
                    while (isdigit((unsigned char)*g) && k < sizeof num - 1)
                        num[k++] = *g++;
                    num[k] = 0;
                    long long v;
                    if (py_int(num, &v))
                        return fail(a, lineno, "value label '%s': number out of range", name);
                    if (lab_set(a, &a->val, name, v, lineno))
                        return -1;
                    continue;
                }
            }
        }
        /* an instruction */
        aline tmp;
        tmp.n = 0;
        tmp.src = lineno;
        for (char *tk = strtok(s, " \t\r\f\v"); tk; tk = strtok(NULL, " \t\r\f\v")) {
            if (tmp.n >= MAXTOK - 1)
                return fail(a, lineno, "too many operands (at most %d)", MAXTOK - 2);
            if (tok_set(a, &tmp, tmp.n, tk))
                return -1;
            tmp.n++;
        }
        if (counter == 0 && strcmp(tmp.t[0], "stack_size") != 0) {
            aline *l = prog_add(a, out, lineno);
            if (!l)
                return -1;
            const char *pro[5] = {"stack_size", "1000", "1000", "1000", "1000"};
            for (int i = 0; i < 5; i++)
                tok_set(a, l, i, pro[i]);
            l->n = 5;
            counter++;
        }
        if (strstr(tmp.t[0], "call")) {
            char name[TOKLEN];
            snprintf(name, sizeof name, "__return_%d", ret_k++);
            tok_set(a, &tmp, tmp.n++, name);
            if (lab_set(a, &a->jump, name, counter + 1, lineno))
                return -1;
        }
        aline *l = prog_add(a, out, lineno);
        if (!l)
            return -1;
        *l = tmp;
        counter++;
    }
    /* early substitution: core_num in operand 2, else $NAME in operands 1 and 2 */
    for (int i = 0; i < out->n; i++) {
        aline *l = &out->v[i];
        if (l->n > 2 && strstr(l->t[2], "core_num")) {
            tok_set(a, l, 2, "4");
            continue;
        }
        for (int k = 1; k <= 2 && k < l->n; k++) {
            char *d = strchr(l->t[k], '$');
            if (!d)
                continue;
            alabel *v = lab_find(&a->val, d + 1);
            if (!v)
                return fail(a, l->src, "'$%s': no value label of that name (NAME=number)", d + 1);
            char nb[TOKLEN];
            *d = 0;
            snprintf(nb, sizeof nb, "%s%lld", l->t[k], v->value);
            if (tok_set(a, l, k, nb))
                return -1;
        }
    }
    return 0;
}

/* ---- step 2: macros and label operands ---- */
static int need(actx *a, const aline *l, int n)
{
    if (l->n < n)
        return fail(a, l->src, "'%s' needs %d operand(s)", l->t[0], n - 1);
    return 0;
}

static int expand(actx *a, const aprog *in, aprog *out)
{
    long long counter = 0;
    for (int i = 0; i < in->n; i++) {
        aline line = in->v[i];
        const aline *l = &line;
        int src = l->src;
        char pure[TOKLEN], suf[4] = "";
        if (has_suffix(l->t[0])) {
            strip2(pure, l->t[0]);
            scpy(suf, sizeof suf, last2(l->t[0]));
        } else {
            scpy(pure, sizeof pure, l->t[0]);
        }
        int before = out->n;
        char lo[TOKLEN], hi[TOKLEN];
        const char *mac = in_list(l->t[0], macros) ? l->t[0] : in_list(pure, macros) ? pure : NULL;
        if (mac) {
            if (!strcmp(mac, "push")) {
                if (need(a, l, 2) || !emit(a, out, src, "store", l->t[1], "sp") || !emit(a, out, src, "inc", "sp", NULL))
                    return -1;
            } else if (!strcmp(mac, "pop")) {
                if (need(a, l, 2) || !emit(a, out, src, "dec", "sp", NULL) || !emit(a, out, src, "load", l->t[1], "sp"))
                    return -1;
            } else if (!strcmp(mac, "stack_size")) {
                long long sizes[MAXTOK], sum = 0;
                int ns = l->n - 1;
                for (int k = 0; k < ns; k++) {
                    if (py_int(l->t[k + 1], &sizes[k]))
                        return fail(a, src, "stack_size: '%s' is not an integer", l->t[k + 1]);
                    sum += sizes[k];
                }
                long long begin = 65535 - sum, mine = begin;
                if (begin < 0)
                    return fail(a, src, "stack_size: the stacks (%lld words) do not fit below word 65535", sum);
                char ci[16];
                for (int k = 0; k < ns; k++) {
                    long long end = mine + sizes[k];
                    char elo[TOKLEN], ehi[TOKLEN];
                    snprintf(ci, sizeof ci, "%d", k);
                    if (to_bin(a, src, mine, lo, hi) || to_bin(a, src, end, elo, ehi))
                        return -1;
                    if (!emit(a, out, src, "coreidxal", "reg3", NULL) || !emit(a, out, src, "xoral", "reg4", "reg4") ||
                        !emit(a, out, src, "movlal", "reg4", ci) || !emit(a, out, src, "cmpal", "reg3", "reg4") ||
                        !emit(a, out, src, "movleq", "reg5", lo) || !emit(a, out, src, "movheq", "reg5", hi) ||
                        !emit(a, out, src, "msbeq", "reg5", NULL) || !emit(a, out, src, "moveq", "reg6", "reg5") ||
                        !emit(a, out, src, "movleq", "reg5", elo) || !emit(a, out, src, "movheq", "reg5", ehi) ||
                        !emit(a, out, src, "mseeq", "reg5", NULL))
                        return -1;
                    mine = end;
                }
                if (to_bin(a, src, begin, lo, hi) || !emit(a, out, src, "movlal", "reg5", lo) ||
                    !emit(a, out, src, "movhal", "reg5", hi) || !emit(a, out, src, "sbal", "reg5", NULL))
                    return -1;
            } else if (!strcmp(mac, "exception_addresses")) {
                char ci[16];
                for (int k = 1; k < l->n; k++) {
                    snprintf(ci, sizeof ci, "%d", k - 1);
                    if (!emit(a, out, src, "coreidx", "reg6", NULL) || !emit(a, out, src, "xoral", "reg4", "reg4") ||
                        !emit(a, out, src, "movlal", "reg4", ci) || !emit(a, out, src, "cmpal", "reg6", "reg4"))
                        return -1;
                    long long v;
                    if (!py_int(l->t[k], &v)) {
                        if (to_bin(a, src, v, lo, hi))
                            return -1;
                        if (!emit(a, out, src, "movleq", "reg5", lo) || !emit(a, out, src, "movheq", "reg5", hi))
                            return -1;
                    } else if (!emit(a, out, src, "movleq", "reg5", l->t[k]) || !emit(a, out, src, "movheq", "reg5", l->t[k])) {
                        return -1;
                    }
                    if (!emit(a, out, src, "excl", "reg5", NULL))
                        return -1;
                }
            } else if (!strcmp(mac, "call")) {
                const char *s = !strcmp(l->t[0], "call") ? "al" : last2(l->t[0]);
                static const char *const okc[] = {"eq", "ne", "gt", "ge", "lt", "le", "al", NULL};
                static const char *const jmpc[] = {"je", "jne", "jgt", "jge", "jlt", "jle", "jmp"};
                int ji = -1;
                for (int k = 0; okc[k]; k++)
                    if (!strcmp(s, okc[k]))
                        ji = k;
                if (ji < 0)
                    return fail(a, src, "suffix '%s' is not supported for call (eq ne gt ge lt le al)", s);
                if (need(a, l, 3))
                    return -1;
                char ml[8], mh[8], st[8], ic[8];
                snprintf(ml, sizeof ml, "movl%s", s);
                snprintf(mh, sizeof mh, "movh%s", s);
                snprintf(st, sizeof st, "store%s", s);
                snprintf(ic, sizeof ic, "inc%s", s);
                if (!emit(a, out, src, ml, "reg5", l->t[2]) || !emit(a, out, src, mh, "reg5", l->t[2]) ||
                    !emit(a, out, src, st, "reg5", "sp") || !emit(a, out, src, ic, "sp", NULL) ||
                    !emit(a, out, src, ml, "reg5", l->t[1]) || !emit(a, out, src, mh, "reg5", l->t[1]) ||
                    !emit(a, out, src, jmpc[ji], "reg5", NULL))
                    return -1;
            } else if (!strcmp(mac, "ret")) {
                if (!emit(a, out, src, "dec", "sp", NULL) || !emit(a, out, src, "load", "reg5", "sp") ||
                    !emit(a, out, src, "jmp", "reg5", NULL))
                    return -1;
            } else if (!strcmp(mac, "load_macro") || !strcmp(mac, "store_macro")) {
                if (need(a, l, 3))
                    return -1;
                const char *num = l->t[2];
                int neg = num[0] == '-';
                char digits[TOKLEN];
                scpy(digits, sizeof digits, num);
                char *d = digits;
                while (*d == '-')
                    d++;
                size_t dn = strlen(d);
                while (dn && d[dn - 1] == '-')
                    d[--dn] = 0;
                long long v;
                if (py_int(d, &v))
                    return fail(a, src, "%s: offset '%s' is not an integer", mac, num);
                if (to_bin(a, src, v, lo, hi))
                    return -1;
                if (!emit(a, out, src, "movl", "reg5", lo) || !emit(a, out, src, "movh", "reg5", hi))
                    return -1;
                if (!strcmp(mac, "load_macro")) {
                    if (!emit(a, out, src, "mov", l->t[1], "reg4") || !emit(a, out, src, neg ? "sub" : "add", l->t[1], "reg5") ||
                        !emit(a, out, src, "load", l->t[1], l->t[1]))
                        return -1;
                } else if (!emit(a, out, src, "add", "reg5", "reg4") || !emit(a, out, src, "store", l->t[1], "reg5")) {
                    return -1; /* the sign is ignored: always bp+|n| (original behaviour) */
                }
            } else { /* movimm */
                if (need(a, l, 3))
                    return -1;
                const char *s = is_suffix(last2(l->t[0])) ? last2(l->t[0]) : "al";
                long long v;
                if (py_int(l->t[2], &v))
                    return fail(a, src, "movimm: '%s' is not an integer", l->t[2]);
                if (to_bin(a, src, v, lo, hi))
                    return -1;
                char ml[8], mh[8];
                snprintf(ml, sizeof ml, "movl%s", s);
                snprintf(mh, sizeof mh, "movh%s", s);
                if (!emit(a, out, src, ml, l->t[1], lo) || !emit(a, out, src, mh, l->t[1], hi))
                    return -1;
            }
            long long delta = out->n - before - 1;
            lab_shift(a, counter, delta);
            counter += delta + 1;
            continue;
        }
        const char *lastt = l->t[l->n - 1];
        int all_digits = *lastt != 0;
        for (const char *q = lastt; *q; q++)
            all_digits &= isdigit((unsigned char)*q) != 0;
        if (in_list(pure, alu_names) && !in_list(pure, alu_one) && all_digits) {
            /* OP r N -> movl/movh reg5 N; OP r reg5 (so `mul reg5 N` is reg5*reg5) */
            if (need(a, l, 3))
                return -1;
            long long v;
            if (py_int(l->t[2], &v))
                return fail(a, src, "'%s': operand 2 '%s' is not an integer", l->t[0], l->t[2]);
            if (to_bin(a, src, v, lo, hi))
                return -1;
            char ml[8], mh[8];
            snprintf(ml, sizeof ml, "movl%s", suf);
            snprintf(mh, sizeof mh, "movh%s", suf);
            if (!emit(a, out, src, ml, "reg5", lo) || !emit(a, out, src, mh, "reg5", hi) ||
                !emit(a, out, src, l->t[0], l->t[1], "reg5"))
                return -1;
            lab_shift(a, counter, 2);
            counter += 3;
            continue;
        }
        if (!strcmp(pure, "mov") && l->n >= 2 && (l->n < 3 || reg_code(l->t[2]) < 0)) {
            if (need(a, l, 3))
                return -1;
            if (!is_label(a, l->t[2]))
                return fail(a, src, "mov: '%s' is neither a register nor a label (use movimm for numbers)", l->t[2]);
            lab_shift(a, counter, 1);
            counter += 2;
            char ml[8], mh[8];
            snprintf(ml, sizeof ml, "movl%s", suf);
            snprintf(mh, sizeof mh, "movh%s", suf);
            if (!emit(a, out, src, ml, l->t[1], l->t[2]) || !emit(a, out, src, mh, l->t[1], l->t[2]))
                return -1;
            continue;
        }
        if ((!strcmp(pure, "load") || !strcmp(pure, "store")) && l->n >= 2 &&
            (l->n < 3 || reg_code(l->t[2]) < 0 || reg_code(l->t[1]) < 0)) {
            if (need(a, l, 3))
                return -1;
            int idx;
            if (is_label(a, l->t[1]))
                idx = 1;
            else if (lab_find(&a->jump, l->t[2]) || lab_find(&a->val, l->t[1]))
                idx = 2; /* the original re-tests operand 1 here: value labels fail as operand 2 */
            else
                return fail(a, src, "%s: '%s' is not a register or a usable label (a value label works only as "
                            "operand 1 of load/store, as in the original assembler)",
                            l->t[0], reg_code(l->t[1]) < 0 ? l->t[1] : l->t[2]);
            lab_shift(a, counter, 2);
            counter += 3;
            char ml[8], mh[8];
            snprintf(ml, sizeof ml, "movl%s", suf);
            snprintf(mh, sizeof mh, "movh%s", suf);
            if (!emit(a, out, src, ml, "reg5", l->t[idx]) || !emit(a, out, src, mh, "reg5", l->t[idx]))
                return -1;
            aline *nl = prog_add(a, out, src);
            if (!nl)
                return -1;
            *nl = line;
            tok_set(a, nl, idx, "reg5");
            continue;
        }
        if (in_list(l->t[0], jumps) && l->n >= 2 && reg_code(l->t[1]) < 0) {
            if (!is_label(a, l->t[1]))
                return fail(a, src, "%s: unknown label '%s'", l->t[0], l->t[1]);
            lab_shift(a, counter, 2);
            counter += 3;
            if (!emit(a, out, src, "movl", "reg5", l->t[1]) || !emit(a, out, src, "movh", "reg5", l->t[1]))
                return -1;
            aline *nl = prog_add(a, out, src);
            if (!nl)
                return -1;
            *nl = line;
            tok_set(a, nl, 1, "reg5");
            continue;
        }
        aline *nl = prog_add(a, out, src);
        if (!nl)
            return -1;
        *nl = line;
        counter++;
    }
    return 0;
}

/* ---- step 3: NOPs before odd jump targets and odd 32-bit instructions ---- */
static int insert_nops(actx *a, const aprog *in, aprog *out, long long *slots)
{
    long long counter = 0;
    for (int i = 0; i < in->n; i++) {
        const aline *l = &in->v[i];
        if (!strcmp(l->t[0], "nop")) {
            if (!emit(a, out, l->src, "addnv", "reg0", "reg0"))
                return -1;
            counter++;
            continue; /* (the original checks no label alignment for an explicit nop) */
        }
        int target = 0;
        for (int k = 0; k < a->jump.n; k++)
            if (a->jump.v[k].value == counter)
                target = 1;
        if (target && counter % 2) {
            if (!emit(a, out, l->src, "addnv", "reg0", "reg0"))
                return -1;
            lab_shift(a, counter - 1, 1);
            counter++;
        }
        char base[TOKLEN];
        strip2(base, l->t[0]);
        if (in_list(l->t[0], movlh) || in_list(base, movlh)) {
            long long delta = 0;
            if (counter % 2) {
                if (!emit(a, out, l->src, "addnv", "reg0", "reg0"))
                    return -1;
                delta++;
            }
            delta++;
            lab_shift(a, counter, delta);
            counter += delta;
        }
        aline *nl = prog_add(a, out, l->src);
        if (!nl)
            return -1;
        *nl = *l;
        counter++;
    }
    *slots = counter;
    return 0;
}

/* ---- step 4: al suffixes and load0/load1... ---- */
static void normalise(aprog *p)
{
    for (int i = 0; i < p->n; i++) {
        char *t0 = p->v[i].t[0];
        char base[TOKLEN];
        strip2(base, t0);
        size_t n = strlen(t0);
        if (in_list(base, mls) && has_suffix(t0)) {
            char s[3];
            memcpy(s, t0 + n - 2, 3);
            size_t bl = strlen(base);
            t0[bl] = in_list(s, suffixes0) ? '0' : '1';
            memcpy(t0 + bl + 1, s, 3);
        } else if (in_list(t0, mls) && n + 1 < TOKLEN) {
            strcat(t0, "1");
        }
        if (!in_list(t0, not_suffix) && !has_suffix(t0) && strlen(t0) + 2 < TOKLEN)
            strcat(t0, "al");
    }
}

/* ---- step 5: label values ---- */
static int insert_labels(actx *a, aprog *p)
{
    for (int i = 0; i < a->jump.n; i++)
        a->jump.v[i].value /= 2; /* slot index -> ROM word address */
    for (int i = 0; i < p->n; i++) {
        aline *l = &p->v[i];
        if (l->n < 2)
            continue;
        int k;
        if (is_label(a, l->t[l->n - 1]))
            k = 1;
        else if (is_label(a, l->t[l->n - 2]))
            k = 2;
        else
            continue;
        alabel *lb = lab_find(&a->jump, l->t[l->n - k]);
        if (!lb)
            lb = lab_find(&a->val, l->t[l->n - k]);
        char lo[TOKLEN], hi[TOKLEN];
        if (to_bin(a, l->src, lb->value, lo, hi))
            return -1;
        if (i + 1 >= p->n || p->v[i + 1].n < k)
            return fail(a, l->src, "label '%s' used where no movl/movh pair follows (write it as an operand of "
                        "mov/load/store/jX, or use movimm)", l->t[l->n - k]);
        tok_set(a, l, l->n - k, lo);
        aline *nx = &p->v[i + 1];
        tok_set(a, nx, nx->n - k, hi);
    }
    return 0;
}

/* ---- encoding (assemble_preprocessed) ---- */
static int encode(actx *a, const aline *l, uint32_t *bits, int *len)
{
    const char *t0 = l->t[0];
    char clear[TOKLEN];
    int cond = -1;
    if (has_suffix(t0) && !in_list(t0, not_suffix)) {
        strip2(clear, t0);
        cond = cond_code(last2(t0));
    } else {
        scpy(clear, sizeof clear, t0);
    }
    int digit = -1;
    char base[TOKLEN];
    scpy(base, sizeof base, clear);
    size_t bn = strlen(base);
    if (bn && (base[bn - 1] == '0' || base[bn - 1] == '1')) {
        char b2[TOKLEN];
        memcpy(b2, base, bn - 1);
        b2[bn - 1] = 0;
        if (in_list(b2, mls)) {
            digit = base[bn - 1] - '0';
            base[bn - 1] = 0;
        }
    }
    const mccp_desc *d = mccp_desc_find(base);
    if (!d || (d->fmt == MCCP_F_MEM && digit < 0))
        return fail(a, l->src, "unknown instruction '%s'", clear);
    if (d->fmt == MCCP_F_NONE)
        return fail(a, l->src, "'%s' has no encoding: the hardware does not implement it", clear);
    int needs_cond = d->fmt != MCCP_F_REG;
    if (needs_cond && cond < 0)
        return fail(a, l->src, "'%s': missing condition suffix", t0);
    int r1 = -1, r2 = 0;
    if (d->fmt != MCCP_F_INT) {
        if (l->n < 2 || (r1 = reg_code(l->t[1])) < 0)
            return fail(a, l->src, "'%s': operand 1 must be a register (reg0..reg7, bp, sp, ip), got '%s'", t0,
                        l->n < 2 ? "" : l->t[1]);
    }
    if (d->fmt == MCCP_F_ALU2 || d->fmt == MCCP_F_MEM) {
        if (l->n < 3 || (r2 = reg_code(l->t[2])) < 0)
            return fail(a, l->src, "'%s': operand 2 must be a register, got '%s'", t0, l->n < 3 ? "" : l->t[2]);
    }
    long long v;
    switch (d->fmt) {
    case MCCP_F_ALU2:
    case MCCP_F_ALU1:
        *bits = mccp_enc_alu(d->code, cond, r1, d->fmt == MCCP_F_ALU2 ? r2 : 0);
        *len = 16;
        return 0;
    case MCCP_F_MEM:
        *bits = mccp_enc_mem(d->code, digit << 3 | (cond & 7), r1, r2);
        *len = 16;
        return 0;
    case MCCP_F_REG:
        *bits = mccp_enc_reg(d->code, r1);
        *len = 16;
        return 0;
    case MCCP_F_SPEC:
        *bits = mccp_enc_spec(d->code, cond, r1);
        *len = 16;
        return 0;
    case MCCP_F_INT:
        if (py_int(l->t[l->n - 1], &v) || v < 0 || v > 7)
            return fail(a, l->src, "int: the interrupt number must be 0..7, got '%s'", l->t[l->n - 1]);
        *bits = mccp_enc_spec(d->code, cond, (int)v);
        *len = 16;
        return 0;
    default: /* IMM */
        if (py_int(l->t[l->n - 1], &v))
            return fail(a, l->src, "'%s': '%s' is not a number or a known label", t0, l->t[l->n - 1]);
        if (v < 0 || v > 0xFFFF)
            return fail(a, l->src, "'%s': immediate %lld does not fit in 16 bits", t0, v);
        *bits = mccp_enc_imm(d->code, cond, r1, (uint16_t)v);
        *len = 32;
        return 0;
    }
}

static void prog_free(aprog *p) { free(p->v); p->v = NULL; p->n = p->cap = 0; }

int mccp_assemble_text(const char *name, const char *text, uint32_t **words, size_t *nwords, char **prep, char *err,
                       size_t errlen)
{
    actx a;
    memset(&a, 0, sizeof a);
    a.file = name;
    a.err = err;
    a.errlen = errlen;
    aprog p1 = {0}, p2 = {0}, p3 = {0};
    uint32_t *w = NULL;
    char *pt = NULL;
    int rc = -1;
    long long slots = 0;
    *words = NULL;
    *nwords = 0;
    if (prep)
        *prep = NULL;
    if (parse_source(&a, text, &p1) || expand(&a, &p1, &p2) || insert_nops(&a, &p2, &p3, &slots))
        goto done;
    if (!p1.n) {
        fail(&a, 0, "no instructions");
        goto done;
    }
    normalise(&p3);
    if (insert_labels(&a, &p3))
        goto done;
    /* pad to a whole word (added after normalisation: "addnv", as the original) */
    if (slots % 2 && !emit(&a, &p3, p3.n ? p3.v[p3.n - 1].src : 0, "addnv", "reg0", "reg0"))
        goto done;
    w = malloc(((size_t)p3.n + 1) * sizeof *w);
    size_t cap = 64;
    for (int i = 0; i < p3.n; i++)
        for (int k = 0; k < p3.v[i].n; k++)
            cap += strlen(p3.v[i].t[k]) + 1;
    pt = malloc(cap);
    if (!w || !pt) {
        fail(&a, 0, "out of memory");
        goto done;
    }
    size_t nw = 0, po = 0;
    int pend = 0;
    uint32_t hi16 = 0;
    for (int i = 0; i < p3.n; i++) {
        const aline *l = &p3.v[i];
        for (int k = 0; k < l->n; k++)
            po += (size_t)sprintf(pt + po, k ? " %s" : "%s", l->t[k]);
        pt[po++] = '\n';
        uint32_t bits = 0;
        int len = 0;
        if (encode(&a, l, &bits, &len))
            goto done;
        if (len == 32) {
            w[nw++] = bits; /* (always word-aligned after NOP insertion) */
        } else if (!pend) {
            hi16 = bits;
            pend = 1;
        } else {
            w[nw++] = hi16 << 16 | bits;
            pend = 0;
        }
    }
    pt[po] = 0;
    if (nw > MCCP_ROM_WORDS) {
        fail(&a, 0, "program is %zu ROM words; the MCCP ROM holds %u", nw, MCCP_ROM_WORDS);
        goto done;
    }
    *words = w;
    *nwords = nw;
    w = NULL;
    if (prep) {
        *prep = pt;
        pt = NULL;
    }
    rc = 0;
done:
    free(w);
    free(pt);
    prog_free(&p1);
    prog_free(&p2);
    prog_free(&p3);
    free(a.jump.v);
    free(a.val.v);
    return rc;
}

static char *read_all(const char *path, char *err, size_t errlen)
{
    uint8_t *raw;
    size_t n;
    if (file_read_all(path, FILE_MAX_INPUT, &raw, &n, err, errlen))
        return NULL;
    char *buf = (char *)raw;
    buf[n] = 0;
    if (memchr(buf, 0, n)) {
        snprintf(err, errlen, "%s: contains a NUL byte; expected MCCP assembly text", path);
        free(buf);
        return NULL;
    }
    return buf;
}

int mccp_assemble(int nsrc, const char *const *srcs, const char *out, const sim_opts *opts, char *err, size_t errlen)
{
    (void)opts;
    if (nsrc != 1) {
        snprintf(err, errlen, "the MCCP assembler takes exactly one source file (got %d)", nsrc);
        return -1;
    }
    char *text = read_all(srcs[0], err, errlen);
    if (!text)
        return -1;
    uint32_t *w;
    size_t n;
    char *prep = NULL;
    size_t ol = strlen(out);
    int want_prep = ol >= 5 && strcmp(out + ol - 5, ".prep") == 0;
    int rc = mccp_assemble_text(srcs[0], text, &w, &n, want_prep ? &prep : NULL, err, errlen);
    free(text);
    if (rc)
        return -1;
    FILE *f = fopen(out, "w");
    if (!f) {
        snprintf(err, errlen, "%s: cannot create: %s", out, strerror(errno));
        free(w);
        free(prep);
        return -1;
    }
    if (want_prep) { /* the original's -p output: one expanded instruction per line */
        fputs(prep, f);
        n = 0;
    }
    free(prep);
    for (size_t i = 0; i < n; i++) {
        char line[34];
        for (int b = 0; b < 32; b++)
            line[b] = (char)('0' + (w[i] >> (31 - b) & 1));
        line[32] = '\n';
        line[33] = 0;
        fputs(line, f);
    }
    free(w);
    return file_close_out(f, out, err, errlen);
}
