/* isa/nyuzi/bus_log.c: the order in which the L2's fill FIFO takes line reads. The cycle
 * model makes a data request when the load issues and a code line's when ifetch_data sees
 * the miss, but the RTL's L2 (l2_cache_arb_stage.sv, then l2_cache_read_stage.sv's miss
 * into l2_axi_bus_interface.sv's fill queue) takes them in the order they reach it: a data
 * request 3 cycles after its issue, a code line's a cycle after ifetch_data. So the reads of
 * data requests made in the last few cycles are kept here with the bus state before each,
 * and a code line's request that reached the L2 earlier is read before them; they are read
 * again after it and the threads waiting for them suspended longer (within 3 cycles of
 * their issue, before their rollback: the pipeline has not used the time yet). The bus
 * itself (nyz_bus_read, nyz_bus_collided) is timing.c's. */
#include <string.h>
#include "nyuzi.h"

static void bus_save(const nyz_machine *nm, nyz_bus_state *s)
{
    s->mem_free = nm->mem_free;
    s->fq_rst = nm->fq_rst;
    s->sd_refresh = nm->sd_refresh;
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
    memcpy(nm->sd_row, s->sd_row, sizeof s->sd_row);
    memcpy(nm->fq_e, s->fq_e, sizeof s->fq_e);
    memcpy(nm->fq_r, s->fq_r, sizeof s->fq_r);
    nm->fq_n = s->fq_n;
}

/* A thread suspended until old is suspended until nw (>= old) instead. */
static void thread_later(nyz_machine *nm, int core, int tid, uint64_t nw)
{
    /* its ready_at (at most old) makes the issue stage look at blocked again then */
    nm->cores[core].t[tid].blocked = nw;
}

/* The L1D fill of line due at old comes at nw. */
static void l1_fill_later(nyz_cache *c, uint32_t line, uint64_t old, uint64_t nw)
{
    c->next_fill = UINT64_MAX;
    for (unsigned i = 0; i < c->nfill; i++) {
        if (c->fill[i].line == line && !c->fill[i].ack && c->fill[i].at == old)
            c->fill[i].at = nw;
        if (c->fill[i].at < c->next_fill)
            c->next_fill = c->fill[i].at;
    }
}

/* A data read that a code line's request went before answers at nd instead of e->done:
 * the threads waiting for it (a load's and the loads merged on its fill; a load_sync's or
 * store_sync's, whose answer the L2's arbiter times, l2_sync.c) and its L1D fill. */
static void bus_retime(nyz_machine *nm, nyz_bus_ent *e, uint64_t nd)
{
    uint64_t od = e->done, delta = nd - od;
    nyz_core *c = &nm->cores[e->core];
    uint32_t line = e->pa >> c->l1d.line_shift;
    if (e->kind == NYZ_RP_SYNC) {
        nyz_sreq *r = &nm->sreq[c->t[e->tid].gid];
        if (!r->on) /* decided already (it is not before its arbiter cycle) */
            return;
        uint64_t ow = r->wake;
        r->extra += (uint32_t)delta;
        r->wake += delta;
        if (c->t[e->tid].blocked == ow)
            thread_later(nm, e->core, e->tid, ow + delta);
        l1_fill_later(&c->l1d, line, ow, ow + delta);
    } else {
        for (int k = 0; k < c->nthreads; k++)
            if (c->t[k].blocked == od - 1 && c->t[k].block_why == NYZ_ST_DCACHE)
                thread_later(nm, e->core, k, nd - 1);
        l1_fill_later(&c->l1d, line, od, nd);
    }
    e->done = nd;
}

/* The line reads of data requests (loads, load_sync, store_sync) in the last cycles stay in
 * bus_log while a code line's request could still reach the L2 before them: a code line's
 * is made when ifetch_data sees the miss (D, bus time D + 3), a data request's at its issue
 * t (bus time t + DMEM_BUS), so a code line seen at D <= t + 2 comes first (RTL trace: a
 * code line requested at 364 and two load_syncs at 365 and 366 go into the fill FIFO in
 * that order, the code line's read first). Such a code line's read is put before them
 * (nyz_bus_code) and they are read again after it. Anything else that uses the bus state
 * (stores, flushes, collided misses) keeps the order it was made in (nyz_bus_fix). */
void nyz_bus_fix(nyz_machine *nm)
{
    nm->bus_n = 0;
}

/* Drop the entries no code line can go before any more (their bus time <= floor). */
void nyz_bus_prune(nyz_machine *nm, uint64_t floor)
{
    unsigned k = 0;
    while (k < nm->bus_n && nm->bus_log[k].b <= floor)
        k++;
    if (k) {
        memmove(nm->bus_log, nm->bus_log + k, (nm->bus_n - k) * sizeof nm->bus_log[0]);
        nm->bus_n -= k;
    }
}

/* Read entry e's line again at the present bus state (saved as its `before`): its new data
 * cycle. */
static uint64_t bus_reread(nyz_machine *nm, nyz_bus_ent *e)
{
    uint64_t r, nd;
    int mine = nm->l2.tag[e->l2way] == e->pa >> nm->l2.line_shift;
    bus_save(nm, &e->before);
    if (e->coll)
        nd = nyz_bus_collided(nm, mine ? nm->l2.ready[e->l2way] : 0, e->b - e->bus, e->bus, e->lead);
    else {
        nd = nyz_bus_read(nm, e->pa, e->victim, e->b, e->bus, e->lead, &r);
        if (mine)
            nm->l2.ready[e->l2way] = r;
    }
    return nd;
}

/* A code line's request with bus time b: a read (coll NULL), or a collided miss of the
 * line whose fill restarts at *coll. */
uint64_t nyz_bus_code(nyz_machine *nm, uint32_t pa, uint32_t victim, uint64_t b, unsigned lead,
                      uint64_t *rst, const uint64_t *coll)
{
    nyz_bus_prune(nm, b);
    int way = -1;
    if (coll) /* the fill it collides with is a data read it goes before: it reads the line */
        for (unsigned k = 0; k < nm->bus_n; k++) {
            nyz_bus_ent *e = &nm->bus_log[k];
            if (!e->coll && e->pa >> nm->l2.line_shift == pa >> nm->l2.line_shift) {
                coll = NULL;
                victim = e->victim;
                e->victim = 0xffffffffu;
                e->coll = 1;
                way = e->l2way;
                break;
            }
        }
    if (nm->bus_n)
        bus_restore(nm, &nm->bus_log[0].before);
    uint64_t done = coll ? nyz_bus_collided(nm, *coll, b, 0, lead) : nyz_bus_read(nm, pa, victim, b, 0, lead, rst);
    if (way >= 0)
        nm->l2.ready[way] = *rst;
    for (unsigned k = 0; k < nm->bus_n; k++) {
        nyz_bus_ent *e = &nm->bus_log[k];
        uint64_t nd = bus_reread(nm, e);
        if (nd > e->done) /* (never sooner: the SDRAM row the code line opens is not undone) */
            bus_retime(nm, e, nd);
    }
    return done;
}

/* Entry `from` (the last made) goes before entry k <= from, as the L2 took it earlier
 * (timing.c hold_rotate): the entries from k on are read again in the new order from the
 * bus state before k, the ones after it suspended longer (never sooner, as in
 * nyz_bus_code). Returns the moved entry's new data cycle (from == k: nothing moves, the
 * entries from k on are read again). */
uint64_t nyz_bus_reorder(nyz_machine *nm, unsigned from, unsigned k)
{
    nyz_bus_state s = nm->bus_log[k].before;
    nyz_bus_ent m = nm->bus_log[from];
    memmove(&nm->bus_log[k + 1], &nm->bus_log[k], (from - k) * sizeof m);
    nm->bus_log[k] = m;
    bus_restore(nm, &s);
    uint64_t first = m.done;
    for (unsigned i = k; i < nm->bus_n; i++) {
        nyz_bus_ent *e = &nm->bus_log[i];
        uint64_t nd = bus_reread(nm, e);
        if (i == k && from > k)
            first = e->done = nd;
        else if (nd > e->done)
            bus_retime(nm, e, nd);
    }
    return first;
}

/* A new entry of bus_log (its bus state saved; the caller applies it and sets done). */
nyz_bus_ent *nyz_bus_log_add(nyz_machine *nm, uint64_t b, uint32_t pa, uint32_t victim, int way,
                             int kind, const nyz_core *c, const nyz_thread *t, unsigned bus,
                             unsigned lead)
{
    nyz_bus_ent *e = &nm->bus_log[nm->bus_n++];
    bus_save(nm, &e->before);
    e->b = b;
    e->pa = pa;
    e->victim = victim;
    e->l2way = way;
    e->coll = 0;
    e->kind = (uint8_t)kind;
    e->core = (uint8_t)c->index;
    e->tid = (uint8_t)(t - c->t);
    e->bus = (uint8_t)bus;
    e->lead = (uint8_t)lead;
    e->x = 0; /* (fill_latency sets it) */
    /* its place among requests the L2's stall held (timing.c fill_latency: hold_next - 1) */
    e->hpos = nm->hold_next ? (uint8_t)(nm->hold_next - 1) : NYZ_HOLD_NONE;
    e->hrel = e->hpos == NYZ_HOLD_NONE ? 0 : nm->hold_rel;
    return e;
}

