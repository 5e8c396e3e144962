/* core/profile.c: the per-PC profile table (see profile.h). A hash keyed by (thread, PC) grows by
 * doubling; it lives on the instrumented path only, never on the executors' fast path. */
#include <stdlib.h>
#include <string.h>
#include "profile.h"
#include "stats.h"
#include "../isa/isa.h"

prof_state *prof_new(const sim_machine *m)
{
    prof_state *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->tpu = m->nunits ? m->units[0].nthreads : 1;
    p->nth = m->nunits * p->tpu;
    if (m->isa && m->isa->stall_names)
        while (p->nstalls < SIM_MAX_STALLS && m->isa->stall_names[p->nstalls])
            p->nstalls++;
    p->cap = 1024;
    p->tab = calloc(p->cap, sizeof *p->tab);
    p->th = calloc((size_t)(p->nth ? p->nth : 1), sizeof *p->th);
    if (!p->tab || !p->th) {
        prof_free(p);
        return NULL;
    }
    /* a profile started mid-run (the debugger) counts stalls from now on */
    for (int g = 0; g < p->nth; g++) {
        const sim_thread *th = &m->units[g / p->tpu].threads[g % p->tpu];
        memcpy(p->th[g].stalls, th->stalls, sizeof p->th[g].stalls);
        p->th[g].insns = th->instructions;
    }
    return p;
}

void prof_free(prof_state *p)
{
    if (!p)
        return;
    free(p->tab);
    free(p->th);
    free(p);
}

static uint32_t prof_hash(uint64_t pc, int32_t thread, uint32_t cap)
{
    pc = (pc ^ ((uint64_t)(uint32_t)thread << 40)) * 0x9e3779b97f4a7c15ull; /* Fibonacci hashing: consecutive PCs spread out */
    return (uint32_t)(pc >> 32) & (cap - 1);
}

static prof_entry *prof_slot(prof_entry *tab, uint32_t cap, uint64_t pc, int32_t thread)
{
    uint32_t i = prof_hash(pc, thread, cap);
    while (tab[i].used && (tab[i].pc != pc || tab[i].thread != thread))
        i = (i + 1) & (cap - 1);
    return &tab[i];
}

static prof_entry *prof_get(prof_state *p, uint64_t pc, int32_t thread)
{
    prof_entry *e = prof_slot(p->tab, p->cap, pc, thread);
    if (e->used) /* the common case: a PC seen before */
        return e;
    if (2 * (p->n + 1) > p->cap) {
        uint32_t ncap = p->cap * 2;
        prof_entry *nt = calloc(ncap, sizeof *nt);
        if (!nt)
            return NULL;
        for (uint32_t i = 0; i < p->cap; i++)
            if (p->tab[i].used)
                *prof_slot(nt, ncap, p->tab[i].pc, p->tab[i].thread) = p->tab[i];
        free(p->tab);
        p->tab = nt;
        p->cap = ncap;
        p->gen++;
        e = prof_slot(p->tab, p->cap, pc, thread);
    }
    e->used = 1;
    e->pc = pc;
    e->thread = thread;
    p->n++;
    return e;
}

/* Charge the increase of the thread's stall counters since its previous record to e. */
static inline void prof_stalls(prof_state *p, prof_thread *t, prof_entry *e, const uint64_t *stalls)
{
    for (int k = 0; k < p->nstalls; k++)
        if (stalls[k] != t->stalls[k]) {
            if (stalls[k] > t->stalls[k])
                e->stalls[k] += stalls[k] - t->stalls[k];
            t->stalls[k] = stalls[k];
        }
}

/* The thread's last recorded PC's entry (cached while the table has not grown). */
static prof_entry *prof_last(prof_state *p, prof_thread *t, int g)
{
    return t->gen == p->gen ? &p->tab[t->slot] : prof_get(p, t->pc, g);
}

int prof_before(prof_state *p, int unit, int thread, const sim_thread *th)
{
    int g = unit * p->tpu + thread;
    if (g < 0 || g >= p->nth)
        return 0;
    prof_thread *t = &p->th[g];
    if (!t->valid) /* before the first instruction: charged to it by prof_record */
        return 0;
    prof_entry *prev = prof_last(p, t, g);
    if (!prev)
        return -1;
    prof_stalls(p, t, prev, th->stalls);
    return 0;
}

int prof_record(prof_state *p, int unit, int thread, uint64_t pc, uint64_t cycle, const sim_thread *th)
{
    int g = unit * p->tpu + thread;
    if (g < 0 || g >= p->nth)
        return 0;
    prof_thread *t = &p->th[g];
    if (t->valid) {
        prof_entry *prev = prof_last(p, t, g);
        if (!prev)
            return -1;
        if (cycle >= t->cycle)
            prev->cycles += cycle - t->cycle;
    }
    prof_entry *e = prof_get(p, pc, g);
    if (!e)
        return -1;
    /* what the instruction counted while it executed (a DPU DMA's wait, a bank penalty) is
     * its own; the thread's stalls up to its issue went to the previous PC in prof_before */
    prof_stalls(p, t, e, th->stalls);
    t->slot = (uint32_t)(e - p->tab);
    t->gen = p->gen;
    /* retired instructions: an issue that is rolled back and replayed (Nyuzi) counts once */
    e->insns += th->instructions - t->insns;
    t->insns = th->instructions;
    t->pc = pc;
    t->cycle = cycle;
    t->valid = 1;
    return 0;
}

void prof_finish(prof_state *p, const sim_machine *m)
{
    for (int g = 0; g < p->nth; g++) {
        prof_thread *t = &p->th[g];
        if (!t->valid)
            continue;
        const sim_thread *th = &m->units[g / p->tpu].threads[g % p->tpu];
        uint64_t end = stats_thread_cycles(m, th);
        prof_entry *e = prof_get(p, t->pc, g);
        if (!e)
            continue;
        if (end > t->cycle)
            e->cycles += end - t->cycle;
        prof_stalls(p, t, e, th->stalls);
        t->cycle = end > t->cycle ? end : t->cycle; /* a later finish charges only new time */
    }
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
    prof_entry *v = malloc((p->n ? p->n : 1) * sizeof *v);
    if (!v)
        return -1;
    int k = 0;
    for (uint32_t i = 0; i < p->cap; i++)
        if (p->tab[i].used && (thread < 0 || p->tab[i].thread == thread))
            v[k++] = p->tab[i];
    qsort(v, (size_t)k, sizeof *v, prof_cmp);
    *out = v;
    return k;
}
