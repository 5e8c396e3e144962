/* isa/nyuzi/bus_log.c: the order in which the L2 takes line requests, and so the order of
 * the fill FIFO's reads. The cycle model makes a data request when the load issues and a
 * code line's when ifetch_data sees the miss, each core for a stretch of cycles in turn,
 * but the RTL's L2 (l2_cache_arb_stage.sv, then l2_cache_read_stage.sv's miss into
 * l2_axi_bus_interface.sv's fill queue) takes them by its arbiter's rule in the order
 * they reach it: a data request 3 cycles after its issue, a code line's a cycle after
 * ifetch_data's miss. So the requests whose grant is not final yet are kept here with the
 * bus state before each; each new one settles the grants again (nyz_arb_run), the lines are
 * read again in the new order and the threads waiting for them suspended longer (the
 * pipeline has not used the time yet: they wait for the data). The bus itself
 * (nyz_bus_read, nyz_bus_collided) is timing.c's. */
#include <string.h>
#include "nyuzi.h"
#ifdef NYZ_MEMTRACE
#include <stdio.h>
#endif

static void bus_save(const nyz_machine *nm, nyz_bus_state *s)
{
    s->mem_free = nm->mem_free;
    s->fq_rst = nm->fq_rst;
    s->sd_refresh = nm->sd_refresh;
    s->sd_idle = nm->sd_idle;
    memcpy(s->sd_row, nm->sd_row, sizeof s->sd_row);
    memcpy(s->fq_e, nm->fq_e, sizeof s->fq_e);
    memcpy(s->fq_r, nm->fq_r, sizeof s->fq_r);
    s->fq_n = nm->fq_n;
}

static void bus_restore(nyz_machine *nm, const nyz_bus_state *s)
{
    nm->mem_free = s->mem_free;
    nm->fq_rst = s->fq_rst;
    nm->sd_refresh = s->sd_refresh;
    nm->sd_idle = s->sd_idle;
    memcpy(nm->sd_row, s->sd_row, sizeof s->sd_row);
    memcpy(nm->fq_e, s->fq_e, sizeof s->fq_e);
    memcpy(nm->fq_r, s->fq_r, sizeof s->fq_r);
    nm->fq_n = s->fq_n;
}

void nyz_core_sooner(nyz_machine *nm, int core, int tid, uint64_t w)
{
    sim_unit *u = &nm->m->units[core];
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
        if (c->fill[i].line == line && !c->fill[i].ack) {
            old = c->fill[i].at;
            c->fill[i].at += delta;
        }
        if (c->fill[i].at < c->next_fill)
            c->next_fill = c->fill[i].at;
    }
    return old;
}

/* How much later than an L2 hit at its bus time a synchronized request's line (entry e)
 * is there if its data comes at done: what its answer adds (l2_sync.c). */
static uint32_t sync_extra(const nyz_machine *nm, const nyz_bus_ent *e, uint64_t done)
{
    uint64_t base = e->b - e->bus + nm->tm.l2_lat;
    return done > base ? (uint32_t)(done - base) : 0;
}

/* A read that answers at nd instead of e->done (its request was taken later, or sooner:
 * an order settled while others were still to come): the threads waiting for it (a
 * load's and the loads merged on its fill; a load_sync's or store_sync's, whose answer the
 * L2's arbiter times, l2_sync.c; a code line's fetches) and its L1 fill. No core has
 * simulated the cycles of a grant not final, so a sooner answer is not in any core's past. */
static void bus_retime(nyz_machine *nm, nyz_bus_ent *e, uint64_t nd)
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
        uint64_t nw, ow = nyz_store_ack_moved(nm, c, t, e->issue, e->serial, e->pa, od, nd, &nw);
        if (t->store_done == ow) {
            t->store_done = nw;
            if (t->blocked == ow && t->block_why == NYZ_ST_STORE)
                thread_move(nm, e->core, e->tid, nw);
        }
    } else if (e->kind == NYZ_RP_SYNC) {
        nyz_sreq *r = &nm->sreq[c->t[e->tid].gid];
        if (!r->on || r->made != e->issue) /* decided already (it is not before its
                                            * arbiter cycle), or another request's */
            return;
        /* its answer: its grant's (l2_sync.c) plus how much later than an L2 hit at its
         * bus time the line is there */
        uint64_t ow = r->wake;
        uint32_t nx = sync_extra(nm, e, nd);
        r->wake = ow + nx - r->extra;
        r->extra = nx;
        if (c->t[e->tid].blocked == ow)
            thread_move(nm, e->core, e->tid, r->wake);
        l1_fill_later(&c->l1d, line, delta);
    } else {
        for (int k = 0; k < c->nthreads; k++) {
            const nyz_thread *o = &c->t[k];
            /* (a load that replays looks its own line up: not another line due then) */
            if (o->blocked == od - 1 && o->block_why == NYZ_ST_DCACHE &&
                (o->rp_kind == NYZ_RP_NONE ||
                 (o->rp_kind == NYZ_RP_LOAD && o->rp_pa >> c->l1d.line_shift == line)))
                thread_move(nm, e->core, k, nd - 1);
        }
        l1_fill_later(&c->l1d, line, delta);
    }
    e->done = nd;
}

/* Requests read in the order they are made (stores that read memory, flushes, any store
 * on one core: not kept here) make every
 * grant so far final. */
void nyz_bus_fix(nyz_machine *nm)
{
    if (nm->bus_n)
        nyz_arb_run(nm, UINT64_MAX);
    nm->bus_n = 0;
}

/* Read entry e's line again at the present bus state: its new data cycle. */
static uint64_t bus_reread(nyz_machine *nm, nyz_bus_ent *e)
{
    uint64_t r, nd;
    int mine = nm->l2.tag[e->l2way] == e->pa >> nm->l2.line_shift;
    if (e->kind == NYZ_RP_STORE) { /* its acknowledgement (timing.c nyz_store_timing) */
        uint64_t acc = e->b - 2 * NYZ_FQ_REQ;
        return e->st == 1 ? acc + nm->tm.store_lat : nyz_store_restart(nm, acc, e->l2way, mine, e->victim);
    }
    if (e->coll)
        nd = nyz_bus_collided(nm, mine ? nm->l2.ready[e->l2way] : 0, e->b - e->bus, e->bus, e->lead);
    else {
        nd = nyz_bus_read(nm, e->pa, e->victim, e->b, e->bus, e->lead, &r);
        if (mine)
            nm->l2.ready[e->l2way] = r;
    }
    return nd;
}

/* The requests bus_log holds, taken by the L2's arbiter one a cycle: none while the L2 is
 * stalled (nyz_l2_stalled) or has taken a request kept out of bus_log (a store-queue
 * operation taken when made, a final grant: l2_slot); a synchronized request at its own
 * grant (l2_sync.c's arbiter, which sets its bus time: nyz_bus_sync_grant); the others round
 * robin between cores, the pointer moving to the core after the one taken
 * (l2_cache_arb_stage.sv: rr_arbiter, update_lru = can_accept_request); each core offering
 * its data loads, then its code line, then its store queue (l1_l2_interface.sv), the loads
 * round robin over its threads with a pointer that moves every cycle the load-miss queue has
 * one, taken or not (l1_load_miss_queue.sv: update_lru = 1), the stores likewise
 * (l1_store_queue.sv), one per sq_free of a core (timing.c l2_store_accept's spacing). The cores run back to back, so a request
 * is made when its core runs and may reach the L2 before requests made earlier: the grants
 * are settled again from the first one not final, and the lines read again in grant order
 * from the bus state before it. Grants before fin are final (every core has passed that
 * cycle): they leave bus_log, the arbiter's state moves on to them. A read that comes later
 * than it was going to delays its requesters, one that comes sooner lets them go sooner
 * (bus_retime). Returns the data cycle of the request not read yet (done 0), or 0. */
uint64_t nyz_arb_run(nyz_machine *nm, uint64_t fin)
{
    nyz_bus_ent *L = nm->bus_log, tmp[NYZ_BUS_LOG];
    unsigned n = nm->bus_n, m = 0, nfin = n, nt = (unsigned)nm->nthreads, k;
    uint8_t got[NYZ_BUS_LOG] = {0}, ord[NYZ_BUS_LOG], lq[NYZ_MAX_CORES], sq[NYZ_MAX_CORES], cr = nm->arb_core;
    uint64_t y = nm->arb_y, fresh = 0, sqf[NYZ_MAX_CORES];
    memcpy(lq, nm->arb_lq, sizeof lq);
    memcpy(sq, nm->arb_sq, sizeof sq);
    memcpy(sqf, nm->sq_free, sizeof sqf);
    for (k = 0; k < n; k++) /* their grants are given again */
        if (L[k].x && L[k].done && nm->l2_slot[(L[k].b - NYZ_FQ_REQ) % NYZ_L2_SLOTS] == L[k].b - NYZ_FQ_REQ)
            nm->l2_slot[(L[k].b - NYZ_FQ_REQ) % NYZ_L2_SLOTS] = 0;
    bus_restore(nm, &nm->arb_before);
    while (m < n) {
        uint64_t lo = UINT64_MAX;
        for (k = 0; k < n; k++)
            if (!got[k] && (L[k].x ? L[k].x : L[k].b - NYZ_FQ_REQ) < lo)
                lo = L[k].x ? L[k].x : L[k].b - NYZ_FQ_REQ;
        if (lo > y)
            y = lo; /* nothing waits: no pointer moves */
        if (y >= fin && nfin == n) { /* (nothing moved from fin to y) */
            nfin = m;
            bus_save(nm, &nm->arb_before); /* (before the first grant not final) */
            nm->arb_y = fin > nm->arb_y ? fin : nm->arb_y;
            nm->arb_core = cr;
            memcpy(nm->arb_lq, lq, sizeof lq);
            memcpy(nm->arb_sq, sq, sizeof sq);
            memcpy(nm->sq_free, sqf, sizeof sqf);
        }
        int pick = -1, off[NYZ_MAX_CORES], soff[NYZ_MAX_CORES];
        for (int c = 0; c < nm->ncores; c++)
            off[c] = soff[c] = -1;
        for (k = 0; k < n && pick < 0; k++) {
            nyz_bus_ent *e = &L[k];
            if (got[k] || (e->x ? e->x : e->b - NYZ_FQ_REQ) > y)
                continue;
            int *o = &off[e->core], *so = &soff[e->core];
            if (!e->x)
                pick = (int)k;
            else if (e->kind == NYZ_RP_STORE) { /* (the store queue: one per sq_free) */
                if (y >= sqf[e->core] + NYZ_FQ_REQ &&
                    (*so < 0 || (e->tid + nt - sq[e->core]) % nt < (L[*so].tid + nt - sq[e->core]) % nt))
                    *so = (int)k;
            } else if (*o < 0 || (L[*o].kind == NYZ_RP_CODE && e->kind != NYZ_RP_CODE) ||
                     (e->kind != NYZ_RP_CODE &&
                      (e->tid + nt - lq[e->core]) % nt < (L[*o].tid + nt - lq[e->core]) % nt))
                *o = (int)k;
        }
        if (pick < 0) {
            for (int c = 0; c < nm->ncores; c++) {
                if (off[c] >= 0 && L[off[c]].kind != NYZ_RP_CODE)
                    lq[c] = (uint8_t)((L[off[c]].tid + 1) % nt);
                if (soff[c] >= 0) { /* after its loads and code line */
                    sq[c] = (uint8_t)((L[soff[c]].tid + 1) % nt);
                    if (off[c] < 0)
                        off[c] = soff[c];
                }
            }
            if (!nyz_l2_stalled(nm, y) && nm->l2_slot[y % NYZ_L2_SLOTS] != y)
                for (int i = 0; i < nm->ncores && pick < 0; i++) {
                    int c = (cr + i) % nm->ncores;
                    if (off[c] >= 0) {
                        pick = off[c];
                        cr = (uint8_t)((c + 1) % nm->ncores);
                    }
                }
        }
        if (pick >= 0) {
            nyz_bus_ent *e = &L[pick];
            uint32_t line = e->pa >> nm->l2.line_shift;
            got[pick] = 1;
            ord[m++] = (uint8_t)pick;
            if (e->x)
                e->b = y + NYZ_FQ_REQ;
            if (e->kind == NYZ_RP_STORE)
                sqf[e->core] = y - NYZ_FQ_REQ + (e->st == 2 ? 1 : nm->tm.store_interval);
            for (k = 0; k < n && e->coll; k++) /* the first of a line's requests reads it */
                if (!got[k] && !L[k].coll && L[k].kind != NYZ_RP_STORE && L[k].pa >> nm->l2.line_shift == line) {
                    e->coll = 0;
                    L[k].coll = 1;
                    e->victim = L[k].victim;
                    L[k].victim = 0xffffffffu;
                }
            uint64_t nd = bus_reread(nm, e);
            if (!e->done)
                fresh = e->done = nd;
            else if (nd != e->done)
                bus_retime(nm, e, nd);
        }
        y++;
    }
    if (nfin == n) {
        nm->arb_y = y;
        nm->arb_core = cr;
        memcpy(nm->arb_lq, lq, sizeof lq);
        memcpy(nm->arb_sq, sq, sizeof sq);
        memcpy(nm->sq_free, sqf, sizeof sqf);
    }
    for (k = 0; k < n; k++) {
        tmp[k] = L[ord[k]];
        if (tmp[k].x)
            nm->l2_slot[(tmp[k].b - NYZ_FQ_REQ) % NYZ_L2_SLOTS] = tmp[k].b - NYZ_FQ_REQ;
#ifdef NYZ_MEMTRACE
        if (k < nfin)
            fprintf(stderr, "%llu GR c%d t%d k%d a%08x x%llu\n", (unsigned long long)(tmp[k].b - NYZ_FQ_REQ),
                    tmp[k].core, tmp[k].tid, tmp[k].kind, tmp[k].pa, (unsigned long long)tmp[k].x);
#endif
    }
    memcpy(L, tmp + nfin, (n - nfin) * sizeof tmp[0]);
    nm->bus_n = n - nfin;
    return fresh;
}

/* A new entry of bus_log (the bus state saved if it is the only one; the caller applies it
 * and sets done). */
nyz_bus_ent *nyz_bus_log_add(nyz_machine *nm, uint64_t b, uint32_t pa, uint32_t victim, int way,
                             int kind, const nyz_core *c, const nyz_thread *t, unsigned bus,
                             unsigned lead)
{
    if (!nm->bus_n)
        bus_save(nm, &nm->arb_before);
    nyz_bus_ent *e = &nm->bus_log[nm->bus_n++];
    e->b = b;
    e->pa = pa;
    e->victim = victim;
    e->l2way = way;
    e->coll = 0;
    e->kind = (uint8_t)kind;
    e->core = (uint8_t)c->index;
    e->tid = t ? (uint8_t)(t - c->t) : 0;
    e->bus = (uint8_t)bus;
    e->lead = (uint8_t)lead;
    e->x = 0;
    e->done = 0;
    e->st = 0;
    e->serial = 0;
    e->issue = nm->cur_cycle;
    return e;
}


/* The bus_log index of the synchronized request of (core, tid) issued at `issue`, or -1. */
static int sync_ent(const nyz_machine *nm, int core, int tid, uint64_t issue)
{
    for (unsigned k = 0; k < nm->bus_n; k++) {
        const nyz_bus_ent *e = &nm->bus_log[k];
        if (e->kind == NYZ_RP_SYNC && e->core == core && e->tid == tid && e->issue == issue)
            return (int)k;
    }
    return -1;
}

/* The entry of the synchronized request of (core, tid) issued at `issue` gets the bus time
 * of its grant in l2_sync.c's arbiter, b: 1 if that moved it (nyz_arb_run then reads the
 * lines again). */
int nyz_bus_sync_grant(nyz_machine *nm, int core, int tid, uint64_t issue, uint64_t b)
{
    int k = sync_ent(nm, core, tid, issue);
    if (k < 0 || nm->bus_log[k].b == b)
        return 0;
    nm->bus_log[k].b = b;
    return 1;
}

/* How much later than an L2 hit at its grant the line of the synchronized request of
 * (core, tid) issued at `issue` is there; old if it has no entry in bus_log (or no read). */
uint32_t nyz_bus_sync_extra(const nyz_machine *nm, int core, int tid, uint64_t issue, uint32_t old)
{
    int k = sync_ent(nm, core, tid, issue);
    return k >= 0 && nm->bus_log[k].done ? sync_extra(nm, &nm->bus_log[k], nm->bus_log[k].done) : old;
}
