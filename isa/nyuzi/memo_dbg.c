/* isa/nyuzi/memo_dbg.c: the memoized periods (memo.c) under the debugger and the profile.
 * A period is replayed only if no breakpoint is at one of its pcs and no watchpoint covers
 * a line it touches (the cycle model then runs it and stops where it always stops), and a
 * replayed period feeds --profile exactly as the cycle model's profiled loop does: each step
 * through prof_issue_th and prof_stall_th (nyz_memo_feed), or, once periods are steady (every
 * issue on the profile's fast path, each thread's open row the same at both ends), as one
 * list of additions per period that the chain applies times its length (nyz_memo_pd_build).
 * notes/profile-api.md is the profile's contract; docs/isa/nyuzi.md "Memoized periods". */
#include <stdlib.h>
#include "memo_priv.h"
#include "../../core/debug.h"

/* --profile: the calls the cycle model's profiled loop makes for one replayed period from
 * base, whose statistics are not added yet (ins: each thread's retired count, kept here). */
void nyz_memo_feed(const nyz_memo *mo, prof_thread *const *pt, uint64_t base, const uint64_t *ins)
{
    uint64_t idx[NYZ_MAX_THREADS] = {0};
    const memo_step *const steps = mo->steps;
    const memo_pev *const pev = mo->pev;
    for (unsigned j = 0, n = mo->nsteps; j < n; j++) {
        const memo_step *s = &steps[j];
        prof_thread *p = pt[s->tid];
        for (unsigned e = s->pre, end = s->pre + s->npre; e < end; e++)
            prof_stall_th(p, pev[e].cause, pev[e].n);
        prof_issue_th(p, s->pc, base + s->rel, ins[s->tid] + idx[s->tid]++, NULL);
        if (s->gap)
            prof_stall_th(p, s->gcause, s->gap);
    }
    for (unsigned e = mo->tail; e < mo->npev; e++)
        prof_stall_th(pt[pev[e].tid], pev[e].cause, pev[e].n);
}

/* A word a steady period adds d to (merged by address: hash h of size hn, a power of two). */
static int pd_add(nyz_memo *mo, unsigned *h, unsigned hn, uint64_t *w, uint64_t d)
{
    unsigned i = (unsigned)(((uintptr_t)w >> 3) * 2654435761u) & (hn - 1);
    while (h[i]) {
        if (mo->pd[h[i] - 1].w == w) {
            mo->pd[h[i] - 1].d += d;
            return 0;
        }
        i = (i + 1) & (hn - 1);
    }
    if (mo->npd == mo->cpd)
        return -1;
    mo->pd[mo->npd++] = (struct memo_pd){w, d};
    h[i] = mo->npd;
    return 0;
}

/* --profile: is the next period steady, i.e. would every issue of it take prof_issue_th's
 * fast path (its pc's row in the thread's map and window: then the map does not change)
 * and leave each thread's open row as it finds it? Then the period adds the same to the
 * same words each time: each row's Instructions and Cycles get the values of its closing
 * issues less those of its opening ones, and a row is opened as often as it is closed in
 * the period, so the absolute count and cycle at the period's start cancel out and the
 * values relative to it will do. Builds that list (mo->pd) and returns 1, or returns 0. */
int nyz_memo_pd_build(nyz_memo *mo, prof_thread *const *pt, int nt)
{
    uint64_t *open[NYZ_MAX_THREADS];
    uint32_t idx[NYZ_MAX_THREADS] = {0};
    for (int i = 0; i < nt; i++)
        open[i] = pt[i]->row;
    for (unsigned j = 0; j < mo->nsteps; j++) {
        const memo_step *s = &mo->steps[j];
        const prof_thread *p = pt[s->tid];
        uint64_t off = s->pc - p->base;
        if (!(off < p->lim && p->map[off]))
            return 0;
        open[s->tid] = p->map[off];
    }
    for (int i = 0; i < nt; i++)
        if (open[i] != pt[i]->row)
            return 0;
    unsigned want = 8 * mo->nsteps + 4 * mo->npev + 8, hn = 16;
    while (hn < 2 * want)
        hn *= 2;
    if (want > mo->cpd) {
        free(mo->pd);
        mo->pd = malloc(want * sizeof *mo->pd);
        mo->cpd = mo->pd ? want : 0;
    }
    unsigned *h = calloc(hn, sizeof *h);
    if (!h || !mo->pd) {
        free(h);
        return 0;
    }
    mo->npd = 0;
    int bad = 0;
    const memo_pev *pev = mo->pev;
    for (unsigned j = 0; j < mo->nsteps; j++) {
        const memo_step *s = &mo->steps[j];
        prof_thread *p = pt[s->tid];
        uint64_t *prev = open[s->tid], *row = p->map[s->pc - p->base];
        for (unsigned e = s->pre; e < s->pre + s->npre; e++) {
            bad |= pd_add(mo, h, hn, prev + PROF_STALLS + pev[e].cause, pev[e].n);
            bad |= pd_add(mo, h, hn, &p->stalls[pev[e].cause], pev[e].n);
        }
        uint64_t ni = idx[s->tid]++;
        bad |= pd_add(mo, h, hn, prev + PROF_INSNS, ni);
        bad |= pd_add(mo, h, hn, row + PROF_INSNS, -ni);
        bad |= pd_add(mo, h, hn, prev + PROF_CYCLES, s->rel);
        bad |= pd_add(mo, h, hn, row + PROF_CYCLES, -(uint64_t)s->rel);
        if (s->gap) {
            bad |= pd_add(mo, h, hn, row + PROF_STALLS + s->gcause, s->gap);
            bad |= pd_add(mo, h, hn, &p->stalls[s->gcause], s->gap);
        }
        open[s->tid] = row;
    }
    for (unsigned e = mo->tail; e < mo->npev; e++) {
        bad |= pd_add(mo, h, hn, open[pev[e].tid] + PROF_STALLS + pev[e].cause, pev[e].n);
        bad |= pd_add(mo, h, hn, &pt[pev[e].tid]->stalls[pev[e].cause], pev[e].n);
    }
    free(h);
    unsigned k = 0; /* the words whose additions cancel out need nothing */
    for (unsigned i = 0; i < mo->npd; i++)
        if (mo->pd[i].d)
            mo->pd[k++] = mo->pd[i];
    mo->npd = k;
    return !bad;
}

/* May the record be replayed (or checked) under the debugger? Not if a breakpoint, until or
 * resume address is at one of its pcs (then the cycle model runs the period and stops at
 * it): every instruction a period issues (executed or rolled back) is at a step's pc or at
 * a thread's pc at the start. Not if a watchpoint covers a line its loads and stores touch
 * (each replayed access stays in its recorded line). Checked once per chain: the debugger
 * changes neither while the machine runs. */
int nyz_memo_dbg_allows(nyz_memo *mo, nyz_machine *nm, const sim_unit *u)
{
    sim_machine *m = nm->m;
    const uint8_t *map = dbg_bp_map(m);
    if (map && mo->bp_gen != m->dbg->bp_gen) {
        mo->bp_gen = m->dbg->bp_gen;
        mo->bp_hit = 0;
        for (unsigned j = 0; j < mo->nsteps && !mo->bp_hit; j++)
            mo->bp_hit = dbg_bp_maybe(map, mo->steps[j].pc);
        for (int i = 0; i < u->nthreads && !mo->bp_hit; i++)
            mo->bp_hit = mo->spc[i] != ~0u && dbg_bp_maybe(map, mo->spc[i]);
    }
    if (map && mo->bp_hit)
        return 0;
    const mem_space *sp = nm->mem;
    for (int w = 0; w < sp->nwatch; w++) {
        const mem_watch *x = &sp->watches[w];
        for (unsigned j = 0; j < mo->nsteps; j++) {
            const memo_step *s = &mo->steps[j];
            uint64_t lo = s->paddr & ~63u;
            if (s->memk && x->addr < lo + 64 && lo < x->addr + x->len)
                return 0;
        }
    }
    return 1;
}

