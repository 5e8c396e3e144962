/* isa/nyuzi/bus_retime.c: what moves when bus_log.c's arbiter settles a read again and its
 * answer comes at another cycle (sooner or later): the threads waiting for it (a load's and
 * the loads merged on its fill, a code line's fetches, a store's acknowledgement, a
 * synchronized request's replay), its L1 fill, and the core woken if it sleeps past the new
 * cycle (nyz_core_sooner, which stops the run instead of waking a core into cycles it has
 * simulated). Split from bus_log.c (the settle itself): nyz_bus_retime is called from the
 * settle's steps, from arb_free and from a flush's write-back (nyz_flush_write), 6,087 times
 * in loop4's 32,024 settles on four cores, and was a call already (not inlined there). */
#include "nyuzi.h"
#ifdef NYZ_MEMTRACE
#include <stdio.h>
#endif

void nyz_core_sooner(nyz_machine *nm, int core, int tid, uint64_t w)
{
    sim_unit *u = &nm->m->units[core];
    if (core != nm->run_core && w <= u->reached && !u->halted && u->enabled) {
        /* A core simulates each cycle once: woken at a cycle it has simulated, it would run
         * those cycles again from its present state (its FIFOs fetched twice, two issues in
         * one cycle, instructions lost: docs/isa/nyuzi.md "What the cycle model
         * guarantees"). An answer that moves sooner into a core's past breaks the model's
         * rule that a grant the cores have passed keeps its answer: stop, not a silently
         * wrong run. (A core that has halted is not woken: nothing runs again.) */
        sim_set_stop(nm->m, SIM_STOP_ERROR, core, tid, 0,
                     "Nyuzi cycle model error: core %d's %s would wake at cycle %llu, which it "
                     "has simulated already (to %llu): an answer moved into its past",
                     core, tid >= 0 ? "thread" : "fetch", (unsigned long long)w,
                     (unsigned long long)u->reached);
        nm->resched = 1;
        return;
    }
    if (tid >= 0) {
        if (u->threads[tid].ready_at <= w)
            return; /* its core looks at it by then anyway */
        u->threads[tid].ready_at = w;
    }
    if (core != nm->run_core) { /* it sleeps past w: wake it, end this burst */
        sim_unit_wake(nm->m, u, w);
        nm->resched = 1;
    }
}

/* A thread suspended until old is suspended until nw instead. Later: its ready_at (at
 * most old) makes the issue stage look at blocked again then. Sooner: its ready_at moves
 * too, and its core, if it is not the one running, is woken then. */
static void thread_move(nyz_machine *nm, int core, int tid, uint64_t nw)
{
    nyz_thread *t = &nm->cores[core].t[tid];
    uint64_t old = t->blocked;
    t->blocked = nw;
    if (nw < old)
        nyz_core_sooner(nm, core, tid, nw);
}

/* The fill of line (not a store's acknowledgement) comes delta cycles later; returns the
 * cycle it was due. */
static uint64_t l1_fill_later(nyz_cache *c, uint32_t line, uint64_t delta)
{
    uint64_t old = 0;
    c->next_fill = UINT64_MAX;
    for (unsigned i = 0; i < c->nfill; i++) {
        if (c->fill[i].line == line && c->fill[i].ack == NYZ_FILL_LINE) {
            old = c->fill[i].at;
            c->fill[i].at += delta;
        }
        if (c->fill[i].at < c->next_fill)
            c->next_fill = c->fill[i].at;
    }
    return old;
}

/* The answer of synchronized request e (l2_sync.c) comes with its line at done and its
 * grant (e->b): its thread, not replayed yet, replays then instead (sooner or later), its
 * load_sync's L1D fill with it. */
void nyz_sync_move(nyz_machine *nm, const nyz_bus_ent *e, uint64_t done)
{
    nyz_core *c = &nm->cores[e->core];
    nyz_thread *t = &c->t[e->tid];
    nyz_sreq *r = &nm->sreq[t->gid];
    uint64_t ow = r->wake, nw = nyz_sync_wake(nm, e, done);
    if (r->made != e->issue || t->rp_kind != NYZ_RP_SYNC || nw == ow)
        return; /* another request's entry, or its thread replayed */
    r->wake = nw;
    if (!ow)
        return; /* (read for the first time: timing.c nyz_sync_timing takes it) */
#ifdef NYZ_MEMTRACE
    fprintf(stderr, "%llu RT c%d t%d sync %llu -> %llu\n", (unsigned long long)nm->cur_cycle, e->core, e->tid, (unsigned long long)ow, (unsigned long long)nw);
#endif
    if (t->blocked == ow)
        thread_move(nm, e->core, e->tid, nw);
    if (!r->store)
        l1_fill_later(&c->l1d, e->pa >> c->l1d.line_shift, nw - ow);
}

/* A read that answers at nd instead of e->done (its request was taken later, or sooner:
 * an order settled while others were still to come): the threads waiting for it (a
 * load's and the loads merged on its fill; a code line's fetches; a store's acknowledgement;
 * a synchronized request's: nyz_sync_move) and its L1 fill. An answer depends on the grants
 * before it, not on which are final (timing.c nyz_l2_ready), and a grant the cores have
 * passed keeps its place, so a sooner answer is not in any core's past (nyz_core_sooner
 * stops the run if it is). */
void nyz_bus_retime(nyz_machine *nm, nyz_bus_ent *e, uint64_t nd)
{
    uint64_t od = e->done, delta = nd - od; /* (modulo 2^64: negative if sooner) */
    nyz_core *c = &nm->cores[e->core];
    uint32_t line = e->pa >> c->l1d.line_shift;
#ifdef NYZ_MEMTRACE
    fprintf(stderr, "%llu RT c%d t%d k%d a%08x %llu -> %llu\n", (unsigned long long)nm->cur_cycle, e->core, e->tid, e->kind, e->pa, (unsigned long long)od, (unsigned long long)nd);
#endif
    if (e->kind == NYZ_RP_CODE) {
        uint64_t ow = l1_fill_later(&c->l1i, e->pa >> c->l1i.line_shift, delta);
        for (int k = 0; k < c->nthreads; k++)
            if (c->t[k].iwait == ow) {
                c->t[k].iwait = ow + delta;
                if (nd < od) /* (the fetch stage looks at iwait) */
                    nyz_core_sooner(nm, e->core, -1, ow + delta);
            }
    } else if (e->kind == NYZ_RP_STORE) { /* its thread's store queue entry */
        nyz_thread *t = &c->t[e->tid];
        uint64_t nw, ow = e->sqop ? nyz_sqop_moved(nm, e, od, nd, &nw)
                                : nyz_store_ack_moved(nm, c, t, e->serial, e->pa, od, nd, &nw);
        if (t->store_done == ow) {
            t->store_done = nw;
            /* (a thread whose store-queue operation rolled back on the busy entry waits
             * for the acknowledgement, store_done + NYZ_SQ_AHEAD: pipeline.c) */
            if (t->blocked == ow + NYZ_SQ_AHEAD && t->block_why == NYZ_ST_STORE)
                thread_move(nm, e->core, e->tid, nw + NYZ_SQ_AHEAD);
        }
    } else if (e->kind == NYZ_RP_SYNC) {
        /* (its thread: nyz_sync_move) */
    } else {
        for (int k = 0; k < c->nthreads; k++) {
            const nyz_thread *o = &c->t[k];
            /* (a load that replays, or a gather lane, waits for its own line: not another
             * line due then) */
            if (o->blocked == od - 1 && o->block_why == NYZ_ST_DCACHE &&
                (o->rp_kind == NYZ_RP_NONE || o->rp_kind == NYZ_RP_LOAD) &&
                o->rp_pa >> c->l1d.line_shift == line)
                thread_move(nm, e->core, k, nd - 1);
        }
        l1_fill_later(&c->l1d, line, delta);
    }
    e->done = nd;
}

