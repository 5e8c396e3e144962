/* core/profile_read.c: a profile's life outside the feed: prof_new sizes the rows and threads
 * for a machine (a profile started mid-run counts from then on), prof_free releases it, and
 * prof_sorted / prof_edges give its rows and call edges sorted, the open rows and calls
 * closed at each thread's end (prof_finish). The feed itself is profile.c (word mode:
 * profile_word.c). */
#include <stdlib.h>
#include <string.h>
#include "profile_int.h"
#include "../isa/isa.h"

/* n zeroed bytes aligned to a cache line (64), or NULL; freed with free(). */
void *prof_zalloc(size_t n)
{
    n = (n + 63) & ~(size_t)63;
    void *b = aligned_alloc(64, n ? n : 64);
    if (b)
        memset(b, 0, n ? n : 64);
    return b;
}

prof_state *prof_new(sim_machine *m)
{
    prof_state *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->m = m;
    p->flow = m->isa ? m->isa->insn_flow : NULL;
    p->tpu = m->nunits ? m->units[0].nthreads : 1;
    p->nth = m->nunits * p->tpu;
    if (m->isa && m->isa->stall_names)
        while (p->nstalls < SIM_MAX_STALLS && m->isa->stall_names[p->nstalls])
            p->nstalls++;
    /* a whole number of cache lines a row, in chunks aligned to them: an issue touches one
     * line of each of its two rows (64 bytes for the DPU's 3 causes) */
    p->stride = (PROF_STALLS + p->nstalls + 7) & ~7;
    p->th = prof_zalloc((size_t)(p->nth ? p->nth : 1) * sizeof *p->th);
    p->wcc = prof_zalloc((size_t)(p->nth ? p->nth : 1) * PROF_WCC * sizeof *p->wcc);
    if (!p->th || !p->wcc) {
        prof_free(p);
        return NULL;
    }
    /* a profile started mid-run (the debugger) counts from now on */
    for (int g = 0; g < p->nth; g++) {
        const sim_thread *th = &m->units[g / p->tpu].threads[g % p->tpu];
        prof_thread *t = &p->th[g];
        memcpy(t->stalls, th->stalls, sizeof t->stalls);
        t->pre[PROF_INSNS] = -th->instructions; /* open: the first issue adds the growth */
        t->hook_insns = th->instructions;
        t->row = t->pre;
        t->nstalls = p->nstalls;
        t->stride = p->stride;
        t->g = g;
        t->p = p;
        t->bder = -1;
        t->wnone = PROF_W_CALL; /* (row form) */
        t->pw = &t->wnone;
        t->wcause = -1;
        t->wcc = p->wcc + (size_t)(g / p->tpu) * PROF_WCC * (size_t)p->tpu + (size_t)(g % p->tpu);
        t->wccs = (uint32_t)p->tpu;
    }
    return p;
}

void prof_free(prof_state *p)
{
    if (!p)
        return;
    for (int g = 0; g < p->nth && p->th; g++) {
        free(p->th[g].stack);
        free(p->th[g].mapmem);
        free(p->th[g].fmap);
        free(p->th[g].bat);
        free(p->th[g].btl);
        free(p->th[g].blen);
        free(p->th[g].wmem);
        free(p->th[g].wtl);
    }
    free(p->poison);
    free(p->wzero);
    free(p->wcc);
    for (uint32_t c = 0; c < p->nchunks; c++)
        free(p->chunks[c]);
    free(p->chunks);
    free(p->hash);
    free(p->th);
    free(p->edges);
    free(p->eidx);
    free(p);
}

static int prof_cmp(const void *a, const void *b)
{
    const prof_entry *x = a, *y = b;
    if (x->pc != y->pc)
        return x->pc < y->pc ? -1 : 1;
    return (x->thread > y->thread) - (x->thread < y->thread);
}

int prof_sorted(const prof_state *p, int thread, prof_entry **out)
{
    prof_entry *v = malloc((p->nrows ? p->nrows : 1) * sizeof *v);
    if (!v)
        return -1;
    int k = 0;
    for (uint32_t c = 0; c < p->nchunks; c++) {
        uint32_t used = c + 1 == p->nchunks ? p->chunk_used : PROF_CHUNK;
        for (uint32_t i = 0; i < used; i++) {
            uint64_t *r = p->chunks[c] + (size_t)i * (size_t)p->stride;
            if (thread >= 0 && row_thread(p, r) != thread)
                continue;
            prof_entry *e = &v[k++];
            memset(e, 0, sizeof *e);
            e->pc = *row_pc(p, r);
            e->thread = row_thread(p, r);
            e->insns = r[PROF_INSNS];
            e->cycles = r[PROF_CYCLES];
            const prof_thread *t = &p->th[e->thread];
            if (t->row == r) { /* the thread's open row closes at its end (prof_finish) */
                e->insns += t->ended ? t->end_insns : 0;
                e->cycles += t->ended ? t->end_cycle : 0;
            }
            memcpy(e->stalls, r + PROF_STALLS, (size_t)p->nstalls * sizeof *r);
        }
    }
    qsort(v, (size_t)k, sizeof *v, prof_cmp);
    *out = v;
    return k;
}

static int prof_edge_cmp(const void *a, const void *b)
{
    const prof_edge *x = a, *y = b;
    if (x->site != y->site)
        return x->site < y->site ? -1 : 1;
    if (x->target != y->target)
        return x->target < y->target ? -1 : 1;
    return (x->thread > y->thread) - (x->thread < y->thread);
}

int prof_edges(const prof_state *p, int thread, prof_edge **out)
{
    prof_edge *v = malloc((p->nedges ? p->nedges : 1) * sizeof *v);
    if (!v)
        return -1;
    for (uint32_t i = 0; i < p->nedges; i++)
        v[i] = *prof_edge_at(p, i);
    /* open calls count up to the thread's last record (prof_finish: its halt or the end) */
    for (int g = 0; g < p->nth; g++) {
        const prof_thread *t = &p->th[g];
        for (uint32_t d = 0; d < t->depth; d++) {
            prof_edge_charge(p->nstalls, &v[prof_fr(t, d)->edge], t->end_insns, t->end_cycle, t->stalls, 1);
        }
    }
    int k = 0;
    for (uint32_t i = 0; i < p->nedges; i++)
        if (thread < 0 || v[i].thread == thread)
            v[k++] = v[i];
    qsort(v, (size_t)k, sizeof *v, prof_edge_cmp);
    *out = v;
    return k;
}
