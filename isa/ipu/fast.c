/* isa/ipu/fast.c: the tile's run loop for plain runs (no debugger, trace or profile hooks,
 * no instruction limit, no watchpoint on tile memory, the predecode cache on). It issues
 * exactly what the reference loop in barrel.c issues, at the same cycles, with less work
 * per bundle:
 *  - bursts: while the worker bound to the current cycle's slot is active and ready, it
 *    issues, and the next cycle belongs to the next slot's worker. A worker that issued in
 *    the burst is ready again at its next turn (it issues every 6 cycles and never
 *    stalls), so only the first turn of a burst tests readiness; with six workers running
 *    the burst covers every cycle until the horizon;
 *  - bundles run from records (exec.c's ipu_frec_build: an operation id and its operands
 *    as indices into the context's register array, immediates extended, branch targets
 *    computed), cached per word address and checked against the words in memory at every
 *    fetch, as the predecode cache is (so stores into code need no invalidation);
 *  - statistics are booked at the end of a burst: in a burst every cycle issues, so each
 *    worker's issues, last issue and barrel stalls follow from the burst's first and last
 *    cycle; only the instructions retired (one or two per bundle) are counted per bundle;
 *  - anything else -- the supervisor, a cycle whose slot's worker is not ready, a bundle
 *    without a record (float, CSR, exit, run, trap...), a record that would raise (fetch,
 *    pairing, rpt-body checks), an access outside tile memory or misaligned, a shift by a
 *    register above 31, an rpt count over $REPEAT_COUNT -- goes through one turn of the
 *    reference loop (ipu_barrel_step), before anything of that bundle has been done;
 *  - the machine's stop flag (set by the host: an interrupt) is read every
 *    IPU_POLL_CYCLES cycles; nothing a burst executes can stop the run.
 * tests/ipu/test_fastpath.c runs programs here and in the reference loop and compares every
 * register, memory byte, cycle and statistic. */
#include <stdlib.h>
#include <string.h>
#include "fop.h"
#include "../../core/debug.h"
#include "../../core/profile.h"

#define IPU_POLL_CYCLES 4096

void ipu_fast_free(ipu_tile *tl)
{
    for (uint32_t i = 0; tl->fp && i < tl->nfp; i++)
        free(tl->fp[i]);
    free(tl->fp);
    tl->fp = NULL;
    tl->nfp = 0;
    ipu_func_free(tl); /* func_fx.c's entries are built from these records */
}

/* The record of the worker bundle at tile-memory offset off (4-byte aligned), built or
 * rebuilt when the words in memory are not the ones it was built from; NULL out of
 * memory (the bundle then goes through the reference loop). */
__attribute__((noinline)) ipu_frec *ipu_frec_miss(ipu_tile *tl, uint32_t off)
{
    const ipu_machine *im = tl->im;
    if (!tl->fp) {
        tl->nfp = (im->mem_size / 4 + FP_WORDS - 1) / FP_WORDS;
        if (!(tl->fp = calloc(tl->nfp, sizeof *tl->fp)))
            return NULL;
    }
    const uint32_t wi = off >> 2;
    ipu_fpage *p = tl->fp[wi >> FP_SHIFT];
    if (!p && !(p = tl->fp[wi >> FP_SHIFT] = calloc(1, sizeof *p)))
        return NULL;
    ipu_frec *r = &p->e[wi & (FP_WORDS - 1)];
    ipu_frec_build(tl, im->mem_base + off, r);
    return r;
}

/* A burst from cycle *tp (< lim): returns the bundles issued, *tp the cycle after the last.
 * 0: the worker of *tp's slot is not ready, or its bundle must go the generic way. */
static inline __attribute__((always_inline)) uint64_t burst_gen(sim_unit *u, ipu_tile *tl, uint64_t *tp, uint64_t lim,
                                                               prof_state *prof)
{
    const ipu_machine *im = tl->im;
    const uint64_t t0 = *tp;
    uint64_t t = t0;
    const uint64_t tcheck = t0 + IPU_NSLOTS; /* the first turn tests readiness */
    int k = (int)(t % IPU_NSLOTS);
    uint8_t *const mem = tl->mem;
    const uint32_t base = im->mem_base, msize = im->mem_size, rmask = im->repeat_mask;
    uint64_t ninsn[IPU_NSLOTS] = {0};
    ipu_ctx *const w0 = &tl->ctx[IPU_WORKER(0)];
    /* --profile: W0's profile thread, and each worker's retired count at the burst's start */
    const int pg0 = prof ? u->index * prof->tpu + IPU_WORKER(0) : 0;
    uint64_t pi0[IPU_NSLOTS] = {0};
    prof_thread *pt[IPU_NSLOTS] = {0}; /* (each worker's, kept: no index per issue) */
    if (prof)
        for (int j = 0; j < IPU_NSLOTS; j++) {
            pi0[j] = u->threads[IPU_WORKER(j)].instructions;
            pt[j] = prof_th(prof, pg0 + j);
        }
    for (;;) {
        ipu_ctx *const c = w0 + k;
        if (t < tcheck && (c->state != IPU_CS_ACTIVE || c->next > t))
            break;
        const uint32_t pc = c->pc, off = pc - base;
        if ((pc & 3) || off >= msize)
            break;
        ipu_fpage *const p = tl->fp ? tl->fp[off >> (FP_SHIFT + 2)] : NULL;
        const ipu_frec *r = p ? &p->e[(off >> 2) & (FP_WORDS - 1)] : NULL;
        if (__builtin_expect(!r || !frec_valid(r, mem + off), 0))
            if (!(r = ipu_frec_miss(tl, off)))
                break;
        if (r->kind != IPU_FR_FAST)
            break;
        const uint32_t len = r->n == 2 ? 8 : 4;
        const int in_rpt = c->rpt_count != 0;
        if (in_rpt && !r->rpt_ok)
            break;
        uint32_t npc = pc + len;
        if (ipu_xop(&r->f[0], c, c->r, mem, base, msize, rmask, pc, len, &npc))
            break;
        if (r->n == 2)
            (void)ipu_xop(&r->f[1], c, c->r, mem, base, msize, rmask, pc, len, &npc); /* cannot fail (build) */
        if (in_rpt && npc == c->rpt_end && --c->rpt_count)
            npc = c->rpt_first;
        c->pc = npc;
        if (prof) { /* --profile (profile.h): the hook path's rows, gap stalls to this issue */
            prof_thread *const p = pt[k];
            prof_issue_th(p, pc, t, pi0[k] + ninsn[k], NULL);
            if (t < tcheck) { /* its first issue of the burst: the wait since its last one */
                const uint64_t wait = t - c->last_issue - 1, fpu = c->fpu_hold < wait ? c->fpu_hold : wait;
                if (fpu)
                    prof_stall_th(p, IPU_STALL_FPU, fpu);
                prof_stall_th(p, IPU_STALL_BARREL, wait - fpu);
            } else {
                prof_stall_th(p, IPU_STALL_BARREL, IPU_NSLOTS - 1);
            }
        }
        ninsn[k] += r->n;
        t++;
        if (++k == IPU_NSLOTS)
            k = 0;
        if (t >= lim)
            break;
    }
    if (t == t0)
        return 0;
    /* every cycle of [t0, t) issued: worker j at the cycles of its slot */
    for (int j = 0; j < IPU_NSLOTS; j++) {
        const uint64_t first = t0 + (uint64_t)((j - (int)(t0 % IPU_NSLOTS) + IPU_NSLOTS) % IPU_NSLOTS);
        if (first >= t)
            continue;
        const uint64_t n = (t - 1 - first) / IPU_NSLOTS + 1, last = first + IPU_NSLOTS * (n - 1);
        ipu_ctx *c = w0 + j;
        sim_thread *th = &u->threads[IPU_WORKER(j)];
        /* the reference books t - (previous issue + 1) barrel cycles at every issue, the
         * first of them after a transcendental's extra turns as fpu (barrel.c) */
        const uint64_t wait = last - c->last_issue - n, fpu = c->fpu_hold < wait ? c->fpu_hold : wait;
        th->stalls[IPU_STALL_FPU] += fpu;
        th->stalls[IPU_STALL_BARREL] += wait - fpu;
        c->fpu_hold = 0;
        th->issue_cycles += n;
        th->instructions += ninsn[j];
        c->last_issue = last;
        c->next = last + IPU_NSLOTS;
    }
    u->last_issue = t - 1;
    *tp = t;
    return t - t0;
}

static __attribute__((noinline)) uint64_t burst(sim_unit *u, ipu_tile *tl, uint64_t *tp, uint64_t lim)
{
    return burst_gen(u, tl, tp, lim, NULL);
}

/* The same with --profile fed at every issue (a copy, so plain runs pay nothing for it). */
static __attribute__((noinline)) uint64_t burst_prof(sim_unit *u, ipu_tile *tl, uint64_t *tp, uint64_t lim,
                                                     prof_state *prof)
{
    return burst_gen(u, tl, tp, lim, prof);
}

uint64_t ipu_run_fast(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon)
{
    prof_state *const prof = dbg_profile(m);
    ipu_tile *tl = ipu_t(u);
    uint64_t t = now, ret;
    uint64_t poll = t + IPU_POLL_CYCLES;
    while (t < horizon) {
        if (t >= poll) {
            if (sim_stopped(m)) {
                ipu_sync_threads(u, tl);
                return t;
            }
            poll = t + IPU_POLL_CYCLES;
        }
        if (prof ? burst_prof(u, tl, &t, horizon < poll ? horizon : poll, prof)
                 : burst(u, tl, &t, horizon < poll ? horizon : poll))
            continue;
        if (ipu_barrel_step(m, u, tl, &t, &ret))
            return ret;
    }
    ipu_sync_threads(u, tl);
    return t;
}
