/* core/profile.c: the per-PC profile table and the call edges (see profile.h). A hash keyed
 * by (thread, PC) grows by doubling, and so does the edge table; the shadow call stacks grow
 * as the program calls deeper. All of it lives on the instrumented path only, never on the
 * executors' fast path. */
#include <stdlib.h>
#include <string.h>
#include "profile.h"
#include "stats.h"
#include "../isa/isa.h"

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
    for (int g = 0; g < p->nth && p->th; g++)
        free(p->th[g].stack);
    free(p->tab);
    free(p->th);
    free(p->edges);
    free(p->eidx);
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
    if (p->flow) { /* once per entry: the executors never pay for call edges */
        uint64_t ret = pc;
        int tpu = p->tpu ? p->tpu : 1;
        e->flow = (uint8_t)p->flow(p->m, thread / tpu, pc, &ret);
        if (e->flow == ISA_FLOW_CALL && (ret <= pc || ret - pc > 255))
            e->flow = ISA_FLOW_NONE; /* outside the contract: no edge rather than a wrong one */
        e->ret_delta = (uint8_t)(ret - pc);
    }
    return e;
}

static uint32_t prof_edge_hash(int32_t thread, uint64_t site, uint64_t target, uint32_t cap)
{
    uint64_t h = (site * 0x9e3779b97f4a7c15ull) ^ (target * 0xc2b2ae3d27d4eb4full) ^ (uint64_t)(uint32_t)thread;
    return (uint32_t)((h * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
}

/* The edge (thread, site, target), created with no calls if new; its index or -1. */
static int64_t prof_edge_get(prof_state *p, int32_t thread, uint64_t site, uint64_t target)
{
    if (2 * (p->nedges + 1) > p->eidx_cap) {
        uint32_t ncap = p->eidx_cap ? 2 * p->eidx_cap : 256;
        uint32_t *ni = calloc(ncap, sizeof *ni);
        if (!ni)
            return -1;
        for (uint32_t k = 0; k < p->nedges; k++) {
            const prof_edge *x = &p->edges[k];
            uint32_t i = prof_edge_hash(x->thread, x->site, x->target, ncap);
            while (ni[i])
                i = (i + 1) & (ncap - 1);
            ni[i] = k + 1;
        }
        free(p->eidx);
        p->eidx = ni;
        p->eidx_cap = ncap;
    }
    uint32_t i = prof_edge_hash(thread, site, target, p->eidx_cap);
    for (; p->eidx[i]; i = (i + 1) & (p->eidx_cap - 1)) {
        const prof_edge *x = &p->edges[p->eidx[i] - 1];
        if (x->site == site && x->target == target && x->thread == thread)
            return p->eidx[i] - 1;
    }
    if (p->nedges == p->edge_cap) {
        uint32_t ncap = p->edge_cap ? 2 * p->edge_cap : 64;
        prof_edge *ne = realloc(p->edges, ncap * sizeof *ne);
        if (!ne)
            return -1;
        p->edges = ne;
        p->edge_cap = ncap;
    }
    prof_edge *x = &p->edges[p->nedges];
    memset(x, 0, sizeof *x);
    x->site = site;
    x->target = target;
    x->thread = thread;
    p->eidx[i] = p->nedges + 1;
    return p->nedges++;
}

/* Close the frames of t from the top down to depth k: their edges get the growth of the
 * thread's totals (insns, cycle, stalls) since the callee's entry. */
static void prof_pop(prof_state *p, prof_thread *t, uint32_t k, uint64_t insns, uint64_t cycle, const uint64_t *stalls)
{
    while (t->depth > k) {
        const prof_frame *f = &t->stack[--t->depth];
        prof_edge *x = &p->edges[f->edge];
        x->insns += insns - f->insns;
        x->cycles += cycle - f->cycle;
        for (int c = 0; c < p->nstalls; c++)
            x->stalls[c] += stalls[c] - f->stalls[c];
    }
}

/* Deepest frame a return is looked for below the top (a longjmp past more is not unwound). */
#define PROF_UNWIND 64

/* The thread g, whose previous instruction (entry prev) ended at pc, issued at cycle: its
 * totals are now t->insns, cycle and t->stalls. Pop the call it returns from, push the call
 * it enters. -1 on out of memory. */
static int prof_flow(prof_state *p, prof_thread *t, int g, const prof_entry *prev, uint64_t pc, uint64_t cycle)
{
    if (t->depth && pc == t->stack[t->depth - 1].ret)
        prof_pop(p, t, t->depth - 1, t->insns, cycle, t->stalls);
    else if (prev->flow == ISA_FLOW_RETURN)
        for (uint32_t k = t->depth, n = 0; k-- > 0 && n < PROF_UNWIND; n++)
            if (t->stack[k].ret == pc) {
                prof_pop(p, t, k, t->insns, cycle, t->stalls);
                break;
            }
    if (prev->flow != ISA_FLOW_CALL || (pc > prev->pc && pc <= prev->pc + prev->ret_delta))
        return 0; /* not a call, or one not taken (or to its own fall-through) */
    if (t->depth == t->cap) {
        uint32_t ncap = t->cap ? 2 * t->cap : 16;
        prof_frame *ns = ncap > (1u << 24) ? NULL : realloc(t->stack, ncap * sizeof *ns);
        if (!ns)
            return -1;
        t->stack = ns;
        t->cap = ncap;
    }
    int64_t x = prof_edge_get(p, g, prev->pc, pc);
    if (x < 0)
        return -1;
    p->edges[x].calls++;
    prof_frame *f = &t->stack[t->depth++];
    f->ret = prev->pc + prev->ret_delta;
    f->edge = (uint32_t)x;
    f->insns = t->insns;
    f->cycle = cycle;
    memcpy(f->stalls, t->stalls, sizeof f->stalls);
    return 0;
}

/* Charge the increase of the thread's stall counters since its previous record to e (a
 * counter that went down, reset by hand, charges nothing). */
#define PROF_STALL(k)                                                                              \
    case (k) + 1:                                                                                  \
        if (now[k] != seen[k]) {                                                                   \
            if (now[k] > seen[k])                                                                  \
                acc[k] += now[k] - seen[k];                                                        \
            seen[k] = now[k];                                                                      \
        }                                                                                          \
        __attribute__((fallthrough));

/* Unrolled by the count (it runs twice per instruction; ISAs have 3 to 9 causes). */
static inline void prof_add_stalls(int n, uint64_t *restrict acc, uint64_t *restrict seen, const uint64_t *restrict now)
{
    _Static_assert(SIM_MAX_STALLS == 12, "one PROF_STALL per possible cause");
    switch (n) {
        PROF_STALL(11) PROF_STALL(10) PROF_STALL(9) PROF_STALL(8) PROF_STALL(7) PROF_STALL(6)
        PROF_STALL(5) PROF_STALL(4) PROF_STALL(3) PROF_STALL(2) PROF_STALL(1) PROF_STALL(0)
    default:
        break;
    }
}

static inline void prof_stalls(prof_state *p, prof_thread *t, prof_entry *e, const uint64_t *stalls)
{
    prof_add_stalls(p->nstalls, e->stalls, t->stalls, stalls);
}

/* The thread's last recorded PC's entry (cached while the table has not grown). */
static prof_entry *prof_last(prof_state *p, prof_thread *t, int g)
{
    return t->gen == p->gen ? t->cur : prof_get(p, t->pc, g);
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
        if (p->flow && prof_flow(p, t, g, prev, pc, cycle))
            return -1;
    }
    prof_entry *e = NULL;
    if (t->valid && t->gen == p->gen) { /* the successor seen last time: straight-line code, loops */
        prof_entry *s = t->cur->succ;
        if (s && t->cur->succ_gen == p->gen && s->pc == pc && s->thread == g)
            e = s;
    }
    if (!e) {
        if (!(e = prof_get(p, pc, g)))
            return -1;
        if (t->valid && t->gen == p->gen) { /* (the table did not move) */
            t->cur->succ = e;
            t->cur->succ_gen = p->gen;
        }
    }
    /* what the instruction counted while it executed (a DPU DMA's wait, a bank penalty) is
     * its own; the thread's stalls up to its issue went to the previous PC in prof_before */
    prof_stalls(p, t, e, th->stalls);
    t->cur = e;
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
    if (p->nedges)
        memcpy(v, p->edges, p->nedges * sizeof *v);
    /* open calls count up to the thread's last record (prof_finish: its halt or the end) */
    for (int g = 0; g < p->nth; g++) {
        const prof_thread *t = &p->th[g];
        for (uint32_t d = 0; d < t->depth; d++) {
            const prof_frame *f = &t->stack[d];
            prof_edge *x = &v[f->edge];
            x->insns += t->insns - f->insns;
            x->cycles += t->cycle - f->cycle;
            for (int c = 0; c < p->nstalls; c++)
                x->stalls[c] += t->stalls[c] - f->stalls[c];
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
