/* isa/dpu/fast_round.c: the round replay of the DPU's fast loop (fast.c). In a steady round
 * (nt >= 11 tasklets, all running and live, no transfer pending, each ready by its turn in
 * ring order) the revolver issues one instruction per cycle, tasklet after tasklet in ring
 * order, and nothing can stall one until an event: a DMA start, an instruction for the
 * generic executor (stop, resume, a fault, a rare form), the limit. Until then the cycle
 * model's order is exactly the functional mode's ring with a quantum of one instruction, so
 * the replay runs the functional records' threaded loop (func_rec.h: a handler address per
 * record, the dispatch threaded from each tasklet's record to the next tasklet's, pcs as
 * record pointers, no count, ready time or cycle per issue) and derives the cycle model's
 * state once at its end: issue i of the run at t0 + i, each tasklet's last issue, ready
 * time and count. It stops before the first instruction the records leave to the executor;
 * the round burst (fast.c) then runs that one exactly as before. */
#include "fast_int.h"
#include "func_rec.h"

/* Replay from tasklet *tsp at cycle *tp (a steady round: fast.c's round_ok held) up to the
 * burst's limit. Returns 0 when it reached the limit (*tsp the next tasklet in order, *tp
 * the cycle), 6 when the round burst goes on from *tsp at *tp (the next instruction is not
 * the records', or too few cycles are left to pay for the replay's set-up). */
int dpu_fast_round_replay(fast_ctx *c, sim_thread **tsp, uint64_t *tp, uint64_t olim)
{
    dpu_unit *const d = c->d;
    const int nt = c->nt;
    const uint64_t t0 = *tp;
    const uint64_t lim = min_u64(olim, d->pend_next);
    const uint32_t all = nt >= 32 ? ~0u : (1u << nt) - 1;
    /* (a DPU with its own IRAM copy: its records are checked against the raw IRAM at every
     * look-up, too dear per replay; the round burst runs it) */
    if (lim <= t0 || lim - t0 < (uint64_t)nt || !d->dm->fn || d->iram_own || (d->run & all) != all)
        return 6;
    /* --profile (the profiled burst's fast_ctx has the unit's first profile thread): the
     * records' batched feed (func_rec.c), each issue's revolver wait derived */
    prof_state *const prof = c->pt ? c->pt->p : NULL;
    const dpu_fn_rec *const recs = dpu_fn_records(d->dm->fn, d, prof != NULL);
    if (!recs || (prof && !prof_bat_poison(prof, d->dm->iram_words)))
        return 6;
    dpu_fn_ring ring;
    dpu_fn_ring_build(&ring, d, recs, all, nt);
    ring.der = DPU_STALL_REVOLVER;
    const int i0 = (int)(*tsp - c->th);
    int k = i0;
    const uint64_t n = dpu_fn_ring_run(&ring, d, c->th, &k, lim - t0, 1, t0, prof, prof ? c->pt->g : 0);
    dpu_fn_ring_flush(&ring);
    /* tasklet j, e places after i0 in the ring, issued at t0 + e, t0 + e + nt, ... below
     * t0 + n (the loop counted the instructions): the q = n / nt whole rounds, and the r =
     * n % nt from i0 once more; the last issue at t0 + e + (rounds - 1) nt */
    const uint64_t q = n / (uint64_t)nt, r = n % (uint64_t)nt;
    for (int j = 0, e = i0 ? nt - i0 : 0; j < nt; j++, e = e + 1 == nt ? 0 : e + 1) {
        const uint64_t rounds = q + ((uint64_t)e < r);
        if (!rounds)
            continue;
        const uint64_t last = t0 + (uint64_t)e + (rounds - 1) * (uint64_t)nt;
        d->t[j].last_issue = last;
        c->th[j].ready_at = last + 11;
    }
    *tsp = c->th + k;
    *tp = t0 + n;
    return t0 + n >= lim ? 0 : 6;
}
