/* core/profile_int.h: what the profile's files share (profile.c: the hot feed, the windows,
 * hash and call edges; profile_word.c: word mode; profile_bat.c: the batch counters;
 * profile_read.c: making, freeing and reading the profile): the
 * row layout's accessors, the shadow stack's frames and an edge's charge, kept inline here
 * because the feed's hot paths use them. Not part of the API (profile.h is). */
#ifndef XPUSIM_PROFILE_INT_H
#define XPUSIM_PROFILE_INT_H
#include "profile.h"

#define PROF_CHUNK 4096u            /* rows per chunk */
#define PROF_MAP_BUDGET (1ull << 30) /* bytes of window maps in all (then: hash only) */
/* A call row's meta word keeps its last edge's index + 1 in its top 16 bits (0: none), for
 * the callee's first issue (prof_issue_slow); edges from this index on are not kept. */
#define PROF_EDGE_CACHED 0xffff

/* The pending count of batch word off into its rows (profile_bat.c). */
void prof_bat_fold1(prof_thread *t, uint32_t off);

/* The meta word of a row: thread, ISA_FLOW_* and a call's return delta. */
static inline uint64_t *row_pc(const prof_state *p, uint64_t *r) { (void)p; return r + PROF_PC; }
static inline int32_t row_thread(const prof_state *p, const uint64_t *r) { (void)p; return (int32_t)(uint32_t)r[PROF_META]; }
static inline unsigned row_flow(const prof_state *p, const uint64_t *r) { (void)p; return (unsigned)(r[PROF_META] >> 32) & 0xff; }
static inline unsigned row_ret(const prof_state *p, const uint64_t *r) { (void)p; return (unsigned)(r[PROF_META] >> 40) & 0xff; }

/* Edge e of p. */
static inline prof_edge *prof_edge_at(const prof_state *p, uint32_t e) { return &p->edges[e].e; }

/* Frame d of t's shadow call stack. */
static inline prof_frame *prof_fr(const prof_thread *t, uint32_t d) { return &t->stack[d]; }

/* An edge's charge at a push (sign -1: minus the thread's totals at the callee's entry) and
 * at a pop (+1: plus the totals at the return), so that it holds their growth; the n stall
 * counters unrolled by the count as prof_stall_delta (a loop or a memcpy over a count read
 * from memory was most of a call's cost in the slow path). */
#define PROF_EDGE_ADD(k)                                                                           \
    case (k) + 1:                                                                                  \
        acc[k] += now[k];                                                                          \
        __attribute__((fallthrough));
#define PROF_EDGE_SUB(k)                                                                           \
    case (k) + 1:                                                                                  \
        acc[k] -= now[k];                                                                          \
        __attribute__((fallthrough));
static inline __attribute__((always_inline)) void prof_edge_charge(int n, prof_edge *restrict x, uint64_t insns,
                                                                   uint64_t cycle, const uint64_t *restrict now,
                                                                   const int sign)
{
    _Static_assert(SIM_MAX_STALLS == 12, "one PROF_EDGE_ADD per possible cause");
    _Static_assert(PROF_FRAME_STALLS == 4, "the fixed charge below");
    uint64_t *restrict acc = x->stalls;
    if (sign > 0) {
        x->insns += insns, x->cycles += cycle;
        if (n <= PROF_FRAME_STALLS) { /* (the words past the ISA's causes: 0, or back and forth) */
            acc[0] += now[0], acc[1] += now[1], acc[2] += now[2], acc[3] += now[3];
            return;
        }
        switch (n) {
            PROF_EDGE_ADD(11) PROF_EDGE_ADD(10) PROF_EDGE_ADD(9) PROF_EDGE_ADD(8) PROF_EDGE_ADD(7)
            PROF_EDGE_ADD(6) PROF_EDGE_ADD(5) PROF_EDGE_ADD(4) PROF_EDGE_ADD(3) PROF_EDGE_ADD(2)
            PROF_EDGE_ADD(1) PROF_EDGE_ADD(0)
        default:
            break;
        }
    } else {
        x->insns -= insns, x->cycles -= cycle;
        if (n <= PROF_FRAME_STALLS) {
            acc[0] -= now[0], acc[1] -= now[1], acc[2] -= now[2], acc[3] -= now[3];
            return;
        }
        switch (n) {
            PROF_EDGE_SUB(11) PROF_EDGE_SUB(10) PROF_EDGE_SUB(9) PROF_EDGE_SUB(8) PROF_EDGE_SUB(7)
            PROF_EDGE_SUB(6) PROF_EDGE_SUB(5) PROF_EDGE_SUB(4) PROF_EDGE_SUB(3) PROF_EDGE_SUB(2)
            PROF_EDGE_SUB(1) PROF_EDGE_SUB(0)
        default:
            break;
        }
    }
}
#undef PROF_EDGE_ADD
#undef PROF_EDGE_SUB

/* Word mode (prof_issue_word_th). A word's counts (the low 62 bits as PROF_W_ONE adds them)
 * by its state: counting (negative), dropped (bit 62 set), carried into bit 63 (bit 63 was its
 * carry); 0: none (never counted). */
static inline uint64_t prof_word_acc(int64_t v)
{
    return v < 0 || !(v & PROF_W_DROP) ? (uint64_t)v ^ (uint64_t)PROF_W_ON : (uint64_t)v ^ (uint64_t)PROF_W_DROP;
}

/* The counts of offset off's word into its row (the map's, or a dropped word's frame's) and
 * the word back to none counted in its state (a carried word counts again). */
static inline void prof_word_fold1(prof_thread *t, uint32_t off, uint64_t *row)
{
    const int64_t v = t->wd[off];
    if (!v)
        return;
    const uint64_t acc = prof_word_acc(v);
    const uint64_t n = (acc >> 2) & 0xffffffffu, cyc = acc >> 34;
    if (n | cyc) {
        row[PROF_INSNS] += n;
        row[PROF_CYCLES] += cyc;
        row[PROF_STALLS + t->wcause] += cyc - n; /* each issue waited its cycles but one */
    }
    t->wd[off] = (v >= 0 && (v & PROF_W_DROP) ? PROF_W_DROP : PROF_W_ON) | (int64_t)(acc & 3);
}

/* The row of a dropped word at off: the saved row of an open frame returning there (NULL for
 * a lazy frame's: the map's, prof_frame.lazy). */
static inline uint64_t *prof_word_saved(const prof_thread *t, uint64_t off)
{
    for (uint32_t d = t->depth; d-- > 0;)
        if (prof_fr(t, d)->ret - t->base == off && prof_fr(t, d)->saved)
            return prof_fr(t, d)->saved;
    return NULL;
}

/* The lazy frames' return addresses out of the map (prof_frame.lazy), a counting batch word
 * there folded and stopped first (prof_map_drop's; the words of a thread in word mode took no
 * batch's issue): from the top down, the frames pushed since word mode began (amortized over
 * them). */
static __attribute__((noinline)) void prof_word_unlazy(prof_thread *t)
{
    for (uint32_t d = t->depth; t->nlazy && d-- > 0;) {
        prof_frame *const f = prof_fr(t, d);
        if (f->lazy) {
            const uint64_t off = f->ret - t->base;
            if (off < t->nbat && t->bat[off] > 0) {
                prof_bat_fold1(t, (uint32_t)off);
                t->bat[off] = PROF_BAT_OFF;
            }
            f->saved = t->map[off];
            t->map[off] = NULL;
            f->lazy = 0;
            t->nlazy--;
        }
    }
}

static inline void prof_word_fold(prof_thread *t)
{
    for (uint32_t i = 0; i < t->nwtl; i++) {
        const uint32_t off = t->wtl[i];
        const int64_t v = t->wd[off];
        uint64_t *row = v >= 0 && (v & PROF_W_DROP) ? prof_word_saved(t, off) : NULL;
        prof_word_fold1(t, off, row ? row : t->map[off]);
    }
}

/* Word mode ends: the open issue's row opens in the row form (minus its count and cycle),
 * the thread's counter of the words' cause gets the stalls the issues since word mode began
 * derived, and what the row form's feeds charged to wrow meanwhile (prof_issue_stall_th
 * charges its stall before it finds the thread in word mode) goes to that row. */
static inline void prof_word_sync(prof_thread *t)
{
    if (__builtin_expect(!prof_word_mode(t), 1))
        return;
    if (t->nlazy)
        prof_word_unlazy(t);
    uint64_t *const r = t->map[t->pw - t->wd];
    const uint64_t tl = t->tl, il = t->in - 1;
    r[PROF_INSNS] -= il;
    r[PROF_CYCLES] -= tl;
    t->stalls[t->wcause] += tl - il; /* (the true count again: see prof_word_enter) */
    for (int k = PROF_STALLS; k < PROF_STALLS + t->nstalls; k++) {
        r[k] += t->wrow[k];
        t->wrow[k] = 0;
    }
    t->row = r;
    t->lim = t->fm ? 0 : r[PROF_LIM];
    t->pw = &t->wnone;
}

/* n zeroed bytes aligned to a cache line (64), or NULL; freed with free(). */
void *prof_zalloc(size_t n);

#endif
