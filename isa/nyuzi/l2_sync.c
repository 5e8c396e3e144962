/* isa/nyuzi/l2_sync.c: load_sync and store_sync decided where the RTL decides them, at the
 * L2's read stage, in the order the L2's arbiter takes the requests. On the RTL
 * (l2_cache_read_stage.sv) a load_sync sets its thread's reservation and reads the line when
 * its request reaches the read stage, and a store_sync succeeds there if its thread's
 * reservation still holds (a success, or a plain store, clears every reservation of the
 * line). The requests get there through two round-robin arbiters: in each core,
 * l1_l2_interface.sv offers one request per cycle, a load miss (load_sync) before the store
 * queue (store_sync), each queue choosing its thread round robin with a pointer that moves
 * every cycle the queue has a request (rr_arbiter.sv, update_lru = 1); the L2's
 * l2_cache_arb_stage.sv takes one core's offer per cycle, round robin between cores. The
 * cycle model executes the instruction at its first issue (exec_ops.inc hands the request
 * here instead of deciding), so its outcome is decided later: a request is seen by the
 * arbiter SYNC_PATH cycles after its issue, and the arbiter's cycles before the next issue
 * of any core plus SYNC_PATH are final (every core has simulated the cycles before the one
 * being executed). Decided requests write memory, the reservation and the thread's result
 * register; the others get a provisional replay cycle, recomputed whenever a new request
 * comes (it can only be later) and final when their thread replays (pipeline.c calls
 * nyz_replay_timing, which settles the arbiter up to then). */
#include <string.h>
#include "exec_ops.h"
#ifdef NYZ_MEMTRACE /* -DNYZ_MEMTRACE: every grant on stderr (timing.c prints the bus) */
#include <stdio.h>
#endif

/* A synchronized request reaches the L2's arbiter this many cycles after it issues (the
 * miss or store-queue entry is made in the dcache data stage and offered the cycle after;
 * measured: eight threads' load_sync requests reach the L2 on eight consecutive cycles);
 * the answer lets its thread replay sync_latency - SYNC_PATH cycles after the grant. */
enum { SYNC_PATH = 4 };
/* Other threads see a successful store_sync this many cycles before its thread replays
 * (as timing.c's VIS_BEFORE_ACK for stores: the answer writes the L1Ds). */
enum { SYNC_VIS_BEFORE = 3 };
/* Rounds of nyz_sync_timing's grants and the lines' bus times at most. */
enum { SYNC_PASSES = 4 };

typedef struct arb_state {
    uint8_t core_rr, lq_rr[NYZ_MAX_CORES], sq_rr[NYZ_MAX_CORES];
} arb_state;

static unsigned sync_path(const nyz_machine *nm)
{
    return nm->tm.sync_lat < SYNC_PATH ? nm->tm.sync_lat : SYNC_PATH;
}

void nyz_sync_request(nyz_machine *nm, nyz_core *c, nyz_thread *t, const nyz_insn *in,
                      uint32_t va, uint32_t pa, uint32_t pc)
{
    nyz_sreq *r = &nm->sreq[t->gid];
    if (!r->on)
        nm->sa_npend++;
    r->on = 1;
    r->store = in->kind == K_STORE_SYNC;
    r->dst = in->dst;
    r->width = in->width;
    r->sext = in->sext;
    r->pa = pa;
    r->va = va;
    r->pc = pc;
    r->data = t->s[in->dst];
    r->core = (uint8_t)c->index;
    r->tid = (uint8_t)(t - c->t);
    r->made = nm->cur_cycle;
    r->ready = nm->cur_cycle + sync_path(nm);
    r->extra = 0;
    r->wake = nm->cur_cycle + nm->tm.sync_lat;
#ifdef NYZ_MEMTRACE
    fprintf(stderr, "%llu SREQ c%d t%d %s ready %llu\n", (unsigned long long)nm->cur_cycle, r->core, r->tid, r->store ? "store_sync" : "load_sync", (unsigned long long)r->ready);
#endif
    nm->sync_used = 1; /* plain stores settle the arbiter before they clear reservations */
}

/* rr_arbiter.sv: the first requester (bit of req) at or after *ptr, which then points
 * past it; -1 and *ptr unchanged if none requests. */
static int rr_pick(uint32_t req, unsigned n, uint8_t *ptr)
{
    if (!req)
        return -1;
    for (unsigned k = 0; k < n; k++) {
        unsigned i = (*ptr + k) % n;
        if ((req >> i) & 1) {
            *ptr = (uint8_t)((i + 1) % n);
            return (int)i;
        }
    }
    return -1;
}

/* One cycle `at` of the arbiters over the requests in pend (bit per global thread id) that
 * have reached them: the global thread id granted, or -1. */
static int arb_cycle(const nyz_machine *nm, arb_state *s, uint32_t pend, uint64_t at)
{
    unsigned nt = (unsigned)nm->nthreads;
    /* the L2 takes nothing while stalled (timing.c nyz_l2_stalled; `at` is a request's
     * cycle there + 1): the queues' pointers still move (update_lru = 1 in
     * l1_l2_interface.sv), the cores' pointer does not (l2_cache_arb_stage.sv updates it
     * only when it can accept) */
    int stalled = nyz_l2_stalled(nm, at - 1);
    uint32_t cores = 0;
    int offer[NYZ_MAX_CORES];
    for (int k = 0; k < nm->ncores; k++) {
        uint32_t lq = 0, sq = 0;
        for (unsigned i = 0; i < nt; i++) {
            unsigned g = (unsigned)k * nt + i;
            const nyz_sreq *r = &nm->sreq[g];
            if (!((pend >> g) & 1) || r->ready > at)
                continue;
            if (r->store)
                sq |= 1u << i;
            else
                lq |= 1u << i;
        }
        int l = rr_pick(lq, nt, &s->lq_rr[k]), q = rr_pick(sq, nt, &s->sq_rr[k]);
        offer[k] = l >= 0 ? l : q;
        if (offer[k] >= 0)
            cores |= 1u << k;
    }
    if (stalled)
        return -1;
    int k = rr_pick(cores, (unsigned)nm->ncores, &s->core_rr);
    return k < 0 ? -1 : k * (int)nt + offer[k];
}

static uint32_t pending(const nyz_machine *nm, uint64_t *first)
{
    uint32_t p = 0;
    *first = UINT64_MAX;
    for (int g = 0; g < nm->ncores * nm->nthreads; g++)
        if (nm->sreq[g].on) {
            p |= 1u << g;
            if (nm->sreq[g].ready < *first)
                *first = nm->sreq[g].ready;
        }
    return p;
}

static void arb_load(const nyz_machine *nm, arb_state *s)
{
    s->core_rr = nm->sa_core_rr;
    memcpy(s->lq_rr, nm->sa_lq_rr, sizeof s->lq_rr);
    memcpy(s->sq_rr, nm->sa_sq_rr, sizeof s->sq_rr);
}

static uint64_t wake_of(const nyz_machine *nm, const nyz_sreq *r, uint64_t grant)
{
    return grant + (nm->tm.sync_lat - sync_path(nm)) + r->extra;
}

/* The request of thread g granted at cycle `at`: decided as the L2's read stage does. */
static void decide(nyz_machine *nm, int g, uint64_t at)
{
    nyz_sreq *r = &nm->sreq[g];
    nyz_core *c = &nm->cores[r->core];
    nyz_thread *t = &c->t[r->tid];
    uint32_t line = r->pa & ~(uint32_t)(NYZ_LINE - 1);
    uint64_t wake = wake_of(nm, r, at);
    uint8_t *p = nm->ram + r->pa;
    r->on = 0;
    nm->sa_npend--;
#ifdef NYZ_MEMTRACE
    fprintf(stderr, "%llu GRANT c%d t%d %s ok%d\n", (unsigned long long)at, r->core, r->tid,
            r->store ? "store_sync" : "load_sync", r->store ? t->sync_line == line : 1);
#endif
    if (!r->store) {
        uint8_t buf[4];
        uint32_t v;
        memcpy(buf, p, r->width);
        if (nm->nundo) /* stores the L2 has not taken yet */
            nyz_undo_read_at(nm, t, r->pa, r->width, buf, at);
        if (r->width == 4)
            v = mem_ld32le(buf);
        else if (r->width == 2)
            v = r->sext ? (uint32_t)(int32_t)(int16_t)mem_ld16le(buf) : mem_ld16le(buf);
        else
            v = r->sext ? (uint32_t)(int32_t)(int8_t)buf[0] : buf[0];
        t->sync_line = line;
        nm->sync_used = 1;
        nyz_set_s(nm, t, r->pc, r->dst, v, nm->cosim != NULL);
        return;
    }
    uint32_t ok = t->sync_line == line;
    if (ok) {
        nyz_undo_store(nm, t, r->pa, r->width, ((1ull << r->width) - 1) << (r->pa & (NYZ_LINE - 1)));
        if (r->width == 4)
            mem_st32le(p, r->data);
        else if (r->width == 2)
            mem_st16le(p, (uint16_t)r->data);
        else
            p[0] = (uint8_t)r->data;
        nyz_invalidate_sync(nm, r->pa);
        nyz_undo_visible_l2(nm, t, wake - SYNC_VIS_BEFORE, at);
        if (nm->cosim)
            nyz_cosim_store(nm, r->pc, t->gid, r->va, r->width, r->data);
    }
    t->s[r->dst] = ok; /* the success flag is not a cosim event (as exec_ops.inc) */
}

/* Decide every request the arbiter grants before the cycle a request issued at `now` (by
 * any core) could reach it. */
void nyz_sync_settle(nyz_machine *nm, uint64_t now)
{
    uint64_t end = now + sync_path(nm); /* arbiter cycles before it are final */
    if (nm->sa_npend) {
        arb_state s;
        arb_load(nm, &s);
        uint64_t at = nm->sa_done, first;
        uint32_t p;
        while ((p = pending(nm, &first)) != 0) {
            if (first > at)
                at = first; /* no request: the pointers stay */
            if (at >= end)
                break;
            int g = arb_cycle(nm, &s, p, at);
            if (g >= 0)
                decide(nm, g, at);
            at++;
        }
        nm->sa_core_rr = s.core_rr;
        memcpy(nm->sa_lq_rr, s.lq_rr, sizeof s.lq_rr);
        memcpy(nm->sa_sq_rr, s.sq_rr, sizeof s.sq_rr);
    }
    if (nm->sa_done < end)
        nm->sa_done = end;
}

/* The timing of thread t's request issued at `now`, whose answer an L2 miss delays by
 * `extra`: the cycle t replays. The requests not decided get their provisional replay
 * cycles again (a new request can only take an arbiter cycle from them); a thread of
 * another core that would replay sooner than its core expects is woken. */
uint64_t nyz_sync_timing(nyz_machine *nm, nyz_thread *t, uint64_t now, unsigned extra)
{
    nyz_sreq *self = &nm->sreq[t->gid];
    if (!self->on) /* not handed over (the functional mode decided it) */
        return now + nm->tm.sync_lat + extra;
    self->extra = extra;
    nyz_sync_settle(nm, now);
    uint64_t mine = now + nm->tm.sync_lat + extra;
    /* the grants give the requests' lines their bus times (bus_log.c): a line read later
     * or sooner moves the fill FIFO, whose stall the grants see; again until they agree */
    for (int pass = 0; pass < SYNC_PASSES; pass++) {
        arb_state s;
        arb_load(nm, &s);
        uint64_t at = nm->sa_done, f, gr[32];
        uint32_t p = pending(nm, &f), all = p;
        while (p) {
            f = UINT64_MAX;
            for (int g = 0; g < nm->ncores * nm->nthreads; g++)
                if (((p >> g) & 1) && nm->sreq[g].ready < f)
                    f = nm->sreq[g].ready;
            if (f > at)
                at = f;
            int g = arb_cycle(nm, &s, p, at);
            at++;
            if (g < 0)
                continue;
            p &= ~(1u << g);
            gr[g] = at - 1;
            nyz_sreq *r = &nm->sreq[g];
            uint64_t w = wake_of(nm, r, at - 1);
            if (w <= now)
                w = now + 1;
            if (r == self) {
                mine = w;
                r->wake = w;
                continue;
            }
            if (w == r->wake)
                continue;
            r->wake = w;
            nm->cores[r->core].t[r->tid].blocked = w;
            nyz_core_sooner(nm, r->core, r->tid, w);
        }
        int moved = 0;
        for (int g = 0; g < nm->ncores * nm->nthreads && nm->bus_n; g++)
            if ((all >> g) & 1) /* (the arbiter cycle is the L2's + 1) */
                moved |= nyz_bus_sync_grant(nm, nm->sreq[g].core, nm->sreq[g].tid,
                                            nm->sreq[g].made, gr[g] - 1 + NYZ_FQ_REQ);
        if (!moved)
            break;
        nyz_arb_run(nm, nm->cur_cycle);
        for (int g = 0; g < nm->ncores * nm->nthreads; g++)
            if ((all >> g) & 1)
                nm->sreq[g].extra = nyz_bus_sync_extra(nm, nm->sreq[g].core, nm->sreq[g].tid,
                                                       nm->sreq[g].made, nm->sreq[g].extra);
    }
    return mine;
}
