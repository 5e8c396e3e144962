/* isa/nyuzi/l2_fill.c: when the L2's fills and hits use its ways (every request bus_log keeps:
 * on several cores all, on one core its loads, code lines and stores to a busy L2). A miss's
 * fill takes its way (cache_lru.sv's pseudo-LRU flags) as its restart passes the L2's tag
 * stage, a hit moves the flags as it passes the read stage (its grant + 2), and a request
 * finds its line, or misses, a cycle after its grant: so fills whose grant is final wait
 * here (nm->pf) for their restart, in restart order with the hits' final grants (bus_log.c
 * calls nyz_l2_granted in grant order), and the read placed for a fill before its victim
 * is known is corrected when it enters (the write-back queued, moved or dropped, also in
 * the saved bus states). timing.c makes the requests; cache.c holds tags and flags. */
#include <string.h>
#include "nyuzi.h"
#ifdef NYZ_MEMTRACE
#include <stdio.h>
#endif
#include "mem_priv.h"

/* The fills whose grant is final take their L2 way when their restart
 * passes the L2's tag stage (l2_cache_tag_stage.sv reads cache_lru's flags for fill_en then),
 * so hits granted between a miss's grant and its restart move the pseudo-LRU first (RTL
 * trace of wc_gap_s.c4t1: the fill restarted at 1033 evicts the dirty line 0x100040, written
 * back at AW 1068). Until then they wait in nm->pf; the index of line's, or -1. */
static int pf_find(const nyz_machine *nm, uint32_t line)
{
    for (unsigned i = 0; i < nm->pf_n; i++)
        if (nm->pf[i].line == line)
            return (int)i;
    return -1;
}

enum { PF_KEEP, PF_STEPS, PF_AFTER };

/* bus_log.c nyz_bus_replace for a fill restarted at rst, unless mode is PF_KEEP. */
static void pf_replace(nyz_machine *nm, uint64_t rst, int mode)
{
    if (mode != PF_KEEP)
        nyz_bus_replace(nm, rst, mode == PF_AFTER);
}

/* Pending fill k enters the L2's tags (its restart: now); a dirty victim is written back
 * from then (nyz_wb_push), also in the saved bus states a settle or a flush starts from
 * (bus_log.c), which were saved before it was known; the final reads placed after it are
 * placed again if that changes the bus (mode PF_STEPS: while arb_steps places the final
 * grants, PF_AFTER: else, PF_KEEP: within a read's placement, not). */
static void pf_install(nyz_machine *nm, unsigned k, int mode)
{
    nyz_cache *l2 = &nm->l2;
    const uint32_t pa = nm->pf[k].line << l2->line_shift;
    const uint64_t rst = nm->pf[k].rst;
    const int write = nm->pf[k].write;
    const uint32_t pv = nm->pf[k].pv;
    unsigned uses = nm->pf[k].uses;
    nm->pf[k] = nm->pf[--nm->pf_n];
    uint32_t victim = nyz_cache_dirty_victim(l2, pa);
    if (!nyz_cache_access(l2, pa, 1, write))
        l2->misses--; /* (counted when it was asked for) */
    l2->ready[l2->last_way] = rst;
    while (uses--) /* (collided misses of the line: restarted after it, nyz_l2_use) */
        nyz_cache_touch(l2, pa);
#ifdef NYZ_MEMTRACE
    fprintf(stderr, "%llu INS a%08x way%d v%08x pv%08x at %llu\n", (unsigned long long)rst, pa, l2->last_way % 8,
            victim << 6, pv << 6, (unsigned long long)nm->cur_cycle);
#endif
    if (victim == pv)
        return;
    if (pv != 0xffffffffu) { /* (its read placed with another dirty victim's write-back) */
        nyz_wb_fix(nm->wb_at, nm->wb_line, &nm->wb_n, pv, victim, rst);
        nyz_wb_fix(nm->arb_before.wb_at, nm->arb_before.wb_line, &nm->arb_before.wb_n, pv, victim, rst);
        for (unsigned i = 0; i < nm->pl_n; i++)
            nyz_wb_fix(nm->placed[i].before.wb_at, nm->placed[i].before.wb_line, &nm->placed[i].before.wb_n,
                       pv, victim, rst);
        if (victim == 0xffffffffu) /* (the reads placed after it: without it) */
            pf_replace(nm, rst, mode);
        return;
    }
    nyz_wb_push(nm, victim, rst);
    nyz_wb_push_saved(&nm->arb_before, victim, rst);
    for (unsigned i = 0; i < nm->pl_n; i++)
        nyz_wb_push_saved(&nm->placed[i].before, victim, rst);
    pf_replace(nm, rst, mode); /* (the reads placed after it: behind the write-back) */
}

/* The pending fills restarted by cycle at enter the L2, in restart order (mode: pf_install). */
static void settle_to(nyz_machine *nm, uint64_t at, int mode)
{
    while (nm->pf_n) {
        unsigned k = 0;
        for (unsigned i = 1; i < nm->pf_n; i++)
            if (nm->pf[i].rst < nm->pf[k].rst)
                k = i;
        if (nm->pf[k].rst > at)
            return;
        pf_install(nm, k, mode);
    }
}

void nyz_l2_settle(nyz_machine *nm, uint64_t at)
{
    settle_to(nm, at, PF_AFTER);
}

/* A hit bus_log keeps (a store's, a load's, a code line's): counted, a store's line
 * marked dirty when it is made (its data are the L2's from then: l2_vis.c), its use of the
 * way for replacement at its grant (l2_cache_read_stage.sv updates the pseudo-LRU as the
 * request passes, grant + 2; nyz_l2_granted). */
int nyz_l2_mark(nyz_cache *c, uint32_t pa, int write)
{
    int k = nyz_cache_slot(c, pa);
    if (k >= 0)
        return nyz_cache_hit(c, (unsigned)k, write);
    c->misses++;
    c->last_way = -1;
    return 0;
}

/* A collided miss's restart uses its line's way (bus_log.c arb_steps): after the line's
 * fill if that waits for its restart (8 ways: a second use of way 0 or 1 can change the
 * flags, nyuzi.h nyz_cache_touch's note). */
void nyz_l2_use(nyz_machine *nm, uint32_t pa)
{
    int k = pf_find(nm, pa >> nm->l2.line_shift);
    if (k >= 0 && nm->pf[k].uses < 255)
        nm->pf[k].uses++;
    else if (k < 0)
        nyz_cache_touch(&nm->l2, pa);
}

/* A request that reaches the L2 at cycle now (on several cores: its grant no sooner) finds
 * in the L2's tags the fills restarted by then, unless a grant not final yet comes before
 * one of them (its use of a way first: nyz_l2_granted); bus_log's entries are granted no
 * sooner than they reach the L2. */
void nyz_l2_settle_made(nyz_machine *nm, uint64_t now)
{
    for (unsigned i = 0; i < nm->bus_n; i++) {
        const nyz_bus_ent *e = &nm->bus_log[i];
        uint64_t g = e->x ? e->x : e->b - FQ_REQ;
        if (!e->used && g <= now)
            now = g - 1;
    }
    nyz_l2_settle(nm, now);
}

/* The same for pa's set alone (a load's or code line's request reaching the L2 at now;
 * timing.c fill_at): only that set's grants not final bound it. Its thread takes the answer
 * given when the request is made, and a miss found only at the final grant may come after
 * the thread ran on with a hit's (RTL trace of memcpy.c4t1: core 0's load of 0x4012c0 made
 * at 38320, the fill restarted at 38322 evicts it, the load granted at 38323 misses). */
void nyz_l2_settle_set(nyz_machine *nm, uint32_t pa, uint64_t now)
{
    const nyz_cache *l2 = &nm->l2;
    const uint32_t set = (pa >> l2->line_shift) & (l2->sets - 1);
    for (unsigned i = 0; i < nm->bus_n; i++) {
        const nyz_bus_ent *e = &nm->bus_log[i];
        uint64_t g = e->x ? e->x : e->b - FQ_REQ;
        if (!e->used && g <= now && ((e->pa >> l2->line_shift) & (l2->sets - 1)) == set)
            now = g - 1;
    }
    for (;;) {
        int k = -1;
        for (unsigned i = 0; i < nm->pf_n; i++)
            if ((nm->pf[i].line & (l2->sets - 1)) == set && nm->pf[i].rst <= now &&
                (k < 0 || nm->pf[i].rst < nm->pf[k].rst))
                k = (int)i;
        if (k < 0)
            return;
        pf_install(nm, (unsigned)k, PF_AFTER);
    }
}

/* bus_log entry e's grant is final (bus_log.c nyz_arb_run, in grant order): the fills
 * restarted before it enter the L2 first, then a hit uses its way. A request made as a hit
 * whose line such a fill evicted misses (l2_cache_tag_stage.sv looks its line up a cycle
 * after its grant: RTL trace of memcpy.c4t1, 0x4012c0 evicted by the fill restarted at
 * 38322, core 0's load of it granted at 38323 read again, restart 38382; of memcpy.c2t4,
 * 0x502140 evicted at 39288, core 0's store to it granted at 39326 read, restart 39514);
 * place: its read is placed next (bus_log.c arb_steps, not a settle of store hits alone). */
void nyz_l2_granted(nyz_machine *nm, nyz_bus_ent *e, int place)
{
    if (e->used)
        return;
    e->used = 1;
    settle_to(nm, e->b - FQ_REQ, place ? PF_STEPS : PF_AFTER);
    int store = e->kind == NYZ_RP_STORE && e->st == 1 && !e->sqop; /* (a flush: no use) */
    if (!store && !(e->kind != NYZ_RP_STORE && e->coll && e->l2way >= 0))
        return;
    if (nyz_cache_probe(&nm->l2, e->pa)) {
        nyz_cache_touch(&nm->l2, e->pa); /* (a hit: its use of the way, nyz_l2_mark) */
        return;
    }
    int pend = nyz_l2_pending(nm, e->pa); /* (its line asked for again: a collided miss) */
    if (!place || e->kind == NYZ_RP_SYNC || (store && (pend || e->l2way < 0)))
        return; /* (a store to a line whose fill is asked for: its hit, nyz_store_timing) */
    e->l2way = -1;
    e->coll = (uint8_t)pend;
    if (store) {
        e->st = e->whole ? 2 : NYZ_ST_MISS;
        e->bus = e->whole ? 0 : DMEM_BUS;
        e->lead = e->whole ? 0 : DMEM_LEAD;
        e->victim = 0xffffffffu;
    }
    nm->l2.hits--;
    nm->l2.misses++;
}

/* bus_log entry e's fill, its grant final, restarts at rst: pending until then (or its
 * restart moved, a flush's write-back placed before it: bus_log.c nyz_flush_write). */
void nyz_l2_pend(nyz_machine *nm, nyz_bus_ent *e, uint64_t rst, uint32_t victim)
{
    if (e->kind == NYZ_RP_STORE && e->st == 2)
        rst -= STORE_RST_ACK; /* (a whole-line store's: its acknowledgement, nyz_store_restart) */
    uint32_t line = e->pa >> nm->l2.line_shift;
    int k = pf_find(nm, line);
    if (e->l2way == NYZ_WAY_PF) {
        if (k >= 0)
            nm->pf[k].rst = rst;
        else { /* (in the L2 already: its restart moved, a flush's write-back before it) */
            nyz_cache *l2 = &nm->l2;
            unsigned base = (line & (l2->sets - 1)) * l2->ways;
            for (unsigned w = 0; w < l2->ways; w++)
                if (l2->tag[base + w] == line)
                    l2->ready[base + w] = rst;
        }
        return;
    }
    e->l2way = NYZ_WAY_PF;
    e->victim = victim;
    if (k >= 0)
        return;
    if (nm->pf_n == NYZ_PF) { /* (full: the first restarted enters) */
        unsigned f = 0;
        for (unsigned i = 1; i < NYZ_PF; i++)
            if (nm->pf[i].rst < nm->pf[f].rst)
                f = i;
        pf_install(nm, f, PF_KEEP);
    }
    nm->pf[nm->pf_n].line = line;
    nm->pf[nm->pf_n].rst = rst;
    nm->pf[nm->pf_n].pv = victim;
    nm->pf[nm->pf_n].uses = 0;
    nm->pf[nm->pf_n++].write = e->kind == NYZ_RP_STORE || e->st == NYZ_ST_SYNC;
}

/* A store to pa's line, whose fill waits for its restart: the line enters dirty. */
void nyz_l2_pend_write(nyz_machine *nm, uint32_t pa)
{
    int k = pf_find(nm, pa >> nm->l2.line_shift);
    if (k >= 0)
        nm->pf[k].write = 1;
}

/* 1 if a fill of pa's line is in bus_log, not in the L2's tags yet (nyz_l2_fill). */
int nyz_l2_pending(const nyz_machine *nm, uint32_t pa)
{
    uint32_t line = pa >> nm->l2.line_shift;
    if (pf_find(nm, line) >= 0)
        return 1;
    for (unsigned i = 0; i < nm->bus_n; i++) {
        const nyz_bus_ent *e = &nm->bus_log[i];
        if (e->l2way == -1 && !e->coll && (e->kind != NYZ_RP_STORE || e->st != 1) &&
            e->pa >> nm->l2.line_shift == line)
            return 1;
    }
    return 0;
}

/* The L2 way of bus_log entry e's fill and the dirty line it evicts (or ~0), as its read
 * or restart is placed in the arbiter's order (bus_log.c bus_reread). On several cores a
 * miss kept in bus_log (way -1) takes its way at its restart (nyz_l2_pend, then
 * nyz_l2_settle), so *way is -1 and the victim is the one its set would give after the
 * fills waiting for their restart enter, in restart order (final: a read placed before the
 * grants still to be settled), or as it is now (not final); the write-back is corrected if
 * the hits granted before its restart change it (pf_install). An entry whose way was taken
 * when it was made (one core) keeps it. */
uint32_t nyz_l2_fill(nyz_machine *nm, nyz_bus_ent *e, int final, int *way)
{
    nyz_cache *l2 = &nm->l2;
    if (e->l2way >= 0) {
        *way = l2->tag[e->l2way] == e->pa >> l2->line_shift ? e->l2way : -1;
        return e->victim;
    }
    *way = -1;
    if (e->l2way == NYZ_WAY_PF)
        return e->victim;
    if (!final || !nm->pf_n)
        return nyz_cache_dirty_victim(l2, e->pa);
    uint32_t ah[NYZ_PF];
    uint8_t dt[NYZ_PF], done[NYZ_PF] = {0};
    for (unsigned j = 0; j < nm->pf_n; j++) {
        unsigned b = NYZ_PF;
        for (unsigned i = 0; i < nm->pf_n; i++)
            if (!done[i] && (b == NYZ_PF || nm->pf[i].rst < nm->pf[b].rst))
                b = i;
        done[b] = 1;
        ah[j] = nm->pf[b].line;
        dt[j] = nm->pf[b].write;
    }
    return nyz_cache_victim_after(l2, e->pa, ah, dt, nm->pf_n);
}

/* The restart of the fill of bus_log entry e's line if the L2 holds it or bus_log reads it
 * (a fill whose grant is not final yet), else 0. */
uint64_t nyz_l2_ready(const nyz_machine *nm, const nyz_bus_ent *e)
{
    const nyz_cache *l2 = &nm->l2;
    uint32_t line = e->pa >> l2->line_shift;
    if (e->l2way >= 0 && l2->tag[e->l2way] == line) /* (the way it found) */
        return l2->ready[e->l2way];
    unsigned base = (line & (l2->sets - 1)) * l2->ways;
    for (unsigned w = 0; w < l2->ways; w++)
        if (l2->tag[base + w] == line)
            return l2->ready[base + w];
    int k = pf_find(nm, line);
    if (k >= 0)
        return nm->pf[k].rst;
    /* its fill not final yet: the restart bus_log read for it (a collided miss's answer
     * depends on the reads before it, not on whether their grants are final yet: a grant
     * the cores have passed may be final only at a later settle, and its answer must not
     * move then, bus_retime.c nyz_bus_retime) */
    for (unsigned i = 0; i < nm->bus_n; i++) {
        const nyz_bus_ent *o = &nm->bus_log[i];
        if (o->rst && !o->coll && o->pa >> l2->line_shift == line)
            return o->rst;
    }
    return 0;
}
