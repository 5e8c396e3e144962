/* core/profile_word.c: the profile's word mode (prof_issue_word_th, profile.h; notes/
 * profile-api.md "Word mode"): the words' folds into their rows, entering and leaving word
 * mode, and its slow issues (the push after a call's word and the pop after a return's, the
 * general way through the row form). The row form, windows, hash and call edges:
 * profile.c. */
#include <stdlib.h>
#include "profile_int.h"
#include "../isa/isa.h"

void prof_word_end(prof_thread *t) { prof_word_sync(t); }

void prof_word_span(prof_thread *t, uint64_t n)
{
    n = n < PROF_WINDOW ? n : PROF_WINDOW;
    if (t->nwd >= n)
        return;
    prof_state *p = t->p;
    prof_word_sync(t);
    if (t->wmem) { /* (a wider span: the counts into the rows, new words) */
        prof_word_fold(t);
        free(t->wmem);
        t->wmem = NULL;
        t->nwtl = 0;
    }
    /* the words start 5 cache lines per thread apart (mod 64): arrays this big start at
     * one page offset, and the words of one pc in 16 tasklets all in one L1 set missed (the
     * DMA row's inline feed: 0.15 M -> 0.52 M D1 read misses in callgrind's simulation; one
     * line apart 0.31 M: the tasklets' code, ~25 lines of words each, piled on ~10 sets) */
    const size_t skew = (size_t)((t->g * 5) & 63) * 8, bytes = (n + skew) * sizeof *t->wd;
    int64_t *w;
    if (p->map_bytes + bytes <= PROF_MAP_BUDGET && (w = calloc(n + skew, sizeof *w)) != NULL) {
        p->map_bytes += bytes;
        t->wmem = w;
        t->wd = w + skew;
        t->nwd = n;
        return;
    }
    /* no memory for them: the words nobody counts in (the row form's way for every issue) */
    if (!p->wzero && (p->wzero = calloc(PROF_WINDOW, sizeof *p->wzero)) == NULL) {
        sim_set_stop(p->m, SIM_STOP_ERROR, t->g / p->tpu, t->g % p->tpu, 0, "out of memory for the profile");
        return;
    }
    t->wd = p->wzero;
    t->nwd = PROF_WINDOW;
}

void prof_word_resume_slow(prof_thread *t, uint64_t last, uint64_t r)
{
    const uint64_t s = r - last; /* (cycles of the open issue's row, no stall) */
    t->map[t->pw - t->wd][PROF_CYCLES] += s;
    t->tl = r;
    t->stalls[t->wcause] -= s; /* (the counter's form in word mode: see prof_word_enter) */
}

/* After an issue at pc in the row form (its row open): word mode from it, when its row is
 * the map's in a window at 0 (not the pre row, not an open call's return address, not
 * outside the window) and the words can be had. */
static void prof_word_enter(prof_thread *t, uint64_t pc, uint64_t cycle, uint64_t insns, int cause)
{
    uint64_t *const r = t->row;
    const uint64_t off = pc - t->base;
    /* (the words: prof_word_span's, by pc, so only in a window at 0) */
    if (off >= t->nmap || off >= t->nwd || t->base || !t->wd || t->wd == t->p->wzero || t->map[off] != r || cause < 0 ||
        cause >= t->nstalls)
        return;
    if (cause != t->wcause) { /* (the words derive one cause) */
        prof_word_fold(t);
        t->wcause = cause;
        t->wflow = t->nstalls <= PROF_FRAME_STALLS ? cause : INT32_MIN;
    }
    int64_t *const w = t->wd + off;
    const int64_t kind = r[PROF_LIM] ? 0 : row_flow(t->p, r) == ISA_FLOW_RETURN ? PROF_W_RET : PROF_W_CALL;
    if (*w > 0 && (*w & PROF_W_DROP)) /* (back in the map, its counts kept) */
        *w ^= PROF_W_DROP | PROF_W_ON;
    else if (*w > 0) /* its cycles carried into bit 63 */
        prof_word_fold1(t, (uint32_t)off, r);
    else if (*w == 0) { /* first count: the fold visits it from now on */
        if (t->nwtl == t->cwtl) {
            uint32_t ncap = t->cwtl ? 2 * t->cwtl : 64;
            uint32_t *nl = realloc(t->wtl, ncap * sizeof *nl);
            if (!nl)
                return;
            t->wtl = nl;
            t->cwtl = ncap;
        }
        t->wtl[t->nwtl++] = (uint32_t)off;
        *w = PROF_W_ON | kind;
    }
    r[PROF_INSNS] += insns; /* (the row form opened it) */
    r[PROF_CYCLES] += cycle;
    t->pw = w;
    t->tl = cycle;
    t->in = insns + 1;
    /* in word mode the counter of the words' cause holds the true count minus the open
     * issue's cycle plus its retired count, so that each issue's derived stall (its cycles
     * but one) is in it without a store: the true count at an issue is this plus its cycle
     * minus its count (the call edges' charge, prof_word_sync) */
    t->stalls[t->wcause] -= cycle - insns;
    t->row = t->wrow;
    t->lim = 0;
}

/* Any slow issue of the word feed: the row form's (word mode ends), then word mode again at
 * pc. */
static __attribute__((noinline)) void prof_word_general(prof_thread *t, uint64_t pc, uint64_t cycle, uint64_t insns,
                                                        int cause, uint64_t n)
{
    if (prof_word_mode(t)) { /* (the fast issues kept neither: the feed's contract gives them) */
        t->tl = cycle - n - 1;
        t->in = insns;
    }
    prof_word_sync(t);
    prof_issue_stall_th(t, pc, cycle, insns, cause, n);
    if (!sim_stopped(t->p->m))
        prof_word_enter(t, pc, cycle, insns, cause);
}

/* A call's entry in its thread's cache (its pc's low bits, and the next ones: call sites a
 * power of 2 apart spread). */
static inline uint32_t prof_wcc_at(uint64_t ppc)
{
    return (uint32_t)(ppc ^ ppc >> 6) & (PROF_WCC - 1);
}

/* The issue after a call's in word mode whose call the thread's cache (wcc) does not hold:
 * prof_fm_push's conditions on the call's row (a taken call whose edge the row remembers,
 * the callee's entry pc); then the cache holds it and the push is prof_issue_word_slow's,
 * else the general way. */
static __attribute__((noinline)) void prof_word_push_fill(prof_thread *t, uint64_t pc, uint64_t cycle, uint64_t insns,
                                                          int cause, uint64_t n)
{
    const uint64_t ppc = (uint64_t)(t->pw - t->wd); /* (word mode: a window at 0) */
    const uint64_t meta = t->map[ppc][PROF_META];   /* (the call's row) */
    const uint64_t rd = (meta >> 40) & 0xff, e = meta >> 48;
    /* (an edge's target: a taken call's; the return address inside the words and the map,
     * which never shrink) */
    if (!e || prof_edge_at(t->p, e - 1)->target != pc || ppc + rd >= t->nwd || ppc + rd >= t->nmap) {
        prof_word_general(t, pc, cycle, insns, cause, n);
        return;
    }
    prof_wcc *const c = &t->wcc[prof_wcc_at(ppc) * t->wccs];
    c->site1 = (uint32_t)ppc + 1;
    c->target = (uint32_t)pc;
    c->edge = (uint32_t)(e - 1);
    c->rd = (uint32_t)rd;
    prof_issue_word_slow(t, pc, cycle, insns, cause, n);
}

/* An edge's charge at a word-mode push (sign -1) or pop (+1): prof_edge_charge's fixed form
 * (the callers' ISA has at most PROF_FRAME_STALLS causes: prof_issue_word_slow checks), then
 * the words' cause from its counter form (prof_word_enter). */
static inline __attribute__((always_inline)) void prof_word_charge(const prof_thread *t, prof_edge *x, uint64_t insns,
                                                                   uint64_t cycle, const int sign)
{
    prof_edge_charge(PROF_FRAME_STALLS, x, insns, cycle, t->stalls, sign);
    if (sign > 0)
        x->stalls[t->wcause] += cycle - insns;
    else
        x->stalls[t->wcause] -= cycle - insns;
}

/* The issue after a call's in word mode (the call's word open, this issue its next in the
 * stretch, pc inside the words): prof_fm_push's in words, the call found in the thread's
 * cache (a taken call to pc whose edge the call's row remembered, its return address inside
 * the words and the map), pc's word counting, room on the stack, and the return address's
 * word (dropped while the call is open: prof_map_drop) needing no fold; else the general
 * way. */
static __attribute__((noinline)) void prof_word_push(prof_thread *t, uint64_t pc, uint64_t cycle, uint64_t insns,
                                                     int cause, uint64_t n)
{
    int64_t *const pw = t->pw, *const wd = t->wd;
    const uint64_t ppc = (uint64_t)(pw - wd);
    const prof_wcc *const c = &t->wcc[prof_wcc_at(ppc) * t->wccs];
    if (__builtin_expect(c->site1 != ppc + 1 || c->target != pc, 0)) {
        prof_word_push_fill(t, pc, cycle, insns, cause, n);
        return;
    }
    const uint64_t ret = ppc + c->rd;
    const uint32_t d = t->depth;
    if (wd[pc] >= 0 || d == t->cap) {
        prof_word_general(t, pc, cycle, insns, cause, n);
        return;
    }
    /* ret's word: counting (its row in the map, no open call returning there): the frame
     * drops it, lazily (the row stays in the map, and a counting batch word there too:
     * prof_frame.lazy); dropped: by an open call returning there (its row out of the map, or
     * a lazy frame's: then the general way, which ends word mode first) or left so by the row
     * form's pop (its row in the map: the frame takes it out, as prof_frame_push does); else
     * (0: never counted, or its cycles carried into bit 62 or 63) the general way's if ret
     * has a row (prof_map_drop's fold), and no row saved if not */
    const int64_t wr = wd[ret];
    const uint32_t lazy = wr < 0 && !(wr & PROF_W_DROP);
    uint64_t *saved = NULL;
    if (!lazy) {
        const int dropped = wr > 0 && (wr & PROF_W_DROP);
        if ((dropped && t->nlazy) || ((saved = t->map[ret]) != NULL && !dropped)) {
            prof_word_general(t, pc, cycle, insns, cause, n);
            return;
        }
    }
    const uint32_t e = c->edge;
    prof_edge *const x = prof_edge_at(t->p, e);
    *pw += PROF_W_ONE(n + 1);
    t->pw = wd + pc; /* (its cycle and count: the caller tells them, prof_word_at) */
    t->depth = d + 1;
    prof_frame *const f = prof_fr(t, d); /* prof_frame_push's */
    f->ret = ret;
    f->edge = e;
    f->saved = saved;
    f->lazy = lazy;
    x->calls++;
    prof_word_charge(t, x, insns, cycle, -1);
    if (lazy) {
        wd[ret] = wr ^ (PROF_W_ON | PROF_W_DROP);
        t->nlazy++;
    } else if (saved)
        t->map[ret] = NULL;
}

/* The issue after a return's in word mode at the top call's return address (its word
 * dropped, its row saved in the frame or, lazy, still in the map): prof_fm_pop's in words
 * (else the general way). */
static __attribute__((noinline)) void prof_word_pop(prof_thread *t, uint64_t pc, uint64_t cycle, uint64_t insns,
                                                    int cause, uint64_t n)
{
    const uint32_t d = t->depth;
    const prof_frame *f;
    int64_t *const wd = t->wd;
    const int64_t v = wd[pc];
    if (!d || (f = prof_fr(t, d - 1))->ret != pc || (f->saved == NULL && !f->lazy) || v <= 0 || !(v & PROF_W_DROP)) {
        prof_word_general(t, pc, cycle, insns, cause, n);
        return;
    }
    *t->pw += PROF_W_ONE(n + 1);
    t->depth = d - 1;
    prof_word_charge(t, prof_edge_at(t->p, f->edge), insns, cycle, 1);
    if (f->lazy)
        t->nlazy--;
    else
        t->map[pc] = f->saved;
    wd[pc] = v ^ (PROF_W_DROP | PROF_W_ON); /* (counting again, its counts kept) */
    t->pw = wd + pc;
}

/* Word mode's slow issues: the issue after a call's (push) or a return's (pop) in the same
 * stretch (the feed's contract), for an ISA with at most PROF_FRAME_STALLS causes; anything
 * else the general way (the row form, then word mode again). (The dispatch has no call on
 * its way but tail calls: it saves no registers.) */
void prof_issue_word_slow(prof_thread *t, uint64_t pc, uint64_t cycle, uint64_t insns, int cause, uint64_t n)
{
    const int64_t *const pw = t->pw;
    if (__builtin_expect(pw != &t->wnone && cause == t->wflow, 1)) {
        /* (pc - base: base is 0 in word mode; pc below nwd: the feed's contract, as its common
         * issue reads wd[pc]) */
        const int64_t k = *pw & 3;
        if (k == PROF_W_CALL) {
            prof_word_push(t, pc, cycle, insns, cause, n);
            return;
        }
        if (k == PROF_W_RET) {
            prof_word_pop(t, pc, cycle, insns, cause, n);
            return;
        }
    }
    prof_word_general(t, pc, cycle, insns, cause, n);
}
