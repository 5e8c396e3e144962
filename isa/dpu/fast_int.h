/* isa/dpu/fast_int.h: what the DPU's fast loop (fast.c) shares with its scheduling helpers
 * (fast_sched.c): the burst's context, the sparse queue's and the dense record's sizes, and
 * the helpers the bursts call out of line (the live mask, landings, the sparse queue, the
 * dense period, stop/resume inline, round bursts). Private to isa/dpu/fast*.c. */
#ifndef XPUSIM_DPU_FAST_INT_H
#define XPUSIM_DPU_FAST_INT_H
#include "dpu.h"
#include "../../core/profile.h"

static inline uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* What a burst needs, in one place so the burst loop keeps it in registers. */
typedef struct fast_ctx {
    sim_machine *m;
    sim_unit *u;
    dpu_unit *d;
    sim_thread *th, *th_end;  /* the DPU's tasklets' threads: the ring */
    const dpu_insn *iram;     /* DPU_IRAM_RECS records (no bounds check on the fetch) */
    uint32_t live;            /* the ring's live tasklets (next_live) */
    uint8_t *wram;
    uint64_t wlim;            /* WRAM size */
    uint64_t mlim;            /* MRAM size */
    int nt;                   /* tasklets in the ring */
    int dmai;                 /* ldma/sdma start and land inside the burst (no watchpoint on
                                 any memory: a landing then needs no check) */
    const uint8_t *bpm;       /* instrumented bursts: the breakpoint filter (core/debug.h), or NULL */
    uint64_t wlo, whi;        /* and the span of the watched WRAM bytes (empty: wlo > whi) */
    prof_thread *pt;          /* --profile fed here (isa_ops.profile_fast): tasklet k's state
                                 at pt + k, or NULL */
    sim_thread *tsv[DPU_NTHREADS_MAX]; /* tasklet k's thread and state, for the sparse pick */
    dpu_tasklet *tkv[DPU_NTHREADS_MAX];
} fast_ctx;

/* Sparse bursts: with fewer than 11 live tasklets the revolver leaves cycles idle and the
 * next tasklet in ring order is often not the one to issue (tasklets coming back from DMA
 * run in the order of their landings, not the ring's), so the plain burst would visit the
 * live ones at most issues (next_live). A sparse burst keeps the candidates in a ring q of
 * SPARSE_Q slots, [qh..qh+qn) (indices mod SPARSE_Q; at most 24 candidates), in ready_at
 * order instead: a tasklet issued at t is ready at t + 11, after every other candidate, so
 * it goes last (the pick moves it from the front to the back at once; one that starts a
 * DMA is taken off the back again), and the pick is the front (several ready at once, rare:
 * the first of them in ring order from the cursor). Candidates: the tasklets ready by t + 11
 * when the burst turns sparse (the others are stopped or wait for DMA), then those a
 * landing frees (ready by then; inserted in order), less the ones that start a DMA. The
 * burst turns plain again when a landing makes SPARSE_FULL or more live (a speed threshold
 * above SPARSE_MAX, so that a live count about 11 does not turn it back and forth). */
enum { SPARSE_Q = 32, SPARSE_MAX = 11, SPARSE_FULL = 13 };

/* bits set in a live mask (no popcnt instruction in the baseline x86-64 target) */
static inline int live_count(uint32_t v)
{
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    return (int)((((v + (v >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
}

/* Insert candidate k, ready at rk, among the qn from qh in ready_at order, after those ready
 * as early (a freed or resumed one is ready about now, so it goes in from the front: the ones
 * before it move one slot forward, qh with them); returns the new qh. */
static inline unsigned sparse_insert(uint8_t *qk, uint64_t *qr, unsigned qh, unsigned qn, int k, uint64_t rk)
{
    const unsigned h = --qh;
    unsigned i = 0;
    for (; i < qn && qr[(h + i + 1) & (SPARSE_Q - 1)] <= rk; i++) {
        qk[(h + i) & (SPARSE_Q - 1)] = qk[(h + i + 1) & (SPARSE_Q - 1)];
        qr[(h + i) & (SPARSE_Q - 1)] = qr[(h + i + 1) & (SPARSE_Q - 1)];
    }
    qk[(h + i) & (SPARSE_Q - 1)] = (uint8_t)k;
    qr[(h + i) & (SPARSE_Q - 1)] = rk;
    return qh;
}

/* Dense bursts: with 11 or more live tasklets the revolver issues every cycle, but after
 * DMA waits not in ring order (the next one in order is often not ready yet), so the plain
 * burst would visit the live ones at most issues (next_live). The pick depends only on
 * the live tasklets' ready_at (their last issue + 11) and the cursor (after the last
 * issuer). If the last dn issues (dn = the live count) were at consecutive cycles, one by
 * each live tasklet, and repeat the dn issues before them (issuer by issuer, also at
 * consecutive cycles), then the state at this cycle is the state dn cycles ago: every live
 * tasklet issued at the same distance back, and the same tasklet issued last. So the picks
 * from then on repeat that period, until an event changes the live set or a ready_at
 * otherwise (a DMA start, a landing; the generic executor ends the burst). The dense burst
 * records the issuers since the last event and, once that holds, replays the period; once
 * a whole round (dn picks) goes in ring order, the plain burst takes over again. */
/* DENSE_H: at least 2 x 24 issues recorded; DENSE_GAP: the plain burst turns dense when two
 * of its picks out of ring order come closer than this (a speed threshold: one skip per
 * round, e.g. past a stopped tasklet, costs the plain burst little) */
enum { DENSE_H = 64, DENSE_GAP = 8 };

/* fast_sched.c (each explained there) */
uint32_t dpu_fast_live_below(const sim_thread *th, int nt, uint64_t lim);
int dpu_fast_land(fast_ctx *c, uint64_t t, uint64_t olim);
unsigned dpu_fast_sparse_build(const fast_ctx *c, uint64_t t, uint8_t *qk, uint64_t *qr, uint32_t *om);
unsigned dpu_fast_sparse_land(fast_ctx *c, uint64_t t, uint8_t *qk, uint64_t *qr, unsigned qh, unsigned qn,
                              uint32_t *om);
int dpu_fast_sparse_steady(const uint64_t *qr, unsigned qh, unsigned qn, uint64_t t);
int dpu_fast_sparse_tie(uint8_t *qk, uint64_t *qr, unsigned qh, unsigned qn, uint64_t t, int cur);
int dpu_fast_dense_period(const uint8_t *hq, unsigned hn, unsigned dn, uint32_t live);
uint32_t dpu_fast_ctl_inline(fast_ctx *c, sim_thread *ts, dpu_tasklet *tk, const dpu_insn *in, uint32_t fa,
                             uint32_t fb, uint64_t t, uint32_t npc);
int dpu_fast_round_ok(const fast_ctx *c, const sim_thread *ts, uint64_t t);
void dpu_fast_round_flush(fast_ctx *c, uint64_t t0, int i0, uint64_t n);
void dpu_fast_prof_at(const fast_ctx *c, int kx);
void dpu_fast_round_prof_start(fast_ctx *c, uint64_t t0, int i0);
void dpu_fast_round_flush_prof(fast_ctx *c, uint64_t t0, int i0, uint64_t n, uint64_t nfed);
/* fast_round.c. The round burst runs a round's first REPLAY_WARM rounds itself and hands
 * the rest to the replay if no event came by then: a replay's set-up and derivation (about
 * 1,300 host instructions) pay after about 6 rounds of 16 tasklets (about 15 a DPU
 * instruction saved), and round phases in SDK code are often shorter (dpu-sdk16-mul: four
 * in five end within 4 rounds, the others run 32 or more; PrIM's RED: 2 on average). */
enum { REPLAY_WARM = 4 };
/* The same with --profile (64 in session 27, when a profiled replay's batches ended at
 * each call and return with four slow issues a call; since the profile's word mode the
 * profiled round burst costs more per issue than the replay saves: 4, prof's measurement,
 * dpu16 --profile 24.52 -> 22.57 host insns per insn, dpu-sdk16-mul's +0.7 %) */
enum { REPLAY_WARM_PROF = 4 };
int dpu_fast_round_replay(fast_ctx *c, sim_thread **tsp, uint64_t *tp, uint64_t olim);

#endif
