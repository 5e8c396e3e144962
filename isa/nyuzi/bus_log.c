/* isa/nyuzi/bus_log.c: the order in which the L2 takes line requests, and so the order of
 * the fill FIFO's reads. The cycle model makes a data request when the load issues and a
 * code line's when ifetch_data sees the miss, each core for a stretch of cycles in turn,
 * but the RTL's L2 (l2_cache_arb_stage.sv, then l2_cache_read_stage.sv's miss into
 * l2_axi_bus_interface.sv's fill queue) takes them by its arbiter's rule in the order
 * they reach it: a data request 3 cycles after its issue, a code line's a cycle after
 * ifetch_data's miss. So the requests whose grant is not final yet are kept here with the
 * bus state before each; each new one settles the grants again (nyz_arb_run), the lines are
 * read again in the new order and the threads waiting for them suspended longer (the
 * pipeline has not used the time yet: they wait for the data; bus_retime.c moves them). The
 * bus itself (nyz_bus_read, nyz_bus_collided) is timing.c's. */
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
    s->sd_wat = nm->sd_wat;
    s->sd_wpa = nm->sd_wpa;
    memcpy(s->sd_row, nm->sd_row, sizeof s->sd_row);
    memcpy(s->fq_e, nm->fq_e, sizeof s->fq_e);
    memcpy(s->fq_r, nm->fq_r, sizeof s->fq_r);
    s->fq_n = nm->fq_n;
    s->bi_free = nm->bi_free;
    s->wr_free = nm->wr_free;
    s->wb_n = nm->wb_n;
    memcpy(s->wb_at, nm->wb_at, sizeof s->wb_at);
    memcpy(s->wb_line, nm->wb_line, sizeof s->wb_line);
}

static void bus_restore(nyz_machine *nm, const nyz_bus_state *s)
{
    nm->mem_free = s->mem_free;
    nm->fq_rst = s->fq_rst;
    nm->sd_refresh = s->sd_refresh;
    nm->sd_idle = s->sd_idle;
    nm->sd_wat = s->sd_wat;
    nm->sd_wpa = s->sd_wpa;
    memcpy(nm->sd_row, s->sd_row, sizeof s->sd_row);
    memcpy(nm->fq_e, s->fq_e, sizeof s->fq_e);
    memcpy(nm->fq_r, s->fq_r, sizeof s->fq_r);
    nm->fq_n = s->fq_n;
    nm->bi_free = s->bi_free;
    nm->wr_free = s->wr_free;
    nm->wb_n = s->wb_n;
    memcpy(nm->wb_at, s->wb_at, sizeof s->wb_at);
    memcpy(nm->wb_line, s->wb_line, sizeof s->wb_line);
}

/* Requests read in the order they are made (flushes and invalidates, any store on one
 * core: not kept here) make every grant so far final. */
void nyz_bus_fix(nyz_machine *nm)
{
    if (nm->bus_n)
        nyz_arb_run(nm, UINT64_MAX);
    nm->bus_n = 0;
    nm->bus_log = nm->bus_mem;
}

/* A final grant's read or restart is placed now (bus_reread): the slot that keeps it
 * (nyz_flush_write) with the bus state before it, the entries whose IDLE comes before the
 * running core's cycle left out (no flush, made at that cycle or later, goes before them). */
static nyz_placed *placed_before(nyz_machine *nm)
{
    unsigned k = 0;
    uint64_t lim = nm->cur_cycle;
    for (unsigned j = 0; nm->flw_n && j < nm->bus_n; j++) /* (a dirty flush not final yet:
                                                          * its bus time is its issue + 6 or later) */
        if (nm->bus_log[j].st == NYZ_ST_FLUSHW && nm->bus_log[j].kind == NYZ_RP_STORE &&
            nm->bus_log[j].issue + 6 < lim)
            lim = nm->bus_log[j].issue + 6;
    while (k < nm->pl_n && nm->placed[k].key < lim)
        k++;
    if (k == 0 && nm->pl_n == NYZ_PLACED)
        k = 1; /* (full: the oldest is final) */
    if (k) {
        nm->pl_n -= k;
        memmove(nm->placed, nm->placed + k, nm->pl_n * sizeof nm->placed[0]);
    }
    nyz_placed *p = &nm->placed[nm->pl_n];
    bus_save(nm, &p->before);
    nm->bi_key = 0;
    return p;
}

/* Read entry e's line again at the present bus state: its new data cycle (final: its grant
 * is final, a miss's fill takes its L2 way now, timing.c nyz_l2_fill). */
static uint64_t bus_reread(nyz_machine *nm, nyz_bus_ent *e, int final)
{
    uint64_t r, nd;
    int way;
    if (e->kind == NYZ_RP_STORE && e->st == 1) /* its acknowledgement (timing.c nyz_store_timing) */
        return e->b - 2 * NYZ_FQ_REQ + nm->tm.store_lat;
    if (e->kind == NYZ_RP_STORE && e->st == NYZ_ST_FLUSHW) /* (timing.c nyz_flush_final) */
        return final ? nyz_flush_final(nm, e) : e->b - 2 * NYZ_FQ_REQ + nm->tm.store_lat + NYZ_DFLUSH_EXTRA;
    if (e->coll)
        nd = nyz_bus_collided(nm, nyz_l2_ready(nm, e), e->b - e->bus, e->bus, e->lead);
    else {
        uint32_t victim = nyz_l2_fill(nm, e, final, &way); /* (its L2 way: final grants') */
        if (e->kind == NYZ_RP_STORE && e->st == 2) {
            uint64_t ack = nyz_store_restart(nm, e->b - 2 * NYZ_FQ_REQ, way, way >= 0, victim);
            if (way < 0 && (final || e->l2way == NYZ_WAY_PF))
                nyz_l2_pend(nm, e, ack, victim);
            return ack;
        }
        nd = nyz_bus_read(nm, e->pa, victim, e->b, e->bus, e->lead, &r);
        e->rst = r;
        if (way >= 0)
            nm->l2.ready[way] = r;
        else if (final || e->l2way == NYZ_WAY_PF)
            nyz_l2_pend(nm, e, r, victim); /* (its way at its restart) */
    }
    /* (a store that reads its line: its acknowledgement) */
    return e->kind == NYZ_RP_STORE ? nyz_store_miss_ack(nm, e->b - 2 * NYZ_FQ_REQ, nd) : nd;
}

/* The cycle from which entry e may be taken: when it reaches the L2 (x 0: its grant fixed),
 * a store no sooner than its core's store queue may send it
 * (sqf: the next cycle the L2 accepts one of the core's, as the request reaches it). */
static inline __attribute__((always_inline)) uint64_t arb_from(const nyz_bus_ent *e,
                                                               const uint64_t *sqf, const int hits)
{
    if (!hits && !e->x)
        return e->b - NYZ_FQ_REQ;
    if ((hits || e->kind == NYZ_RP_STORE) && e->x < sqf[e->core] + NYZ_FQ_REQ)
        return sqf[e->core] + NYZ_FQ_REQ;
    return e->x;
}

/* How far thread t is after p in a round robin over nt threads (both below nt). */
static inline unsigned rr_after(unsigned t, unsigned p, unsigned nt)
{
    return t >= p ? t - p : t + nt - p;
}

/* A change of the arbiter's state in cycle y, kept while that cycle's grants are not final
 * (*lost: the ring is full, the settle's end cannot be continued from). */
static void mv_put(nyz_machine *nm, int *lost, uint64_t y, int what, int core, unsigned v, uint64_t sqf,
                   unsigned sq)
{
    if (nm->arb_nmv == NYZ_ARB_MOVES) {
        *lost = 1;
        return;
    }
    nyz_arb_move *p = &nm->arb_mv[(nm->arb_mv0 + nm->arb_nmv++) % NYZ_ARB_MOVES];
    p->y = y;
    p->sqf = sqf;
    p->what = (uint8_t)what;
    p->core = (uint8_t)core;
    p->v = (uint8_t)v;
    p->sq = (uint8_t)sq;
}

/* The kept change p applied to state s; 1 if it is a grant. */
static inline int mv_apply(const nyz_arb_move *p, uint8_t *cr, uint8_t *sq, uint64_t *sqf)
{
    if (p->what == NYZ_MV_SQ)
        sq[p->core] = p->v;
    else {
        *cr = p->v;
        if (p->what == NYZ_MV_GRANT_ST) {
            sqf[p->core] = p->sqf;
            sq[p->core] = p->sq;
        }
        return 1;
    }
    return 0;
}

/* The arbiter's state moves on to cycle fin (the kept changes before it made final);
 * returns the grants among them. */
static inline unsigned mv_final(nyz_machine *nm, uint64_t fin)
{
    unsigned g = 0;
    for (; nm->arb_nmv && nm->arb_mv[nm->arb_mv0].y < fin; nm->arb_nmv--) {
        g += (unsigned)mv_apply(&nm->arb_mv[nm->arb_mv0], &nm->arb_core, nm->arb_sq, nm->sq_free);
        nm->arb_mv0 = (nm->arb_mv0 + 1) % NYZ_ARB_MOVES;
    }
    if (fin > nm->arb_y)
        nm->arb_y = fin;
    return g;
}

/* A settle's locals that its steps (arb_steps) change. */
typedef struct arb_ctx {
    nyz_bus_ent *L;
    unsigned n, m, nfin;         /* the log's entries, those granted (L[ord[..m)]), final */
    uint64_t fin, fresh;
    int snapped, lost, perm;
    uint32_t left;               /* the entries not taken yet (bit k: L[k]) */
    uint8_t ord[NYZ_BUS_LOG];    /* the grants' order */
} arb_ctx;

/* The cores whose store queue offers one of the stores left (entries of L, all stores to
 * lines the L2 holds) at cycle y, and the one each offers (soff); *lo: the first cycle one
 * of the others may be offered (arb_from). */
static inline unsigned st_offers(const nyz_bus_ent *L, uint32_t left, const nyz_arb_state *sp, unsigned nt,
                                 uint64_t y, uint8_t *soff, uint64_t *lo)
{
    unsigned sm = 0;
    for (uint32_t b = left; b; b &= b - 1) {
        const unsigned k = (unsigned)__builtin_ctz(b), c = L[k].core, bit = 1u << c;
        const uint64_t f = L[k].x > sp->sqf[c] + NYZ_FQ_REQ ? L[k].x : sp->sqf[c] + NYZ_FQ_REQ;
        if (f > y)
            *lo = f < *lo ? f : *lo;
        else if (!(sm & bit) || rr_after(L[k].tid, sp->sq[c], nt) < rr_after(L[soff[c]].tid, sp->sq[c], nt)) {
            soff[c] = (uint8_t)k;
            sm |= bit;
        }
    }
    return sm;
}

/* The settle's cycles from nm->arb_t.y on, until every entry left is taken. hits: they are
 * all stores to lines the L2 holds (no load-miss queue, code line or synchronized request;
 * each one's read is its acknowledgement): the same steps, the other kinds' tests left out
 * (about every store on several cores settles so). */
static inline __attribute__((always_inline)) void arb_steps(nyz_machine *nm, arb_ctx *a, const int hits)
{
    nyz_bus_ent *const L = a->L;
    nyz_arb_state *const sp = &nm->arb_t;
    const unsigned nc = (unsigned)nm->ncores, nt = (unsigned)nm->nthreads;
    unsigned k;
    while (a->left) {
        const uint32_t left = a->left;
        unsigned sm = 0; /* (hits, several left: the cores offering a store, st_offers) */
        uint8_t soff[NYZ_MAX_CORES];
        uint64_t lo = UINT64_MAX;
        if (hits && (left & (left - 1))) {
            if (!(sm = st_offers(L, left, sp, nt, sp->y, soff, &lo))) {
                sp->y = lo; /* nothing may be taken: no pointer moves */
                sm = st_offers(L, left, sp, nt, lo, soff, &lo);
            }
        } else {
            for (uint32_t b = left; b; b &= b - 1) {
                uint64_t f = arb_from(&L[__builtin_ctz(b)], sp->sqf, hits);
                lo = f < lo ? f : lo;
            }
            if (lo > sp->y)
                sp->y = lo; /* nothing may be taken: no pointer moves */
        }
        const uint64_t y = sp->y;
        if (y >= a->fin && !a->snapped) { /* (nothing moved from fin to y) */
            a->snapped = 1;
            a->nfin = a->m;
            bus_save(nm, &nm->arb_before); /* (before the first grant not final) */
            nm->arb_y = a->fin > nm->arb_y ? a->fin : nm->arb_y;
            nm->arb_core = sp->cr;
            memcpy(nm->arb_lq, sp->lq, sizeof sp->lq);
            memcpy(nm->arb_sq, sp->sq, sizeof sp->sq);
            memcpy(nm->sq_free, sp->sqf, sizeof sp->sqf);
            nm->arb_nmv = 0;
        }
        int pick = -1;
        if (!(left & (left - 1))) { /* one entry left: it is offered (y >= arb_from) */
            k = (unsigned)__builtin_ctz(left);
            const nyz_bus_ent *e = &L[k];
            unsigned c = e->core, t = e->tid;
            uint8_t v = (uint8_t)(t + 1 == nt ? 0 : t + 1);
            if (!hits && !e->x)
                pick = (int)k;
            else {
                int sqmv = 0; /* (a store's pointer move kept with its grant's, if taken) */
                if (hits || e->kind == NYZ_RP_STORE || e->st == NYZ_ST_SYNC) {
                    sqmv = a->snapped && v != sp->sq[c];
                    sp->sq[c] = v;
                } else if (e->kind != NYZ_RP_CODE)
                    sp->lq[c] = v; /* (not kept: see below) */
                if ((y > nm->fq_rst + 1 || !nyz_l2_stalled(nm, y)) && nm->l2_slot[y % NYZ_L2_SLOTS] != y) {
                    pick = (int)k;
                    sp->cr = (uint8_t)(c + 1 == nc ? 0 : c + 1);
                }
                if (sqmv && (pick < 0 || (!hits && e->kind != NYZ_RP_STORE)))
                    mv_put(nm, &a->lost, y, NYZ_MV_SQ, (int)c, v, 0, 0);
            }
        } else {
            unsigned om = 0, chg = 0; /* cores offering a load or code line, a store (sm);
                                       * whose store queue pointer moved (kept) */
            uint8_t off[NYZ_MAX_CORES];
            for (uint32_t b = hits ? 0 : left; b; b &= b - 1) {
                k = (unsigned)__builtin_ctz(b);
                const nyz_bus_ent *e = &L[k];
                if (!hits && !e->x) {
                    if (e->b - NYZ_FQ_REQ <= y) {
                        pick = (int)k;
                        break;
                    }
                    continue;
                }
                unsigned c = e->core, bit = 1u << c;
                if (e->x > y)
                    continue;
                if (hits || e->kind == NYZ_RP_STORE || e->st == NYZ_ST_SYNC) {
                    /* (the store queue: a store one per sq_free, a store_sync when it is
                     * there, l2_sync.c) */
                    if ((y >= sp->sqf[c] + NYZ_FQ_REQ || (!hits && e->st == NYZ_ST_SYNC)) &&
                        (!(sm & bit) || rr_after(e->tid, sp->sq[c], nt) < rr_after(L[soff[c]].tid, sp->sq[c], nt))) {
                        soff[c] = (uint8_t)k;
                        sm |= bit;
                    }
                } else if (!(om & bit) || (L[off[c]].kind == NYZ_RP_CODE && e->kind != NYZ_RP_CODE) ||
                           (e->kind != NYZ_RP_CODE &&
                            rr_after(e->tid, sp->lq[c], nt) < rr_after(L[off[c]].tid, sp->lq[c], nt))) {
                    off[c] = (uint8_t)k;
                    om |= bit;
                }
            }
            if (pick < 0 && (om | sm)) {
                for (unsigned b = om; b; b &= b - 1) {
                    unsigned c = (unsigned)__builtin_ctz(b), t = L[off[c]].tid;
                    if (L[off[c]].kind != NYZ_RP_CODE) /* (not kept: a load offered now is
                                                        * taken now or later, so no settle
                                                        * continues while it is in the log) */
                        sp->lq[c] = (uint8_t)(t + 1 == nt ? 0 : t + 1);
                }
                for (unsigned b = sm; b; b &= b - 1) { /* after its loads and code line */
                    unsigned c = (unsigned)__builtin_ctz(b), t = L[soff[c]].tid;
                    uint8_t v = (uint8_t)(t + 1 == nt ? 0 : t + 1);
                    if (a->snapped && v != sp->sq[c])
                        chg |= 1u << c;
                    sp->sq[c] = v;
                    if (!(om & (1u << c)))
                        off[c] = soff[c];
                }
                om |= sm;
                if ((y > nm->fq_rst + 1 || !nyz_l2_stalled(nm, y)) && nm->l2_slot[y % NYZ_L2_SLOTS] != y) {
                    /* the first offering core from cr on */
                    unsigned rot = (om >> sp->cr) | (sp->cr ? om << (nc - sp->cr) : 0);
                    unsigned c = (sp->cr + (unsigned)__builtin_ctz(rot & ((2u << (nc - 1)) - 1))) % nc;
                    pick = off[c];
                    sp->cr = (uint8_t)(c + 1 == nc ? 0 : c + 1);
                    if (hits || L[pick].kind == NYZ_RP_STORE)
                        chg &= ~(1u << c); /* (kept with its grant) */
                }
                for (; chg; chg &= chg - 1) {
                    unsigned c = (unsigned)__builtin_ctz(chg);
                    mv_put(nm, &a->lost, y, NYZ_MV_SQ, (int)c, sp->sq[c], 0, 0);
                }
            }
        }
        if (pick >= 0) {
            nyz_bus_ent *e = &L[pick];
            a->left &= ~(1u << pick);
            a->perm |= pick != (int)a->m;
            a->ord[a->m++] = (uint8_t)pick;
            if (hits || e->x)
                e->b = y + NYZ_FQ_REQ;
            if (hits || e->kind == NYZ_RP_STORE) {
                sp->sqf[e->core] = y - NYZ_FQ_REQ + NYZ_SQ_NEXT;
                if (a->snapped)
                    mv_put(nm, &a->lost, y, NYZ_MV_GRANT_ST, e->core, sp->cr, sp->sqf[e->core], sp->sq[e->core]);
            } else if (a->snapped)
                mv_put(nm, &a->lost, y, NYZ_MV_GRANT, 0, sp->cr, 0, 0);
            if (!hits && e->coll) { /* the first of a line's requests reads it */
                uint32_t line = e->pa >> nm->l2.line_shift;
                for (uint32_t b = a->left; b && e->coll; b &= b - 1) {
                    nyz_bus_ent *o = &L[__builtin_ctz(b)];
                    if (!o->coll && (o->kind != NYZ_RP_STORE || o->st == NYZ_ST_MISS) &&
                        o->pa >> nm->l2.line_shift == line) {
                        e->coll = 0;
                        o->coll = 1;
                        e->victim = o->victim;
                        o->victim = 0xffffffffu;
                    }
                }
            }
            /* (a store hit's read: its acknowledgement, bus_reread) */
            if (!a->snapped) /* (final: the fills restarted before it in the L2 first) */
                nyz_l2_granted(nm, e, !hits);
            nyz_placed *pl = !hits && !a->snapped ? placed_before(nm) : NULL;
            uint64_t nd = hits ? e->b - 2 * NYZ_FQ_REQ + nm->tm.store_lat : bus_reread(nm, e, !a->snapped);
            /* a collided miss (its line's fill was not in the L2's tags when it was made)
             * hits at its restart: a use of the way (l2_cache_read_stage.sv update_lru_en
             * = cache_hit for loads and stores; RTL trace of vstream.c2t4: the code lines
             * 0x1040, 0x1080, 0x10c0 requested by both cores, then eight data lines per
             * set take ways 4 3 6 1 5 2 7 0 and evict no dirty line) */
            if (!hits && e->coll && e->l2way == -1 && !a->snapped)
                nyz_l2_use(nm, e->pa);
            if (!hits && e->kind == NYZ_RP_SYNC)
                nyz_sync_move(nm, e, nd);
            if (!e->done)
                a->fresh = e->done = nd;
            else if (nd != e->done)
                nyz_bus_retime(nm, e, nd);
            if (pl && nm->bi_key) { /* (it placed a read or a restart: kept) */
                pl->e = *e;
                pl->key = nm->bi_key;
                nm->pl_n++;
            }
        }
        sp->y++;
    }
}

/* A settle continued for a new store e (the log's last entry) to a line the L2 holds, from
 * the cycle e is first offered (st->y, st the state there: nyz_arb_run). The last settle's
 * grants from then on are L[m..n-1) (in their order), its changes kept from then on
 * arb_mv[i..nmv), its end nm->arb_t. Those of e's core, if any, stay where they are if its
 * queue offered one of them in every cycle it offers e until the last of them is taken
 * (e adds no offer between cores) and its round robin, e in it, picks at each of their
 * grants the same one or the store left (e at first: it takes that grant, and the one it
 * was given to is the store left, its acknowledgement moved): the pointer then moves in
 * those cycles as their offers make it (those changes made again), and the store left is
 * offered alone from the last one's spacing on (y1). (About one new store in four on
 * loop4's four cores takes one of its core's grants so; before, each settled in steps.)
 * Then the store left moves none of them when taken in the first cycle from y1 in which the L2
 * takes a request and none of them was taken (g; in a cycle one of them was, the pointer
 * between cores must reach that one's core before e's), and the next of them after g is
 * still the first offering core from e's core + 1 (the pointer e's grant leaves). Then the settle is the
 * last one with e's changes added (its queue's pointer's moves, the grants of its core; the
 * log in grant order, g's slot not marked yet): returns the store left's place + 1. Else 0:
 * the settle steps (arb_steps). */
static int arb_free(nyz_machine *nm, arb_ctx *a, const nyz_arb_state *st, unsigned i, unsigned nmv)
{
    nyz_bus_ent *const L = a->L, *const e = &L[a->n - 1];
    nyz_arb_state *const sp = &nm->arb_t;
    const unsigned nl = a->n - 1, m = a->m, nc = (unsigned)nm->ncores, nt = (unsigned)nm->nthreads;
    const unsigned c = e->core, cg = c + 1 == nc ? 0 : c + 1, sti = NYZ_SQ_NEXT;
    unsigned k, cr = st->cr;
    if (nmv + 2 > NYZ_ARB_MOVES || e->done)
        return 0;
    uint64_t y = st->y, sqf = st->sqf[c];
    uint32_t pend = 0; /* (e's core's grants among them: bit k - m) */
    unsigned p0 = st->sq[c], nn = 0; /* (its queue's pointer; its new moves, nw[..nn)) */
    unsigned xk = nl, ns = 0; /* (the store left, L[xk]; the grants it took, sw[..ns)) */
    uint8_t sw[NYZ_BUS_LOG];
    nyz_arb_move nw[NYZ_ARB_MOVES];
    for (k = m; k < nl; k++)
        if (L[k].core == c)
            pend |= 1u << (k - m);
    const uint32_t pend0 = pend;
    unsigned jl = 0; /* (the last of them) */
    for (uint32_t todo = pend; todo; todo &= todo - 1) {
        /* e's core's queue offers in the same cycles (it had one there: e's store adds none
         * where it had none), and its round robin takes the same store at each grant, or
         * the store left (which then is the one it took the grant from) */
        const unsigned j = jl = m + (unsigned)__builtin_ctz(todo);
        const uint64_t h = L[j].b - NYZ_FQ_REQ;
        unsigned bk;
        for (y = y > sqf + NYZ_FQ_REQ ? y : sqf + NYZ_FQ_REQ;; y++) {
            unsigned bd = rr_after(L[xk].tid, p0, nt), any = 0;
            bk = xk;
            for (uint32_t b = pend; b; b &= b - 1) {
                const unsigned q = m + (unsigned)__builtin_ctz(b), d = rr_after(L[q].tid, p0, nt);
                if (L[q].x > y)
                    continue;
                any = 1;
                if (d <= bd && (d < bd || q < bk)) {
                    bk = q;
                    bd = d;
                }
            }
            if (!any || (y == h && bk != j && bk != xk) || nn + 2 > NYZ_ARB_MOVES)
                return 0;
            const unsigned pv = L[bk].tid + 1u == nt ? 0 : L[bk].tid + 1u;
            if (y == h)
                break;
            if (pv != p0)
                nw[nn++] = (nyz_arb_move){.y = y, .what = NYZ_MV_SQ, .core = (uint8_t)c, .v = (uint8_t)pv};
            p0 = pv;
        }
        p0 = L[bk].tid + 1u == nt ? 0 : L[bk].tid + 1u;
        if (bk == xk) { /* the store left takes j's grant: j is left */
            sw[ns++] = (uint8_t)j;
            xk = j;
        }
        sqf = h - NYZ_FQ_REQ + sti;
        pend &= ~(1u << (j - m));
        y = h + 1 > sqf + NYZ_FQ_REQ ? h + 1 : sqf + NYZ_FQ_REQ; /* (the store left alone then) */
    }
    const uint64_t y1 = y; /* (the store left offered with no other of its core) */
    k = m;
    if (pend0) { /* (the grants up to its core's last: before y1) */
        k = jl + 1;
        cr = cg;
    }
    for (;; y++) {
        for (; k < nl && L[k].b - NYZ_FQ_REQ < y; k++)
            cr = L[k].core + 1u == nc ? 0 : L[k].core + 1u;
        if (k < nl && L[k].b - NYZ_FQ_REQ == y) {
            if (rr_after(c, cr, nc) < rr_after(L[k].core, cr, nc))
                return 0; /* (e would be taken instead) */
        } else if ((y > nm->fq_rst + 1 || !nyz_l2_stalled(nm, y)) && nm->l2_slot[y % NYZ_L2_SLOTS] != y)
            break;
    }
    const uint64_t g = y;
    if (k < nl && cr != cg) { /* the cores offering at the next grant (h) */
        const uint64_t h = L[k].b - NYZ_FQ_REQ;
        unsigned om = 0, d;
        for (unsigned j = k; j < nl; j++) {
            d = L[j].core;
            if (L[j].x > h || (om >> d & 1))
                continue;
            uint64_t f = st->sqf[d];
            for (unsigned q = m; q < k; q++)
                if (L[q].core == d)
                    f = L[q].b - 2 * NYZ_FQ_REQ + sti;
            if (h >= f + NYZ_FQ_REQ)
                om |= 1u << d;
        }
        for (d = cg; !(om >> d & 1); d = d + 1 == nc ? 0 : d + 1)
            ;
        if (d != L[k].core)
            return 0;
    }
    /* e's changes among the last settle's, in cycle order */
    const uint8_t v = (uint8_t)(L[xk].tid + 1u == nt ? 0 : L[xk].tid + 1u);
    nyz_arb_move *const mv = nm->arb_mv;
    const unsigned b0 = nm->arb_mv0, add = 1 + (v != p0 && g != y1);
    unsigned p = i, q;
    if (y1 != st->y) { /* e's core had grants among them: its pointer's moves made again */
        nyz_arb_move out[NYZ_ARB_MOVES];
        unsigned no = 0, w = 0;
        if (add == 2)
            nw[nn++] = (nyz_arb_move){.y = y1, .what = NYZ_MV_SQ, .core = (uint8_t)c, .v = v};
        nw[nn++] = (nyz_arb_move){.y = g, .sqf = g - NYZ_FQ_REQ + sti, .what = NYZ_MV_GRANT_ST,
                                  .core = (uint8_t)c, .v = (uint8_t)cg, .sq = v};
        for (q = i; q < nmv || w < nn;) {
            const nyz_arb_move *o = q < nmv ? &mv[(b0 + q) % NYZ_ARB_MOVES] : NULL;
            if (o && o->what == NYZ_MV_SQ && o->core == c) {
                q++;
                continue;
            }
            if (no + i == NYZ_ARB_MOVES)
                return 0;
            if (o && (w == nn || o->y <= nw[w].y)) {
                out[no++] = *o;
                q++;
            } else
                out[no++] = nw[w++];
        }
        for (q = 0; q < no; q++) {
            for (unsigned s = 0; s < ns && out[q].what == NYZ_MV_GRANT_ST && out[q].core == c; s++)
                if (out[q].y == L[sw[s]].b - NYZ_FQ_REQ) { /* (the store left took it) */
                    const unsigned tl = s ? L[sw[s - 1]].tid : e->tid;
                    out[q].sq = (uint8_t)(tl + 1u == nt ? 0 : tl + 1u);
                }
            mv[(b0 + i + q) % NYZ_ARB_MOVES] = out[q];
        }
        nm->arb_nmv = i + no;
    } else {
        while (p < nmv && mv[(b0 + p) % NYZ_ARB_MOVES].y <= g)
            p++;
        for (q = nmv; q-- > p;)
            mv[(b0 + q + add) % NYZ_ARB_MOVES] = mv[(b0 + q) % NYZ_ARB_MOVES];
        if (add == 2) {
            for (q = p; q-- > i;)
                mv[(b0 + q + 1) % NYZ_ARB_MOVES] = mv[(b0 + q) % NYZ_ARB_MOVES];
            mv[(b0 + i) % NYZ_ARB_MOVES] = (nyz_arb_move){.y = st->y, .what = NYZ_MV_SQ, .core = (uint8_t)c, .v = v};
        }
        mv[(b0 + p + add - 1) % NYZ_ARB_MOVES] = (nyz_arb_move){.y = g, .sqf = g - NYZ_FQ_REQ + sti,
                                                                 .what = NYZ_MV_GRANT_ST, .core = (uint8_t)c, .v = (uint8_t)cg,
                                                                 .sq = v};
        nm->arb_nmv = nmv + add;
    }
    if (ns) { /* e takes the first grant the store left took, each store left after it the
               * next (acknowledgements moved in grant order, as the steps move them) */
        nyz_bus_ent t = *e;
        t.b = L[sw[0]].b;
        a->fresh = t.done = t.b - 2 * NYZ_FQ_REQ + nm->tm.store_lat;
        for (q = 0; q < ns; q++) {
            const nyz_bus_ent nx = L[sw[q]];
            L[sw[q]] = t;
            t = nx;
            if (q + 1 < ns) {
                t.b = L[sw[q + 1]].b;
                const uint64_t nd = t.b - 2 * NYZ_FQ_REQ + nm->tm.store_lat;
                if (nd != t.done)
                    nyz_bus_retime(nm, &t, nd);
            }
        }
        *e = t; /* (the last one left) */
    }
    e->b = g + NYZ_FQ_REQ;
    const uint64_t nd = g - NYZ_FQ_REQ + nm->tm.store_lat;
    if (!ns)
        a->fresh = e->done = nd;
    else if (nd != e->done)
        nyz_bus_retime(nm, e, nd);
    if (k != nl) { /* the last one left among them in grant order */
        const nyz_bus_ent t = *e;
        memmove(&L[k + 1], &L[k], (nl - k) * sizeof L[0]);
        L[k] = t;
    }
    sp->sq[c] = v; /* (sp: where the last settle ended) */
    sp->sqf[c] = g - NYZ_FQ_REQ + sti;
    if (k == nl) {
        sp->cr = (uint8_t)cg;
        sp->y = g + 1;
    }
    return (int)k + 1;
}

/* The requests bus_log holds, taken by the L2's arbiter one a cycle: none while the L2 is
 * stalled (nyz_l2_stalled) or has taken a request kept out of bus_log (a store-queue
 * operation taken when made, a final grant: l2_slot); the others round robin between cores, the pointer moving to the core after the one taken
 * (l2_cache_arb_stage.sv: rr_arbiter, update_lru = can_accept_request); each core offering
 * its data loads (a load_sync is one), then its code line, then its store queue (a
 * store_sync is in it) (l1_l2_interface.sv), the loads round robin over its threads with a pointer that moves every cycle the load-miss queue has
 * one, taken or not (l1_load_miss_queue.sv: update_lru = 1), the stores likewise
 * (l1_store_queue.sv), one per sq_free of a core (timing.c l2_store_accept's spacing). The cores run back to back, so a request
 * is made when its core runs and may reach the L2 before requests made earlier: the grants
 * are settled again from the first one not final, and the lines read again in grant order
 * from the bus state before it. Grants before fin are final (every core has passed that
 * cycle): they leave bus_log, the arbiter's state moves on to them. A read that comes later
 * than it was going to delays its requesters, one that comes sooner lets them go sooner
 * (nyz_bus_retime). Returns the data cycle of the request not read yet (done 0), or 0.
 * Cycles in which no request may be taken (none has reached the L2, or only stores their
 * core's queue holds back) move no pointer: they are passed in one step. While the entries
 * are stores to lines the L2 holds (their reads use no bus), a new one changes no grant
 * before the cycle it reaches the L2: the settle starts there, from the state arb_y's
 * state and the changes kept since give (arb_mv), and the state at fin is found the same
 * way; a new store that moves no other core's grant is added to the last settle's without
 * steps (arb_free). */
uint64_t nyz_arb_run(nyz_machine *nm, uint64_t fin)
{
    nyz_bus_ent *L = nm->bus_log, tmp[NYZ_BUS_LOG];
    unsigned n = nm->bus_n, m = 0, nfin = n, k, m0;
    int snapped = 0, lost = 0, perm = 0, pure = 1; /* pure: see the end */
    nyz_arb_state *const sp = &nm->arb_t; /* (worked on in place: it ends there) */
    uint64_t fresh = 0;
    arb_ctx a;
    int freed = 0; /* (a new store settled from where it reaches the L2: arb_free) */
    int cont = 0; /* (a new store's settle continued: L[0..m0)'s slots stay marked, below) */
    if (nm->arb_tok && n - nm->arb_tn <= 1 && !nm->arb_full) {
        /* the grants before the new entry reaches the L2 (all, if none is new) stay as the
         * last settle left them (the bus state is arb_before) */
        uint64_t r = n == nm->arb_tn ? UINT64_MAX : L[n - 1].x ? L[n - 1].x : L[n - 1].b - NYZ_FQ_REQ;
        pure = n == nm->arb_tn || (L[n - 1].kind == NYZ_RP_STORE && L[n - 1].st == 1);
        cont = pure && n != nm->arb_tn && fin != UINT64_MAX;
        if (r >= sp->y) {
            m = nm->arb_tn;
            if (fin < sp->y) {
                nfin = mv_final(nm, fin);
                snapped = 1;
            }
        } else {
            unsigned i = 0;
            nyz_arb_state st; /* (the state where the settle starts; sp: where the last ended) */
            if (fin < r) { /* (the moves before fin: final) */
                nfin = m = mv_final(nm, fin);
                snapped = 1;
            }
            st.y = r > nm->arb_y ? r : nm->arb_y;
            st.cr = nm->arb_core;
            memcpy(st.lq, nm->arb_lq, sizeof st.lq);
            memcpy(st.sq, nm->arb_sq, sizeof st.sq);
            memcpy(st.sqf, nm->sq_free, sizeof st.sqf);
            for (int again = L[n - 1].x && L[n - 1].kind == NYZ_RP_STORE;; again = 0) {
                for (; i < nm->arb_nmv; i++) {
                    const nyz_arb_move *p = &nm->arb_mv[(nm->arb_mv0 + i) % NYZ_ARB_MOVES];
                    if (p->y >= st.y)
                        break;
                    m += (unsigned)mv_apply(p, &st.cr, st.sq, st.sqf);
                }
                /* a store its core's queue holds back until sqf changes nothing before: no
                 * store of its core is taken before then either (one taken at g would have
                 * been offered with it) */
                if (!again || st.sqf[L[n - 1].core] + NYZ_FQ_REQ <= st.y)
                    break;
                st.y = st.sqf[L[n - 1].core] + NYZ_FQ_REQ;
            }
            const unsigned onmv = nm->arb_nmv;
            nm->arb_nmv = i; /* (the later ones are made again) */
            if (pure && snapped) {
                a.L = L;
                a.n = n;
                a.m = m;
                freed = arb_free(nm, &a, &st, i, onmv);
            }
            if (!freed) {
                *sp = st;
                for (k = m; k < n - 1; k++) /* their grants are given again */
                    if (nm->l2_slot[(L[k].b - NYZ_FQ_REQ) % NYZ_L2_SLOTS] == L[k].b - NYZ_FQ_REQ)
                        nm->l2_slot[(L[k].b - NYZ_FQ_REQ) % NYZ_L2_SLOTS] = 0;
            }
            if (fin < sp->y && !snapped) {
                nfin = mv_final(nm, fin);
                snapped = 1;
            }
        }
    } else {
        nm->arb_nmv = 0;
        sp->y = nm->arb_y;
        sp->cr = nm->arb_core;
        memcpy(sp->lq, nm->arb_lq, sizeof sp->lq);
        memcpy(sp->sq, nm->arb_sq, sizeof sp->sq);
        memcpy(sp->sqf, nm->sq_free, sizeof sp->sqf);
        for (k = 0; k < n; k++) /* their grants are given again */
            if (L[k].x && L[k].done && nm->l2_slot[(L[k].b - NYZ_FQ_REQ) % NYZ_L2_SLOTS] == L[k].b - NYZ_FQ_REQ)
                nm->l2_slot[(L[k].b - NYZ_FQ_REQ) % NYZ_L2_SLOTS] = 0;
        bus_restore(nm, &nm->arb_before);
        for (k = 0; k < n; k++)
            pure &= L[k].kind == NYZ_RP_STORE && L[k].st == 1;
    }
    m0 = m; /* (L[0..m0) keep their places) */
    if (freed) {
        fresh = a.fresh; /* (the log as arb_free left it) */
        m0 = (unsigned)freed - 1;
    } else {
        a = (arb_ctx){.L = L, .n = n, .m = m, .nfin = nfin, .fin = fin, .snapped = snapped, .lost = lost,
                      .left = (uint32_t)(((uint64_t)1 << n) - ((uint64_t)1 << m))};
        if (pure)
            arb_steps(nm, &a, 1);
        else
            arb_steps(nm, &a, 0);
        nfin = a.nfin;
        snapped = a.snapped;
        lost = a.lost;
        perm = a.perm;
        fresh = a.fresh;
    }
    if (!snapped) {
        nm->arb_y = sp->y;
        nm->arb_core = sp->cr;
        memcpy(nm->arb_lq, sp->lq, sizeof sp->lq);
        memcpy(nm->arb_sq, sp->sq, sizeof sp->sq);
        memcpy(nm->sq_free, sp->sqf, sizeof sp->sqf);
        nm->arb_nmv = 0;
    }
    if (perm) { /* L[m0..n) in grant order */
        for (k = m0; k < n; k++)
            tmp[k] = L[a.ord[k]];
        memcpy(L + m0, tmp + m0, (n - m0) * sizeof L[0]);
    }
    /* the grants' slots (in a new store's settle continued, from m0 on: the others stay as
     * the last settle marked them, as nothing marks one between two such settles: every
     * other use of l2_slot comes with a settle of all, of another kind or of none left) */
    for (k = cont ? m0 : 0; k < n; k++)
        if (L[k].x)
            nm->l2_slot[(L[k].b - NYZ_FQ_REQ) % NYZ_L2_SLOTS] = L[k].b - NYZ_FQ_REQ;
    for (k = 0; k < nfin; k++) /* (the L2's replacement state in grant order) */
        nyz_l2_granted(nm, &L[k], 0);
    if (nm->pf_n) /* (fills restarted before fin: every grant before them is final) */
        nyz_l2_settle(nm, fin ? fin - 1 : 0);
#ifndef NYZ_MEMTRACE
    if (!pure) /* (else none is a synchronized request) */
#endif
        for (k = 0; k < nfin; k++) {
            if (L[k].kind == NYZ_RP_SYNC) /* decided at its final grant (if not yet) */
                nyz_sync_grant(nm, &L[k]);
#ifdef NYZ_MEMTRACE
            fprintf(stderr, "%llu GR c%d t%d k%d a%08x x%llu\n", (unsigned long long)(L[k].b - NYZ_FQ_REQ),
                    L[k].core, L[k].tid, L[k].kind, L[k].pa, (unsigned long long)L[k].x);
#endif
        }
    /* pure: the entries left are stores to lines the L2 holds (their reads use no bus);
     * (one taken before fin counts too: tok 0 settles again from arb_y) */
    if (nfin) { /* (they leave at the front: nyuzi.h bus_mem) */
        nm->bus_log = L += nfin;
        if (L + NYZ_BUS_LOG > nm->bus_mem + 2 * NYZ_BUS_LOG) {
            memmove(nm->bus_mem, L, (n - nfin) * sizeof L[0]);
            nm->bus_log = nm->bus_mem;
        }
    }
    nm->bus_n = n - nfin;
    nm->arb_tn = nm->bus_n;
    nm->arb_tok = (uint8_t)(nm->bus_n && pure && !lost && !nm->pf_moved);
    nm->pf_moved = 0;
    return fresh;
}

/* The bus state before bus_log's first entry (nyz_bus_log_add, nyuzi.h). */
void nyz_bus_save_first(nyz_machine *nm)
{
    bus_save(nm, &nm->arb_before);
}

/* The final reads and restarts placed[i..n) placed again in order from the bus state before
 * the first of them, their requesters moved (nyz_bus_retime). */
static void placed_again(nyz_machine *nm, unsigned i, unsigned n)
{
    nm->pl_n = 0; /* (none before them may be placed again: what goes before would be lost) */
    for (unsigned j = i; j < n; j++) {
        nyz_placed *p = &nm->placed[nm->pl_n];
        nyz_bus_ent e = nm->placed[j].e;
        bus_save(nm, &p->before);
        nm->bi_key = 0;
        uint64_t nd = bus_reread(nm, &e, 1); /* (its L2 way taken: final) */
#ifdef NYZ_MEMTRACE
        fprintf(stderr, "%llu FLW c%d k%d a%08x %llu -> %llu\n", (unsigned long long)nm->cur_cycle,
                e.core, e.kind, e.pa, (unsigned long long)e.done, (unsigned long long)nd);
#endif
        if (e.kind == NYZ_RP_SYNC)
            nyz_sync_move(nm, &e, nd);
        if (nd != e.done)
            nyz_bus_retime(nm, &e, nd);
        p->e = e;
        p->key = nm->bi_key;
        nm->pl_n++;
    }
}

/* A flush's write-back of the dirty line pa, its bus time from (timing.c nyz_mem_timing). The
 * bus interface takes a write-back waiting in its IDLE state before the fill FIFO's next
 * entry (l2_axi_bus_interface.sv: writeback_pending first), so the flush's write goes before
 * the reads and restarts placed already (they were placed when their grants became final,
 * before the flush was made) whose IDLE comes at or after from (its bus time: the IDLE after
 * its L2 read stage enqueues it, as nyz_wb_drain and nyz_bi_restart take a write-back): those
 * are placed again after it, their requesters moved (nyz_bus_retime). RTL trace of
 * dflush_dirty.c2t1: core 1's collided code-line restart, due when core 0's flush write-back
 * was pending, after it (AW 469, restart 491). Returns the write's start. */
uint64_t nyz_flush_write(nyz_machine *nm, uint32_t pa, uint64_t from)
{
    nyz_bus_fix(nm);
    return nyz_flush_place(nm, pa, from);
}

/* nyz_flush_write's placement, its grant final and those before it (bus_log.c's settle at
 * a dirty flush's final grant, nyz_flush_final). */
uint64_t nyz_flush_place(nyz_machine *nm, uint32_t pa, uint64_t from)
{
    unsigned i = 0, n = nm->pl_n;
    while (i < n && nm->placed[i].key < from)
        i++;
    if (i < n)
        bus_restore(nm, &nm->placed[i].before);
    nyz_wb_drain(nm, from); /* (the write-backs queued before it) */
    uint64_t start = nyz_bus_write(nm, pa, from);
    placed_again(nm, i, n);
    nm->bi_key = 0; /* (the settle's slot for the flush keeps nothing) */
    return start;
}

/* While a dirty flush's grant is not final (timing.c sq_op_timing), an event the cycle after
 * it: the cores' bursts end there, so every core has passed the grant and none has used the
 * flush's answer (its acknowledgement, at least 31 cycles after the grant, and the reads
 * granted after it: nyz_flush_final) before the settle there makes it final. */
void nyz_flush_arm(nyz_machine *nm)
{
    uint64_t g = UINT64_MAX;
    for (unsigned k = 0; nm->flw_n && k < nm->bus_n; k++)
        if (nm->bus_log[k].st == NYZ_ST_FLUSHW && nm->bus_log[k].kind == NYZ_RP_STORE &&
            nm->bus_log[k].b - NYZ_FQ_REQ < g)
            g = nm->bus_log[k].b - NYZ_FQ_REQ;
    if (g != UINT64_MAX) {
        sim_schedule(nm->m, &nm->flush_ev, g + 1);
        nm->resched = 1; /* (the running burst sees it) */
    }
}

/* The event nyz_flush_arm set, at cycle when: the grants before it made final. */
void nyz_flush_event(ev_event *e, void *ctx)
{
    nyz_machine *nm = ctx;
    if (!nm->flw_n)
        return;
    nm->cur_cycle = e->when;
    nyz_arb_run(nm, e->when);
    nyz_flush_arm(nm); /* (one granted later meanwhile) */
}

/* A fill restarted at rst entered the L2 with a dirty victim its read was not placed with,
 * or without the one it was placed with (l2_fill.c pf_install, the write-back queue fixed
 * in the saved states): the final reads and restarts placed from then on are placed again
 * (the bus interface takes the write-back before the fill FIFO's next entry, as a flush's;
 * RTL trace of memcpy.c2t4: 0x40e700's fill restarted at 39986 evicts the dirty 0x50a700,
 * AW 40021, the read of 0x404280 granted at 39894 after it, AR 40078). Only while the grants
 * are placed in order (arb_steps, before its first grant not final); after: else (the grants
 * not final, placed after the final ones, are placed again at the next settle). */
void nyz_bus_replace(nyz_machine *nm, uint64_t rst, int after)
{
    unsigned i = 0, n = nm->pl_n;
    while (i < n && nm->placed[i].key < rst)
        i++;
    if (i == n)
        return;
    bus_restore(nm, &nm->placed[i].before);
    placed_again(nm, i, n);
    if (after) { /* (the grants not final are placed again, from the new state, at the next settle) */
        bus_save(nm, &nm->arb_before);
        nm->arb_tok = 0;
        nm->pf_moved = 1;
    }
}
