/* isa/dpu/fast.c: the DPU's revolver run loop for plain runs (no debugger hooks, no
 * instruction limit, no bank penalty). It issues in exactly the order of the reference loop
 * in exec.c (core/sched.h's rule: each cycle, the next tasklet in round-robin order
 * whose ready_at has come; ready_at = issue + 11), with less work per instruction:
 *  - bursts: after an issue at cycle t the next candidate is the following tasklet at
 *    t + 1, which is the pick whenever it is ready (always so with 11 or more running
 *    tasklets); the burst goes on while that holds and t is below one limit that folds the
 *    horizon, the next DMA completion and the host-side stop poll;
 *  - otherwise the tasklets are scanned in the same round-robin order, finding the
 *    earliest ready_at on the way to skip idle cycles;
 *  - the ring holds only the DPU's tasklets (threads beyond NR_TASKLETS never become
 *    ready, so skipping them changes no pick), and the cursor the core sees is restored;
 *  - the common instructions (predecode.c's set_fast) run inline from their predecoded
 *    operands; anything else, and any access that would fault, goes through the generic
 *    executor (dpu_execute), so faults and their messages are unchanged; in the sparse
 *    burst without breakpoints and watchpoints the dispatch is threaded (each inline block
 *    steps to the next instruction and jumps to its block itself: BURST_THREAD);
 *  - the sparse burst (few live tasklets) runs stop and resume itself (barriers and
 *    handshakes: fast_sched.c), and lands transfers freeing only their issuers;
 *  - statistics stay per stretch (exec.c): per instruction only the retired count,
 *    the last issue cycle and ready_at are written.
 *  - breakpoints and watchpoints keep this loop (issue 9): with any set, the burst is the
 *    instrumented copy, which leaves at the pcs core/debug.h's filter flags (the debugger
 *    then decides at that pc exactly as the reference loop would) and sends the WRAM
 *    accesses that overlap the watched bytes' span to the generic executor, which checks
 *    and reports them.
 * tests/dpu/test_fastpath.c runs programs here and in the reference loop and compares
 * cycles, statistics, registers and memory. */
#include <string.h>
#include "dpu.h"
#include "fast_int.h"
#include "fast_pick.h"
#include "cond.h"
#include "../../core/debug.h"
#include "../../core/profile.h"

/* cycles between looks at the machine's stop flag (another DPU's job may have faulted, or
 * the user interrupted); a unit never changes it without returning at once. Each look ends
 * the burst, and a round replay's set-up and derivation (fast_round.c) cost about 0.4 host
 * instructions per DPU instruction at 4,096 cycles, 0.1 at 16,384 (about 50 us of host
 * time at the replay's speed) */
#define DPU_POLL_CYCLES 16384


/* Leave: publish statistics; the core's cursor is the thread after the last issuer (as the
 * reference loop leaves it), unchanged when nothing issued. */
static uint64_t leave(sim_unit *u, dpu_unit *d, int issued, int rr, int nt, uint64_t ret)
{
    int lt = rr == 0 ? nt - 1 : rr - 1;
    if (issued)
        dpu_sync_stats(u, d->t[lt].last_issue, lt + 1 == u->nthreads ? 0 : lt + 1);
    else
        dpu_sync_stats(u, SIM_NEVER, u->rr);
    return ret;
}

/* --profile's feed for an issue of tasklet ts at pc in cycle t (notes/profile-api.md), with
 * its retired count before it and, as a delta, the stall the reference loop counts for its
 * previous instruction: the cycles since that issue beyond the issue's own (its revolver
 * wait; a new running stretch, boot or resume, sets last_issue to its start, so the stopped
 * time is none), less a DMA's own wait, which prof_dma moved to the DMA cause when the
 * transfer started. The bank penalty runs the reference loop, never this one. The word
 * feed's contract (core/profile.h) holds here: every issue of a tasklet in the fast loop is
 * fed, each retires one, and each new stretch is told (prof_word_resume: the resumes in the
 * sparse burst and through the generic executor; dpu_run_fast's entry ends word mode for a
 * tasklet whose last_issue moved while the unit was away). */
static inline __attribute__((always_inline)) void prof_feed(fast_ctx *c, const sim_thread *ts, const dpu_tasklet *tk,
                                                            uint32_t pc, uint64_t t)
{
    (void)c;
    prof_issue_word_th(tk->prof, pc, t, ts->instructions, DPU_STALL_REVOLVER, t - tk->last_issue - 1);
}

/* prof_feed's common issue alone (prof_issue_word_fast): 0 if the issue must go to
 * prof_issue_word_slow (the threaded copies share one call of it). */
static inline __attribute__((always_inline)) int prof_feed_fast(const dpu_tasklet *tk, uint32_t pc, uint64_t t)
{
    return prof_issue_word_fast(tk->prof, pc, t - tk->last_issue - 1);
}

/* The issuing tasklet k's transfer made it wait w cycles beyond its revolver slot: a DMA
 * stall of the DMA instruction, and not a revolver one (its next issue counts the gap). */
static inline void prof_dma(const fast_ctx *c, int k, uint64_t w)
{
    prof_word_stall_th(c->pt + k, DPU_STALL_DMA, w);
    prof_word_stall_th(c->pt + k, DPU_STALL_REVOLVER, (uint64_t)0 - w);
}

/* Land the transfers due at t in a sparse burst and take back the queue's front and count
 * and the full flag sparse_land packs into one word; its low bit: leave the burst. (A macro:
 * it writes the burst loop's register locals, which a helper would force to memory.) */
#define SPARSE_LAND_AT_T()                                                                         \
    do {                                                                                           \
        sl = dpu_fast_sparse_land(c, t, qk, qr, qh, qn, &om);                                         \
        lim = min_u64(olim, c->d->pend_next);                                                      \
        qh = sl >> 8;                                                                              \
        qn = (sl >> 2) & 63;                                                                       \
        full = (sl >> 1) & 1;                                                                      \
        if (sl & 1)                                                                                \
            goto out;                                                                              \
    } while (0)

/* A burst: thread *tsp issues at cycle *tp, then the next one in round-robin order at the
 * next cycle while it is ready and the cycle is below lim. Returns 0 when the burst ends
 * (*tsp is then the next thread in order, *tp the cycle), 1 when thread *tsp must issue at
 * *tp through the generic executor (its ready_at and last_issue are already set), 2 when
 * thread *tsp would issue at *tp at a pc the breakpoint filter flags (nothing set yet).
 * Inlined into burst_plain, burst_watch, burst_bp and burst_bp_watch, whose loops have the
 * registers to themselves; bp (test the filter) and watch (test the watched span) are
 * constants there, so the plain copy has no instrumentation test at all. */
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch-enum" /* every DPU_FAST_* has its case */
static inline __attribute__((always_inline)) int burst(fast_ctx *c, sim_thread **tsp, uint64_t *tp,
                                                       const uint64_t olim, const int bp, const int watch,
                                                       const int mode, const int profile)
{
    const int sparse = mode == 1, dense = mode == 2, round = mode == 3;
    sim_thread *ts = *tsp;
    dpu_tasklet *tk = c->d->t + (ts - c->th);
    uint64_t t = *tp;
    const uint64_t t0 = t; /* round: the burst's first issue */
    const dpu_insn *const iram = c->iram;
    uint8_t *const wram = c->wram;
    const uint64_t wlim = c->wlim;
    const uint8_t *const bpm = bp ? c->bpm : NULL;
    const uint64_t wlo = watch ? c->wlo : 1, whi = watch ? c->whi : 0;
    uint64_t lim = min_u64(olim, c->d->pend_next);
    /* sparse: the candidates in ready_at order (sparse_build), their mask om, the cursor
     * before the burst's first issue (tcur; NULL after it: the cursor is then the ring
     * index after ts, the last issuer, nt meaning 0), and each tasklet's thread and state */
    uint8_t qk[SPARSE_Q];
    uint64_t qr[SPARSE_Q];
    unsigned qh = 0, qn = 0, sl;
    uint32_t om = 0;
    /* sparse, threaded: the queue is steady (dpu_fast_sparse_steady): the front issues at
     * its own ready cycle, with no tie, so the pick is the queue's rotation. Set where the
     * pick without it (sparse_pick, sparse_tied) ends; a landing goes there. A DMA start or a
     * stop (the last candidate leaves) and a resume (its tasklet joins at t + 1: the new
     * front, or in a tie with the front) are blocks without the threaded step: the shared
     * step's pick after them goes to sparse_pick on an empty queue or a tie, else the queue
     * is steady still. */
    int st = 0;
    const int cur = (int)(ts - c->th);
    const sim_thread *tcur = ts;
    /* (copies in this frame: one load each per pick, not two) */
    sim_thread *tsv[DPU_NTHREADS_MAX];
    dpu_tasklet *tkv[DPU_NTHREADS_MAX];
    int full = 0; /* sparse: a landing made SPARSE_FULL or more live */
/* round: the bookkeeping of the issues before t; a profiled round (the feed needs the
     * retired count at each issue, so it counts them as it goes) also takes back the
     * advance charged for the first issue of a tasklet that did not issue (cur_fed 1: the
     * one at t did) */
#define ROUND_FLUSH(cur_fed)                                                                       \
    (profile ? dpu_fast_round_flush_prof(c, t0, cur, t - t0, t - t0 + (cur_fed))                  \
             : dpu_fast_round_flush(c, t0, cur, t - t0))
#define SPARSE_CUR (tcur ? (int)(tcur - c->th) : (int)(ts - c->th) + 1)
#define QK(i) qk[(i) & (SPARSE_Q - 1)]
#define QR(i) qr[(i) & (SPARSE_Q - 1)]
    /* dense: the issuers in order since the last event (hq[0..hn), mod DENSE_H), the
     * consecutive ones equal to the one dn before them (mc), the live count dn, the
     * issuer's index ki; replaying (rep): the period is hq[hb..hb+dn), next at hpos */
    uint8_t hq[DENSE_H];
    unsigned hn = 0, mc = 0, hb = 0, hpos = 0, dn = 0, ino = 0;
    int rep = 0, ki = 0;
    uint64_t tprev = 0;
    uint64_t tnl = 0; /* plain: the cycle of the last pick out of ring order */
    if (dense) {
        ki = cur;
        dn = (unsigned)live_count(c->live);
    }
    const uint64_t nm1 = (uint64_t)c->nt - 1; /* a profiled round: each later issue's wait */
    if (round && profile)
        dpu_fast_round_prof_start(c, t0, cur);
    if (mode == 0 && !bp && !watch && dpu_fast_round_ok(c, ts, t)) {
        *tsp = ts;
        *tp = t;
        return 6;
    }
    if (sparse) {
        memcpy(tsv, c->tsv, sizeof tsv);
        memcpy(tkv, c->tkv, sizeof tkv);
        qn = dpu_fast_sparse_build(c, t, qk, qr, &om);
        goto sparse_pick;
    }
/* an access of n bytes at addr that may touch a watched byte */
#define WATCHED(addr, n) (watch && (addr) < whi && (uint64_t)(addr) + (n) > wlo)
    /* the instruction: its pc, record, registers, operands (kind 0), next pc, results */
    uint32_t pc, fa, fb, res, npc;
    const dpu_insn *in;
    uint32_t *R;
    int carry, take;
    /* Threaded dispatch (the sparse form without breakpoints or watchpoints): each inline
     * block ends in its own copy of the common case of the step to the next instruction
     * (BURST_THREAD: the sparse pick when it needs no landing and no tie; the fetch; the
     * operands) and its own jump to that instruction's block. One jump shared by every block
     * (the switch) predicts the next block from the last one alone, which with tasklets at
     * different pcs in turn is mostly wrong; a jump per block predicts it from the block
     * that ends. Anything else goes to the shared step after the switch (break), which the
     * threaded copy enters where its common case ended (sparse_lim, sparse_pick,
     * sparse_tied; --profile: feed_slow, the word feed's one slow call for every copy, whose
     * own call sites with six arguments each cost the DMA row 4.9 host insns per insn). The
     * plain, round and dense forms keep the switch: threaded, the round
     * form took 40.0 host instructions per instruction on dpu16 instead of 36.5 (the
     * copies' register pressure) and more time, the plain one 11 % more on PrIM's HST-L. */
#define BURST_THREADED (!bp && !watch && sparse) /* (a macro: the sparse form jumps past here) */
#define BURST_THREADED_ST (!bp && !watch && sparse)
#define BURST_GOTO(name)                                                                           \
    case DPU_FAST_##name:                                                                          \
        goto fo_##name;
#define BURST_THREAD()                                                                             \
    do {                                                                                           \
        tk->pc = (uint16_t)npc;                                                                    \
        ts->instructions++;                                                                        \
        t++;                                                                                       \
        if (st && __builtin_expect(QR(qh) < lim, 1)) {                                             \
            /* steady: the front at its ready cycle (later than t - 1), no tie */                 \
            const int k_ = QK(qh);                                                                 \
            t = QR(qh);                                                                            \
            QR(qh + qn) = t + 11;                                                                  \
            QK(qh + qn) = (uint8_t)k_;                                                             \
            qh++;                                                                                  \
            ts = tsv[k_];                                                                          \
            tk = tkv[k_];                                                                          \
        } else {                                                                                   \
            if (__builtin_expect(t >= lim, 0))                                                     \
                goto sparse_lim;                                                                   \
            if (__builtin_expect(!qn, 0))                                                          \
                goto sparse_pick;                                                                  \
            const int k_ = QK(qh);                                                                 \
            const uint64_t r_ = QR(qh);                                                            \
            const uint64_t tn_ = r_ > t ? r_ : t; /* (t < lim: only a later r_ can reach it) */   \
            if (__builtin_expect(tn_ >= lim, 0))                                                   \
                goto sparse_pick;                                                                  \
            t = tn_;                                                                               \
            QR(qh + qn) = t + 11;                                                                  \
            if (QR(qh + 1) <= t)                                                                   \
                goto sparse_tied;                                                                  \
            QK(qh + qn) = (uint8_t)k_;                                                             \
            qh++;                                                                                  \
            ts = tsv[k_];                                                                          \
            tk = tkv[k_];                                                                          \
        }                                                                                          \
        pc = tk->pc;                                                                               \
        if (profile && !prof_feed_fast(tk, pc, t))                                                 \
            goto feed_slow; /* (one call for every copy) */                                        \
        in = &iram[pc];                                                                            \
        tk->last_issue = t;                                                                        \
        ts->ready_at = t + 11;                                                                     \
        R = tk->r;                                                                                 \
        fa = R[in->ra];                                                                            \
        fb = in->bimm ? (uint32_t)in->imm : R[in->rb];                                             \
        npc = pc + 1;                                                                              \
        switch ((enum dpu_fast)in->fast) {                                                         \
            DPU_FAST_KINDS(BURST_GOTO)                                                             \
        default:                                                                                   \
            __builtin_unreachable();                                                               \
        }                                                                                          \
    } while (0)
#define FASTOPS_NEXT                                                                               \
    {                                                                                              \
        if (BURST_THREADED)                                                                        \
            BURST_THREAD();                                                                        \
    }                                                                                              \
    break
#define FASTOPS_LABEL(name) fo_##name:
    for (;;) {
        pc = tk->pc;
        if (bp && dbg_bp_maybe(bpm, pc)) {
            *tsp = ts;
            *tp = t;
            return 2;
        }
        if (profile && round) {
            /* this issue, with its revolver wait nt - 1 (round_prof_start charged the first
             * issue's difference in advance) */
            prof_issue_stall_th(tk->prof, pc, t, ts->instructions, DPU_STALL_REVOLVER, nm1);
        } else if (profile && (!BURST_THREADED || !prof_feed_fast(tk, pc, t))) {
            /* this issue, also when it goes on to the generic executor (the threaded copies'
             * rare ways come here) */
            if (BURST_THREADED) {
            feed_slow:
                prof_issue_word_slow(tk->prof, pc, t, ts->instructions, DPU_STALL_REVOLVER, t - tk->last_issue - 1);
            } else
                prof_feed(c, ts, tk, pc, t);
        }
        if (dense && !rep) {
            /* record the issuer; replay once the last dn issues, at consecutive cycles,
             * repeat the dn before them and are the dn live tasklets (dense_period) */
            if (t != tprev + 1)
                hn = mc = 0;
            tprev = t;
            mc = hn >= dn && hq[(hn - dn) & (DENSE_H - 1)] == ki ? mc + 1 : 0;
            hq[hn++ & (DENSE_H - 1)] = (uint8_t)ki;
            if (mc == dn) {
                if (dpu_fast_dense_period(hq, hn, dn, c->live)) {
                    rep = 1;
                    hb = hn - dn;
                    hpos = 0;
                } else
                    hn = mc = 0;
            }
        }
        in = &iram[pc]; /* a record for every 16-bit pc */
        if (!round) { /* (a round burst derives them at its end) */
            tk->last_issue = t;
            ts->ready_at = t + 11;
        }
        R = tk->r;
        fa = R[in->ra];
        fb = in->bimm ? (uint32_t)in->imm : R[in->rb];
        npc = pc + 1;
        switch ((enum dpu_fast)in->fast) {
#include "fastops.inc"
        case DPU_FAST_DMA: FASTOPS_LABEL(DMA) {
            /* as exec.c: the length from the immediate and ra's top byte, the WRAM address
             * from ra, the MRAM address from rb; one out of range goes to the generic
             * executor, which faults. The issuer waits for its data: it leaves the live
             * ones until the landing, which now comes by lim at the latest. */
            const uint32_t bytes = (1 + (((uint32_t)in->imm + (fa >> 24)) & 0xff)) * 8;
            const uint32_t w = fa & 0x00fffff8u, mr = fb & c->d->mram_mask & ~7u;
            if (!c->dmai || (uint64_t)mr + bytes > c->mlim || (uint64_t)w + bytes > wlim)
                goto generic;
            const int k = (int)(ts - c->th);
            if (round) { /* the round's issues first: the transfer sets the issuer's ready */
                ROUND_FLUSH(1);
                tk->last_issue = t;
            }
            const uint64_t dma0 = ts->stalls[DPU_STALL_DMA];
            dpu_dma_start(c->u, c->d, k, in->op == DPU_OP_SDMA, w, mr, bytes, t);
            if (profile) /* its own wait beyond the revolver slot */
                prof_dma(c, k, ts->stalls[DPU_STALL_DMA] - dma0);
            c->live &= ~(1u << k);
            if (sparse) { /* it is the back of the candidates (the pick put it there) */
                qn--;
                om &= ~(1u << k);
            }
            if (dense) { /* the live set changed: the record starts again */
                hn = mc = 0;
                rep = 0;
                dn--;
            }
            lim = min_u64(lim, c->d->pend_next);
            if (round) {
                /* the ring is no longer full: the plain burst goes on with the next one in
                 * order (ready: its turn), if before lim */
                tk->pc = (uint16_t)npc;
                ts->instructions++;
                t++;
                ts = ts + 1 == c->th_end ? c->th : ts + 1;
                *tsp = ts;
                *tp = t;
                return t < lim ? 4 : 0;
            }
            break;
        }
        case DPU_FAST_NONE: FASTOPS_LABEL(NONE)
            if (sparse && (in->op == DPU_OP_STOP || in->op == DPU_OP_RESUME)) {
                /* in the sparse burst, where barriers and handshakes run (in the plain and
                 * dense ones the generic executor measured cheaper: their code stays as it
                 * was) */
                /* (profiled: a resumed tasklet's last issue, for its word feed) */
                const int kk = (int)((fa + (uint32_t)in->imm) & 0xff);
                const uint64_t last_kr = profile && kk < c->nt ? c->d->t[kk].last_issue : 0;
                const uint32_t cr = dpu_fast_ctl_inline(c, ts, tk, in, fa, fb, t, npc);
                if (!cr)
                    goto generic;
                npc = cr >> 8;
                if ((cr & 3) == 1) { /* the issuer stopped: the back of the candidates (the
                                      * pick put it there) */
                    qn--;
                    om &= ~(1u << (ts - c->th));
                } else if ((cr & 3) == 2) { /* tasklet kr is ready from t + 1 on */
                    const int kr = (int)(cr >> 2 & 63);
                    if (profile) /* (a new stretch from t) */
                        prof_word_resume(c->pt + kr, last_kr, t);
                    om |= 1u << kr;
                    qh = sparse_insert(qk, qr, qh, qn++, kr, t + 1);
                    if (live_count(om) >= SPARSE_FULL) {
                        /* the revolver fills: the caller picks from the next cycle on (in
                         * the plain burst) */
                        tk->pc = (uint16_t)npc;
                        ts->instructions++;
                        t++;
                        goto out;
                    }
                }
                break;
            }
            /* fall through */
        generic:
            if (round) { /* the round's issues, and this one's cycles (the executor counts it) */
                ROUND_FLUSH(1);
                tk->last_issue = t;
                ts->ready_at = t + 11;
            }
            *tsp = ts;
            *tp = t;
            return 1;
        default:
            /* set_fast only stores DPU_FAST_* values: no range check on the dispatch */
            __builtin_unreachable();
        }
#undef FASTOPS_NEXT
#undef FASTOPS_LABEL
#undef BURST_THREAD
#undef BURST_THREADED
#undef BURST_GOTO
        tk->pc = (uint16_t)npc;
        if (!round || profile)
            ts->instructions++;
        t++;
        if (sparse) {
            if (__builtin_expect(t >= lim, 0)) {
            sparse_lim:
                /* below olim, lim is the oldest pending DMA completion: with dmai its data
                 * lands now, before the pick at t, as in the reference loop */
                if (t >= olim || !c->dmai)
                    goto out;
                SPARSE_LAND_AT_T();
                goto sparse_pick;
            }
            /* the front is the earliest; it issues at its ready_at if none is ready now and
             * that is below lim; several ready at once: the first in ring order from the
             * cursor. It goes to the back (ready at t + 11, after all others). */
            if (__builtin_expect(!qn, 0))
                goto sparse_pick;
            int k = QK(qh);
            const uint64_t r = QR(qh);
            if (r > t) {
                if (__builtin_expect(r >= lim, 0))
                    goto sparse_pick;
                t = r;
            }
            /* its slot at the back first: with one candidate that is the slot after the
             * front, ready later than t, so the tie test needs no count */
            QR(qh + qn) = t + 11;
            if (QR(qh + 1) <= t)
                goto sparse_tied;
            QK(qh + qn) = (uint8_t)k;
            qh++;
            ts = tsv[k];
            tk = tkv[k];
            continue;
        sparse_pick:
            /* the same pick, with the landings of the cycles before it */
            for (;;) {
                if (qn) {
                    k = QK(qh);
                    const uint64_t rf = QR(qh);
                    if (rf > t && rf < lim)
                        t = rf;
                    if (rf <= t)
                        break;
                }
                if (lim >= olim || !c->dmai)
                    goto out;
                t = lim;
                SPARSE_LAND_AT_T();
            }
            st = 1; /* (unless tied) */
            if (qn > 1 && QR(qh + 1) <= t) {
            sparse_tied:
                k = dpu_fast_sparse_tie(qk, qr, qh, qn, t, SPARSE_CUR);
                st = 0; /* the others of the tie stay ready by t: not steady */
            }
            if (full) {
                /* the revolver is full again: the plain burst issues this one (with the
                 * live mask, which sparse_land does not keep) */
                c->live = dpu_fast_live_below(c->th, c->nt, lim);
                *tsp = c->th + k;
                *tp = t;
                return 4;
            }
            QK(qh + qn) = (uint8_t)k;
            QR(qh + qn) = t + 11;
            qh++;
            tcur = NULL; /* k issues now */
            if (BURST_THREADED_ST && st) /* after a landing or an empty queue: steady again? */
                st = dpu_fast_sparse_steady(qr, qh, qn, t);
            ts = tsv[k];
            tk = tkv[k];
            continue;
        }
        if (dense && rep) {
            /* the period again: the issuer of dn cycles ago (a landing first ends it) */
            if (__builtin_expect(t < lim, 1)) {
                ki = hq[(hb + hpos) & (DENSE_H - 1)];
                hpos = hpos + 1 == dn ? 0 : hpos + 1;
                ts = c->tsv[ki]; /* (loads: cheaper than the strides' arithmetic) */
                tk = c->tkv[ki];
                continue;
            }
            rep = 0;
            hn = mc = 0;
        }
        if (++ts == c->th_end) {
            tk = c->d->t;
            ts = c->th;
        } else
            tk++;
        if (dense)
            ki = ki + 1 == c->nt ? 0 : ki + 1;
        if (round) { /* the next one in order is ready: its turn */
            if (__builtin_expect(t >= lim, 0))
                goto out; /* (no transfer is pending: lim is olim) */
            continue;
        }
        if (t >= lim) {
            /* below olim, lim is the oldest pending DMA completion: with dmai its data lands
             * now, before the pick at t, as in the reference loop */
            if (t >= olim || !c->dmai)
                break;
            const int lr = dpu_fast_land(c, t, olim);
            lim = min_u64(olim, c->d->pend_next);
            if (lr)
                break;
            if (dense) {
                hn = mc = 0;
                dn = (unsigned)live_count(c->live);
            }
        }
        if (dense && ts->ready_at <= t) {
            /* in ring order again: after dn such picks (a whole round), the plain burst,
             * cheaper there, goes on */
            if (++ino >= dn) {
                *tsp = ts;
                *tp = t;
                return 4;
            }
        } else if (__builtin_expect(ts->ready_at > t, 0)) {
            if (dense)
                ino = 0;
            for (;;) {
                const uint32_t live = c->live;
                if (!(live & (live - 1))) {
                    /* one live tasklet (a one-tasklet program, a handshake chain, the others
                     * waiting for DMA): it issues again at its ready_at if that is below lim */
                    if (ts->ready_at < lim) { /* below lim: the live one is the next in order */
                        t = ts->ready_at;
                        break;
                    }
                    const int k = __builtin_ctz(live | 1u << 31);
                    if (live && c->th[k].ready_at < lim) {
                        t = c->th[k].ready_at > t ? c->th[k].ready_at : t;
                        ts = c->th + k;
                        tk = c->d->t + k;
                        if (dense)
                            ki = k;
                        break;
                    }
                } else {
                    if ((dense ? (int)dn : live_count(live)) < SPARSE_MAX) { /* (dense: dn is it) */
                        /* the revolver leaves cycles idle: the sparse burst picks */
                        *tsp = ts;
                        *tp = t;
                        return 3;
                    }
                    /* the first ready one after it in order issues at t (DMA waits,
                     * stopped tasklets); none: the earliest, if before lim */
                    uint64_t tn;
                    const int k = next_live(c->th, live, (int)(ts - c->th), t, lim, &tn);
                    if (k >= 0) {
                        t = tn;
                        ts = c->th + k;
                        tk = c->d->t + k;
                        if (dense) {
                            ki = k;
                            break;
                        }
                        if (t - tnl >= DENSE_GAP) {
                            tnl = t;
                            break;
                        }
                        /* out of ring order again within DENSE_GAP cycles with a full
                         * revolver: the dense burst issues this one and picks from then on */
                        *tsp = ts;
                        *tp = t;
                        return 5;
                    }
                }
                /* nothing before lim: a landing then (and the pick again), or leave (the
                 * caller skips the idle cycles) */
                if (lim >= olim || !c->dmai)
                    goto out;
                t = lim;
                const int lr = dpu_fast_land(c, t, olim);
                lim = min_u64(olim, c->d->pend_next);
                if (lr)
                    goto out;
                if (dense) {
                    hn = mc = 0;
                    dn = (unsigned)live_count(c->live);
                }
                if (ts->ready_at <= t)
                    break;
            }
        }
    }
out:
    if (round)
        ROUND_FLUSH(0);
    if (sparse) { /* the cursor */
        const int k = SPARSE_CUR;
        ts = c->th + (k >= c->nt ? 0 : k);
    }
    *tsp = ts;
    *tp = t;
    return 0;
#undef WATCHED
#undef ROUND_FLUSH
#undef QK
#undef QR
#undef SPARSE_CUR
#undef BURST_THREADED_ST
}
#pragma GCC diagnostic pop

/* The burst copies: plain, with the watched span, with the breakpoint filter, both, and
 * with --profile fed (with or without breakpoints and watchpoints); each takes its sparse
 * form while the sparse pick pays (burst's return 3, back to plain on 4) and its dense form
 * once a full revolver picks out of ring order (return 5); the plain and the profiled copy
 * their round form while every tasklet is live and issues in ring order (return 6:
 * round_ok). */
#define DPU_BURST_COPY(name, bp, watch, profile)                                                   \
    static __attribute__((noinline)) int name##_sparse(fast_ctx *c, sim_thread **tsp, uint64_t *tp,     \
                                                        uint64_t olim)                             \
    {                                                                                              \
        return burst(c, tsp, tp, olim, bp, watch, 1, profile);                                     \
    }                                                                                              \
    static __attribute__((noinline)) int name##_dense(fast_ctx *c, sim_thread **tsp, uint64_t *tp,      \
                                                       uint64_t olim)                              \
    {                                                                                              \
        return burst(c, tsp, tp, olim, bp, watch, 2, profile);                                     \
    }                                                                                              \
    static __attribute__((noinline)) int name##_round(fast_ctx *c, sim_thread **tsp, uint64_t *tp,      \
                                                       uint64_t olim)                              \
    {                                                                                              \
        {                                                                                          \
            /* REPLAY_WARM rounds here first (profiled: REPLAY_WARM_PROF); if no event came,      \
             * the replay goes on */                                                               \
            const uint64_t warm = *tp + (uint64_t)(profile ? REPLAY_WARM_PROF : REPLAY_WARM) * (uint64_t)c->nt; \
            if (warm < olim) {                                                                     \
                int r = burst(c, tsp, tp, warm, bp, watch, 3, profile);                            \
                if (r || *tp < warm || !dpu_fast_round_ok(c, *tsp, *tp))                           \
                    return r;                                                                      \
                if (profile) /* (the replay's feeds read the threads) */                           \
                    dpu_fast_prof_at(c, -1);                                                       \
                if (!(r = dpu_fast_round_replay(c, tsp, tp, olim)))                               \
                    return 0;                                                                      \
            }                                                                                      \
        }                                                                                          \
        return burst(c, tsp, tp, olim, bp, watch, 3, profile);                                     \
    }                                                                                              \
    static __attribute__((noinline)) int name(fast_ctx *c, sim_thread **tsp, uint64_t *tp, uint64_t olim) \
    {                                                                                              \
        for (int r = 4;;) {                                                                        \
            if (r == 4)                                                                            \
                r = burst(c, tsp, tp, olim, bp, watch, 0, profile);                                \
            else if (r == 3)                                                                       \
                r = name##_sparse(c, tsp, tp, olim);                                               \
            else if (r == 5)                                                                       \
                r = name##_dense(c, tsp, tp, olim);                                                \
            else if (r == 6 && !(bp || watch))                                                     \
                r = name##_round(c, tsp, tp, olim);                                                \
            else                                                                                   \
                return r;                                                                          \
        }                                                                                          \
    }
DPU_BURST_COPY(burst_plain, 0, 0, 0)
DPU_BURST_COPY(burst_watch, 0, 1, 0)
DPU_BURST_COPY(burst_bp, 1, 0, 0)
DPU_BURST_COPY(burst_bp_watch, 1, 1, 0)
DPU_BURST_COPY(burst_prof, 0, 0, 1)
DPU_BURST_COPY(burst_bp_watch_prof, 1, 1, 1)
#undef DPU_BURST_COPY

/* The latest issue cycle among the tasklets (the unit's last issue once one has issued in
 * this call: every issue of a call comes after those of the calls before). */
static uint64_t latest_issue(const dpu_unit *d, int nt)
{
    uint64_t last = 0;
    for (int k = 0; k < nt; k++)
        if (d->t[k].last_issue != (uint64_t)-1 && d->t[k].last_issue > last)
            last = d->t[k].last_issue;
    return last;
}

/* The fetch reads d->iram[pc] for any 16-bit pc: an own copy (ldmai, host writes) gets its
 * records for every one first. Nonzero (the run stopped with an error) if the host is out
 * of memory for them. */
static int iram_full(sim_machine *m, sim_unit *u, dpu_unit *d)
{
    if (!dpu_iram_widen(d))
        return 0;
    sim_set_stop(m, SIM_STOP_ERROR, u->index, -1, 0, "dpu%d: out of host memory for its own IRAM copy", d->index);
    return 1;
}

uint64_t dpu_run_fast(sim_machine *m, sim_unit *u, dpu_unit *d, uint64_t now, uint64_t horizon)
{
    if (d->faulted)
        return SIM_NEVER;
    sim_thread *const th = u->threads;
    const int n = u->nthreads;
    const int nt = d->ntasklets > 0 && d->ntasklets <= n ? d->ntasklets : n;
    sim_thread *const th_end = th + nt;
    int rr = u->rr < nt ? u->rr : 0; /* threads nt..n-1 are never ready: same pick */
    int issued = 0;
    uint64_t t = now;
    if (iram_full(m, u, d))
        return SIM_NEVER;
    const dpu_insn *iram = d->iram;
    uint8_t *const wram = d->wram_p;
    const uint64_t wlim = d->dm->wram_size;
    /* breakpoints and watchpoints change only while the unit is not running: with any set,
     * the instrumented burst; the accesses that may touch a watched byte take the generic
     * path, which checks them */
    uint64_t wlo = 1, whi = 0;
    for (int i = 0; i < d->wram->nwatch; i++) {
        const mem_watch *w = &d->wram->watches[i];
        wlo = i == 0 || w->addr < wlo ? w->addr : wlo;
        whi = i == 0 || w->addr + w->len > whi ? w->addr + w->len : whi;
    }
    const uint8_t *bpm = dbg_bp_map(m);
    /* --profile with the hooks off (isa_ops.profile_fast): the bursts feed it */
    prof_state *const prof = dbg_profile(m);
    int (*const run_burst)(fast_ctx *, sim_thread **, uint64_t *, uint64_t) =
        prof ? (bpm || d->wram->nwatch ? burst_bp_watch_prof : burst_prof)
        : bpm ? (d->wram->nwatch ? burst_bp_watch : burst_bp) : d->wram->nwatch ? burst_watch : burst_plain;
    const int instr = run_burst != burst_plain;
    uint64_t poll = t + DPU_POLL_CYCLES;
    uint64_t lim = min_u64(min_u64(horizon, d->pend_next), poll);
    /* DMA inside the burst: no watchpoint on any memory a landing writes */
    const int dmai = !d->wram->nwatch && !d->mram->nwatch && !(d->iram_space && d->iram_space->nwatch);
    fast_ctx ctx = {m, u, d, th, th_end, iram, 0, wram, wlim, d->dm->mram_size, nt, dmai, bpm, wlo, whi, prof ? prof_th(prof, u->index * prof->tpu) : NULL, {0}, {0}};
    for (int k = 0; k < nt; k++) {
        ctx.tsv[k] = th + k;
        ctx.tkv[k] = d->t + k;
        d->t[k].prof = prof ? prof_th(prof, u->index * prof->tpu + k) : NULL;
        if (!prof)
            continue;
        prof_word_span(d->t[k].prof, DPU_IRAM_RECS); /* (the feed's pc: any 16-bit one) */
        /* the word feed's last issue is the tasklet's, unless a new stretch began while the
         * unit was away (a launch): then the row form's feed goes on */
        if (prof_word_mode(d->t[k].prof) && d->t[k].prof->tl != d->t[k].last_issue)
            prof_word_end(d->t[k].prof);
    }
    if (prof && sim_stopped(m)) /* (no memory for the profile) */
        return SIM_NEVER;

    for (;;) {
        if (t >= lim) {
            if (t >= horizon)
                return leave(u, d, issued, rr, nt, t);
            if (t >= d->pend_next) {
                dpu_dma_complete(m, u, d, t);
                if (iram_full(m, u, d)) /* ldmai may have given this DPU its own IRAM */
                    return leave(u, d, issued, rr, nt, SIM_NEVER);
                iram = d->iram;
                if (sim_stopped(m)) /* a watchpoint on the DMA's bytes */
                    return leave(u, d, issued, rr, nt, t);
            }
            if (t >= poll) {
                if (sim_stopped(m))
                    return leave(u, d, issued, rr, nt, t);
                poll = t + DPU_POLL_CYCLES;
            }
            lim = min_u64(min_u64(horizon, d->pend_next), poll);
        }
        int tid = rr;
        if (th[tid].ready_at > t) {
            uint64_t nx = SIM_NEVER;
            tid = scan(th, nt, rr, t, &nx);
            if (tid < 0) {
                if (nx == SIM_NEVER) {
                    leave(u, d, issued, rr, nt, 0);
                    if (!d->run)
                        dpu_halt_unit(m, u, t);
                    return SIM_NEVER;
                }
                if (nx >= horizon)
                    return leave(u, d, issued, rr, nt, nx);
                t = nx;
                if (t >= lim)
                    continue; /* a DMA lands first, or the poll is due */
                tid = -tid - 1; /* nothing happens before nx */
            }
        }
        /* a burst from tasklet tid; then, if it stopped at one, an instruction through the
         * generic executor */
        sim_thread *ts = &th[tid];
        const uint64_t t0 = t;
        ctx.iram = iram;
        ctx.live = dpu_fast_live_below(th, nt, lim);
        int b = run_burst(&ctx, &ts, &t, min_u64(horizon, poll));
        if (prof) /* the word feed's last issues (b == 1: ts's fed, not yet executed) */
            dpu_fast_prof_at(&ctx, b == 1 ? (int)(ts - th) : -1);
        /* the burst may have started and landed transfers (an ldmai: an own IRAM copy) */
        if (iram != d->iram && iram_full(m, u, d))
            return leave(u, d, issued, rr, nt, SIM_NEVER);
        iram = d->iram;
        lim = min_u64(min_u64(horizon, d->pend_next), poll);
        if (b != 2 || ts != th + tid || t != t0)
            issued = 1;
        if (!b) {
            rr = (int)(ts - th);
            continue;
        }
        const int k = (int)(ts - th);
        if (b == 2) {
            /* a flagged pc: the debugger decides, as in the reference loop (exec.c run_ref),
             * with the unit's last_issue at this cycle; a stop leaves the cursor at k so that
             * on resume k issues in this very slot */
            u->last_issue = t;
            if (dbg_before_insn(m, u, k, d->t[k].pc)) {
                dpu_sync_stats(u, issued ? latest_issue(d, nt) : SIM_NEVER, k);
                return t;
            }
            if (prof) { /* (b == 1: the burst fed it) */
                prof_feed(&ctx, ts, &d->t[k], d->t[k].pc, t);
                prof_word_at(d->t[k].prof, t, ts->instructions + 1);
            }
            d->t[k].last_issue = t;
            ts->ready_at = t + 11;
            issued = 1;
        }
        const uint64_t dma0 = ts->stalls[DPU_STALL_DMA];
        const uint32_t run0 = d->run;
        int r = dpu_execute(m, u, d, k, t); /* counts it, moves the pc */
        if (prof) {
            if (ts->stalls[DPU_STALL_DMA] != dma0) /* a DMA's own wait */
                prof_dma(&ctx, k, ts->stalls[DPU_STALL_DMA] - dma0);
            for (uint32_t st = d->run & ~run0; st; st &= st - 1) /* resumed: a new stretch */
                if (__builtin_ctz(st) < nt) /* (tl: told after the burst) */
                    prof_word_resume(ctx.pt + __builtin_ctz(st), ctx.pt[__builtin_ctz(st)].tl,
                                     d->t[__builtin_ctz(st)].seg_start);
        }
        t++;
        rr = ts + 1 == th_end ? 0 : k + 1;
        if (instr && d->wram->watch_hit_id) {
            /* the generic executor stopped the run on it (exec.c wram_slow): reported */
            d->wram->watch_hit_id = 0;
            if (sim_stopped(m))
                return leave(u, d, issued, rr, nt, t);
        }
        if (r) {
            if (d->faulted) {
                leave(u, d, issued, rr, nt, 0);
                return SIM_NEVER;
            }
            if (!d->run) {
                leave(u, d, issued, rr, nt, 0);
                dpu_halt_unit(m, u, t);
                return SIM_NEVER;
            }
            if (sim_stopped(m))
                return leave(u, d, issued, rr, nt, t);
            lim = min_u64(min_u64(horizon, d->pend_next), poll); /* a DMA may have started */
        }
    }
}
