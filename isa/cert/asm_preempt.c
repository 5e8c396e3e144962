/* isa/cert/asm_preempt.c: PREEMPT on aie4 as the newest aiebu-asm (e811334f) assembles it,
 * with -o preempt_asm=DIR. That aiebu does not keep a PREEMPT's page operands: it points
 * them at save/restore programs it inserts into the same uC, texts it carries built in (its
 * specification/aie4/preemption_asm/ *.asm files). xpusim carries none of them: DIR names the
 * user's copy of those files, read at assembly time. The rules (read in aiebu's
 * src/cpp/preprocessor/asm/asm_parser.cpp and checked against its output):
 *
 *  - A PREEMPT in uC g (.attach_to_group g; 0 before any) gets the operands
 *    `id, @save_N, @restore_N` (N = g/2 + 1), or, with a 4th operand @H (a "hint map":
 *    .long words after data label H in the PREEMPT's own label scope),
 *    `id, @save_N_K, @restore_N_K, @H`.
 *  - Programs: when PREEMPTs are in more than one uC, each uC g gets aie4_save_1c{g/2}.asm
 *    and aie4_restore_1c{g/2}.asm (only g = 0, 2, 4 exist); else uC 0 gets
 *    aie4_{save,restore}_{C}c.asm, C from `.partition Ccolumn` (default 4: none exists).
 *    Each is read as "save_N:\n" FILE "\n.endl save_N\n" (restore_N alike), as a file of its
 *    own named "{base/64K}_{size/64K}_" + the file name, after the whole source, in the code
 *    state, in the label scope the source ended in.
 *  - Hint maps: each set bit of the words is a 64 KiB chunk of the 9 MiB scratchpad; the set
 *    bits must be contiguous; base = first bit * 64K, size = bits * 64K (no words: 0, 9 MiB).
 *    The hint maps of a uC with the same (base, size) share one save/restore pair, the K-th
 *    distinct one in PREEMPT order: its text has save_N/restore_N (label, .endl, @ref)
 *    replaced by save_N_K/restore_N_K. A uC with a PREEMPT without hint map also gets the
 *    unrenamed pair for base 0, size 9 MiB; the hint-map pairs come first.
 *  - The shim BDs of a program are the labels `APPLY_OFFSET_57 @L, ..., @preempt_buffer*`
 *    names, in order (aiebu lists the same labels in a table of its own); its memtile BDs
 *    are the labels numbered right after the last of them (DMAWRITE_data_127, _128 after
 *    _125, _126), as many. The scratchpad part [base, base+size) is cut per 3 MiB region
 *    (one region per 2 save / 4 restore shim BDs) into 2 (save) or 4 (restore) equal parts,
 *    the last taking the remainder, 0 bytes for a region outside it. Shim BD i: the first
 *    three `.long` after "L:" in the text become addr>>32 & 0x1FFFFFF, addr & ~3, bytes/4;
 *    memtile BD i: the first two become (addr % 3 MiB)/4 + 0x800000, bytes/4.
 *  - Every uC must have as many PREEMPTs as uC 0 (counting those after an .attach_to_group).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "asm.h"
#include "../../core/file.h"

#define CHUNK (64ull * 1024)
#define MIB3 (3ull * 1024 * 1024)
#define SCRATCH_DEFAULT (9ull * 1024 * 1024)
#define MAX_BDS 64

typedef struct sbuf {
    char *p;
    size_t n, cap;
} sbuf;

static int sb_add(sbuf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t c = b->cap ? b->cap : 256;
        while (c < b->n + n + 1)
            c *= 2;
        char *q = realloc(b->p, c);
        if (!q)
            return -1;
        b->p = q;
        b->cap = c;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
    return 0;
}

static int sb_str(sbuf *b, const char *s) { return sb_add(b, s, strlen(s)); }

/* Replace every occurrence of from (left to right, not rescanning what was put in). */
static int sb_replace(sbuf *b, const char *from, const char *to)
{
    size_t fl = strlen(from);
    sbuf o = {0};
    const char *p = b->p, *q;
    if (sb_add(&o, "", 0))
        return -1;
    while ((q = strstr(p, from))) {
        if (sb_add(&o, p, (size_t)(q - p)) || sb_str(&o, to)) {
            free(o.p);
            return -1;
        }
        p = q + fl;
    }
    if (sb_str(&o, p)) {
        free(o.p);
        return -1;
    }
    free(b->p);
    *b = o;
    return 0;
}

int cert_preempt_note(cert_asm *a, cert_item *it, int col, const char *scope)
{
    if (a->injecting)
        return cert_asm_fail(a, it->file, it->line, "PREEMPT inside an inserted save/restore program");
    if (!it->nargs)
        return cert_asm_fail(a, it->file, it->line, "PREEMPT: expected an id");
    if (a->npre == a->cappre) {
        int c = a->cappre ? a->cappre * 2 : 16;
        cert_preempt *p = realloc(a->pre, sizeof *p * (size_t)c);
        if (!p)
            return cert_asm_fail(a, it->file, it->line, "out of memory");
        a->pre = p;
        a->cappre = c;
    }
    int g = col >= 0 ? col : 0, n = g / 2 + 1, k = 0;
    cert_preempt *p = &a->pre[a->npre];
    memset(p, 0, sizeof *p);
    p->it = it;
    p->group = g;
    p->counted = col >= 0;
    if (!(p->scope = strdup(scope)))
        return cert_asm_fail(a, it->file, it->line, "out of memory");
    a->npre++;
    if (it->nargs >= 4 && it->args[3][it->args[3][0] == '@'])
        if (!(p->hint = strdup(it->args[3] + (it->args[3][0] == '@'))))
            return cert_asm_fail(a, it->file, it->line, "out of memory");
    for (int i = 0; i + 1 < a->npre; i++)
        k += a->pre[i].group == g && a->pre[i].hint;
    /* the operands as aiebu rewrites them while reading (hint-map labels are final later) */
    char s[64], r[64];
    if (p->hint) {
        snprintf(s, sizeof s, "@save_%d_%d", n, k);
        snprintf(r, sizeof r, "@restore_%d_%d", n, k);
    } else {
        snprintf(s, sizeof s, "@save_%d", n);
        snprintf(r, sizeof r, "@restore_%d", n);
    }
    int want = p->hint ? 4 : 3;
    char **v = realloc(it->args, sizeof *v * (size_t)want);
    if (!v)
        return cert_asm_fail(a, it->file, it->line, "out of memory");
    it->args = v;
    for (int i = it->nargs; i < want; i++)
        v[i] = NULL;
    for (int i = want; i < it->nargs; i++)
        free(v[i]);
    it->nargs = want;
    free(v[1]);
    free(v[2]);
    v[1] = strdup(s);
    v[2] = strdup(r);
    if (p->hint) {
        free(v[3]);
        size_t l = strlen(p->hint);
        if ((v[3] = malloc(l + 2))) {
            v[3][0] = '@';
            memcpy(v[3] + 1, p->hint, l + 1);
        }
    }
    for (int i = 0; i < want; i++)
        if (!v[i])
            return cert_asm_fail(a, it->file, it->line, "out of memory");
    return 0;
}

void cert_preempt_free(cert_asm *a)
{
    for (int i = 0; i < a->npre; i++) {
        free(a->pre[i].scope);
        free(a->pre[i].hint);
    }
    free(a->pre);
    a->pre = NULL;
    a->npre = a->cappre = 0;
}

/* DIR/name as "label:\n" + its text (bytes outside printable ASCII, tab and newlines
 * dropped, as aiebu reads) + "\n.endl label\n". */
static int load_program(cert_asm *a, const char *name, const char *label, sbuf *out)
{
    char path[4200], e[300];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", a->preempt_dir, name) >= sizeof path)
        return cert_asm_fail(a, 0, 0, "-o preempt_asm: path too long");
    uint8_t *data;
    size_t len;
    if (file_read_all(path, FILE_MAX_INPUT, &data, &len, e, sizeof e)) {
        snprintf(a->err, sizeof a->err, "PREEMPT: -o preempt_asm=%s: %s", a->preempt_dir, e);
        return -1;
    }
    int rc = sb_str(out, label) || sb_str(out, ":\n");
    for (size_t i = 0; i < len && !rc; i++)
        if ((data[i] >= 32 && data[i] <= 126) || data[i] == '\n' || data[i] == '\t' || data[i] == '\r')
            rc = sb_add(out, (const char *)&data[i], 1);
    free(data);
    if (rc || sb_str(out, "\n.endl ") || sb_str(out, label) || sb_str(out, "\n"))
        return cert_asm_fail(a, 0, 0, "out of memory");
    return 0;
}

typedef struct bdlist {
    char shim[MAX_BDS][64], mem[MAX_BDS][64];
    int n;
} bdlist;

/* The shim BD labels (APPLY_OFFSET_57 @L, ..., @preempt_buffer) and the memtile BD labels
 * numbered after them. */
static int find_bds(cert_asm *a, const char *text, const char *name, bdlist *b)
{
    b->n = 0;
    for (const char *p = text; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t l = nl ? (size_t)(nl - p) : strlen(p);
        while (l && isspace((unsigned char)*p))
            p++, l--;
        if (l > 15 && !strncasecmp(p, "apply_offset_57", 15) && isspace((unsigned char)p[15])) {
            char line[512];
            snprintf(line, sizeof line, "%.*s", (int)(l - 15 < 511 ? l - 15 : 511), p + 15);
            char *semi = strchr(line, ';');
            if (semi)
                *semi = 0;
            char *tok[8];
            int nt = 0;
            for (char *t = strtok(line, ", \t\r"); t && nt < 8; t = strtok(NULL, ", \t\r"))
                tok[nt++] = t;
            if (nt >= 4 && !strncasecmp(tok[nt - 1], "@preempt_buffer", 15) && tok[0][0] == '@') {
                if (b->n == MAX_BDS || strlen(tok[0]) >= sizeof b->shim[0])
                    return cert_asm_fail(a, 0, 0, "PREEMPT: %s: more than %d scratchpad BDs", name, MAX_BDS);
                snprintf(b->shim[b->n++], sizeof b->shim[0], "%s", tok[0] + 1);
            }
        }
        p = nl ? nl + 1 : NULL;
    }
    if (!b->n)
        return cert_asm_fail(a, 0, 0, "PREEMPT: %s: no `APPLY_OFFSET_57 @BD, ..., @preempt_buffer*` line", name);
    const char *last = b->shim[b->n - 1];
    size_t l = strlen(last), d = l;
    while (d && isdigit((unsigned char)last[d - 1]))
        d--;
    if (d == l)
        return cert_asm_fail(a, 0, 0, "PREEMPT: %s: BD label %s does not end in a number", name, last);
    unsigned long num = strtoul(last + d, NULL, 10);
    char stem[sizeof b->mem[0]]; /* a copy: snprintf must not read from the struct it writes */
    snprintf(stem, sizeof stem, "%.*s", (int)d, last);
    for (int i = 0; i < b->n; i++) {
        int w = snprintf(b->mem[i], sizeof b->mem[0], "%s%lu", stem, num + 1 + (unsigned long)i);
        if (w < 0 || (size_t)w >= sizeof b->mem[0])
            return cert_asm_fail(a, 0, 0, "PREEMPT: %s: BD label %s%lu is too long", name, stem,
                                 num + 1 + (unsigned long)i);
    }
    return 0;
}

/* Overwrite the values of the first n `.long` after "label:" in the text. */
static int patch_longs(sbuf *t, const char *label, const uint32_t *val, int n)
{
    char def[80];
    snprintf(def, sizeof def, "%s:", label);
    char *at = strstr(t->p, def);
    if (!at)
        return 0;
    size_t from = (size_t)(at - t->p) + strlen(def);
    for (int i = 0; i < n; i++) {
        char *lp = strstr(t->p + from, ".long");
        if (!lp)
            return 0;
        size_t vs = (size_t)(lp - t->p) + 5, ve;
        while (t->p[vs] == ' ' || t->p[vs] == '\t')
            vs++;
        for (ve = vs; t->p[ve] && !strchr("\n\r \t;", t->p[ve]); ve++)
            ;
        char v[16];
        snprintf(v, sizeof v, "0x%08X", val[i]);
        sbuf o = {0};
        if (sb_add(&o, t->p, vs) || sb_str(&o, v) || sb_str(&o, t->p + ve)) {
            free(o.p);
            return -1;
        }
        from = (size_t)(lp - t->p) + 5;
        free(t->p);
        *t = o;
    }
    return 0;
}

/* Patch the BDs of one program for the scratchpad part [base, base+size). */
static int patch_bds(sbuf *t, const bdlist *b, int parts, uint64_t base, uint64_t size)
{
    int regions = b->n / parts;
    uint64_t end = base + size;
    for (int r = 0, i = 0; r < regions; r++) {
        uint64_t rb = (uint64_t)r * MIB3, re = rb + MIB3;
        uint64_t ib = base > rb ? base : rb, ie = end < re ? end : re;
        for (int p = 0; p < parts; p++, i++) {
            uint64_t pb = rb, ps = 0;
            if (ie > ib) {
                uint64_t part = (ie - ib) / (uint64_t)parts;
                pb = ib + (uint64_t)p * part;
                ps = p == parts - 1 ? ie - pb : part;
            }
            uint32_t shim[3] = {(uint32_t)((pb >> 32) & 0x1FFFFFF), (uint32_t)(pb & 0xFFFFFFFC), (uint32_t)(ps / 4)};
            uint32_t mem[2] = {(uint32_t)((pb % MIB3) / 4 + 0x800000), (uint32_t)(ps / 4)};
            if (patch_longs(t, b->shim[i], shim, 3) || patch_longs(t, b->mem[i], mem, 2))
                return -1;
        }
    }
    return 0;
}

/* The scratchpad part a hint map names: data label `hint` in label scope `scope` of uC g. */
static int hint_part(cert_asm *a, const cert_preempt *p, uint64_t *base, uint64_t *size)
{
    cert_col *c = NULL;
    cert_scope *s = NULL;
    for (int i = 0; i < a->ncols && !c; i++)
        if (a->cols[i].col == p->group)
            c = &a->cols[i];
    for (int i = 0; c && i < c->nscopes && !s; i++)
        if (!strcmp(c->scopes[i].path, p->scope))
            s = &c->scopes[i];
    int k = -1;
    for (int i = 0; s && i < s->ndata && k < 0; i++)
        if (s->data[i]->kind == CI_LABEL && !strcmp(s->data[i]->name, p->hint))
            k = i;
    if (k < 0)
        return cert_asm_fail(a, p->it->file, p->it->line, "PREEMPT: hint map label '%s' not found in uC %d (scope '%s')",
                             p->hint, p->group, p->scope);
    uint64_t first = UINT64_MAX, last = 0, bits = 0;
    int words = 0;
    for (int i = k + 1; i < s->ndata && s->data[i]->kind != CI_LABEL; i++) {
        if (s->data[i]->kind != CI_LONG)
            continue;
        for (int j = 0; j < s->data[i]->nargs; j++) {
            const char *t = s->data[i]->args[j];
            char *e;
            uint32_t w = (uint32_t)strtoul(t, &e, !strncmp(t, "0x", 2) ? 16 : 10);
            if (e == t)
                continue; /* aiebu warns and skips it */
            for (int bit = 0; bit < 32; bit++)
                if (w >> bit & 1) {
                    uint64_t at = (uint64_t)words * 32 + (uint64_t)bit;
                    if (first == UINT64_MAX)
                        first = at;
                    last = at;
                    bits++;
                }
            words++;
        }
    }
    if (!words) {
        *base = 0;
        *size = SCRATCH_DEFAULT;
        return 0;
    }
    if (bits && last - first + 1 != bits)
        return cert_asm_fail(a, p->it->file, p->it->line, "PREEMPT: hint map '%s' has non-contiguous bits", p->hint);
    *base = bits ? first * CHUNK : 0;
    *size = bits * CHUNK;
    return 0;
}

/* Insert one save/restore pair into uC g: templates renamed from save_N to `save`
 * (NULL: kept), BDs patched for [base, base+size). */
static int insert_pair(cert_asm *a, cert_reader *r, int g, const char *sname, const char *rname, const sbuf *st,
                       const sbuf *rt, const char *tsave, const char *trest, const char *save, const char *rest,
                       uint64_t base, uint64_t size)
{
    sbuf t[2] = {{0}, {0}};
    const sbuf *src[2] = {st, rt};
    const char *names[2] = {sname, rname};
    int rc = 0;
    for (int k = 0; k < 2 && !rc; k++) {
        rc = sb_add(&t[k], src[k]->p, src[k]->n);
        if (save && !rc) {
            const char *from[2] = {tsave, trest}, *to[2] = {save, rest};
            char f[80], o[80];
            for (int form = 0; form < 3 && !rc; form++)
                for (int w = 0; w < 2 && !rc; w++) {
                    snprintf(f, sizeof f, form == 0 ? ".endl %s" : form == 1 ? "%s:" : "@%s", from[w]);
                    snprintf(o, sizeof o, form == 0 ? ".endl %s" : form == 1 ? "%s:" : "@%s", to[w]);
                    rc = sb_replace(&t[k], f, o);
                }
        }
        bdlist b;
        if (!rc && find_bds(a, src[k]->p, names[k], &b)) {
            free(t[0].p);
            free(t[1].p);
            return -1;
        }
        if (!rc)
            rc = patch_bds(&t[k], &b, k ? 4 : 2, base, size);
    }
    if (rc) {
        free(t[0].p);
        free(t[1].p);
        return cert_asm_fail(a, 0, 0, "out of memory");
    }
    for (int k = 0; k < 2 && !rc; k++) {
        char fname[300];
        snprintf(fname, sizeof fname, "%llu_%llu_%s", (unsigned long long)(base / CHUNK),
                 (unsigned long long)(size / CHUNK), names[k]);
        a->injecting = 1;
        rc = cert_read_text(r, g, t[k].p, fname);
        a->injecting = 0;
    }
    free(t[0].p);
    free(t[1].p);
    return rc;
}

static int set_arg(cert_asm *a, cert_item *it, int i, const char *v)
{
    char *d = strdup(v);
    if (!d)
        return cert_asm_fail(a, it->file, it->line, "out of memory");
    free(it->args[i]);
    it->args[i] = d;
    return 0;
}

/* All the PREEMPTs of uC g get their programs (N = n in the labels). */
static int do_group(cert_asm *a, cert_reader *r, int g, int n, const char *sname, const char *rname)
{
    char tsave[32], trest[32];
    snprintf(tsave, sizeof tsave, "save_%d", n);
    snprintf(trest, sizeof trest, "restore_%d", n);
    sbuf st = {0}, rt = {0};
    int rc = load_program(a, sname, tsave, &st) || load_program(a, rname, trest, &rt) ? -1 : 0;
    /* hint maps: one pair per distinct (base, size), in PREEMPT order */
    int npre = a->npre, nuniq = 0, plain = 0;
    uint64_t *ub = calloc((size_t)npre + 1, sizeof *ub), *us = calloc((size_t)npre + 1, sizeof *us);
    if (!ub || !us)
        rc = cert_asm_fail(a, 0, 0, "out of memory");
    for (int i = 0; i < npre && !rc; i++) {
        cert_preempt *p = &a->pre[i];
        if (p->group != g)
            continue;
        if (!p->hint) {
            plain = 1;
            continue;
        }
        uint64_t base = 0, size = 0;
        if ((rc = hint_part(a, p, &base, &size)))
            break;
        int k = 0;
        while (k < nuniq && !(ub[k] == base && us[k] == size))
            k++;
        if (k == nuniq) {
            ub[nuniq] = base;
            us[nuniq++] = size;
        }
        char s[64], rs[64];
        snprintf(s, sizeof s, "@save_%d_%d", n, k);
        snprintf(rs, sizeof rs, "@restore_%d_%d", n, k);
        rc = set_arg(a, p->it, 1, s) || set_arg(a, p->it, 2, rs) ? -1 : 0;
    }
    for (int k = 0; k < nuniq && !rc; k++) {
        char s[64], rs[64];
        snprintf(s, sizeof s, "save_%d_%d", n, k);
        snprintf(rs, sizeof rs, "restore_%d_%d", n, k);
        rc = insert_pair(a, r, g, sname, rname, &st, &rt, tsave, trest, s, rs, ub[k], us[k]);
    }
    if (plain && !rc)
        rc = insert_pair(a, r, g, sname, rname, &st, &rt, tsave, trest, NULL, NULL, 0, SCRATCH_DEFAULT);
    free(ub);
    free(us);
    free(st.p);
    free(rt.p);
    return rc;
}

int cert_preempt_finish(cert_asm *a, cert_reader *r)
{
    if (!a->npre)
        return 0;
    int groups[8], ng = 0;
    for (int i = 0; i < a->npre; i++) {
        int k = 0;
        while (k < ng && groups[k] != a->pre[i].group)
            k++;
        if (k == ng) {
            if (ng == 8)
                return cert_asm_fail(a, a->pre[i].it->file, a->pre[i].it->line, "PREEMPT in more than 8 uCs");
            groups[ng++] = a->pre[i].group;
        }
    }
    for (int i = 1; i < ng; i++) /* in uC order */
        for (int k = i; k > 0 && groups[k - 1] > groups[k]; k--) {
            int t = groups[k];
            groups[k] = groups[k - 1];
            groups[k - 1] = t;
        }
    char sname[64], rname[64];
    if (ng > 1) {
        for (int i = 0; i < ng; i++) {
            int g = groups[i];
            if (g != 0 && g != 2 && g != 4)
                return cert_asm_fail(a, 0, 0, "PREEMPT in uC %d: aiebu has save/restore programs for uCs 0, 2 and 4 only", g);
            snprintf(sname, sizeof sname, "aie4_save_1c%d.asm", g / 2);
            snprintf(rname, sizeof rname, "aie4_restore_1c%d.asm", g / 2);
            if (do_group(a, r, g, g / 2 + 1, sname, rname))
                return -1;
        }
    } else {
        int c = a->partition_cols;
        if (c < 1 || c > 3)
            return cert_asm_fail(a, 0, 0, "PREEMPT: aiebu has save/restore programs for 1 to 3 columns, the partition has %d "
                                          "(.partition Ncolumn)", c);
        snprintf(sname, sizeof sname, "aie4_save_%dc.asm", c);
        snprintf(rname, sizeof rname, "aie4_restore_%dc.asm", c);
        if (do_group(a, r, 0, 1, sname, rname))
            return -1;
    }
    /* every uC as many PREEMPTs as uC 0 */
    int have0 = 0, n0 = 0;
    for (int i = 0; i < a->ncols; i++)
        have0 |= a->cols[i].col == 0;
    for (int i = 0; i < a->npre; i++)
        n0 += a->pre[i].counted && a->pre[i].group == 0;
    int any = 0;
    for (int i = 0; i < a->npre; i++)
        any |= a->pre[i].counted;
    if (!any)
        return 0;
    if (!have0)
        return cert_asm_fail(a, 0, 0, "PREEMPT: uC 0 has no code");
    for (int i = 0; i < a->ncols; i++) {
        int n = 0;
        for (int k = 0; k < a->npre; k++)
            n += a->pre[k].counted && a->pre[k].group == a->cols[i].col;
        if (n != n0)
            return cert_asm_fail(a, 0, 0, "PREEMPT: uC %d has %d, uC 0 has %d (aiebu wants as many in every uC)",
                                 a->cols[i].col, n, n0);
    }
    return 0;
}
