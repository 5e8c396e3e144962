/* core/profile.c: the profile's rows, windows, hash and call edges (see profile.h). Rows live
 * in chunks that never move, so a thread's window map and the hash hold plain pointers; the
 * hash (for PCs outside a window, and calls and returns) and the edge table grow by
 * doubling, and so do the shadow call stacks. prof_issue (profile.h) handles a plain
 * instruction inside its thread's window; everything else comes here (making, freeing and
 * reading a profile: profile_read.c; the batch counters: profile_bat.c; word mode:
 * profile_word.c). */
#include <stdlib.h>
#include <string.h>
#include "profile_int.h"
#include "mem.h"
#include "stats.h"
#include "../isa/isa.h"

static uint32_t prof_hash(uint64_t pc, int32_t thread, uint32_t cap)
{
    pc = (pc ^ ((uint64_t)(uint32_t)thread << 40)) * 0x9e3779b97f4a7c15ull; /* Fibonacci hashing: consecutive PCs spread out */
    return (uint32_t)(pc >> 32) & (cap - 1);
}

static uint64_t **prof_hslot(const prof_state *p, uint64_t **tab, uint32_t cap, uint64_t pc, int32_t g)
{
    uint32_t i = prof_hash(pc, g, cap);
    while (tab[i] && (*row_pc(p, tab[i]) != pc || row_thread(p, tab[i]) != g))
        i = (i + 1) & (cap - 1);
    return &tab[i];
}

/* A new zeroed row, or NULL. */
static uint64_t *prof_row_new(prof_state *p)
{
    if (!p->nchunks || p->chunk_used == PROF_CHUNK) {
        if (p->nchunks == p->chunk_cap) {
            uint32_t ncap = p->chunk_cap ? 2 * p->chunk_cap : 16;
            uint64_t **nc = realloc(p->chunks, ncap * sizeof *nc);
            if (!nc)
                return NULL;
            p->chunks = nc;
            p->chunk_cap = ncap;
        }
        uint64_t *c = prof_zalloc((size_t)PROF_CHUNK * (size_t)p->stride * sizeof *c);
        if (!c)
            return NULL;
        p->chunks[p->nchunks++] = c;
        p->chunk_used = 0;
    }
    p->nrows++;
    return p->chunks[p->nchunks - 1] + (size_t)p->chunk_used++ * (size_t)p->stride;
}

/* Thread g's window: the code region holding its first PC, at most PROF_WINDOW addresses
 * of it around pc (none when the maps' budget is spent or memory is short). */
static void prof_window(prof_state *p, prof_thread *t, int g, uint64_t pc)
{
    t->mapped = 1;
    uint64_t lo = 0, hi = UINT64_MAX; /* no region known: anywhere around pc */
    const sim_machine *m = p->m;
    mem_space *s = m->isa && m->isa->code_space ? sim_unit_space(m, g / p->tpu, m->isa->code_space) : NULL;
    const mem_region *r = s ? mem_find(s, pc) : NULL;
    if (r) {
        lo = r->base;
        hi = r->base + r->size > r->base ? r->base + r->size : UINT64_MAX;
    }
    uint64_t base = pc - lo > PROF_WINDOW / 4 ? pc - PROF_WINDOW / 4 : lo; /* code mostly follows its entry */
    uint64_t n = hi - base < PROF_WINDOW ? hi - base : PROF_WINDOW;
    if (!n)
        return;
    if (p->map_bytes + n * sizeof *t->map > PROF_MAP_BUDGET)
        return;
    /* (skewed by thread as the words are, prof_word_span: every thread's map started at one
     * offset in a page, up to 2^18 pointers from mmap or a DPU's 4096 from the heap 32 KiB +
     * 16 bytes apart, and map[pc] of 16 tasklets fell in one L1 set) */
    const size_t skew = (size_t)((g * 5 + 32) & 63) * 8;
    uint64_t **map = calloc(n + skew, sizeof *map);
    if (!map)
        return;
    p->map_bytes += n * sizeof *map;
    t->mapmem = map;
    t->map = map + skew;
    t->base = base;
    t->nmap = n;
}

/* The row of (g, pc), made if new (its flow classified once); NULL on out of memory. */
static uint64_t *prof_row(prof_state *p, prof_thread *t, int g, uint64_t pc)
{
    uint64_t off = pc - t->base;
    if (off < t->nmap) {
        if (t->map[off])
            return t->map[off];
        if (t->fmap && t->fmap[off])
            return t->fmap[off];
    }
    if (p->hcap) {
        uint64_t **h = prof_hslot(p, p->hash, p->hcap, pc, g);
        if (*h)
            return *h;
    }
    /* an open call's return address (not returned to: the frame would have been popped) */
    prof_frame *owner = NULL;
    for (uint32_t k = 0; off < t->nmap && k < t->depth; k++)
        if (prof_fr(t, k)->ret == pc) {
            if (prof_fr(t, k)->saved)
                return prof_fr(t, k)->saved;
            owner = owner ? owner : prof_fr(t, k);
        }
    uint64_t *r = prof_row_new(p);
    if (!r)
        return NULL;
    unsigned flow = ISA_FLOW_NONE;
    uint64_t ret = pc;
    if (p->flow) { /* once per row: the executors never pay for call edges */
        flow = (unsigned)p->flow(p->m, g / p->tpu, pc, &ret);
        if (flow == ISA_FLOW_CALL && (ret <= pc || ret - pc > 255))
            flow = ISA_FLOW_NONE; /* outside the contract: no edge rather than a wrong one */
        if (flow != ISA_FLOW_CALL)
            ret = pc;
    }
    *row_pc(p, r) = pc;
    r[PROF_META] = (uint64_t)(uint32_t)g | (uint64_t)(flow & 0xff) << 32 | (uint64_t)((ret - pc) & 0xff) << 40;
    r[PROF_LIM] = flow == ISA_FLOW_NONE ? t->nmap : 0; /* (the next issue's window test) */
    if ((flow == ISA_FLOW_NONE || t->fm) && off < t->nmap) {
        if (owner) /* the outermost open call returning here puts it in the map */
            owner->saved = r;
        else
            t->map[off] = r;
        return r;
    }
    if (off < t->nmap && !t->fmap && p->map_bytes + t->nmap * sizeof *t->fmap <= PROF_MAP_BUDGET &&
        (t->fmap = calloc(t->nmap, sizeof *t->fmap)) != NULL)
        p->map_bytes += t->nmap * sizeof *t->fmap;
    if (off < t->nmap && t->fmap) { /* a call or a return: found again without hashing */
        t->fmap[off] = r;
        return r;
    }
    if (2 * (p->hn + 1) > p->hcap) {
        uint32_t ncap = p->hcap ? 2 * p->hcap : 1024;
        uint64_t **nh = calloc(ncap, sizeof *nh);
        if (!nh)
            return NULL; /* (the row stays unreachable: a chunk slot lost, no harm) */
        for (uint32_t i = 0; i < p->hcap; i++)
            if (p->hash[i])
                *prof_hslot(p, nh, ncap, *row_pc(p, p->hash[i]), row_thread(p, p->hash[i])) = p->hash[i];
        free(p->hash);
        p->hash = nh;
        p->hcap = ncap;
    }
    *prof_hslot(p, p->hash, p->hcap, pc, g) = r;
    p->hn++;
    return r;
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
            const prof_edge *x = prof_edge_at(p, k);
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
        const prof_edge *x = prof_edge_at(p, p->eidx[i] - 1);
        if (x->site == site && x->target == target && x->thread == thread)
            return p->eidx[i] - 1;
    }
    if (p->nedges == p->edge_cap) {
        uint32_t ncap = p->edge_cap ? 2 * p->edge_cap : 64;
        prof_edge_slot *ne = prof_zalloc(ncap * sizeof *ne); /* (cache-line aligned) */
        if (!ne)
            return -1;
        if (p->nedges)
            memcpy(ne, p->edges, p->nedges * sizeof *ne);
        free(p->edges);
        p->edges = ne;
        p->edge_cap = ncap;
    }
    prof_edge *x = prof_edge_at(p, p->nedges);
    memset(x, 0, sizeof *x);
    x->site = site;
    x->target = target;
    x->thread = thread;
    p->eidx[i] = p->nedges + 1;
    return p->nedges++;
}

void prof_bat_derive(prof_thread *t, int cause)
{
    prof_word_sync(t); /* (the batches' loop reads and writes t->row) */
    if (t->bder != cause) {
        prof_bat_fold(t);
        t->bder = cause;
    }
}

/* The map drops the row of offset off (an open call's return address): a word counting it
 * folds and stops, so that the issue there comes to the slow path. */
static __attribute__((noinline)) void prof_map_drop_fold(prof_thread *t, uint64_t off)
{
    if (off < t->nbat && t->bat[off] > 0) {
        prof_bat_fold1(t, (uint32_t)off);
        t->bat[off] = PROF_BAT_OFF;
    }
    int64_t v;
    if (off < t->nwd && ((v = t->wd[off]) > 0 ? !(v & PROF_W_DROP) : (v & PROF_W_DROP) != 0))
        prof_word_fold1(t, (uint32_t)off, t->map[off]);
}

static inline __attribute__((always_inline)) void prof_map_drop(prof_thread *t, uint64_t off)
{
    /* a word counting stops, its counts kept (PROF_W_DROP); one whose cycles carried into
     * bit 62 (which the mark takes) or 63, and a counting batch word, fold first (apart: the
     * push then calls nothing on its common way) */
    int64_t v = off < t->nwd ? t->wd[off] : 0;
    if (__builtin_expect((off < t->nbat && t->bat[off] > 0) || (v > 0 ? !(v & PROF_W_DROP) : (v & PROF_W_DROP) != 0),
                         0)) {
        prof_map_drop_fold(t, off);
        v = off < t->nwd ? t->wd[off] : 0;
    }
    if (v < 0)
        t->wd[off] = v ^ (PROF_W_ON | PROF_W_DROP);
    t->map[off] = NULL;
}

/* A call's frame f (the thread's next) on edge x (index edge): its return address and edge,
 * the edge's call and its charge of minus the totals at the callee's entry (insns, cycle,
 * t->stalls), and the return address's row out of the map while the call is open (the issue
 * there must come to the slow path to pop the frame; an outer open call with the same return
 * address has dropped it already). Written once for the general and the fast pushes. */
static inline __attribute__((always_inline)) void prof_frame_push(prof_thread *t, prof_frame *f, prof_edge *x,
                                                                  uint64_t ret, uint32_t edge, uint64_t insns,
                                                                  uint64_t cycle)
{
    f->ret = ret;
    f->edge = edge;
    f->lazy = 0;
    const uint64_t off = ret - t->base;
    uint64_t *const saved = off < t->nmap ? t->map[off] : NULL;
    f->saved = saved;
    x->calls++;
    prof_edge_charge(t->nstalls, x, insns, cycle, t->stalls, -1);
    if (saved) /* (last: nothing is live across its rare call) */
        prof_map_drop(t, off);
}

/* Close the frames of t from the top down to depth k: their edges get the growth of the
 * thread's totals (insns, cycle, stalls) since the callee's entry. */
static void prof_pop(prof_state *p, prof_thread *t, uint32_t k, uint64_t insns, uint64_t cycle, const uint64_t *stalls)
{
    while (t->depth > k) {
        const prof_frame *f = prof_fr(t, --t->depth);
        if (f->saved) /* the return address's row goes back to the map */
            t->map[f->ret - t->base] = f->saved;
        prof_edge_charge(p->nstalls, prof_edge_at(p, f->edge), insns, cycle, stalls, 1);
    }
}

/* Deepest frame a return is looked for below the top (a longjmp past more is not unwound). */
#define PROF_UNWIND 64

/* The thread g, whose previous instruction (row prev) ended at pc, issued at cycle: its
 * totals are now insns, cycle and t->stalls. Pop the call it returns from, push the call it
 * enters. -1 on out of memory. */
static int prof_flow(prof_state *p, prof_thread *t, int g, uint64_t *prev, uint64_t pc, uint64_t cycle,
                     uint64_t insns)
{
    unsigned pflow = row_flow(p, prev);
    uint64_t ppc = prev[PROF_PC];
    if (t->depth && pc == prof_fr(t, t->depth - 1)->ret)
        prof_pop(p, t, t->depth - 1, insns, cycle, t->stalls);
    else if (pflow == ISA_FLOW_RETURN)
        for (uint32_t k = t->depth, n = 0; k-- > 0 && n < PROF_UNWIND; n++)
            if (prof_fr(t, k)->ret == pc) {
                prof_pop(p, t, k, insns, cycle, t->stalls);
                break;
            }
    if (pflow != ISA_FLOW_CALL || (pc > ppc && pc <= ppc + row_ret(p, prev)))
        return 0; /* not a call, or one not taken (or to its own fall-through) */
    if (t->depth == t->cap) {
        uint32_t ncap = t->cap ? 2 * t->cap : 16;
        prof_frame *ns = ncap > (1u << 24) ? NULL : realloc(t->stack, (size_t)ncap * sizeof *ns);
        if (!ns)
            return -1;
        t->stack = ns;
        t->cap = ncap;
    }
    int64_t x = prof_edge_get(p, g, ppc, pc);
    if (x < 0)
        return -1;
    if (x < PROF_EDGE_CACHED) /* the call row remembers it (prof_call) */
        prev[PROF_META] = (prev[PROF_META] & ((1ull << 48) - 1)) | (uint64_t)(x + 1) << 48;
    prof_frame_push(t, prof_fr(t, t->depth++), prof_edge_at(p, x), ppc + row_ret(p, prev), (uint32_t)x, insns, cycle);
    return 0;
}

/* The previous issue's share at this one, as in prof_issue_gen. Inline, with no call: the
 * slow issues after and at calls and returns then call nothing on their way (the general
 * path is a tail call), so they save no registers (a push cost about 16 host instructions
 * of saves and restores when the stall delta was a call). */
static inline __attribute__((always_inline)) void prof_close(prof_thread *t, uint64_t *prev, uint64_t cycle,
                                                             uint64_t insns, const uint64_t *stalls)
{
    prev[PROF_INSNS] += insns;
    prev[PROF_CYCLES] += cycle;
    if (stalls)
        prof_stall_delta(t->nstalls, prev + PROF_STALLS, t->stalls, stalls);
}

/* This issue's row opens (minus its count and cycle); after a call or a return the next
 * issue comes to the slow path for its flow. */
static inline void prof_open(prof_thread *t, uint64_t *row, uint64_t cycle, uint64_t insns)
{
    row[PROF_INSNS] -= insns;
    row[PROF_CYCLES] -= cycle;
    t->row = row;
    t->lim = t->fm ? 0 : row[PROF_LIM];
}

static void prof_oom(prof_state *p, int g, uint64_t pc)
{
    sim_set_stop(p->m, SIM_STOP_ERROR, g / p->tpu, g % p->tpu, pc, "out of memory for the profile");
}

/* Every slow issue prof_issue_slow has no short way for: the first, outside the window, a
 * new row, calls not taken, recursion into the same return address, a return past the
 * top frame. */
static __attribute__((noinline)) void prof_issue_general(prof_thread *t, uint64_t pc, uint64_t cycle, uint64_t insns,
                                                         const uint64_t *stalls)
{
    uint64_t *row;
    prof_state *p = t->p;
    const int g = t->g;
    uint64_t *prev = t->row;
    /* the previous instruction's share, as in prof_issue_gen */
    prev[PROF_INSNS] += insns;
    prev[PROF_CYCLES] += cycle;
    if (stalls)
        prof_stall_delta(p->nstalls, prev + PROF_STALLS, t->stalls, stalls);
    if (!t->mapped)
        prof_window(p, t, g, pc);
    /* the calls first: a return puts its address's row back in the map */
    if (t->valid && p->flow && prof_flow(p, t, g, prev, pc, cycle, insns)) {
        prof_oom(p, g, pc);
        return;
    }
    row = prof_row(p, t, g, pc);
    if (!row) {
        prof_oom(p, g, pc);
        return;
    }
    if (!t->valid) { /* what came before the first issue is the first instruction's */
        row[PROF_INSNS] += t->pre[PROF_INSNS];
        for (int k = PROF_STALLS; k < PROF_STALLS + p->nstalls; k++)
            row[k] += t->pre[k];
        memset(t->pre, 0, sizeof t->pre);
        t->valid = 1;
    }
    row[PROF_INSNS] -= insns;
    row[PROF_CYCLES] -= cycle;
    t->row = row;
    /* after a call or a return, the next issue comes here for its flow (with fm always) */
    t->lim = t->fm ? 0 : row[PROF_LIM];
}

/* The slow issues of call-heavy code are 4 per call: the call, the callee's first
 * instruction, the return, the return address. Each is the general path's result in a few
 * steps here, in small functions with their arguments in registers (off: pc's index in the
 * thread's window). */

/* The issue of a call or a return instruction after a plain one (t->lim non-zero: the thread
 * has issued, its window is set and its open row is a plain instruction's), not at an open
 * call's return address: the general path would find no flow to follow and the row in
 * fmap. */
static __attribute__((noinline)) void prof_slow_flow_row(prof_thread *t, uint64_t pc, uint64_t cycle, uint64_t insns,
                                                         const uint64_t *stalls, uint64_t off)
{
    uint64_t *row;
    const uint32_t d = t->depth;
    if (!t->fmap || (row = t->fmap[off]) == NULL || (d && prof_fr(t, d - 1)->ret == pc)) {
        prof_issue_general(t, pc, cycle, insns, stalls);
        return;
    }
    prof_close(t, t->row, cycle, insns, stalls);
    row[PROF_INSNS] -= insns;
    row[PROF_CYCLES] -= cycle;
    t->row = row;
    t->lim = 0; /* the next issue comes here for this one's flow */
}

/* The issue after a return's (t->lim 0 inside a set window), at the top call's return
 * address: the frame pops, and the row of pc is the one the frame took out of the map (or
 * prof_row's). Anything else (a longjmp past the top frame, none open) is the general
 * path's. */
static __attribute__((noinline)) void prof_slow_pop(prof_thread *t, uint64_t pc, uint64_t cycle, uint64_t insns,
                                                    const uint64_t *stalls, uint64_t off)
{
    uint64_t *row;
    const uint32_t d = t->depth;
    prof_frame *f;
    if (!d || (f = prof_fr(t, d - 1))->ret != pc || (row = f->saved) == NULL) {
        /* (no frame to pop here, or the return address's row not in the frame: prof_flow
         * pops it and prof_row finds the row) */
        prof_issue_general(t, pc, cycle, insns, stalls);
        return;
    }
    prof_close(t, t->row, cycle, insns, stalls);
    t->depth = d - 1;
    prof_edge_charge(t->nstalls, prof_edge_at(t->p, f->edge), insns, cycle, t->stalls, 1);
    t->map[off] = row; /* the return address's row goes back to the map */
    prof_open(t, row, cycle, insns);
}

/* The callee's first issue (t->lim 0 inside a set window, the open row a call's): a frame
 * is pushed for the call, its edge the one the call row remembers, and the row is in a map
 * (six arguments: in registers, so prof_issue_slow's call is a jump). A call not taken, an edge not known, a full stack, a new
 * row, or an issue at the top frame's return address (pop and push) is the general path's. */
static __attribute__((noinline)) void prof_slow_push(prof_thread *t, uint64_t pc, uint64_t cycle, uint64_t insns,
                                                     const uint64_t *stalls, uint64_t off)
{
    uint64_t *const prev = t->row, *row;
    const uint32_t d = t->depth;
    const uint64_t meta = prev[PROF_META];
    const uint64_t ppc = prev[PROF_PC], rd = (meta >> 40) & 0xff, e = meta >> 48;
    if ((pc > ppc && pc <= ppc + rd) || !e || prof_edge_at(t->p, e - 1)->target != pc || d == t->cap ||
        (d && prof_fr(t, d - 1)->ret == pc))
        goto general;
    if ((row = t->map[off]) == NULL && (row = t->fmap ? t->fmap[off] : NULL) == NULL)
        goto general; /* a new row, or an open call's return address */
    prof_close(t, prev, cycle, insns, stalls);
    t->depth = d + 1;
    prof_frame_push(t, prof_fr(t, d), prof_edge_at(t->p, e - 1), ppc + rd, (uint32_t)(e - 1), insns, cycle);
    prof_open(t, row, cycle, insns);
    return;
general:
    prof_issue_general(t, pc, cycle, insns, stalls);
}

void prof_issue_slow(prof_thread *t, uint64_t pc, uint64_t cycle, uint64_t insns, const uint64_t *stalls)
{
    prof_word_sync(t); /* (another feed's issue in word mode: lim is 0 there) */
    const uint64_t off = pc - t->base;
    if (off >= t->nmap) { /* before the first issue (no window yet), or outside it */
        prof_issue_general(t, pc, cycle, insns, stalls);
        return;
    }
    if (t->lim) {
        prof_slow_flow_row(t, pc, cycle, insns, stalls, off);
        return;
    }
    /* after a call or a return: the open row's flow says which */
    const unsigned pflow = (unsigned)(t->row[PROF_META] >> 32) & 0xff;
    if (pflow == ISA_FLOW_RETURN)
        prof_slow_pop(t, pc, cycle, insns, stalls, off);
    else if (pflow == ISA_FLOW_CALL)
        prof_slow_push(t, pc, cycle, insns, stalls, off);
    else
        prof_issue_general(t, pc, cycle, insns, stalls);
}

/* prof_issue_stall_th's slow issues (stalls reported as deltas: none to compare). A thread
 * whose first issue comes here maps its flows (prof_thread.fm); then, with calls and returns
 * issuing on the fast path, what comes here is mostly the callee's first issue (push) and the
 * issue at the return address after a return (pop), each in a small function of its own
 * with no call on its way (the general path is a tail jump), so that it saves no registers
 * (one function for both saved and restored six of them, 13 host instructions a slow issue):
 * the map holds every row but an open call's return address's, so a row found in it is
 * never one a frame waits for. */

/* The callee's first issue (fm; the open row prev a call's, off inside the window): a taken
 * call (pc not in (call, return address]) whose edge the call row remembers, a row in the
 * map (not new, not a return address), room on the stack; else the general path. */
static __attribute__((noinline)) void prof_fm_push(prof_thread *t, uint64_t pc, uint64_t cycle, uint64_t insns,
                                                   uint64_t off)
{
    uint64_t *const prev = t->row, *row;
    const uint64_t meta = prev[PROF_META];
    const uint64_t ppc = prev[PROF_PC], rd = (meta >> 40) & 0xff, e = meta >> 48;
    const uint32_t d = t->depth;
    prof_edge *x;
    if (pc - ppc - 1 < rd || !e || (x = prof_edge_at(t->p, e - 1))->target != pc || d == t->cap ||
        (row = t->map[off]) == NULL) {
        prof_issue_general(t, pc, cycle, insns, NULL);
        return;
    }
    prev[PROF_INSNS] += insns;
    prev[PROF_CYCLES] += cycle;
    t->depth = d + 1;
    prof_frame_push(t, prof_fr(t, d), x, ppc + rd, (uint32_t)(e - 1), insns, cycle);
    row[PROF_INSNS] -= insns;
    row[PROF_CYCLES] -= cycle;
    t->row = row; /* (lim stays 0) */
}

/* The issue after a return (fm), at the top call's return address with its row saved: the
 * frame pops; else the general path. */
static __attribute__((noinline)) void prof_fm_pop(prof_thread *t, uint64_t pc, uint64_t cycle, uint64_t insns,
                                                  uint64_t off)
{
    uint64_t *const prev = t->row, *row;
    const uint32_t d = t->depth;
    const prof_frame *f;
    if (!d || (f = prof_fr(t, d - 1))->ret != pc || (row = f->saved) == NULL) {
        prof_issue_general(t, pc, cycle, insns, NULL);
        return;
    }
    prev[PROF_INSNS] += insns;
    prev[PROF_CYCLES] += cycle;
    t->depth = d - 1;
    prof_edge_charge(t->nstalls, prof_edge_at(t->p, f->edge), insns, cycle, t->stalls, 1);
    t->map[off] = row;
    row[PROF_INSNS] -= insns;
    row[PROF_CYCLES] -= cycle;
    t->row = row;
}

/* The rest: the first issue (which sets fm, or finds the thread's first issue came through
 * prof_issue_th), outside the window, after a plain row (a new row). */
static __attribute__((noinline)) void prof_fm_other(prof_thread *t, uint64_t pc, uint64_t cycle, uint64_t insns)
{
    if (!t->fm) {
        if (t->mapped) { /* (its first issue came through prof_issue_th: flows not mapped) */
            prof_issue_slow(t, pc, cycle, insns, NULL);
            return;
        }
        t->fm = 1;
    }
    prof_issue_general(t, pc, cycle, insns, NULL);
}

void prof_issue_slow_fm(prof_thread *t, uint64_t pc, uint64_t cycle, uint64_t insns)
{
    prof_word_sync(t); /* (word mode: wrow's PROF_LIM is 0) */
    const uint64_t off = pc - t->base;
    if (__builtin_expect(t->fm && off < t->nmap, 1)) {
        const unsigned pflow = (unsigned)(t->row[PROF_META] >> 32) & 0xff;
        if (pflow == ISA_FLOW_CALL) {
            prof_fm_push(t, pc, cycle, insns, off);
            return;
        }
        if (pflow == ISA_FLOW_RETURN) {
            prof_fm_pop(t, pc, cycle, insns, off);
            return;
        }
    }
    prof_fm_other(t, pc, cycle, insns);
}

void prof_before(prof_state *p, int unit, int thread, const sim_thread *th)
{
    int g = unit * p->tpu + thread;
    if (g < 0 || g >= p->nth)
        return;
    prof_thread *t = &p->th[g];
    prof_word_sync(t);
    t->hook_insns = th->instructions;
    prof_stall_delta(p->nstalls, t->row + PROF_STALLS, t->stalls, th->stalls);
}

void prof_record(prof_state *p, int unit, int thread, uint64_t pc, uint64_t cycle, const sim_thread *th)
{
    int g = unit * p->tpu + thread;
    if (g < 0 || g >= p->nth)
        return;
    prof_thread *t = &p->th[g];
    /* the retired count at the issue: prof_before's (out of memory stops the machine) */
    prof_issue_th(t, pc, cycle, t->hook_insns, NULL);
    /* what the instruction counted while it executed (a DPU DMA's wait, a bank penalty) is
     * its own; its retirement is added when the row closes */
    prof_stall_delta(p->nstalls, t->row + PROF_STALLS, t->stalls, th->stalls);
    t->hook_insns = th->instructions;
}

void prof_finish(prof_state *p, const sim_machine *m)
{
    for (int g = 0; g < p->nth; g++) {
        prof_thread *t = &p->th[g];
        if (!t->valid)
            continue;
        const sim_thread *th = &m->units[g / p->tpu].threads[g % p->tpu];
        /* the open row closes at the thread's halt or the end of the run when the rows are
         * read (a run that goes on closes it at its next issue instead) */
        t->end_cycle = stats_thread_cycles(m, th);
        t->end_insns = th->instructions;
        t->ended = 1;
        prof_word_sync(t);
        prof_word_fold(t);
        prof_bat_fold(t);
        prof_stall_delta(p->nstalls, t->row + PROF_STALLS, t->stalls, th->stalls);
    }
}
