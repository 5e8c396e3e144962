/* isa/dpu/fast_sched.c: the scheduling helpers of the DPU's fast loop (fast.c) that its
 * bursts call out of line: the live mask, landings inside a burst, the sparse burst's
 * candidate queue (build, landing, ties), the dense burst's period test, stop and resume
 * inline, and round bursts (entry test, the state derived at their end). Split from fast.c
 * to keep each file small; the burst loop itself stays in fast.c. */
#include "fast_int.h"
#include "cond.h"

/* The live mask of a burst (see next_live): the tasklets ready before lim. Within a burst
 * only the issuing tasklets' ready_at change (and they are in the mask), so one outside it
 * stays at or beyond lim: stopped ones (SIM_NEVER) and those whose DMA has not landed
 * (ready at or after its completion, and lim is at most the oldest pending completion). */
uint32_t dpu_fast_live_below(const sim_thread *th, int nt, uint64_t lim)
{
    uint32_t live = 0;
    for (const sim_thread *p = th + nt; p-- != th;) /* from the last: a shift and an add with carry each */
        live = live * 2 + (p->ready_at < lim);
    return live;
}

/* Land the transfers done by t inside a burst (dmai: no watchpoint can stop the run there):
 * the tasklets they free join the live ones (ready before the new limit, which the caller
 * takes again as min(olim, pend_next): lim stays a plain local there). Nonzero when an
 * ldmai gave this DPU its own IRAM copy: the burst leaves, its caller takes the new one. */
int dpu_fast_land(fast_ctx *c, uint64_t t, uint64_t olim)
{
    dpu_dma_complete(c->m, c->u, c->d, t);
    c->live = dpu_fast_live_below(c->th, c->nt, min_u64(olim, c->d->pend_next));
    return c->d->iram != c->iram;
}

/* The candidates at the start of a sparse burst, in ready_at order (ring order on a tie):
 * qk their indices, qr their ready_at (a copy: within the burst a candidate's ready_at
 * changes only when it issues, and the pick writes it there too); returns how many. */
unsigned dpu_fast_sparse_build(const fast_ctx *c, uint64_t t, uint8_t *qk, uint64_t *qr,
                                                       uint32_t *om)
{
    unsigned n = 0;
    uint32_t m = 0;
    const sim_thread *const th = c->th;
    const int nt = c->nt;
    for (int k = 0; k < nt; k++) {
        const uint64_t r = th[k].ready_at;
        if (r > t + 11)
            continue;
        unsigned i = n++;
        for (uint64_t p; i > 0 && (p = qr[i - 1]) > r; i--) {
            qk[i] = qk[i - 1];
            qr[i] = p;
        }
        qk[i] = (uint8_t)k;
        qr[i] = r;
        m |= 1u << k;
    }
    *om = m;
    return n;
}

/* Land the transfers done by t in a sparse burst (dmai): the tasklets they free (the issuers
 * of the pending ones done by t, engine order) join the qn candidates from qh (om: their
 * mask). Nothing else becomes ready: the others wait for a transfer still pending (ready at
 * or after its end, beyond the new limit) or are stopped; so c->live, which only the plain
 * and dense bursts read, is not kept here (the hand-over to the plain burst takes it anew).
 * Returns the new qh (mod SPARSE_Q) << 8, their new count << 2, plus 2 when SPARSE_FULL or
 * more are candidates, plus 1 when an ldmai gave this DPU its own IRAM copy (the burst
 * leaves, its caller takes the new one). */
unsigned dpu_fast_sparse_land(fast_ctx *c, uint64_t t, uint8_t *qk, uint64_t *qr,
                                                      unsigned qh, unsigned qn, uint32_t *om)
{
    dpu_unit *const d = c->d;
    uint32_t add = 0;
    for (unsigned i = 0, h = d->pend_head; i < d->pend_n && d->pend[h].done <= t; i++)
        add |= 1u << d->pend[h].tasklet, h = h + 1 == DPU_NTHREADS_MAX ? 0 : h + 1;
    dpu_dma_complete(c->m, c->u, d, t);
    add &= ~*om;
    *om |= add;
    for (; add; add &= add - 1) {
        const int k = __builtin_ctz(add);
        qh = sparse_insert(qk, qr, qh, qn++, k, c->th[k].ready_at);
    }
    const unsigned full = qn >= SPARSE_FULL; /* (qn: the bits of om) */
    return (qh & (SPARSE_Q - 1)) << 8 | qn << 2 | full << 1 | (d->iram != c->iram);
}

/* Whether the qn candidates from qh, just after a pick at t (its issuer the last, ready at
 * t + 11), are steady: ready at strictly increasing cycles, the front after t. Then, with
 * no event between, each pick is the front at its own ready cycle (it is later than the
 * last issue, as the last is ready 11 after it and before the front's + 11) with no tie (the
 * next is later), and the queue stays steady: the issuer goes last at its cycle + 11, after
 * the last and before the new front's + 11. The threaded sparse step then only rotates the
 * queue (about 10 host instructions fewer a pick) until a landing, a resume, an empty queue
 * or the limit; a DMA start or a stop takes off the last, which keeps it steady. */
int dpu_fast_sparse_steady(const uint64_t *qr, unsigned qh, unsigned qn, uint64_t t)
{
    uint64_t p = t;
    for (unsigned i = 0; i < qn; i++) {
        const uint64_t r = qr[(qh + i) & (SPARSE_Q - 1)];
        if (r <= p)
            return 0;
        p = r;
    }
    return qn != 0;
}

/* The sparse pick when several candidates are ready at t (the front and the next one): the
 * first of them in ring order from the cursor cur (cur == nt: from 0) leaves its place and
 * the ones before it move up one (the caller then drops the front slot); returns it. */
int dpu_fast_sparse_tie(uint8_t *qk, uint64_t *qr, unsigned qh, unsigned qn, uint64_t t,
                                                int cur)
{
    uint32_t rm = 0;
    for (unsigned i = 0; i < qn && qr[(qh + i) & (SPARSE_Q - 1)] <= t; i++)
        rm |= 1u << qk[(qh + i) & (SPARSE_Q - 1)];
    const uint32_t hi = rm & (~0u << cur);
    const int k = __builtin_ctz(hi ? hi : rm);
    unsigned i = 0;
    while (qk[(qh + i) & (SPARSE_Q - 1)] != k)
        i++;
    for (; i > 0; i--) {
        qk[(qh + i) & (SPARSE_Q - 1)] = qk[(qh + i - 1) & (SPARSE_Q - 1)];
        qr[(qh + i) & (SPARSE_Q - 1)] = qr[(qh + i - 1) & (SPARSE_Q - 1)];
    }
    return k;
}

/* The last dn issuers recorded (hq[hn - dn .. hn)) are the live ones, one each. */
int dpu_fast_dense_period(const uint8_t *hq, unsigned hn, unsigned dn, uint32_t live)
{
    uint32_t m = 0;
    for (unsigned i = hn - dn; i != hn; i++) {
        const uint32_t b = 1u << hq[i & (DENSE_H - 1)];
        if (m & b)
            return 0;
        m |= b;
    }
    return m == live;
}

/* stop and resume inline: SDK code's barriers and handshakes stop every waiter and resume
 * each one, and through the generic executor each of these would end the burst and start a
 * new one (a sparse one rebuilding its candidates). Exactly exec.c's STOP and RESUME (forms
 * without destination, operands in order; flags unchanged): the issuer ts (tasklet state tk,
 * operands fa, fb, issuing at t, next pc npc) stops, or tasklet k = (fa + imm) & 0xff starts
 * again from t + 1 where it stopped, if it is one of the DPU's and stopped. Returns 0 to
 * leave it to the generic executor (another form, or the last running tasklet stopping: the
 * unit halts there), else the next pc << 8 | k << 2 | 1 (the issuer stopped), 2 (k resumed)
 * or 3 (k was running or is not a tasklet: the resume's result is 1). */
uint32_t dpu_fast_ctl_inline(fast_ctx *c, sim_thread *ts, dpu_tasklet *tk,
                                                     const dpu_insn *in, uint32_t fa, uint32_t fb, uint64_t t,
                                                     uint32_t npc)
{
    if (in->kind || in->setf || in->dk != DPU_D_NONE)
        return 0;
    dpu_unit *const d = c->d;
    if (in->op == DPU_OP_STOP) {
        const uint32_t me = 1u << (ts - c->th);
        if (!(d->run & ~me))
            return 0;
        const cc_in cc = {0, fa, fb, 0, 0, tk->zf, fb & 63};
        if (in->cond != DPU_C_NONE && cond_true(in->cond, &cc))
            npc = in->pc;
        d->run &= ~me;
        tk->wait = DPU_W_STOPPED;
        if (tk->seg_open) { /* exec.c's seg_close, this issue counted */
            tk->rev_acc += (t - tk->seg_start) - (ts->instructions + 1 - tk->seg_insns) -
                           (tk->shift_sum - tk->seg_shift);
            tk->seg_open = 0;
        }
        ts->state = SIM_T_SLEEP;
        ts->ready_at = SIM_NEVER;
        return npc << 8 | 1;
    }
    if (in->op != DPU_OP_RESUME)
        return 0;
    const int k = (int)((fa + (uint32_t)in->imm) & 0xff);
    uint32_t res = 1;
    if (k < d->ntasklets && !((d->run >> k) & 1)) {
        if (k >= c->nt)
            return 0;
        /* exec.c's start_tasklet: a new running stretch, the stopped time no stall */
        dpu_tasklet *const tr = &d->t[k];
        sim_thread *const thr = &c->th[k];
        d->run |= 1u << k;
        tr->wait = DPU_W_NONE;
        tr->last_issue = tr->seg_start = t;
        tr->seg_insns = thr->instructions;
        tr->seg_shift = tr->shift_sum;
        tr->seg_open = 1;
        thr->state = SIM_T_READY;
        thr->started = 1;
        thr->ready_at = t + 1;
        res = 0;
    }
    const cc_in cc = {res, fa, fb, 0, 0, tk->zf, fb & 63};
    if (in->cond != DPU_C_NONE && cond_true(in->cond, &cc))
        npc = in->pc;
    return npc << 8 | (uint32_t)(res ? 3 : k << 2 | 2);
}

/* Round bursts: with every one of nt >= 11 tasklets live, no transfer pending and each
 * ready by its turn in ring order from ts at t, the plain burst's pick is always the next
 * tasklet in order (each issued nt >= 11 cycles before its next turn), until an event (a
 * DMA start, the generic executor, lim) ends that. A round burst then neither writes nor
 * tests ready_at, last_issue or the issue count per issue: its issues are at t0, t0 + 1, ...
 * by the tasklets in ring order from i0, so round_flush derives them when it ends. */
int dpu_fast_round_ok(const fast_ctx *c, const sim_thread *ts, uint64_t t)
{
    const int nt = c->nt;
    if (nt < 11 || c->live != (nt >= 32 ? ~0u : (1u << nt) - 1) || c->d->pend_n)
        return 0;
    for (int j = 0, k = (int)(ts - c->th); j < nt; j++, k = k + 1 == nt ? 0 : k + 1)
        if (c->th[k].ready_at > t + (uint64_t)j)
            return 0;
    return 1;
}

/* After n issues of a round from tasklet i0 at t0: tasklet j, d places after i0 in the
 * ring, issued at t0 + d, t0 + d + nt, ... below t0 + n. */
void dpu_fast_round_flush(fast_ctx *c, uint64_t t0, int i0, uint64_t n)
{
    const int nt = c->nt;
    for (int j = 0; j < nt; j++) {
        const uint64_t d = (uint64_t)(j >= i0 ? j - i0 : j - i0 + nt);
        if (d >= n)
            continue;
        const uint64_t more = (n - 1 - d) / (uint64_t)nt, last = t0 + d + more * (uint64_t)nt;
        c->th[j].instructions += more + 1;
        c->d->t[j].last_issue = last;
        c->th[j].ready_at = last + 11;
    }
}


/* A profiled round burst from tasklet i0 at t0 feeds each issue a revolver wait of nt - 1
 * (the ring's other tasklets), the wait of a later issue in the round. A tasklet's first
 * issue, d places after i0 at t0 + d, waited t0 + d - last_issue - 1 (as prof_feed says):
 * the difference is charged here in advance to the tasklet's open row, the one that issue
 * closes, and taken back by the flush if the burst ends before that issue. */
static uint64_t round_first_extra(const fast_ctx *c, uint64_t t0, int i0, int j)
{
    const int nt = c->nt;
    const uint64_t d = (uint64_t)(j >= i0 ? j - i0 : j - i0 + nt);
    return t0 + d - c->d->t[j].last_issue - 1 - (uint64_t)(nt - 1);
}

/* The word feed's last issue and retired count of each tasklet in word mode (prof_word_at:
 * its fast issues keep neither), where a burst of issues ends or before another feed reads
 * the threads; kx: a tasklet whose last issue is fed but not yet executed, or -1. */
void dpu_fast_prof_at(const fast_ctx *c, int kx)
{
    for (int k = 0; k < c->nt; k++)
        if (prof_word_mode(c->pt + k))
            prof_word_at(c->pt + k, c->d->t[k].last_issue, c->th[k].instructions + (k == kx));
}

void dpu_fast_round_prof_start(fast_ctx *c, uint64_t t0, int i0)
{
    dpu_fast_prof_at(c, -1); /* (the round's row-form feed reads them) */
    for (int j = 0; j < c->nt; j++)
        prof_word_stall_th(c->pt + j, DPU_STALL_REVOLVER, round_first_extra(c, t0, i0, j));
}

/* The flush of a profiled round: last_issue and ready_at as round_flush (the retired counts
 * were counted per issue), and a tasklet without any of the nfed issues fed (n, or n + 1
 * with the one at t0 + n) gets its advance back (its open row is still the one charged). */
void dpu_fast_round_flush_prof(fast_ctx *c, uint64_t t0, int i0, uint64_t n, uint64_t nfed)
{
    const int nt = c->nt;
    for (int j = 0; j < nt; j++) {
        const uint64_t d = (uint64_t)(j >= i0 ? j - i0 : j - i0 + nt);
        prof_thread *const pt = c->pt + j;
        if (d >= nfed) {
            prof_word_stall_th(pt, DPU_STALL_REVOLVER, (uint64_t)0 - round_first_extra(c, t0, i0, j));
            continue;
        }
        if (d < n) {
            const uint64_t last = t0 + d + (n - 1 - d) / (uint64_t)nt * (uint64_t)nt;
            c->d->t[j].last_issue = last;
            c->th[j].ready_at = last + 11;
        }
    }
}
