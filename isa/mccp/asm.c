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
#include <stdlib.h>
#include <string.h>
#include "mccp.h"
#include "../../core/file.h"
#include "asm_util.h"

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
            return masm_fail(a, lineno, "line longer than %zu characters", sizeof buf - 1);
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
                return masm_fail(a, lineno, "label name longer than %d characters", TOKLEN - 1);
            memcpy(name, s, (size_t)w);
            name[w] = 0;
            if (*q == ':') { /* jump label; the rest of the line is ignored, as in the original */
                if (masm_lab_set(a, &a->jump, name, counter, lineno))
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
                        return masm_fail(a, lineno, "value label '%s': the number must follow '=' directly (NAME=123)", name);
                    char num[32];
                    size_t k = 0;
                    const char *g = f + 1;
                    if (*g == '-')
                        num[k++] = *g++;
                    while (isdigit((unsigned char)*g) && k < sizeof num - 1)
                        num[k++] = *g++;
                    num[k] = 0;
                    long long v;
                    if (masm_py_int(num, &v))
                        return masm_fail(a, lineno, "value label '%s': number out of range", name);
                    if (masm_lab_set(a, &a->val, name, v, lineno))
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
                return masm_fail(a, lineno, "too many operands (at most %d)", MAXTOK - 2);
            if (masm_tok_set(a, &tmp, tmp.n, tk))
                return -1;
            tmp.n++;
        }
        if (counter == 0 && strcmp(tmp.t[0], "stack_size") != 0) {
            aline *l = masm_prog_add(a, out, lineno);
            if (!l)
                return -1;
            const char *pro[5] = {"stack_size", "1000", "1000", "1000", "1000"};
            for (int i = 0; i < 5; i++)
                masm_tok_set(a, l, i, pro[i]);
            l->n = 5;
            counter++;
        }
        if (strstr(tmp.t[0], "call")) {
            char name[TOKLEN];
            snprintf(name, sizeof name, "__return_%d", ret_k++);
            masm_tok_set(a, &tmp, tmp.n++, name);
            if (masm_lab_set(a, &a->jump, name, counter + 1, lineno))
                return -1;
        }
        aline *l = masm_prog_add(a, out, lineno);
        if (!l)
            return -1;
        *l = tmp;
        counter++;
    }
    /* early substitution: core_num in operand 2, else $NAME in operands 1 and 2 */
    for (int i = 0; i < out->n; i++) {
        aline *l = &out->v[i];
        if (l->n > 2 && strstr(l->t[2], "core_num")) {
            masm_tok_set(a, l, 2, "4");
            continue;
        }
        for (int k = 1; k <= 2 && k < l->n; k++) {
            char *d = strchr(l->t[k], '$');
            if (!d)
                continue;
            alabel *v = masm_lab_find(&a->val, d + 1);
            if (!v)
                return masm_fail(a, l->src, "'$%s': no value label of that name (NAME=number)", d + 1);
            char nb[TOKLEN];
            *d = 0;
            snprintf(nb, sizeof nb, "%s%lld", l->t[k], (long long)v->value);
            if (masm_tok_set(a, l, k, nb))
                return -1;
        }
    }
    return 0;
}

/* ---- step 2: masm_macros and label operands ---- */
static int need(actx *a, const aline *l, int n)
{
    if (l->n < n)
        return masm_fail(a, l->src, "'%s' needs %d operand(s)", l->t[0], n - 1);
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
        if (masm_has_suffix(l->t[0])) {
            masm_strip2(pure, l->t[0]);
            masm_scpy(suf, sizeof suf, masm_last2(l->t[0]));
        } else {
            masm_scpy(pure, sizeof pure, l->t[0]);
        }
        int before = out->n;
        char lo[TOKLEN], hi[TOKLEN];
        const char *mac = masm_in_list(l->t[0], masm_macros) ? l->t[0] : masm_in_list(pure, masm_macros) ? pure : NULL;
        if (mac) {
            if (!strcmp(mac, "push")) {
                if (need(a, l, 2) || !masm_emit(a, out, src, "store", l->t[1], "sp") || !masm_emit(a, out, src, "inc", "sp", NULL))
                    return -1;
            } else if (!strcmp(mac, "pop")) {
                if (need(a, l, 2) || !masm_emit(a, out, src, "dec", "sp", NULL) || !masm_emit(a, out, src, "load", l->t[1], "sp"))
                    return -1;
            } else if (!strcmp(mac, "stack_size")) {
                long long sizes[MAXTOK], sum = 0;
                int ns = l->n - 1;
                for (int k = 0; k < ns; k++) {
                    if (masm_py_int(l->t[k + 1], &sizes[k]))
                        return masm_fail(a, src, "stack_size: '%s' is not an integer", l->t[k + 1]);
                    sum += sizes[k];
                }
                long long begin = 65535 - sum, mine = begin;
                if (begin < 0)
                    return masm_fail(a, src, "stack_size: the stacks (%lld words) do not fit below word 65535", sum);
                char ci[16];
                for (int k = 0; k < ns; k++) {
                    long long end = mine + sizes[k];
                    char elo[TOKLEN], ehi[TOKLEN];
                    snprintf(ci, sizeof ci, "%d", k);
                    if (masm_to_bin(a, src, mine, lo, hi) || masm_to_bin(a, src, end, elo, ehi))
                        return -1;
                    if (!masm_emit(a, out, src, "coreidxal", "reg3", NULL) || !masm_emit(a, out, src, "xoral", "reg4", "reg4") ||
                        !masm_emit(a, out, src, "movlal", "reg4", ci) || !masm_emit(a, out, src, "cmpal", "reg3", "reg4") ||
                        !masm_emit(a, out, src, "movleq", "reg5", lo) || !masm_emit(a, out, src, "movheq", "reg5", hi) ||
                        !masm_emit(a, out, src, "msbeq", "reg5", NULL) || !masm_emit(a, out, src, "moveq", "reg6", "reg5") ||
                        !masm_emit(a, out, src, "movleq", "reg5", elo) || !masm_emit(a, out, src, "movheq", "reg5", ehi) ||
                        !masm_emit(a, out, src, "mseeq", "reg5", NULL))
                        return -1;
                    mine = end;
                }
                if (masm_to_bin(a, src, begin, lo, hi) || !masm_emit(a, out, src, "movlal", "reg5", lo) ||
                    !masm_emit(a, out, src, "movhal", "reg5", hi) || !masm_emit(a, out, src, "sbal", "reg5", NULL))
                    return -1;
            } else if (!strcmp(mac, "exception_addresses")) {
                char ci[16];
                for (int k = 1; k < l->n; k++) {
                    snprintf(ci, sizeof ci, "%d", k - 1);
                    if (!masm_emit(a, out, src, "coreidx", "reg6", NULL) || !masm_emit(a, out, src, "xoral", "reg4", "reg4") ||
                        !masm_emit(a, out, src, "movlal", "reg4", ci) || !masm_emit(a, out, src, "cmpal", "reg6", "reg4"))
                        return -1;
                    long long v;
                    if (!masm_py_int(l->t[k], &v)) {
                        if (masm_to_bin(a, src, v, lo, hi))
                            return -1;
                        if (!masm_emit(a, out, src, "movleq", "reg5", lo) || !masm_emit(a, out, src, "movheq", "reg5", hi))
                            return -1;
                    } else if (!masm_emit(a, out, src, "movleq", "reg5", l->t[k]) || !masm_emit(a, out, src, "movheq", "reg5", l->t[k])) {
                        return -1;
                    }
                    if (!masm_emit(a, out, src, "excl", "reg5", NULL))
                        return -1;
                }
            } else if (!strcmp(mac, "call")) {
                const char *s = !strcmp(l->t[0], "call") ? "al" : masm_last2(l->t[0]);
                static const char *const okc[] = {"eq", "ne", "gt", "ge", "lt", "le", "al", NULL};
                static const char *const jmpc[] = {"je", "jne", "jgt", "jge", "jlt", "jle", "jmp"};
                int ji = -1;
                for (int k = 0; okc[k]; k++)
                    if (!strcmp(s, okc[k]))
                        ji = k;
                if (ji < 0)
                    return masm_fail(a, src, "suffix '%s' is not supported for call (eq ne gt ge lt le al)", s);
                if (need(a, l, 3))
                    return -1;
                char ml[8], mh[8], st[8], ic[8];
                snprintf(ml, sizeof ml, "movl%s", s);
                snprintf(mh, sizeof mh, "movh%s", s);
                snprintf(st, sizeof st, "store%s", s);
                snprintf(ic, sizeof ic, "inc%s", s);
                if (!masm_emit(a, out, src, ml, "reg5", l->t[2]) || !masm_emit(a, out, src, mh, "reg5", l->t[2]) ||
                    !masm_emit(a, out, src, st, "reg5", "sp") || !masm_emit(a, out, src, ic, "sp", NULL) ||
                    !masm_emit(a, out, src, ml, "reg5", l->t[1]) || !masm_emit(a, out, src, mh, "reg5", l->t[1]) ||
                    !masm_emit(a, out, src, jmpc[ji], "reg5", NULL))
                    return -1;
            } else if (!strcmp(mac, "ret")) {
                if (!masm_emit(a, out, src, "dec", "sp", NULL) || !masm_emit(a, out, src, "load", "reg5", "sp") ||
                    !masm_emit(a, out, src, "jmp", "reg5", NULL))
                    return -1;
            } else if (!strcmp(mac, "load_macro") || !strcmp(mac, "store_macro")) {
                if (need(a, l, 3))
                    return -1;
                const char *num = l->t[2];
                int neg = num[0] == '-';
                char digits[TOKLEN];
                masm_scpy(digits, sizeof digits, num);
                char *d = digits;
                while (*d == '-')
                    d++;
                size_t dn = strlen(d);
                while (dn && d[dn - 1] == '-')
                    d[--dn] = 0;
                long long v;
                if (masm_py_int(d, &v))
                    return masm_fail(a, src, "%s: offset '%s' is not an integer", mac, num);
                if (masm_to_bin(a, src, v, lo, hi))
                    return -1;
                if (!masm_emit(a, out, src, "movl", "reg5", lo) || !masm_emit(a, out, src, "movh", "reg5", hi))
                    return -1;
                if (!strcmp(mac, "load_macro")) {
                    if (!masm_emit(a, out, src, "mov", l->t[1], "reg4") || !masm_emit(a, out, src, neg ? "sub" : "add", l->t[1], "reg5") ||
                        !masm_emit(a, out, src, "load", l->t[1], l->t[1]))
                        return -1;
                } else if (!masm_emit(a, out, src, "add", "reg5", "reg4") || !masm_emit(a, out, src, "store", l->t[1], "reg5")) {
                    return -1; /* the sign is ignored: always bp+|n| (original behaviour) */
                }
            } else { /* movimm */
                if (need(a, l, 3))
                    return -1;
                const char *s = masm_is_suffix(masm_last2(l->t[0])) ? masm_last2(l->t[0]) : "al";
                long long v;
                if (masm_py_int(l->t[2], &v))
                    return masm_fail(a, src, "movimm: '%s' is not an integer", l->t[2]);
                if (masm_to_bin(a, src, v, lo, hi))
                    return -1;
                char ml[8], mh[8];
                snprintf(ml, sizeof ml, "movl%s", s);
                snprintf(mh, sizeof mh, "movh%s", s);
                if (!masm_emit(a, out, src, ml, l->t[1], lo) || !masm_emit(a, out, src, mh, l->t[1], hi))
                    return -1;
            }
            long long delta = out->n - before - 1;
            masm_lab_shift(a, counter, delta);
            counter += delta + 1;
            continue;
        }
        const char *lastt = l->t[l->n - 1];
        int all_digits = *lastt != 0;
        for (const char *q = lastt; *q; q++)
            all_digits &= isdigit((unsigned char)*q) != 0;
        if (masm_in_list(pure, masm_alu_names) && !masm_in_list(pure, masm_alu_one) && all_digits) {
            /* OP r N -> movl/movh reg5 N; OP r reg5 (so `mul reg5 N` is reg5*reg5) */
            if (need(a, l, 3))
                return -1;
            long long v;
            if (masm_py_int(l->t[2], &v))
                return masm_fail(a, src, "'%s': operand 2 '%s' is not an integer", l->t[0], l->t[2]);
            if (masm_to_bin(a, src, v, lo, hi))
                return -1;
            char ml[8], mh[8];
            snprintf(ml, sizeof ml, "movl%s", suf);
            snprintf(mh, sizeof mh, "movh%s", suf);
            if (!masm_emit(a, out, src, ml, "reg5", lo) || !masm_emit(a, out, src, mh, "reg5", hi) ||
                !masm_emit(a, out, src, l->t[0], l->t[1], "reg5"))
                return -1;
            masm_lab_shift(a, counter, 2);
            counter += 3;
            continue;
        }
        if (!strcmp(pure, "mov") && l->n >= 2 && (l->n < 3 || masm_reg_code(l->t[2]) < 0)) {
            if (need(a, l, 3))
                return -1;
            if (!masm_is_label(a, l->t[2]))
                return masm_fail(a, src, "mov: '%s' is neither a register nor a label (use movimm for numbers)", l->t[2]);
            masm_lab_shift(a, counter, 1);
            counter += 2;
            char ml[8], mh[8];
            snprintf(ml, sizeof ml, "movl%s", suf);
            snprintf(mh, sizeof mh, "movh%s", suf);
            if (!masm_emit(a, out, src, ml, l->t[1], l->t[2]) || !masm_emit(a, out, src, mh, l->t[1], l->t[2]))
                return -1;
            continue;
        }
        if ((!strcmp(pure, "load") || !strcmp(pure, "store")) && l->n >= 2 &&
            (l->n < 3 || masm_reg_code(l->t[2]) < 0 || masm_reg_code(l->t[1]) < 0)) {
            if (need(a, l, 3))
                return -1;
            int idx;
            if (masm_is_label(a, l->t[1]))
                idx = 1;
            else if (masm_lab_find(&a->jump, l->t[2]) || masm_lab_find(&a->val, l->t[1]))
                idx = 2; /* the original re-tests operand 1 here: value labels fail as operand 2 */
            else
                return masm_fail(a, src, "%s: '%s' is not a register or a usable label (a value label works only as "
                            "operand 1 of load/store, as in the original assembler)",
                            l->t[0], masm_reg_code(l->t[1]) < 0 ? l->t[1] : l->t[2]);
            masm_lab_shift(a, counter, 2);
            counter += 3;
            char ml[8], mh[8];
            snprintf(ml, sizeof ml, "movl%s", suf);
            snprintf(mh, sizeof mh, "movh%s", suf);
            if (!masm_emit(a, out, src, ml, "reg5", l->t[idx]) || !masm_emit(a, out, src, mh, "reg5", l->t[idx]))
                return -1;
            aline *nl = masm_prog_add(a, out, src);
            if (!nl)
                return -1;
            *nl = line;
            masm_tok_set(a, nl, idx, "reg5");
            continue;
        }
        if (masm_in_list(l->t[0], masm_jumps) && l->n >= 2 && masm_reg_code(l->t[1]) < 0) {
            if (!masm_is_label(a, l->t[1]))
                return masm_fail(a, src, "%s: unknown label '%s'", l->t[0], l->t[1]);
            masm_lab_shift(a, counter, 2);
            counter += 3;
            if (!masm_emit(a, out, src, "movl", "reg5", l->t[1]) || !masm_emit(a, out, src, "movh", "reg5", l->t[1]))
                return -1;
            aline *nl = masm_prog_add(a, out, src);
            if (!nl)
                return -1;
            *nl = line;
            masm_tok_set(a, nl, 1, "reg5");
            continue;
        }
        aline *nl = masm_prog_add(a, out, src);
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
            if (!masm_emit(a, out, l->src, "addnv", "reg0", "reg0"))
                return -1;
            counter++;
            continue; /* (the original checks no label alignment for an explicit nop) */
        }
        int target = 0;
        for (int k = 0; k < a->jump.n; k++)
            if (a->jump.v[k].value == counter)
                target = 1;
        if (target && counter % 2) {
            if (!masm_emit(a, out, l->src, "addnv", "reg0", "reg0"))
                return -1;
            masm_lab_shift(a, counter - 1, 1);
            counter++;
        }
        char base[TOKLEN];
        masm_strip2(base, l->t[0]);
        if (masm_in_list(l->t[0], masm_movlh) || masm_in_list(base, masm_movlh)) {
            long long delta = 0;
            if (counter % 2) {
                if (!masm_emit(a, out, l->src, "addnv", "reg0", "reg0"))
                    return -1;
                delta++;
            }
            delta++;
            masm_lab_shift(a, counter, delta);
            counter += delta;
        }
        aline *nl = masm_prog_add(a, out, l->src);
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
        masm_strip2(base, t0);
        size_t n = strlen(t0);
        if (masm_in_list(base, masm_mls) && masm_has_suffix(t0)) {
            char s[3];
            memcpy(s, t0 + n - 2, 3);
            size_t bl = strlen(base);
            t0[bl] = masm_in_list(s, masm_suffixes0) ? '0' : '1';
            memcpy(t0 + bl + 1, s, 3);
        } else if (masm_in_list(t0, masm_mls) && n + 1 < TOKLEN) {
            strcat(t0, "1");
        }
        if (!masm_in_list(t0, masm_not_suffix) && !masm_has_suffix(t0) && strlen(t0) + 2 < TOKLEN)
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
        if (masm_is_label(a, l->t[l->n - 1]))
            k = 1;
        else if (masm_is_label(a, l->t[l->n - 2]))
            k = 2;
        else
            continue;
        alabel *lb = masm_lab_find(&a->jump, l->t[l->n - k]);
        if (!lb)
            lb = masm_lab_find(&a->val, l->t[l->n - k]);
        char lo[TOKLEN], hi[TOKLEN];
        if (masm_to_bin(a, l->src, lb->value, lo, hi))
            return -1;
        if (i + 1 >= p->n || p->v[i + 1].n < k)
            return masm_fail(a, l->src, "label '%s' used where no movl/movh pair follows (write it as an operand of "
                        "mov/load/store/jX, or use movimm)", l->t[l->n - k]);
        masm_tok_set(a, l, l->n - k, lo);
        aline *nx = &p->v[i + 1];
        masm_tok_set(a, nx, nx->n - k, hi);
    }
    return 0;
}

/* ---- encoding (assemble_preprocessed) ---- */
static int encode(actx *a, const aline *l, uint32_t *bits, int *len)
{
    const char *t0 = l->t[0];
    char clear[TOKLEN];
    int cond = -1;
    if (masm_has_suffix(t0) && !masm_in_list(t0, masm_not_suffix)) {
        masm_strip2(clear, t0);
        cond = masm_cond_code(masm_last2(t0));
    } else {
        masm_scpy(clear, sizeof clear, t0);
    }
    int digit = -1;
    char base[TOKLEN];
    masm_scpy(base, sizeof base, clear);
    size_t bn = strlen(base);
    if (bn && (base[bn - 1] == '0' || base[bn - 1] == '1')) {
        char b2[TOKLEN];
        memcpy(b2, base, bn - 1);
        b2[bn - 1] = 0;
        if (masm_in_list(b2, masm_mls)) {
            digit = base[bn - 1] - '0';
            base[bn - 1] = 0;
        }
    }
    const mccp_desc *d = mccp_desc_find(base);
    if (!d || (d->fmt == MCCP_F_MEM && digit < 0))
        return masm_fail(a, l->src, "unknown instruction '%s'", clear);
    if (d->fmt == MCCP_F_NONE)
        return masm_fail(a, l->src, "'%s' has no encoding: the hardware does not implement it", clear);
    int needs_cond = d->fmt != MCCP_F_REG;
    if (needs_cond && cond < 0)
        return masm_fail(a, l->src, "'%s': missing condition suffix", t0);
    int r1 = -1, r2 = 0;
    if (d->fmt != MCCP_F_INT) {
        if (l->n < 2 || (r1 = masm_reg_code(l->t[1])) < 0)
            return masm_fail(a, l->src, "'%s': operand 1 must be a register (reg0..reg7, bp, sp, ip), got '%s'", t0,
                        l->n < 2 ? "" : l->t[1]);
    }
    if (d->fmt == MCCP_F_ALU2 || d->fmt == MCCP_F_MEM) {
        if (l->n < 3 || (r2 = masm_reg_code(l->t[2])) < 0)
            return masm_fail(a, l->src, "'%s': operand 2 must be a register, got '%s'", t0, l->n < 3 ? "" : l->t[2]);
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
        if (masm_py_int(l->t[l->n - 1], &v) || v < 0 || v > 7)
            return masm_fail(a, l->src, "int: the interrupt number must be 0..7, got '%s'", l->t[l->n - 1]);
        *bits = mccp_enc_spec(d->code, cond, (int)v);
        *len = 16;
        return 0;
    default: /* IMM */
        if (masm_py_int(l->t[l->n - 1], &v))
            return masm_fail(a, l->src, "'%s': '%s' is not a number or a known label", t0, l->t[l->n - 1]);
        if (v < 0 || v > 0xFFFF)
            return masm_fail(a, l->src, "'%s': immediate %lld does not fit in 16 bits", t0, v);
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
        masm_fail(&a, 0, "no instructions");
        goto done;
    }
    normalise(&p3);
    if (insert_labels(&a, &p3))
        goto done;
    /* pad to a whole word (added after normalisation: "addnv", as the original) */
    if (slots % 2 && !masm_emit(&a, &p3, p3.n ? p3.v[p3.n - 1].src : 0, "addnv", "reg0", "reg0"))
        goto done;
    w = malloc(((size_t)p3.n + 1) * sizeof *w);
    size_t cap = 64;
    for (int i = 0; i < p3.n; i++)
        for (int k = 0; k < p3.v[i].n; k++)
            cap += strlen(p3.v[i].t[k]) + 1;
    pt = malloc(cap);
    if (!w || !pt) {
        masm_fail(&a, 0, "out of memory");
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
        masm_fail(&a, 0, "program is %zu ROM words; the MCCP ROM holds %u", nw, MCCP_ROM_WORDS);
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
    asm_symtab_free(&a.jump);
    asm_symtab_free(&a.val);
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
