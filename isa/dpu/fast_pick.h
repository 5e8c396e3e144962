/* isa/dpu/fast_pick.h: the revolver's pick for fast.c's run loop, when the next tasklet in
 * round-robin order is not ready: the first ready one after it (first_ready), the same over
 * a burst's live tasklets (next_live), and the scan that also finds the earliest ready_at to
 * skip idle cycles to (scan). core/sched.h's rule, over the DPU's ring only. Include only
 * from fast.c (after fast_int.h). */
#ifndef XPUSIM_DPU_FAST_PICK_H
#define XPUSIM_DPU_FAST_PICK_H

/* The pick when the next tasklet in order (rr) is not ready at t: the first ready one
 * after it, in two plain runs (after rr, then from 0) so the loop has no wrap test (the
 * code keeps ready_at == SIM_NEVER for threads that are not READY, so no state test is
 * needed to pick); -1 if none is ready. */
static inline int first_ready(const sim_thread *th, int nt, int rr, uint64_t t)
{
    const sim_thread *p = th + rr + 1, *end = th + nt;
    while (p < end && p->ready_at > t)
        p++;
    if (p == end)
        for (p = th; p < th + rr && p->ready_at > t; p++)
            ;
    return p != th + rr && p->ready_at <= t ? (int)(p - th) : -1;
}

/* The pick inside a burst when the next tasklet in order (rr) is not ready at t, over the
 * live tasklets only (mask live, live_below: those that could issue before lim; the others
 * can never be picked in this burst, so skipping them changes nothing): the first one in round-robin order from rr ready at t
 * (*tn = t); if none, the first in that order with the earliest ready_at, if that is below
 * lim (*tn = it: the cycles between are idle, nothing lands before lim); else -1. SDK code
 * often runs with most tasklets stopped (handshakes, barriers) or waiting for DMA: this
 * visits only the ones that can issue, and skips idle cycles without leaving the burst. */
static inline __attribute__((always_inline)) int next_live(const sim_thread *th, uint32_t live, int rr, uint64_t t,
                                               uint64_t lim, uint64_t *tn)
{
    uint64_t best = lim;
    int bk = -1;
    for (int h = 0; h < 2; h++) {
        uint32_t m = h == 0 ? live & (~0u << rr) : live & ((1u << rr) - 1);
        while (m) {
            int k = __builtin_ctz(m);
            m &= m - 1;
            uint64_t r = th[k].ready_at;
            if (r <= t) {
                *tn = t;
                return k;
            }
            if (r < best) {
                best = r;
                bk = k;
            }
        }
    }
    *tn = best;
    return bk;
}

/* The same, and if none is ready: -(k + 1) for the first tasklet k in round-robin order
 * with the earliest ready_at, *nx = that cycle (SIM_NEVER and -1 if no tasklet runs). */
static inline int scan(const sim_thread *th, int nt, int rr, uint64_t t, uint64_t *nx)
{
    int k = first_ready(th, nt, rr, t);
    if (k >= 0)
        return k;
    uint64_t best = SIM_NEVER;
    int i = rr, first = 0;
    for (int k = 0; k < nt; k++) {
        if (th[i].ready_at < best && th[i].state == SIM_T_READY) {
            best = th[i].ready_at;
            first = i;
        }
        if (++i == nt)
            i = 0;
    }
    *nx = best;
    return -first - 1;
}

#endif
