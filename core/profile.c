/* core/profile.c: the per-PC profile table (see profile.h). A hash keyed by PC grows by
 * doubling; it lives on the instrumented path only, never on the executors' fast path. */
#include <stdlib.h>
#include <string.h>
#include "profile.h"
#include "stats.h"

prof_state *prof_new(const sim_machine *m)
{
    prof_state *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->tpu = m->nunits ? m->units[0].nthreads : 1;
    p->nth = m->nunits * p->tpu;
    p->cap = 1024;
    p->tab = calloc(p->cap, sizeof *p->tab);
    p->th = calloc((size_t)(p->nth ? p->nth : 1), sizeof *p->th);
    if (!p->tab || !p->th) {
        prof_free(p);
        return NULL;
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

static uint32_t prof_hash(uint64_t pc, uint32_t cap)
{
    pc *= 0x9e3779b97f4a7c15ull; /* Fibonacci hashing: consecutive PCs spread out */
    return (uint32_t)(pc >> 32) & (cap - 1);
}

static prof_entry *prof_slot(prof_entry *tab, uint32_t cap, uint64_t pc)
{
    uint32_t i = prof_hash(pc, cap);
    while (tab[i].used && tab[i].pc != pc)
        i = (i + 1) & (cap - 1);
    return &tab[i];
}

static prof_entry *prof_get(prof_state *p, uint64_t pc)
{
    if (2 * (p->n + 1) > p->cap) {
        uint32_t ncap = p->cap * 2;
        prof_entry *nt = calloc(ncap, sizeof *nt);
        if (!nt)
            return NULL;
        for (uint32_t i = 0; i < p->cap; i++)
            if (p->tab[i].used)
                *prof_slot(nt, ncap, p->tab[i].pc) = p->tab[i];
        free(p->tab);
        p->tab = nt;
        p->cap = ncap;
    }
    prof_entry *e = prof_slot(p->tab, p->cap, pc);
    if (!e->used) {
        e->used = 1;
        e->pc = pc;
        p->n++;
    }
    return e;
}

int prof_record(prof_state *p, int unit, int thread, uint64_t pc, uint64_t cycle)
{
    int g = unit * p->tpu + thread;
    if (g < 0 || g >= p->nth)
        return 0;
    prof_thread *t = &p->th[g];
    if (t->valid && cycle >= t->cycle) {
        prof_entry *prev = prof_get(p, t->pc);
        if (!prev)
            return -1;
        prev->cycles += cycle - t->cycle;
    }
    prof_entry *e = prof_get(p, pc);
    if (!e)
        return -1;
    e->insns++;
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
        prof_entry *e = prof_get(p, t->pc);
        if (e && end > t->cycle)
            e->cycles += end - t->cycle;
        t->cycle = end > t->cycle ? end : t->cycle; /* a later finish charges only new time */
    }
}

static int prof_cmp(const void *a, const void *b)
{
    const prof_entry *x = a, *y = b;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

int prof_sorted(const prof_state *p, prof_entry **out)
{
    prof_entry *v = malloc((p->n ? p->n : 1) * sizeof *v);
    if (!v)
        return -1;
    int k = 0;
    for (uint32_t i = 0; i < p->cap; i++)
        if (p->tab[i].used)
            v[k++] = p->tab[i];
    qsort(v, (size_t)k, sizeof *v, prof_cmp);
    *out = v;
    return k;
}
