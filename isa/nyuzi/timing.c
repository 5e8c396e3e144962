/* isa/nyuzi/timing.c: the Nyuzi memory system for the cycle model: L1 instruction and data
 * caches' fills and the shared L2's requests (the caches' tags and replacement: cache.c;
 * the memory bus, the fill FIFO and the SDRAM controller: mem_bus.c), the store queue's
 * acknowledgements, and what an executed instruction's memory access costs
 * (nyz_mem_timing). The pipeline that calls it is pipeline.c; the rules and their sources
 * are in docs/isa/nyuzi.md. */
#include <stdlib.h>
#include <string.h>
#include "nyuzi.h"
#ifdef NYZ_MEMTRACE /* -DNYZ_MEMTRACE: every memory-bus read (AR) and write-back (AW) on
                     * stderr, as the RTL testbench's traced copy prints them (docs/validation) */
#include <stdio.h>
#endif
#include "mem_priv.h"

/* Store and flush acknowledgements (probes: store + membar to a line in L2 15 cycles on
 * both; to a line missing in L2 46 and 43 on the RTL, i.e. the miss adds the data line's
 * fill less 11; dflush + membar 12 for a line that is not dirty and 36 for a dirty one,
 * whose write-back is posted once the memory bus takes it). */
enum { STORE_MISS_LEAD = 11, DFLUSH_EXTRA = NYZ_DFLUSH_EXTRA };


/* One core: a request made at now that reaches the L2 at x finds there what every fill
 * restarted before x left (l2_cache_tag_stage.sv: a fill takes its way as its restart
 * passes; a request looks its line up a cycle after its grant, no sooner than x). Those
 * fills enter first: one whose grant is not final yet has it made final (every grant
 * before now is: a request made from now on reaches the L2 no sooner than now + FQ_REQ),
 * and the hits granted before each restart use their ways before it, in grant order
 * (nyz_l2_granted). RTL trace of memcpy.c1t4: the whole-line store to 0x5001c0 granted at
 * 43435 restarts at 43440 and evicts 0x4041c0, whose load made at 43439 (granted 43442)
 * misses (AR 43475): its thread is not woken as for a hit. */
static void l2_seen(nyz_machine *nm, uint64_t now, uint64_t x)
{
    if (nm->ncores > 1 || !(nm->pf_n || nm->bus_n))
        return;
    const uint64_t lim = x > now ? x : now;
    for (unsigned i = 0; i < nm->bus_n; i++) {
        const nyz_bus_ent *e = &nm->bus_log[i];
        uint64_t r = e->kind == NYZ_RP_STORE && e->st == 2 && e->done ? e->done - STORE_RST_ACK
                   : e->coll ? 0 : e->rst;
        if (r && r < lim && e->l2way == -1 && e->b < now + FQ_REQ) {
            nyz_arb_run(nm, now);
            break;
        }
    }
    uint64_t first = UINT64_MAX, last = 0;
    for (unsigned i = 0; i < nm->pf_n; i++) {
        first = nm->pf[i].rst < first ? nm->pf[i].rst : first;
        if (nm->pf[i].rst < lim && nm->pf[i].rst > last)
            last = nm->pf[i].rst;
    }
    if (first >= lim)
        return;
    for (;;) {
        nyz_bus_ent *g = NULL;
        for (unsigned i = 0; i < nm->bus_n; i++) {
            nyz_bus_ent *e = &nm->bus_log[i];
            if (!e->used && e->b < last + FQ_REQ && (!g || e->b < g->b))
                g = e;
        }
        if (!g)
            break;
        nyz_l2_granted(nm, g, 0);
    }
    nyz_l2_settle(nm, lim - 1);
}

/* Extra cycles beyond an L1 hit for a line requested at cycle now, whose request takes the
 * memory bus no sooner than now + bus (DMEM_BUS for data, 0 for a code line); kind: what
 * waits for it (NYZ_RP_LOAD, NYZ_RP_SYNC, NYZ_RP_CODE: bus_log; NYZ_RP_NONE otherwise), c
 * and t the requesting core and thread; x the cycle it reached the L2 if the arbiter may
 * still give it another grant than now + bus - FQ_REQ (bus_log.c nyz_arb_run), else 0. A
 * line whose fill is still in flight makes a later request wait for the same fill (the L1
 * and L2 miss queues merge requests to one line). */
static unsigned fill_at(nyz_machine *nm, uint32_t pa, int write, uint64_t now, unsigned bus,
                        unsigned lead, int kind, const nyz_core *c, const nyz_thread *t,
                        uint64_t x)
{
    nyz_cache *l2 = &nm->l2;
    /* a miss kept in bus_log takes its L2 way at its restart (l2_fill.c; on one core too
     * since session 40: l2_seen), a synchronized request's when it is made (l2_sync.c); a
     * request the arbiter does not order is read after the grants so far */
    int kept = kind != NYZ_RP_NONE;
    if (kind == NYZ_RP_NONE)
        nyz_bus_fix(nm); /* (read in the order it is made) */
    if (kept && nm->pf_n) /* (its set's fills restarted before it reaches the L2 first) */
        nyz_l2_settle_set(nm, pa, x ? x : now);
    uint32_t victim = nyz_cache_dirty_victim(l2, pa);
    int coll = kept ? nyz_l2_mark(l2, pa, write) : nyz_cache_access(l2, pa, 1, write), way = l2->last_way;
    if (!coll && kept) {
        if (nyz_l2_pending(nm, pa))
            coll = 1; /* (its line's fill is asked for: way -1) */
        else if (kind == NYZ_RP_SYNC) {
            nyz_cache_access(l2, pa, 1, write);
            l2->misses--; /* (counted above) */
            way = l2->last_way;
        }
    }
    uint64_t b = now + bus, rst = coll && way >= 0 ? l2->ready[way] : 0; /* (rst: the restart of the line's fill) */
    if (coll && b >= rst + COLL_WINDOW && !(kind != NYZ_RP_NONE && x)) {
        if (kept) /* (not in bus_log: its use now) */
            nyz_cache_touch(l2, pa);
        return nm->tm.l2_lat + (bus ? 0 : CODE_HIT);
    }
    /* a collided miss: l2_axi_bus_interface.sv skips its read (l2bi_collided_miss) and
     * restarts it when the fill FIFO reaches it, after everything queued before it,
     * RESTART_SLOT cycles each (IDLE, READ_COMPLETE); the next read's address phase
     * follows as it follows a read's restart (RTL trace: a code line and a data line
     * read, restarts 397 and 425; the other core's requests of both lines, queued after
     * them, restarted at 427 and 429, answered 4 cycles after each restart). */
    if (kind != NYZ_RP_NONE) { /* in the arbiter's order (bus_log.c; a hit too if its grant
                                * may change: nyz_bus_collided answers it) */
        if (nm->bus_n == NYZ_BUS_LOG)
            nyz_bus_fix(nm);
        nyz_bus_ent *e = nyz_bus_log_add(nm, b, pa, coll ? 0xffffffffu : victim, way, kind, c, t, bus, lead);
        e->coll = (uint8_t)coll;
        e->x = x;
        if (kind == NYZ_RP_SYNC && write)
            e->st = NYZ_ST_SYNC;
        if (x) /* (its slot is the arbiter's to give) */
            nm->l2_slot[(b - FQ_REQ) % NYZ_L2_SLOTS] = 0;
        /* grants before the requesting core's cycle are final: every core has passed it */
        return (unsigned)(nyz_arb_run(nm, x > FQ_REQ ? x - FQ_REQ : x ? 0 : nm->cur_cycle) - now);
    }
    if (coll)
        return (unsigned)(nyz_bus_collided(nm, rst, now, bus, lead) - now);
    uint64_t done = nyz_bus_read(nm, pa, victim, b, bus, lead, &rst);
    l2->ready[way] = rst;
    return (unsigned)(done - now);
}

/* fill_at for a load's or a code line's request: it reaches the L2 FQ_REQ cycles before
 * its bus time and waits there until the L2 takes it (nyz_l2_accept, a provisional grant;
 * then the arbiter's order, bus_log.c nyz_arb_run). */
static unsigned fill_latency(nyz_machine *nm, uint32_t pa, int write, uint64_t now, unsigned bus,
                             unsigned lead, int kind, const nyz_core *c, const nyz_thread *t)
{
    uint64_t x = now + bus >= FQ_REQ ? now + bus - FQ_REQ : 0;
    if (kind != NYZ_RP_NONE)
        l2_seen(nm, now, x);
    uint64_t d = nyz_l2_accept(nm, x, 1) - x;
    return (unsigned)d + fill_at(nm, pa, write, now + d, bus, lead, kind, c, t, x);
}

/* A code line's request of core at cycle now (pipeline.c icache_fill). */
unsigned nyz_fill_latency(nyz_machine *nm, uint32_t pa, int write, uint64_t now, unsigned lead,
                          int core)
{
    return fill_latency(nm, pa, write, now, 0, lead, NYZ_RP_CODE, &nm->cores[core], NULL);
}

/* The replay cycle of thread t's synchronized request (l2_sync.c) issued at cycle now: its
 * request is an entry of the L2's arbiter (bus_log.c) from the cycle it reaches the L2, as a
 * load miss's (FQ_REQ after its issue), whether its line is in the L2 or not; its grant and
 * line give the answer (nyz_sync_wake), which moves with them until the thread replays. */
uint64_t nyz_sync_timing(nyz_machine *nm, nyz_core *c, nyz_thread *t, uint64_t now)
{
    nyz_sreq *r = &nm->sreq[t->gid];
    if (!r->on) /* (not handed over: the functional mode decided it) */
        return now + nm->tm.sync_lat;
    unsigned f = fill_latency(nm, r->pa, r->store, now, DMEM_BUS, DMEM_LEAD, NYZ_RP_SYNC, c, t);
    return r->wake ? r->wake : now + nm->tm.sync_lat + (f > nm->tm.l2_lat ? f - nm->tm.l2_lat : 0);
}

/* The L1D's pseudo-LRU flags are read (cache_lru.sv read port) by every memory-pipe
 * instruction in its tag stage, for the set of its address, and by a load fill in its
 * response's first stage, for the fill's set; the read data stays until the next read
 * (the FPGA RAMs' behaviour; the RTL's simulation model of sram_1r1w gives random data
 * instead, docs/validation/nyuzi.md). Record one such read of set at cycle at. */
static inline void lru_read(nyz_cache *c, uint64_t at, unsigned set)
{
    unsigned k = c->lrd_n++ & (sizeof c->lrd / sizeof c->lrd[0] - 1);
    c->lrd[k].at = at;
    c->lrd[k].set = set;
    c->lrd[k].flags = c->plru[set];
}
/* A read is recorded at the cycle its data is out (the cycle after the read): a
 * memory-pipe instruction's this many cycles after it issues (read in operand fetch, for
 * its tag stage); a load fill's this many cycles before its data is there (read in the
 * response's first stage); a store acknowledgement's install uses the newest read out by
 * this many cycles before the acknowledgement (its response's second stage, which chooses
 * the way: the read made in its first; RTL trace of memcpy.c2t4 on the holding RAM, an
 * acknowledgement's response at 39554 and a replay issued at 39553, whose read the way came
 * from; 3 until session 39). */
enum { LRU_READ_ISSUE = 2, LRU_READ_FILL = 3, LRU_READ_ACK = 2 };

/* The flags of the newest recorded read at or before cycle at (0 and no read: none). */
static int lru_read_at(const nyz_cache *c, uint64_t at, unsigned *flags)
{
    int best = -1;
    for (unsigned i = 0; i < sizeof c->lrd / sizeof c->lrd[0] && i < c->lrd_n; i++)
        if (c->lrd[i].at <= at && (best < 0 || c->lrd[i].at >= c->lrd[best].at))
            best = (int)i;
    if (best < 0)
        return 0;
    *flags = c->lrd[best].flags;
    return 1;
}

/* A store acknowledgement writes its whole line (the L2's copy after the store) into the
 * storing core's L1D: into the way that holds the line, else into the way the pseudo-LRU
 * flags last read point to, whichever set they were read for, without updating them
 * (l1_l2_interface.sv: dcache_update_en for L2RSP_STORE_ACK, dupdate_way_idx =
 * dt_fill_lru; only L2RSP_LOAD_ACK drives cache_lru's fill_en, so the flags come from
 * the last read of the port, usually another set's). */
static void l1_ack_install(nyz_cache *c, uint32_t line, uint64_t at)
{
    unsigned set = line & (c->sets - 1), base = set * c->ways;
    for (unsigned w = 0; w < c->ways; w++)
        if (c->tag[base + w] == line)
            return;
    unsigned w = 0, flags;
    if (c->plru_on)
        w = nyz_plru_victim(lru_read_at(c, at - LRU_READ_ACK, &flags) ? flags : c->plru[set], c->ways);
    else
        for (unsigned k = 1; k < c->ways; k++)
            if (c->lru[base + k] < c->lru[base + w])
                w = k;
    if (c->plru_on && c->mru[set].way == w)
        c->mru[set].line = 0xffffffffu; /* the memo's line left this way */
    c->tag[base + w] = line;
    c->dirty[base + w] = 0;
    c->ready[base + w] = at;
}

/* The fill in flight that arrives first (of a load fill and an acknowledgement in one
 * cycle, the fill: its response came a cycle sooner, FILL_VISIBLE and ACK_SEEN below). */
static unsigned l1_first(const nyz_cache *c)
{
    unsigned k = 0;
    for (unsigned i = 1; i < c->nfill; i++)
        if (c->fill[i].at < c->fill[k].at ||
            (c->fill[i].at == c->fill[k].at && c->fill[i].ack < c->fill[k].ack))
            k = i;
    return k;
}

/* Install fill k: it takes the way the replacement state points to at that moment. */
static void l1_settle_one(nyz_cache *c, unsigned k)
{
    uint32_t line = c->fill[k].line, ack = c->fill[k].ack;
    uint64_t at = c->fill[k].at;
    c->fill[k] = c->fill[--c->nfill];
    c->next_fill = UINT64_MAX;
    for (unsigned i = 0; i < c->nfill; i++)
        if (c->fill[i].at < c->next_fill)
            c->next_fill = c->fill[i].at;
    if (ack == NYZ_FILL_INVAL) {
        nyz_cache_invalidate(c, line << c->line_shift);
        return;
    }
    if (ack == NYZ_FILL_ACK) {
        l1_ack_install(c, line, at);
        return;
    }
    if (c->plru_on)
        lru_read(c, at - LRU_READ_FILL, line & (c->sets - 1));
    if (!nyz_cache_probe(c, line << c->line_shift)) {
        nyz_cache_access(c, line << c->line_shift, 1, 0);
        c->misses--; /* counted when the miss was seen */
        c->ready[c->last_way] = at;
    }
}

/* Install the L1 fills that have arrived by cycle now, in arrival order. */
void nyz_l1_settle(nyz_cache *c, uint64_t now)
{
    while (c->next_fill <= now)
        l1_settle_one(c, l1_first(c));
}

/* 1 and the arrival cycle if a fill of pa's line is in flight. */
int nyz_l1_fill_pending(const nyz_cache *c, uint32_t pa, uint64_t *at)
{
    uint32_t line = pa >> c->line_shift;
    for (unsigned i = 0; i < c->nfill; i++)
        if (c->fill[i].line == line && c->fill[i].ack == NYZ_FILL_LINE) { /* a load does not wait for an ack */
            *at = c->fill[i].at;
            return 1;
        }
    return 0;
}

static void l1_fill_push(nyz_cache *c, uint32_t pa, uint64_t at, uint32_t ack)
{
    if (c->nfill == sizeof c->fill / sizeof c->fill[0]) /* full: the earliest lands now */
        nyz_l1_settle(c, c->next_fill);
    c->fill[c->nfill].line = pa >> c->line_shift;
    c->fill[c->nfill].ack = ack;
    c->fill[c->nfill].at = at;
    c->nfill++;
    if (at < c->next_fill)
        c->next_fill = at;
}

void nyz_l1_fill_add(nyz_cache *c, uint32_t pa, uint64_t at)
{
    l1_fill_push(c, pa, at, NYZ_FILL_LINE);
}

/* A fill's arrival in the model (the requesting thread replays a cycle before it) is this
 * many cycles after the L2's response reaches the core (RTL trace of l2hit_evict.4: a load
 * issued at 842, granted 845, response 849, the model's arrival 853). */
enum { FILL_VISIBLE = 4 };
/* A store acknowledgement's install (nyz_store_timing's ack, 3 cycles after the L2's
 * response) writes the tags in the same response stage as a fill: a load issued this
 * many cycles before the ack or later looks up the line it wrote. */
enum { ACK_SEEN = 3 };

/* 1 if a store acknowledgement to pa's set installs its line before the tag stage of a
 * load issued at now (l1_settle_seen). */
static int l1_ack_due(const nyz_cache *c, uint32_t pa, uint64_t now)
{
    uint32_t set = (pa >> c->line_shift) & (c->sets - 1);
    for (unsigned i = 0; i < c->nfill; i++)
        if (c->fill[i].ack == NYZ_FILL_ACK && c->fill[i].at <= now + ACK_SEEN &&
            (c->fill[i].line & (c->sets - 1)) == set)
            return 1;
    return 0;
}

/* Install what a load issued at now finds in its tag stage: the fills and store
 * acknowledgements whose responses came by its issue (l1_l2_interface.sv writes the tags
 * in its second response stage, which the load's tag stage reads). RTL trace of
 * memcpy.c1t4: a load fill's response at 663, a store acknowledgement's to the same set
 * at 665, installed in the way the fill took (dt_fill_lru from the fill's read); the
 * replay issued at 666 misses again and rolls back at 669. */
static void l1_settle_seen(nyz_cache *c, uint64_t now)
{
    while (c->nfill) {
        unsigned k = l1_first(c);
        uint32_t ack = c->fill[k].ack;
        if (c->fill[k].at > now + (ack == NYZ_FILL_LINE ? FILL_VISIBLE : ack == NYZ_FILL_ACK ? ACK_SEEN : 0))
            break;
        l1_settle_one(c, k);
    }
}

/* L1 lookup: 0 if the data is there now, else the cycles until it is (a miss starts a fill,
 * a line already being filled is waited for). */
static unsigned l1_access(nyz_machine *nm, nyz_cache *c, uint32_t pa, uint64_t now, unsigned lead,
                          const nyz_core *core, const nyz_thread *t)
{
    nyz_l1_settle(c, now);
    if (nyz_cache_access(c, pa, 0, 0))
        return 0;
    uint64_t at;
    /* a load (another thread's, or a replay) issued from the fill's response on hits the
     * line: l1_l2_interface.sv writes the tag in its second stage, which the load's tag
     * stage (issue + 1) reads, the data in the third, which its data stage reads */
    if (nyz_l1_fill_pending(c, pa, &at))
        return at > now + FILL_VISIBLE ? (unsigned)(at - now) : 0;
#ifdef NYZ_MEMTRACE
    fprintf(stderr, "%llu LD c%d a%08x\n", (unsigned long long)now, core ? core->index : -1, pa);
#endif
    unsigned lat = fill_latency(nm, pa, 0, now, DMEM_BUS, lead, t ? NYZ_RP_LOAD : NYZ_RP_NONE, core, t);
    nyz_l1_fill_add(c, pa, now + lat);
    return lat;
}

unsigned nyz_l1_access(nyz_machine *nm, nyz_cache *c, uint32_t pa, uint64_t now, unsigned lead)
{
    return l1_access(nm, c, pa, now, lead, NULL, NULL);
}

/* The thread's store-queue entry is acknowledged at cycle ack: a replay after a rollback
 * issues then. A store-queue operation (store, flush, invalidate, membar) that issues at or
 * after ack - NYZ_SQ_AHEAD reaches the data stage (3 cycles after issue) no earlier than the
 * acknowledgement (1 cycle before the woken thread could issue) and is taken without a
 * rollback (l1_store_queue.sv got_response_this_entry; measured: stores 6 or more cycles
 * apart never wait, 5 or fewer roll back), however late the acknowledgement (RTL trace of
 * dflush_clean.c4t1: a flush granted a cycle late, in a restart's cycle, answered at 2688;
 * the thread's next flush, issued at 2687, taken). t->store_done is that first accepted
 * cycle, ack - NYZ_SQ_AHEAD; the pipeline replays a rolled-back one NYZ_SQ_AHEAD later. */
enum { SQ_ACCEPT_AHEAD = NYZ_SQ_AHEAD };
/* Other threads see a store from this many cycles before its acknowledgement (in issue
 * cycles of the loads): the acknowledgement writes the line into the L1Ds two cycles after
 * the L2's response (l1_l2_interface.sv response stages 2 and 3), which a load reads in its
 * data stage, 3 cycles after it issues (measured: two threads of one core passing a flag;
 * the store issues at t, a load issued at t + 2 reads the old value, one at t + 21 the
 * new). */
enum { VIS_BEFORE_ACK = 3 };

static uint64_t sq_done(uint64_t ack)
{
    return ack >= SQ_ACCEPT_AHEAD ? ack - SQ_ACCEPT_AHEAD : 0;
}

static void sq_ack(nyz_thread *t, uint64_t ack)
{
    t->store_done = sq_done(ack);
}

/* d's pending install of kind ack (NYZ_FILL_ACK, NYZ_FILL_INVAL) of pa's line due at od
 * comes at nd instead. */
static void l1_fill_move(nyz_cache *d, uint32_t pa, uint32_t ack, uint64_t od, uint64_t nd)
{
    uint32_t line = pa >> d->line_shift;
    d->next_fill = UINT64_MAX;
    for (unsigned i = 0; i < d->nfill; i++) {
        if (d->fill[i].line == line && d->fill[i].ack == ack && d->fill[i].at == od)
            d->fill[i].at = nd;
        if (d->fill[i].at < d->next_fill)
            d->next_fill = d->fill[i].at;
    }
}

/* A store of thread t (its record `serial` in l2_vis.c) is acknowledged at nd instead of od
 * (bus_log.c: the arbiter took it later or sooner): its visibility and its L1D install
 * move; returns the cycle its store queue entry was free, sets *nw to the new. */
uint64_t nyz_store_ack_moved(nyz_machine *nm, nyz_core *c, nyz_thread *t, uint32_t serial,
                             uint32_t pa, uint64_t od, uint64_t nd, uint64_t *nw)
{
    if (serial && t->undo == serial)
        nyz_undo_visible(nm, t, nd - VIS_BEFORE_ACK);
    l1_fill_move(&c->l1d, pa, NYZ_FILL_ACK, od, nd);
    *nw = sq_done(nd);
    return sq_done(od);
}


/* The acknowledgement of a store (not a whole line) to a line the L2 lacks, sent by its
 * store queue at acc, whose line is there for a load at done (STORE_MISS_LEAD). */
uint64_t nyz_store_miss_ack(const nyz_machine *nm, uint64_t acc, uint64_t done)
{
    return acc + nm->tm.store_lat + (done > acc + STORE_MISS_LEAD ? done - acc - STORE_MISS_LEAD : 0);
}

/* A whole-line store to a line the L2 lacks, taken by the L2 at acc + FQ_REQ (acc: its
 * store queue's cycle; way: the L2 way it installs, mine: the way still holds it; victim:
 * the dirty line it evicts, or ~0): a whole line needs no read from memory, but the miss
 * still goes through the L2's miss queue: l2_axi_bus_interface.sv skips the read
 * (READ_COMPLETE the cycle after the fill FIFO takes it) and restarts the request into the
 * arbiter, which passes the tag and read stages again (RESTART_PASS cycles more than a
 * hit). Its restart (RTL trace: request, FILLQ +1, restart +5, response +9, the
 * acknowledgement 3 cycles later) follows everything queued in the fill FIFO before it,
 * RESTART_SLOT cycles each, and holds the next read as long. Returns its acknowledgement. */
uint64_t nyz_store_restart(nyz_machine *nm, uint64_t acc, int way, int mine, uint32_t victim)
{
    uint64_t ack = acc + nm->tm.store_lat + RESTART_PASS;
    uint64_t rs = ack - STORE_RST_ACK;
    if (rs < nm->fq_rst + RESTART_SLOT)
        rs = nm->fq_rst + RESTART_SLOT;
    rs = nyz_bi_restart(nm, rs);
    nm->bi_key = rs - RESTART_SLOT;
#ifdef NYZ_MEMTRACE
    fprintf(stderr, "%llu RS acc %llu way %d\n", (unsigned long long)rs, (unsigned long long)acc, way);
#endif
    ack = rs + STORE_RST_ACK;
    /* the next transfer's address phase 3 after it (the IDLE after its READ_COMPLETE): a
     * write-back waiting too starts no sooner (RTL trace of vstream.c2t4: restarts 597 and
     * 599 go before the write-back its restart 595 queued, AW 602) */
    if (nm->mem_free < rs)
        nm->mem_free = rs;
    nyz_fq_push(nm, acc + 2 * FQ_REQ, rs);
    if (mine)
        nm->l2.ready[way] = rs;
    if (rs > nm->fq_rst)
        nm->fq_rst = rs;
    if (victim != 0xffffffffu)
        nyz_wb_push(nm, victim, rs);
    return ack;
}

/* The cycle the L2 accepts a store-queue operation (a store, a flush, an invalidate) from
 * core c issued at now: one a cycle from a core (l1_store_queue.sv offers one entry a
 * cycle, l1_l2_interface.sv sends one request a cycle, l2_cache_arb_stage.sv grants one a
 * cycle; RTL trace of scat_l1.c1t4: one core's stores granted at 5327, 5328, 5329, each
 * thread one per 12 cycles, its store queue's round trip; on several cores the same,
 * NYZ_SQ_NEXT: RTL trace of sbfull.c4t4, core 0's stores granted at 1535 and 1537, of
 * scat_miss.c4t4, core 3's at 1543, 1544 and 1545). A whole-line store to a line the L2
 * lacks too; its restart is then paced by the fill FIFO (nyz_store_timing). Used on one
 * core, and on several for flushes and invalidates (taken in the order they are executed
 * here; stores go through the arbiter's order, bus_log.c, whose grants it makes final
 * first). */
static inline uint64_t l2_store_accept(nyz_machine *nm, const nyz_core *c, uint64_t now)
{
    /* (stores it orders: sq_free final; on one core the code lines and loads it keeps,
     * placed with the L2's tags before a dinvalidate drops the line: RTL probe dv, a code
     * line collided with a store's read of the line, restarted before the dinvalidate) */
    if (nm->bus_n)
        nyz_bus_fix(nm);
    uint64_t acc = now > nm->sq_free[c->index] ? now : nm->sq_free[c->index];
    /* and one request a cycle of all cores' (l2_cache_arb_stage.sv: one grant per cycle;
     * kernel on 4 cores: core 3's threads 470 -> 472 472 472 467, the RTL's), none while
     * the fill FIFO is almost full (nyz_l2_accept; the request reaches the L2 FQ_REQ
     * cycles after acc) */
    acc = nyz_l2_accept(nm, acc + FQ_REQ, 1) - FQ_REQ;
    nm->sq_free[c->index] = acc + NYZ_SQ_NEXT;
    return acc;
}
/* The acknowledgement of a store issued at now installs its line at ack; the store's own
 * read of the replacement flags (its tag stage) is recorded for it. */
static void l1_ack_push(nyz_core *c, uint32_t pa, uint64_t now, uint64_t ack)
{
    if (c->l1d.plru_on)
        lru_read(&c->l1d, now + LRU_READ_ISSUE, (pa >> c->l1d.line_shift) & (c->l1d.sets - 1));
    l1_fill_push(&c->l1d, pa, ack, NYZ_FILL_ACK);
}

/* 1 if a store of core c issued at now reaches the L2 while it takes no request (its fill
 * FIFO almost full): requests then wait in l1_l2_interface.sv, which sends the L1D's miss
 * queue first, then the L1I's, then the store queue, so a load that misses after the
 * store's issue may still go before it (RTL trace of memcpy.c1t4: a store issued at 608 and
 * a load miss issued at 625, both waiting for the stall's end at 628: the load granted at
 * 628, the store at 629). The model then orders the store in the L2's arbiter (bus_log.c)
 * as on several cores; a store to an L2 that takes it at once keeps the order it is made
 * in (the memo's periods have no fill FIFO entries, memo_key.c). */
static int store_stalled(nyz_machine *nm, const nyz_core *c, uint64_t now)
{
    uint64_t acc = now > nm->sq_free[c->index] ? now : nm->sq_free[c->index];
    return nyz_l2_stalled(nm, acc + FQ_REQ);
}

/* One core: 1 if the L2's arbiter has a request to order with a store (one that is not a
 * store hit) or a fill waits for its restart: the store is then an entry of the arbiter's
 * log (RTL traces of vstream.c1t4, the store queue's round robin past a stalled store, and
 * of scat_l2.c1t4, a code line requested a cycle after a store's read: docs/validation/
 * nyuzi.md 5b, session 39 (v4, ca)); else the arbiter would grant it as it reaches the L2. */
static int l2_busy(const nyz_machine *nm)
{
    if (nm->pf_n)
        return 1;
    for (unsigned i = 0; i < nm->bus_n; i++)
        if (nm->bus_log[i].kind != NYZ_RP_STORE || nm->bus_log[i].st != 1)
            return 1;
    return 0;
}

/* A store enters the thread's store queue at cycle now (write-through to the L2). */
void nyz_store_timing(nyz_machine *nm, nyz_core *c, nyz_thread *t, uint32_t pa, int full,
                      uint64_t now)
{
    const nyz_timing *tm = &nm->tm;
    c->events[2]++;
    nyz_l1_settle(&c->l1d, now);
    /* the acknowledgement installs the line in L1D (l1_ack_install) unless it is there */
    int l1hit = nyz_cache_access(&c->l1d, pa, 0, 0);
    /* The L2's arbiter orders every store (bus_log.c: each core's store queue round robin
     * over its threads, after its loads and code line); one to a line the L2 lacks reads it
     * from memory as a load miss does (NYZ_ST_MISS: a cold load right after a cold store 83
     * cycles on the RTL, 48 alone), or, a whole line, restarts from the fill FIFO. On one
     * core a store hit made while the L2 has nothing else to order (l2_busy) and takes
     * requests (store_stalled) is taken at once, one a cycle (l2_store_accept): the grant
     * and the use of its way the arbiter would give it then. */
    int logged = nm->ncores > 1 || !nyz_cache_probe(&nm->l2, pa) || l2_busy(nm) || store_stalled(nm, c, now);
    uint64_t ack;
    if (!logged) {
        ack = l2_store_accept(nm, c, now) + tm->store_lat;
        nyz_cache_access(&nm->l2, pa, 0, 1);
    } else {
        l2_seen(nm, now, now + FQ_REQ);
        if (nm->pf_n) /* (the fills restarted by now evict first) */
            nyz_l2_settle_made(nm, now + FQ_REQ);
        int inl2 = nyz_cache_probe(&nm->l2, pa);
        int pend = !inl2 && nyz_l2_pending(nm, pa); /* (as a hit: bus_log orders it) */
        if (pend)
            nyz_l2_pend_write(nm, pa);
        uint32_t victim = full ? nyz_cache_dirty_victim(&nm->l2, pa) : 0xffffffffu;
        /* (a whole-line store the L2 lacks takes its way at its restart: l2_fill.c) */
        int hit = pend || nyz_l2_mark(&nm->l2, pa, 1);
        int way = pend || (full && !inl2) ? -1 : nm->l2.last_way;
        if (nm->bus_n == NYZ_BUS_LOG)
            nyz_bus_fix(nm);
        int miss = !hit && !full; /* (a read, its bus time a load's: DMEM_BUS) */
        nyz_bus_ent *e = nyz_bus_log_add(nm, now + 2 * FQ_REQ, pa, hit ? 0xffffffffu : victim,
                                         miss ? -1 : way, NYZ_RP_STORE, c, t,
                                         miss ? DMEM_BUS : 0, miss ? DMEM_LEAD : 0);
        e->x = now + FQ_REQ;
        e->st = (uint8_t)(hit ? 1 : miss ? NYZ_ST_MISS : 2);
        e->whole = (uint8_t)full;
        e->issue = now;
        e->serial = t->undo;
        ack = nyz_arb_run(nm, now); /* (provisional: bus_log.c moves it with its grant) */
    }
#ifdef NYZ_MEMTRACE
    fprintf(stderr, "%llu ST c%d t%d a%08x logged %d\n", (unsigned long long)now, c->index,
            (int)(t - c->t), pa, logged);
#endif
    sq_ack(t, ack);
    nyz_undo_visible(nm, t, ack - VIS_BEFORE_ACK);
    if (!l1hit)
        l1_ack_push(c, pa, now, ack);
}

/* Write combining (l1_store_queue.sv can_write_combine): a plain store of thread t issued at
 * now, whose store-queue entry holds an earlier store to the same line, is merged into that
 * entry, without a request or a rollback of its own, if it reaches its data stage (issue +
 * NYZ_SQ_COMBINE) before the entry is sent, i.e. before the L2's arbiter grants it
 * (l1_l2_interface.sv: storebuf_dequeue_ack is the grant; send_this_cycle blocks the merge).
 * RTL trace of wcomb.c4t1: core 0's store issued at 834 granted at 838 (core 3's a cycle
 * before it), the store behind it issued at 835 merged, the next, 836, rolled back at 839;
 * uncontended, a store issued at i is granted at i + 3 and the next one (i + 1) rolls back.
 * On several cores the grant is the bus_log entry's (still there: not final). Returns 1 if
 * merged (the store is then seen with the entry's, which it joins). */
int nyz_store_combine(nyz_machine *nm, nyz_core *c, nyz_thread *t, uint32_t pa, uint64_t now)
{
    uint32_t line = pa >> nm->l2.line_shift;
    for (unsigned i = 0; i < nm->bus_n; i++) {
        const nyz_bus_ent *e = &nm->bus_log[i];
        if (e->kind == NYZ_RP_STORE && !e->sqop && e->core == c->index && &c->t[e->tid] == t &&
            e->pa >> nm->l2.line_shift == line && e->b > now + NYZ_SQ_COMBINE + NYZ_FQ_REQ) {
            nyz_undo_visible(nm, t, t->store_done + SQ_ACCEPT_AHEAD - VIS_BEFORE_ACK);
            return 1;
        }
    }
    return 0;
}

/* The dirty flag of pa's line in the L2, or NULL if the L2 lacks the line (its tags as they
 * are; no use of the way: a flush does not move the pseudo-LRU, l2_cache_read_stage.sv
 * update_lru_en is a load's or a store's hit). */
static uint8_t *l2_dirty_flag(nyz_cache *l2, uint32_t pa)
{
    int k = nyz_cache_slot(l2, pa);
    return k < 0 ? NULL : &l2->dirty[k];
}

/* A store-queue operation other than a store (kind: dinvalidate, iinvalidate, dflush) of
 * thread t to pa, issued at now: acknowledged like a store (membar waits for it). On several
 * cores the L2's arbiter takes it in its order (bus_log.c: a core's loads and code line
 * before its store queue), so a request reaching the L2 in the same cycle goes first even
 * if made later (RTL trace of dinv_pend.c4t1: core 2's code line, missed at 873, granted at
 * the stall's end 890 before its dinvalidate queued earlier, 891). Taken when made: a flush
 * of a dirty line (its write-back placed in the fill FIFO's order, nyz_flush_write), one on
 * a line whose fill is not final (the fill takes its way first) and any on one core. A
 * dinvalidate drops the line from the L2 when made and from every core's L1D at its
 * acknowledgement: a load still hits the L1's copy until then (RTL: dinvalidate then a
 * load of the line, 14 cycles a pair; gen_mem.py dinv_held, dinv_dirty). */
static void sq_op_timing(nyz_machine *nm, nyz_core *c, nyz_thread *t, int kind, uint32_t pa,
                         uint64_t now)
{
    const nyz_timing *tm = &nm->tm;
    uint64_t ack;
    int pend = nm->ncores > 1 && nyz_l2_pending(nm, pa);
    if (nm->ncores > 1 && !pend) {
        const uint8_t *d = kind == K_DFLUSH ? l2_dirty_flag(&nm->l2, pa) : NULL;
        int dirty = d && *d;
        if (nm->bus_n == NYZ_BUS_LOG)
            nyz_bus_fix(nm);
        nyz_bus_ent *e = nyz_bus_log_add(nm, now + 2 * FQ_REQ, pa, 0xffffffffu, dirty ? 0 : -1, NYZ_RP_STORE, c, t, 0, 0);
        e->x = now + FQ_REQ;
        e->st = dirty ? NYZ_ST_FLUSHW : 1; /* (a line not dirty: its read is its acknowledgement) */
        nm->flw_n += (unsigned)dirty;
        e->sqop = kind == K_DINVALIDATE ? NYZ_SQ_DINV : NYZ_SQ_OTHER;
#ifdef NYZ_MEMTRACE
        fprintf(stderr, "%llu SQOP c%d t%d op%d a%08x\n", (unsigned long long)now, c->index, (int)(t - c->t),
                e->sqop, pa);
#endif
        ack = nyz_arb_run(nm, now);
        if (nm->flw_n)
            nyz_flush_arm(nm);
    } else {
        if (pend) { /* (taken when made: after its line's fill, every grant final) */
            nyz_bus_fix(nm);
            nyz_l2_settle(nm, UINT64_MAX);
        }
        uint64_t acc = l2_store_accept(nm, c, now);
        ack = acc + tm->store_lat; /* (a flush of a line that is not dirty) */
        uint8_t *d = kind == K_DFLUSH ? l2_dirty_flag(&nm->l2, pa) : NULL;
        if (d && *d) {
            /* its bus time as a data request's (DMEM_BUS); the write is posted:
             * acknowledged once the bus takes it */
            uint64_t start = nyz_flush_write(nm, pa, acc + DMEM_BUS);
            ack = start - DMEM_BUS + tm->store_lat + DFLUSH_EXTRA;
            *d = 0;
        }
    }
    sq_ack(t, ack);
    if (kind == K_IINVALIDATE) {
        nyz_l1_settle(&c->l1i, now);
        nyz_cache_invalidate(&c->l1i, pa);
    } else if (kind == K_DINVALIDATE) {
        for (int k = 0; k < nm->ncores; k++)
            l1_fill_push(&nm->cores[k].l1d, pa, ack, NYZ_FILL_INVAL);
        nyz_cache_invalidate(&nm->l2, pa);
    }
}

/* Dirty flush e (sq_op_timing) at its final grant (bus_log.c bus_reread): the grants before
 * it are final, so its write-back is placed as one taken when made is (nyz_flush_place: before
 * the reads placed whose IDLE comes after its bus time), if the line is still dirty (a flush
 * granted before it may have written it). Returns its acknowledgement. */
uint64_t nyz_flush_final(nyz_machine *nm, const nyz_bus_ent *e)
{
    uint64_t acc = e->b - 2 * FQ_REQ, ack = acc + nm->tm.store_lat;
    uint8_t *d = l2_dirty_flag(&nm->l2, e->pa);
    nm->flw_n--;
    if (d && *d) {
        *d = 0;
        ack = nyz_flush_place(nm, e->pa, acc + DMEM_BUS) - DMEM_BUS + nm->tm.store_lat + DFLUSH_EXTRA;
    }
    nm->bi_key = 0;
    return ack;
}

/* Store-queue operation e (sq_op_timing) is acknowledged at nd instead of od (bus_log.c):
 * a dinvalidate's drop from every core's L1D moves with it; returns the cycle its store
 * queue entry was free, sets *nw to the new. */
uint64_t nyz_sqop_moved(nyz_machine *nm, const nyz_bus_ent *e, uint64_t od, uint64_t nd, uint64_t *nw)
{
    for (int k = 0; e->sqop == NYZ_SQ_DINV && k < nm->ncores; k++)
        l1_fill_move(&nm->cores[k].l1d, e->pa, NYZ_FILL_INVAL, od, nd);
    *nw = sq_done(nd);
    return sq_done(od);
}

/* Issue to the dcache tag stage (thread_select, operand_fetch, dcache_tag): the cycle a
 * TLB change is written, without a fetch (nyz_mem_timing, case 5). */
enum { TLB_FETCH_OFF = 2 };

/* The memory side of an instruction executed at cycle now. Sets *lat (cycles until its
 * result may be read) and returns 0 if the access completes in the pipeline, or the cycle
 * until which the thread is suspended: the access rolls back in the writeback stage and is
 * issued again (replayed) after that, taking its result then (*why: the stall cause). */
uint64_t nyz_mem_timing(nyz_machine *nm, nyz_core *c, nyz_thread *t, const nyz_insn *in,
                        const nyz_effect *ef, uint64_t now, unsigned *lat, uint8_t *why)
{
    const nyz_timing *tm = &nm->tm;
    if (c->l1d.nfill && c->l1d.plru_on) {
        /* its tag stage reads the L1D's replacement flags; only a store acknowledgement in
         * flight can use the read (one that a store pushes records the store's own read,
         * nyz_store_timing), so none is kept while the L1D waits for nothing */
        if (c->l1d.next_fill <= now)
            nyz_l1_settle(&c->l1d, now);
        lru_read(&c->l1d, now + LRU_READ_ISSUE, (ef->paddr >> c->l1d.line_shift) & (c->l1d.sets - 1));
    }
    switch (ef->mem) {
    case 1: { /* load (or block/gather lane): a miss suspends the thread until the fill */
        *lat = tm->load_lat;
        unsigned extra = l1_access(nm, &c->l1d, ef->paddr, now, DMEM_LEAD, c, t);
        if (extra == 0) {
            c->events[9]++;
            return 0;
        }
        c->events[8]++;
        *why = NYZ_ST_DCACHE;
        /* its replay looks the line up again (nyz_replay_timing); a gather lane's does not */
        t->rp_kind = in->kind == K_LOAD_GATH ? NYZ_RP_NONE : NYZ_RP_LOAD;
        t->rp_pa = ef->paddr;
        return now + extra - 1;
    }
    case 2: /* store: write-through to L2, one outstanding per thread (an entry still busy:
             * the store was merged into it, nyz_store_combine) */
        if (t->store_done <= now)
            nyz_store_timing(nm, c, t, ef->paddr, ef->full_line, now);
        return 0;
    case 3: /* load_sync/store_sync: the first issue goes to the L2 and suspends the thread
             * for the round trip; the replay picks up the result */
    case 4: { /* device access: the same protocol through the I/O request queue */
        unsigned rt = ef->mem == 4 ? tm->io_lat : tm->sync_lat;
        t->rp_kind = NYZ_RP_NONE;
        if (ef->mem == 3) { /* through the L2 (memory if it misses there) */
            /* decided and answered in the order of the L2's arbiter (l2_sync.c) */
            t->rp_kind = NYZ_RP_SYNC;
            uint64_t wake = nyz_sync_timing(nm, c, t, now);
            rt = (unsigned)(wake - now);
            if (in->kind == K_LOAD_SYNC) { /* the response fills the L1D as a load miss does */
                uint64_t at;
                t->sync_odd ^= 1; /* (nyz_replay_timing) */
                nyz_l1_settle(&c->l1d, now);
                if (!nyz_cache_access(&c->l1d, ef->paddr, 0, 0) &&
                    !nyz_l1_fill_pending(&c->l1d, ef->paddr, &at))
                    nyz_l1_fill_add(&c->l1d, ef->paddr, now + rt);
            }
        }
        *lat = tm->load_lat;
        *why = ef->mem == 4 ? NYZ_ST_IO : NYZ_ST_DCACHE;
        return now + rt;
    }
    case 5:
        if (in->kind == K_DINVALIDATE || in->kind == K_IINVALIDATE || in->kind == K_DFLUSH)
            sq_op_timing(nm, c, t, in->kind, ef->paddr, now);
        else if (in->kind == K_GETCR || in->kind == K_SETCR)
            *lat = tm->load_lat;
        else if (in->kind == K_TLBINVAL || in->kind == K_TLBINVALALL || in->kind == K_ITLBINSERT) {
            /* in the dcache tag stage (issue + 2) it writes the TLBs, which the ifetch tag
             * stage then cannot look up: no fetch in that cycle, the fetch arbiter's
             * pointer kept (ifetch_tag_stage.sv cache_fetch_en). One issued in the cycle
             * before is still ahead (its cycle now + 1): the two make one range (RTL trace
             * of tlb_inval_all.c1t4: itlbinserts issued at 560-563, no fetch at 562-565) */
            if (c->tlb_off != now + TLB_FETCH_OFF - 1)
                c->tlb_from = now + TLB_FETCH_OFF;
            c->tlb_off = now + TLB_FETCH_OFF;
            nyz_fetch_window(c, now, c->tlb_from, c->tlb_off);
        }
        return 0;
    default:
        return 0;
    }
}

/* A load_sync of thread t (its dd_load_sync_pending set: t->sync_odd) to pa, executed at
 * nm->cur_cycle: 1 if its line is in the L1D, which the RTL's data stage takes as a hit
 * (dcache_data_stage.sv cache_hit): the load_sync completes as a load, sends nothing to the
 * L2 and sets no reservation (the store_sync after it fails, unless an earlier load_sync's
 * still holds), and clears the flag. RTL trace of tlb_inval_all.c1t4: a load_sync that
 * missed the DTLB issues again after the handler at 1577 and completes (the next
 * instruction issues at 1583); the store_sync after it fails (its response's status 0). */
int nyz_sync_l1_hit(nyz_machine *nm, nyz_core *c, nyz_thread *t, uint32_t pa)
{
    nyz_l1_settle(&c->l1d, nm->cur_cycle);
    if (!nyz_cache_probe(&c->l1d, pa))
        return 0;
    t->sync_odd = 0;
    return 1;
}

/* A replayed load's line is there if a fill brings it by the cycle after the replay issues
 * (its tag stage; the thread is woken the cycle before its fill, nyz_mem_timing). */
enum { REPLAY_LOOKUP = 1 };

/* The replay (second issue) of a rolled-back access at cycle now. A synchronized request
 * is decided by then (l2_sync.c). A load looks the L1D up again, as the RTL's replayed
 * load does in its tag stage (dcache_tag_stage.sv): if a store acknowledgement or another
 * fill took its line's way since the fill, it misses again and asks the L2 once more
 * (docs/validation/nyuzi.md 5c). Returns 0, or the cycle until which the thread is
 * suspended again (its replay then comes after the new fill). */
uint64_t nyz_replay_timing(nyz_machine *nm, nyz_core *c, nyz_thread *t, uint64_t now)
{
    uint8_t k = t->rp_kind;
    t->rp_kind = NYZ_RP_NONE;
    if (k == NYZ_RP_SYNC) {
        nyz_sync_settle(nm, now);
        if (nm->sreq[t->gid].on) /* (its grant not before now: every grant made final) */
            nyz_bus_fix(nm);
        if (nm->sreq[t->gid].store || (t->sync_odd ^= 1) == 0)
            return 0;
        /* A load_sync hits the L1D only with its thread's dd_load_sync_pending set
         * (dcache_data_stage.sv: every load_sync in the data stage toggles it, one that
         * faults or misses the TLB too). Clear at the replay (a load_sync before trapped):
         * it misses, and sends the request to the L2 again (dd_cache_miss_sync), its
         * replay after that answer hits. RTL trace of tlb_inval_all.c1t4: load_syncs that
         * missed the DTLB, then issued at 898-901 and answered, replay at 941-947, are
         * rolled back again with a second LOAD_SYNC granted at 944-950, replay at 951. */
        nyz_sync_again(nm, t, now);
        t->rp_kind = NYZ_RP_SYNC; /* (before its entry is made: bus_retime.c nyz_sync_move) */
        uint64_t wake = nyz_sync_timing(nm, c, t, now), at;
        uint32_t pa = nm->sreq[t->gid].pa;
        nyz_l1_settle(&c->l1d, now);
        if (!nyz_cache_probe(&c->l1d, pa) && !nyz_l1_fill_pending(&c->l1d, pa, &at))
            nyz_l1_fill_add(&c->l1d, pa, wake);
        return wake;
    }
    if (k != NYZ_RP_LOAD)
        return 0;
    nyz_cache *d = &c->l1d;
    uint64_t at;
    nyz_l1_settle(d, now);
    if (d->nfill && d->plru_on) /* (its tag stage reads the flags too: nyz_mem_timing) */
        lru_read(d, now + LRU_READ_ISSUE, (t->rp_pa >> d->line_shift) & (d->sets - 1));
    if (l1_ack_due(d, t->rp_pa, now)) /* (else what it finds is as now) */
        l1_settle_seen(d, now);
    if (nyz_cache_probe(d, t->rp_pa) ||
        (nyz_l1_fill_pending(d, t->rp_pa, &at) && at <= now + REPLAY_LOOKUP))
        return 0;
    unsigned extra = l1_access(nm, d, t->rp_pa, now, DMEM_LEAD, c, t);
    if (!extra)
        return 0;
    c->events[8]++;
    t->rp_kind = NYZ_RP_LOAD;
    return now + extra - 1;
}
