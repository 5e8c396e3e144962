/* core/profile_int.h: what the profile's files share (profile.c: the hot feed, the windows,
 * hash and call edges; profile_bat.c: the batch counters; profile_read.c: making, freeing
 * and reading the profile): the
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

/* n zeroed bytes aligned to a cache line (64), or NULL; freed with free(). */
void *prof_zalloc(size_t n);

#endif
