/* isa/cert/asm_page.c: the CERT assembler's pager, following aiebu-asm's rules
 * (both releases; their differences are fields of cert_writer) so that the pages come out
 * byte for byte the same. Paging runs once per
 * label scope: jobs are taken in source order, each with every job it shares a local
 * barrier with and every job it LAUNCHes (they must share a page), plus every data label
 * they reference, transitively through UC_DMA_BD pointers; a group that does not fit in
 * what is left of the 8 KiB page closes the page, `.eop` closes it too. A page is: 16-byte
 * header, the jobs, EOF, 0xA5 filler to 16, the data labels (16-aligned UC_DMA_BD chains
 * first, then .long blocks), zeros to 8192. Encoding then runs on each page on its own:
 * label positions count from the first byte after the header; job sizes are START_JOB
 * through END_JOB (asm_enc.c). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "asm.h"

#define NONE (-1)
#define EOF_ID "EOF"

static int il_push(cert_ilist *l, int v)
{
    if (l->n == l->cap) {
        int c = l->cap ? l->cap * 2 : 8;
        int *p = realloc(l->v, sizeof *p * (size_t)c);
        if (!p)
            return -1;
        l->v = p;
        l->cap = c;
    }
    l->v[l->n++] = v;
    return 0;
}
static int il_has(const cert_ilist *l, int v)
{
    for (int i = 0; i < l->n; i++)
        if (l->v[i] == v)
            return 1;
    return 0;
}
/* aiebu's "union in order": dst := dedup(dst ++ src), first occurrences kept */
static int il_union(cert_ilist *dst, const cert_ilist *src)
{
    cert_ilist r = {0};
    for (int k = 0; k < 2; k++) {
        const cert_ilist *s = k ? src : dst;
        for (int i = 0; i < s->n; i++)
            if (!il_has(&r, s->v[i]) && il_push(&r, s->v[i]))
                return free(r.v), -1;
    }
    free(dst->v);
    *dst = r;
    return 0;
}

void cert_state_free(cert_state *s)
{
    for (int i = 0; i < s->njobs; i++) {
        free(s->jobs[i].bars.v);
        free(s->jobs[i].deps.v);
    }
    free(s->jobs);
    free(s->order.v);
    asm_symtab_free(&s->jobmap);
    asm_symtab_free(&s->labelmap);
    free(s->labels);
    for (int i = 0; i < s->lbids.n; i++)
        free(s->lbjobs[i].v);
    free(s->lbjobs);
    free(s->lbids.v);
    if (s->ldeps)
        for (int i = 0; i < s->nlabels; i++)
            free(s->ldeps[i].v);
    free(s->ldeps);
}

int cert_st_fail(cert_state *s, const cert_item *it, const char *fmt, const char *x)
{
    return cert_asm_fail(s->a, it ? it->file : 0, it ? it->line : 0, fmt, x);
}

/* Name of a job or label in this state: scoped by file while paging (aiebu's "unique"). */
static void key(const cert_state *s, int file, const char *name, char *buf, size_t n)
{
    if (s->unique)
        snprintf(buf, n, "%d:%s", file, name);
    else
        snprintf(buf, n, "%s", name);
}

/* A job's name in this state: the newest aiebu also scopes it by .eop section while paging,
 * so one id may be reused on each side of an .eop. */
static void job_key(const cert_state *s, int file, int eopnum, const char *name, char *buf, size_t n)
{
    if (s->unique && s->a->w->jobs_per_eop)
        snprintf(buf, n, "%d:eop%d:%s", file, eopnum, name);
    else
        key(s, file, name, buf, n);
}

int cert_job_lookup(cert_state *s, const char *k, int create)
{
    asm_symbol *y = create ? asm_sym_get(&s->jobmap, k, 0) : asm_sym_find(&s->jobmap, k, 0);
    if (!y)
        return create ? -2 : -1;
    if (y->defined)
        return (int)y->value;
    if (!create)
        return -1;
    cert_job *j = realloc(s->jobs, sizeof *j * (size_t)(s->njobs + 1));
    if (!j)
        return -2;
    s->jobs = j;
    memset(&j[s->njobs], 0, sizeof *j);
    j[s->njobs].page = NONE;
    y->defined = 1;
    y->value = s->njobs;
    return s->njobs++;
}

static int parse_dec(const char *s, long long *v)
{
    if (!*s)
        return -1;
    char *end;
    *v = strtoll(s, &end, 10);
    return *end || !isdigit((unsigned char)*s) ? -1 : 0;
}

static uint32_t align_size(uint32_t pos, uint32_t al) { return pos % al ? al - pos % al : 0; }

int cert_item_size(cert_state *s, cert_item *it, uint32_t pos, uint32_t *size)
{
    long long al;
    switch (it->kind) {
    case CI_OP: *size = it->op->size; return 0;
    case CI_LONG: *size = 4; return 0;
    case CI_BD: *size = CERT_BD_SIZE; return 0;
    case CI_ALIGN:
        if (it->nargs != 1 || parse_dec(it->args[0], &al) || al < 1 || al > 4096)
            return cert_st_fail(s, it, ".align: expected a decimal alignment 1..4096%s", "");
        *size = align_size(pos, (uint32_t)al);
        return 0;
    default: *size = 0; return 0;
    }
}

static int is_job_start(const cert_item *it)
{
    if (it->kind != CI_OP)
        return 0;
    for (int i = 0; i < it->op->nargs; i++)
        if (it->op->args[i].kind == CK_JOBSIZE)
            return 1;
    return 0;
}


/* aiebu's assembler_state: sizes and positions, jobs, labels and barrier users. */
int cert_process(cert_state *s, cert_item **d, int n, int unique)
{
    s->d = d;
    s->n = n;
    s->unique = unique;
    s->eof = -1;
    uint32_t pos = 0;
    int eopnum = 0, cjob = -1, clabel = -1;
    char k[600];
    for (int idx = 0; idx < n; idx++) {
        cert_item *it = d[idx];
        if (it->kind == CI_LABEL) {
            key(s, it->file, it->name, k, sizeof k);
            asm_symbol *y = asm_sym_get(&s->labelmap, k, 0);
            cert_label *l = realloc(s->labels, sizeof *l * (size_t)(s->nlabels + 1));
            if (!y || !l)
                return cert_st_fail(s, it, "out of memory%s", "");
            s->labels = l;
            if (y->defined)
                return cert_st_fail(s, it, "label %s defined twice (or its data is used by two job groups of one page)", it->name);
            y->defined = 1;
            y->value = s->nlabels;
            clabel = s->nlabels++;
            l[clabel] = (cert_label){pos, 0, idx, -1, NONE};
            it->size = 0;
        } else {
            if (is_job_start(it)) {
                clabel = -1;
                if (it->nargs < 1)
                    return cert_st_fail(s, it, "%s: expected a job id", it->name);
                job_key(s, it->file, eopnum, it->args[0], k, sizeof k);
                if (asm_sym_find(&s->jobmap, k, 0))
                    return cert_st_fail(s, it, "job %s started twice (a deferred job must follow the job that launches it)",
                                it->args[0]);
                int j = cert_job_lookup(s, k, 1);
                if (j < 0 || il_push(&s->order, j))
                    return cert_st_fail(s, it, "out of memory%s", "");
                s->jobs[j] = (cert_job){pos, pos, idx, idx, NONE, eopnum, 0, {0}, {0}, it->file, it->line};
                cjob = j;
            }
            if (it->is_eof) {
                int j = cert_job_lookup(s, EOF_ID, 1);
                if (j < 0 || il_push(&s->order, j))
                    return cert_st_fail(s, it, "out of memory%s", "");
                free(s->jobs[j].bars.v);
                free(s->jobs[j].deps.v);
                s->jobs[j] = (cert_job){pos, pos, idx, idx, NONE, eopnum, 0, {0}, {0}, it->file, it->line};
                s->eof = j;
            }
            uint32_t size;
            if (cert_item_size(s, it, pos, &size))
                return -1;
            pos += size;
            it->size = size;
            if (it->is_eof) {
                s->jobs[s->eof].end = pos;
                s->jobs[s->eof].ei = idx;
                cjob = -1;
            } else if (it->kind == CI_EOP) {
                snprintf(k, sizeof k, "EOP%d", eopnum++);
                int j = cert_job_lookup(s, k, 1);
                if (j < 0 || il_push(&s->order, j))
                    return cert_st_fail(s, it, "out of memory%s", "");
                s->jobs[j] = (cert_job){pos, pos, idx, idx, NONE, eopnum - 1, 1, {0}, {0}, -1, it->line};
            }
            if (it->kind == CI_OP && it->op->code == 0x11) { /* LOCAL_BARRIER */
                uint32_t lb;
                if (cjob < 0)
                    return cert_st_fail(s, it, "%s outside a job", it->name);
                if (it->nargs < 1 || cert_parse_barrier(it->args[0], &lb))
                    return cert_st_fail(s, it, "%s: expected a barrier $lbN", it->name);
                int slot = -1;
                for (int i = 0; i < s->lbids.n && slot < 0; i++)
                    if ((uint32_t)s->lbids.v[i] == lb)
                        slot = i;
                if (slot < 0) {
                    cert_ilist *p = realloc(s->lbjobs, sizeof *p * (size_t)(s->lbids.n + 1));
                    if (!p || il_push(&s->lbids, (int)lb))
                        return cert_st_fail(s, it, "out of memory%s", "");
                    s->lbjobs = p;
                    slot = s->lbids.n - 1;
                    memset(&p[slot], 0, sizeof p[slot]);
                }
                if (il_push(&s->jobs[cjob].bars, (int)lb) || il_push(&s->lbjobs[slot], cjob))
                    return cert_st_fail(s, it, "out of memory%s", "");
            }
            if (it->kind == CI_OP && it->op->code == 0x18) { /* LAUNCH_JOB */
                if (cjob < 0)
                    return cert_st_fail(s, it, "%s outside a job", it->name);
                if (it->nargs < 1)
                    return cert_st_fail(s, it, "%s: expected a job id", it->name);
                job_key(s, it->file, eopnum, it->args[0], k, sizeof k);
                int j = cert_job_lookup(s, k, 0);
                if (j < 0) /* launching a job that comes later: resolved after the pass */
                    j = -2 - idx;
                if (il_push(&s->jobs[cjob].deps, j))
                    return cert_st_fail(s, it, "out of memory%s", "");
            }
            if (it->kind == CI_OP && it->op->code == 0x07) { /* END_JOB */
                if (cjob < 0)
                    return cert_st_fail(s, it, "%s outside a job", it->name);
                s->jobs[cjob].end = pos;
                s->jobs[cjob].ei = idx;
                s->jobs[cjob].ended = 1;
                cjob = -1;
            }
        }
        if (clabel >= 0 && it->kind != CI_ALIGN && it->kind != CI_EOP && (!it->is_eof || s->a->w->eof_in_label)) {
            s->labels[clabel].count++;
            s->labels[clabel].size += it->size;
        }
    }
    /* APPLY_OFFSET_57 @table, n, ...: the newest aiebu patches the n labels from @table on
     * (in definition order), so the pager keeps them together with it */
    if (unique && s->a->w->ao57_entries)
        for (int idx = 0; idx < n; idx++) {
            cert_item *it = d[idx];
            if (it->kind != CI_OP || it->op->code != 0x0e || it->nargs < 2 || it->args[0][0] != '@')
                continue;
            unsigned long cnt = strtoul(it->args[1], NULL, 10);
            if (cnt == 1)
                continue;
            key(s, it->file, it->args[0] + 1, k, sizeof k);
            asm_symbol *y = asm_sym_find(&s->labelmap, k, 0);
            if (!y)
                return cert_st_fail(s, it, "APPLY_OFFSET_57: label %s not found in this label scope", it->args[0] + 1);
            int l = (int)y->value;
            if (cnt > (unsigned long)(s->nlabels - l))
                return cert_st_fail(s, it, "APPLY_OFFSET_57 %s: fewer labels from there on than num_entries",
                                    it->args[0] + 1);
            if (!s->ldeps && !(s->ldeps = calloc((size_t)s->nlabels, sizeof *s->ldeps)))
                return cert_st_fail(s, it, "out of memory%s", "");
            s->ldeps[l].n = 0; /* a later APPLY_OFFSET_57 of the same table replaces it */
            for (unsigned long m = 0; m < cnt; m++)
                if (il_push(&s->ldeps[l], l + (int)m))
                    return cert_st_fail(s, it, "out of memory%s", "");
        }
    /* LAUNCH_JOB of a job further down, now that every job is known (named in the .eop
     * section of the LAUNCH_JOB) */
    int *eops = NULL;
    for (int j = 0; j < s->njobs; j++)
        for (int i = 0; i < s->jobs[j].deps.n; i++)
            if (s->jobs[j].deps.v[i] <= -2) {
                int at = -2 - s->jobs[j].deps.v[i];
                if (!eops) {
                    if (!(eops = malloc(sizeof *eops * (size_t)n)))
                        return cert_st_fail(s, NULL, "out of memory%s", "");
                    for (int m = 0, e = 0; m < n; m++) {
                        eops[m] = e;
                        e += d[m]->kind == CI_EOP;
                    }
                }
                cert_item *it = d[at];
                job_key(s, it->file, eops[at], it->args[0], k, sizeof k);
                int t = cert_job_lookup(s, k, 0);
                if (t < 0) {
                    free(eops);
                    return cert_st_fail(s, it, "LAUNCH_JOB %s: no such job", it->args[0]);
                }
                s->jobs[j].deps.v[i] = t;
            }
    free(eops);
    for (int j = 0; j < s->njobs; j++)
        if (s->jobs[j].file >= 0 && j != s->eof && !s->jobs[j].ended) {
            cert_item *it = d[s->jobs[j].si];
            return cert_st_fail(s, it, "%s without END_JOB", it->name);
        }
    return 0;
}

/* ---- the pager ------------------------------------------------------------------------- */

static int is_ooo(const cert_item *it)
{
    if (it->kind != CI_OP)
        return 0;
    for (int i = 0; i < it->op->nargs; i++)
        if (it->op->args[i].kind == CK_PAGE)
            return 1;
    return 0;
}

static int is_pad(const cert_state *s, const char *name)
{
    for (int i = 0; i < s->c->npads; i++)
        if (!strcmp(s->c->pads[i].name, name))
            return 1;
    return 0;
}

/* Labels a statement references, through the data they label, appended to out (first
 * occurrence order, as aiebu's recursive union gives). */
static int labels_of(cert_state *s, const cert_item *it, cert_ilist *out, int depth)
{
    if (it->kind == CI_LABEL || is_ooo(it))
        return 0;
    if (depth > 10000)
        return cert_st_fail(s, it, "UC_DMA_BD chain nested too deep%s", "");
    for (int i = 0; i < it->nargs; i++) {
        const char *a = it->args[i];
        if (a[0] != '@' || is_pad(s, a + 1))
            continue;
        char k[600];
        key(s, it->file, a + 1, k, sizeof k);
        asm_symbol *y = asm_sym_find(&s->labelmap, k, 0);
        if (!y)
            return cert_st_fail(s, it, "label %s not found in this label scope", a + 1);
        int l = (int)y->value;
        if (il_has(out, l))
            continue;
        if (il_push(out, l))
            return cert_st_fail(s, it, "out of memory%s", "");
        for (int m = 0; s->ldeps && m < s->ldeps[l].n; m++) /* the other tables it patches */
            if (!il_has(out, s->ldeps[l].v[m]) && il_push(out, s->ldeps[l].v[m]))
                return cert_st_fail(s, it, "out of memory%s", "");
        for (int m = 0; m <= s->labels[l].count; m++)
            if (labels_of(s, s->d[s->labels[l].index + m], out, depth + 1))
                return -1;
    }
    return 0;
}

static int ooo_of(cert_state *s, const cert_item *it, char ***out, int *n)
{
    if (!is_ooo(it))
        return 0;
    for (int i = 0; i < it->nargs; i++) {
        if (it->args[i][0] != '@')
            continue;
        int dup = 0;
        for (int k = 0; k < *n && !dup; k++)
            dup = !strcmp((*out)[k], it->args[i] + 1);
        if (dup)
            continue;
        char **p = realloc(*out, sizeof *p * (size_t)(*n + 1));
        if (!p || !(p[*n] = strdup(it->args[i] + 1)))
            return cert_st_fail(s, it, "out of memory%s", "");
        *out = p;
        ++*n;
    }
    return 0;
}

static uint32_t data_aligner(uint32_t tsize) { return (tsize + 4) % 16 ? 16 - (tsize + 4) % 16 : 0; }

/* The group of job j: jobs sharing local barriers (transitively), then those j launches
 * (the newest aiebu: each with its own group, transitively). */
static int job_group(cert_state *s, int j, cert_ilist *out, int depth)
{
    if (depth > 1000)
        return cert_st_fail(s, s->d[s->jobs[j].si], "job %s: LAUNCH_JOB chain longer than 1000 (or a cycle)",
                            s->d[s->jobs[j].si]->args[0]);
    cert_ilist bars = {0};
    if (il_push(out, j) || il_union(&bars, &s->jobs[j].bars))
        return -1;
    for (int i = 0; i < bars.n; i++) {
        int slot = 0;
        while (s->lbids.v[slot] != bars.v[i])
            slot++;
        cert_ilist users = s->lbjobs[slot];
        for (int u = 0; u < users.n; u++) {
            if (s->jobs[users.v[u]].eopnum != s->jobs[j].eopnum) {
                free(bars.v);
                return cert_st_fail(s, s->d[s->jobs[j].si], "job %s shares a local barrier with a job on the other side of .eop",
                            s->d[s->jobs[j].si]->args[0]);
            }
            if (il_union(&bars, &s->jobs[users.v[u]].bars))
                return free(bars.v), -1;
        }
        if (il_union(out, &users))
            return free(bars.v), -1;
    }
    free(bars.v);
    if (il_union(out, &s->jobs[j].deps))
        return -1;
    for (int i = 0; s->a->w->launch_closure && i < s->jobs[j].deps.n; i++) {
        cert_ilist sub = {0};
        int rc = job_group(s, s->jobs[j].deps.v[i], &sub, depth + 1);
        if (!rc)
            rc = il_union(out, &sub);
        free(sub.v);
        if (rc)
            return -1;
    }
    return 0;
}

typedef struct pagebuild {
    cert_ilist jobs, labels;
    char **ooo;
    int nooo;
    uint32_t tsize, dsize;
} pagebuild;

static int item_push(cert_item ***v, int *n, cert_item *it)
{
    cert_item **p = realloc(*v, sizeof *p * (size_t)(*n + 1));
    if (!p)
        return -1;
    *v = p;
    p[(*n)++] = it;
    return 0;
}

static int close_page(cert_state *s, pagebuild *b, int first_page, cert_item *align16)
{
    cert_col *c = s->c;
    if (!b->jobs.n)
        return 0;
    if (c->npages == c->cappages) {
        int cap = c->cappages ? c->cappages * 2 : 8;
        cert_page *p = realloc(c->pages, sizeof *p * (size_t)cap);
        if (!p)
            return cert_st_fail(s, NULL, "out of memory%s", "");
        c->pages = p;
        c->cappages = cap;
    }
    if (c->npages >= CERT_MAX_PAGES)
        return cert_st_fail(s, NULL, "more than %s pages", "4096");
    cert_page *pg = &c->pages[c->npages];
    memset(pg, 0, sizeof *pg);
    pg->index = (uint32_t)c->npages;
    c->npages++;
    for (int i = 0; i < b->jobs.n; i++) {
        cert_job *j = &s->jobs[b->jobs.v[i]];
        j->page = (int)pg->index;
        for (int k = j->si; k <= j->ei; k++)
            if (item_push(&pg->text, &pg->ntext, s->d[k]))
                return cert_st_fail(s, NULL, "out of memory%s", "");
    }
    /* UC_DMA_BD blocks (16-aligned) first, then .long blocks */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < b->labels.n; i++) {
            cert_label *l = &s->labels[b->labels.v[i]];
            if ((s->d[l->index + 1]->kind == CI_BD) != !pass)
                continue;
            l->page = (int)pg->index;
            for (int k = 0; k <= l->count; k++)
                if (item_push(&pg->data, &pg->ndata, s->d[l->index + k]))
                    return cert_st_fail(s, NULL, "out of memory%s", "");
        }
    if (item_push(&pg->text, &pg->ntext, s->d[s->jobs[s->eof].si]))
        return cert_st_fail(s, NULL, "out of memory%s", "");
    uint32_t al = b->dsize ? data_aligner(b->tsize) : 0;
    if (al && item_push(&pg->text, &pg->ntext, align16))
        return cert_st_fail(s, NULL, "out of memory%s", "");
    pg->cur_len = (CERT_PAGE_HDR + b->tsize + 4 + al + b->dsize + 3) & ~3u;
    pg->ooo = b->ooo;
    pg->nooo = b->nooo;
    b->ooo = NULL;
    b->nooo = 0;
    if (c->npages > 1 && c->npages - 2 >= first_page)
        c->pages[c->npages - 2].next_len = pg->cur_len;
    b->jobs.n = b->labels.n = 0;
    b->tsize = b->dsize = 0;
    return 0;
}

static int pagify(cert_state *s, int first_page, cert_item *align16)
{
    pagebuild b = {0};
    int rc = -1;
    cert_ilist group = {0}, labels = {0};
    char **ooo = NULL;
    int nooo = 0;
    for (int oi = 0; oi < s->order.n; oi++) {
        int j = s->order.v[oi];
        cert_job *jb = &s->jobs[j];
        if (jb->page != NONE || il_has(&b.jobs, j) || j == s->eof)
            continue;
        if (jb->file < 0) { /* .eop */
            if (b.jobs.n && close_page(s, &b, first_page, align16))
                goto out;
            continue;
        }
        group.n = labels.n = 0;
        if (job_group(s, j, &group, 0))
            goto out;
        uint32_t tsize = 0;
        for (int g = 0; g < group.n; g++) {
            cert_job *x = &s->jobs[group.v[g]];
            tsize += x->end - x->start;
            for (int k = x->si; k <= x->ei; k++)
                if (labels_of(s, s->d[k], &labels, 0) || ooo_of(s, s->d[k], &ooo, &nooo))
                    goto out;
        }
        uint32_t dsize = 0;
        for (int i = 0; i < labels.n; i++) {
            cert_label *l = &s->labels[labels.v[i]];
            int k = l->index + 1 < s->n ? s->d[l->index + 1]->kind : 0;
            if (k != CI_BD && k != CI_LONG) {
                cert_st_fail(s, s->d[l->index], "label %s: data must start with UC_DMA_BD or .long", s->d[l->index]->name);
                goto out;
            }
            dsize += l->size;
        }
        if (tsize + data_aligner(tsize) + dsize + 4 + CERT_PAGE_HDR > CERT_PAGE_SIZE) {
            cert_st_fail(s, s->d[jb->si], "job %s with the jobs and data it needs does not fit in one 8192-byte page",
                 s->d[jb->si]->args[0]);
            goto out;
        }
        if (b.tsize + b.dsize + tsize + data_aligner(b.tsize + tsize) + dsize + 4 + CERT_PAGE_HDR > CERT_PAGE_SIZE &&
            close_page(s, &b, first_page, align16))
            goto out;
        b.tsize += tsize;
        b.dsize += dsize;
        for (int g = 0; g < group.n; g++) {
            if (il_has(&b.jobs, group.v[g])) {
                cert_st_fail(s, s->d[s->jobs[group.v[g]].si], "job %s is paged twice (put a deferred job after its launcher)",
                     s->d[s->jobs[group.v[g]].si]->args[0]);
                goto out;
            }
            if (il_push(&b.jobs, group.v[g]))
                goto out;
        }
        for (int i = 0; i < labels.n; i++) {
            if (s->a->w->labels_shared && il_has(&b.labels, labels.v[i]))
                continue; /* placed once; the page length above still counts it again, as aiebu does */
            if (il_has(&b.labels, labels.v[i]) || il_push(&b.labels, labels.v[i])) {
                if (il_has(&b.labels, labels.v[i]))
                    cert_st_fail(s, s->d[s->labels[labels.v[i]].index],
                         "label %s is used by two job groups of one page (aiebu rejects this)",
                         s->d[s->labels[labels.v[i]].index]->name);
                goto out;
            }
        }
        for (int i = 0; i < nooo; i++) {
            char **p = realloc(b.ooo, sizeof *p * (size_t)(b.nooo + 1));
            if (!p)
                goto out;
            b.ooo = p;
            p[b.nooo++] = ooo[i];
        }
        nooo = 0;
    }
    if (b.jobs.n && close_page(s, &b, first_page, align16))
        goto out;
    rc = 0;
out:
    if (rc && !s->a->err[0])
        cert_asm_fail(s->a, 0, 0, "out of memory");
    for (int i = 0; i < nooo; i++)
        free(ooo[i]);
    free(ooo);
    for (int i = 0; i < b.nooo; i++)
        free(b.ooo[i]);
    free(b.ooo);
    free(b.jobs.v);
    free(b.labels.v);
    free(group.v);
    free(labels.v);
    return rc;
}

int cert_add_lsym(cert_col *c, const char *name, int page, int code, uint32_t pc)
{
    cert_lsym *p = realloc(c->lsyms, sizeof *p * (size_t)(c->nlsyms + 1));
    if (!p)
        return -1;
    c->lsyms = p;
    p[c->nlsyms++] = (cert_lsym){name, page, code, pc};
    return 0;
}

int cert_asm_pages(cert_asm *a)
{
    cert_item *align16 = calloc(1, sizeof *align16);
    char **arg = calloc(1, sizeof *arg);
    if (!align16 || !arg || !(arg[0] = strdup("16")) || !(align16->name = strdup(".align"))) {
        if (arg)
            free(arg[0]);
        free(arg);
        if (align16)
            free(align16->name);
        free(align16);
        return cert_asm_fail(a, 0, 0, "out of memory");
    }
    *align16 = (cert_item){CI_ALIGN, NULL, align16->name, arg, 1, 0, 0, 0, 0};
    void *p = realloc(a->items, sizeof *a->items * (size_t)(a->nitems + 1));
    if (!p) {
        free(arg[0]);
        free(arg);
        free(align16->name);
        free(align16);
        return cert_asm_fail(a, 0, 0, "out of memory");
    }
    a->items = p;
    a->items[a->nitems++] = align16;
    a->capitems = a->nitems;
    for (int ci = 0; ci < a->ncols; ci++) {
        cert_col *c = &a->cols[ci];
        for (int si = 0; si < c->nscopes; si++) {
            cert_scope *sc = &c->scopes[si];
            const char *colon = strrchr(sc->path, ':');
            asm_symbol *y = asm_sym_get(&c->page_of, colon ? colon + 1 : sc->path, 0);
            if (!y)
                return cert_asm_fail(a, 0, 0, "out of memory");
            y->defined = 1;
            y->value = 0;
        }
        for (int si = 0; si < c->nscopes; si++) {
            cert_scope *sc = &c->scopes[si];
            int n = sc->ntext + sc->ndata, first = c->npages;
            cert_item **all = malloc(sizeof *all * (size_t)(n + 1));
            if (!all)
                return cert_asm_fail(a, 0, 0, "out of memory");
            if (sc->ntext)
                memcpy(all, sc->text, sizeof *all * (size_t)sc->ntext);
            if (sc->ndata)
                memcpy(all + sc->ntext, sc->data, sizeof *all * (size_t)sc->ndata);
            cert_state s = {.a = a, .c = c};
            int rc = cert_process(&s, all, n, 1);
            if (!rc && s.eof < 0 && s.njobs > 0)
                rc = cert_asm_fail(a, all[0]->file, all[0]->line, "no EOF after the jobs%s", "");
            if (!rc && s.njobs > 0)
                rc = pagify(&s, first, align16);
            cert_state_free(&s);
            free(all);
            if (rc)
                return -1;
            const char *colon = strrchr(sc->path, ':');
            asm_symbol *y = asm_sym_get(&c->page_of, colon ? colon + 1 : sc->path, 0);
            if (!y)
                return cert_asm_fail(a, 0, 0, "out of memory");
            y->value = first;
            if (a->symbols && colon && c->npages > first && /* the scope's first instruction */
                cert_add_lsym(c, y->name, first, 1, (uint32_t)first * CERT_PAGE_SIZE + CERT_PAGE_HDR))
                return cert_asm_fail(a, 0, 0, "out of memory");
        }
        uint32_t at = 0;
        for (int i = 0; i < c->npads; i++) {
            at = (at + 3) & ~3u;
            c->pads[i].offset = at;
            c->pads[i].base = CERT_PAGE_SIZE * (uint32_t)c->npages;
            at += c->pads[i].size;
        }
        for (int i = 0; i < c->npages; i++) {
            cert_page *pg = &c->pages[i];
            if (!a->w->ooo_header)
                continue; /* the newest header has no out-of-order page lengths */
            if (pg->nooo > 2)
                return cert_asm_fail(a, 0, 0, "uC %d page %d: more than 2 out-of-order targets (LOAD_PDI/PREEMPT)", c->col, i);
            for (int k = 0; k < pg->nooo; k++) {
                const char *colon = strrchr(pg->ooo[k], ':');
                const char *lb = colon ? colon + 1 : pg->ooo[k];
                asm_symbol *y = asm_sym_find(&c->page_of, lb, 0);
                if (!y || y->value < 0 || y->value >= c->npages)
                    return cert_asm_fail(a, 0, 0, "uC %d: label scope %s has no page", c->col, lb);
                *(k ? &pg->ooo_len2 : &pg->ooo_len1) = c->pages[y->value].cur_len;
            }
        }
        c->text = calloc((size_t)c->npages + 1, sizeof *c->text);
        c->data = calloc((size_t)c->npages + 1, sizeof *c->data);
        c->text_len = calloc((size_t)c->npages + 1, sizeof *c->text_len);
        c->data_len = calloc((size_t)c->npages + 1, sizeof *c->data_len);
        if (!c->text || !c->data || !c->text_len || !c->data_len)
            return cert_asm_fail(a, 0, 0, "out of memory");
        for (int i = 0; i < c->npages; i++)
            if (cert_encode_page(a, c, i))
                return -1;
    }
    return 0;
}
