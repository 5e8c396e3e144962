/* isa/dpu/func.c: the DPU's functional mode (-o timing=none): the same architectural results
 * as the cycle model on programs whose results do not depend on timing, as fast as the
 * host allows. The running tasklets issue in round-robin order, each for a quantum of
 * steps (-o func_quantum; 1 by default, the revolver's own order with 11 or more running
 * tasklets, which racy but fair SDK code such as PrIM's SEL and UNI needs) or until it
 * stops, faults, or wakes another tasklet. A DMA lands when its instruction retires;
 * there is no revolver, no bank penalty, and each instruction is one
 * cycle ("issue step"). The instructions execute through the cycle model's executor
 * (exec.c's dpu_execute), and the common ones from the text every loop runs them from
 * (fastops.inc and cond.h's DPU_SEM_*): semantics, faults and messages are the same. The
 * revolver statistics stay as they were (functional steps stall nothing); issue cycles are
 * the instructions. dpu_func_timing_resume hands a fast-forwarded DPU back to the cycle
 * model. The rules are in docs/isa/dpu.md, "Functional mode". */
#include "func.h"
#include "func_rec.h"
#include "../../core/debug.h"
#include "../../core/profile.h"
/* the inline instructions (fastops.inc) are one text every loop includes, so the
 * functional loop's semantics cannot drift from the cycle model's */
#include "cond.h"

/* The next running tasklet from k in round-robin order (k itself if it runs); run != 0. */
static inline int next_running(uint32_t run, int k)
{
    uint32_t hi = run & (~0u << k);
    return hi ? __builtin_ctz(hi) : __builtin_ctz(run);
}

/* Publish what a functional stretch changed in the core's records: the cursor (the tasklet
 * that issues next), the last issue, one issue cycle per instruction. The per-stretch
 * revolver bookkeeping the executor keeps (exec.c seg_*) is not functional time: the
 * revolver stalls stay at their published values and every stretch is closed, so a later
 * timed run (dpu_func_timing_resume) starts its own. */
static uint64_t leave(sim_unit *u, dpu_unit *d, int k, uint64_t t, uint64_t now, uint64_t ret)
{
    u->rr = k;
    if (t > now)
        u->last_issue = t - 1;
    for (int i = 0; i < u->nthreads; i++) {
        sim_thread *th = &u->threads[i];
        dpu_tasklet *tk = &d->t[i];
        th->issue_cycles = th->instructions;
        tk->rev_acc = th->stalls[DPU_STALL_REVOLVER];
        tk->seg_open = 0;
    }
    return ret;
}

/* A DMA instruction retired at step t: its data lands now (all transfers in flight: there
 * is only this one) and its tasklet goes on at the next step. The engine's record keeps the
 * issue cycle; the DMA stall the executor booked is taken back (no time passes). */
static void dma_now(sim_machine *m, sim_unit *u, dpu_unit *d, int k, uint64_t t)
{
    sim_thread *th = &u->threads[k];
    dpu_tasklet *tk = &d->t[k];
    uint64_t booked = th->ready_at - (t + 11); /* exec.c dma_transfer's DMA stall */
    th->stalls[DPU_STALL_DMA] -= booked;
    tk->shift_sum -= booked;
    dpu_dma_complete(m, u, d, SIM_NEVER);
    d->dma_free = t + 1;
    tk->wait = DPU_W_NONE;
    tk->dma_until = t + 1;
    th->ready_at = t + 1;
}

/* Cycles between looks at the machine's stop flag (another DPU's job faulted, the user
 * interrupted); a unit never sets it without returning at once. */
#define DPU_FUNC_POLL 4096

/* The loop. slow: the debugger's per-instruction hooks or the instruction limit are on
 * (called exactly as exec.c's reference loop calls them); else bpm (the breakpoint filter,
 * NULL if none) sends the flagged pcs to the debugger, and watch says WRAM watchpoints are
 * set (the executor checks them and stops the run). Inlined in two copies, slow constant.
 * k is the issuing tasklet; it hands over to the next running one in round-robin order at
 * the end of its quantum (the steps up to the next multiple of q, so the order depends on
 * the cycle alone), when it stops, and when it boots or resumes another tasklet. */
static inline __attribute__((always_inline)) uint64_t func_loop(sim_machine *m, sim_unit *u, dpu_unit *d,
                                                                uint64_t now, uint64_t horizon, uint64_t q,
                                                                const int slow, prof_state *const prof)
{
    const int nt = d->ntasklets > 0 && d->ntasklets <= u->nthreads ? d->ntasklets : u->nthreads;
    const uint32_t mask = nt >= 32 ? ~0u : (1u << nt) - 1;
    const uint8_t *const bpm = slow ? NULL : dbg_bp_map(m);
    const int watch = !slow && d->wram->nwatch;
    uint64_t t = now;
    uint32_t run = d->run & mask;
    int k = u->rr < nt ? u->rr : 0;
    if (!run) {
        leave(u, d, k, t, now, 0);
        dpu_halt_unit(m, u, t);
        return SIM_NEVER;
    }
    k = next_running(run, k);
    uint64_t qend = (t / q + 1) * q;    /* the current quantum's end */
    uint64_t poll = t + DPU_FUNC_POLL;
    uint64_t lim = horizon < poll ? horizon : poll;
    for (;;) {
        if (t >= lim) {
            if (t >= horizon || sim_stopped(m))
                return leave(u, d, k, t, now, t);
            poll = t + DPU_FUNC_POLL;
            lim = horizon < poll ? horizon : poll;
        }
        dpu_tasklet *const tk = &d->t[k];
        const uint32_t pc = tk->pc;
        if (slow ? m->slow : bpm && dbg_bp_maybe(bpm, pc)) {
            u->last_issue = t; /* the hooks read the instruction's cycle */
            if (dbg_before_insn(m, u, k, pc))
                return leave(u, d, k, t, now, t); /* k issues this very pc on resume */
        }
        tk->last_issue = t; /* a fault's stop names this cycle */
        if (prof) /* --profile (notes/profile-api.md): no stall ever grows in this mode */
            prof_issue(prof, u->index * prof->tpu + k, pc, t, u->threads[k].instructions, NULL);
        const int r = dpu_execute(m, u, d, k, t);
        t++;
        if (r && tk->wait == DPU_W_DMA)
            dma_now(m, u, d, k, t - 1); /* before the hooks: they see no DMA wait */
        if (slow) {
            if (m->slow)
                dbg_after_insn(m, u, k, pc);
            if (m->max_instructions && sim_total_instructions(m) >= m->max_instructions)
                sim_set_stop_at(m, SIM_STOP_LIMIT, u->index, k, tk->pc, t - 1, "instruction limit reached");
        } else if (watch && d->wram->watch_hit_id)
            d->wram->watch_hit_id = 0; /* the executor stopped the run on it (exec.c wram_slow): reported */
        if (r && d->faulted)
            return leave(u, d, k, t, now, SIM_NEVER);
        /* (the magic marker, tell: the executor calls sim_marker and returns 1 when the run
         * stops there; the stop is handled below like any other) */
        if ((slow || watch || r) && sim_stopped(m)) {
            /* a stop after this instruction: the next issue is the next in order if this
             * one stopped, else this one again */
            run = d->run & mask;
            return leave(u, d, run && !((run >> k) & 1) ? next_running(run, k) : k, t, now, t);
        }
        const uint32_t was = run;
        run = d->run & mask;
        if (!run) { /* (the next in order after the one that stopped, as func_fast leaves it) */
            leave(u, d, k + 1 == nt ? 0 : k + 1, t, now, 0);
            dpu_halt_unit(m, u, t);
            return SIM_NEVER;
        }
        if (t == qend || (run & ~was) || !((run >> k) & 1)) {
            /* the quantum is over, it woke a tasklet (the revolver would let that one
             * issue before this one gets far: a barrier's release, a handshake), or it
             * stopped: the next running tasklet in order */
            if (t == qend)
                qend += q;
            k = next_running(run, k + 1 == nt ? 0 : k + 1);
        }
    }
}


static __attribute__((noinline)) uint64_t func_slow(sim_machine *m, sim_unit *u, dpu_unit *d, uint64_t now,
                                                    uint64_t horizon, uint64_t q, prof_state *prof)
{
    return func_loop(m, u, d, now, horizon, q, 1, prof);
}

/* --profile without the debugger's hooks (isa_ops.profile_fast): this loop feeds it. */
static __attribute__((noinline)) uint64_t func_prof(sim_machine *m, sim_unit *u, dpu_unit *d, uint64_t now,
                                                    uint64_t horizon, uint64_t q, prof_state *prof)
{
    return func_loop(m, u, d, now, horizon, q, 0, prof);
}


/* What the turns need, in one place (and what fastops.inc reads of its includer beyond the
 * locals: c->d, the DPU). */
typedef struct func_ctx {
    dpu_unit *d;
    sim_thread *th, *th_end;  /* the DPU's tasklets' threads */
    const dpu_insn *iram;
    uint32_t nwords;
    uint32_t run;             /* the RUN bits of the DPU's tasklets (a ring's: not all set) */
    uint8_t *wram;
    uint64_t wlim;            /* WRAM size */
    const uint8_t *bpm;       /* instr: the breakpoint filter, or NULL */
    uint64_t wlo, whi;        /* instr: the span of the watched WRAM bytes (empty: wlo > whi) */
} func_ctx;

#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch-enum" /* every DPU_FAST_* has its case, as in fast.c */
/* A turn: tasklet tk (thread ts) issues from cycle *tp while the cycle is below lim and its
 * instructions run inline; its pc stays in a register and its count is the cycles issued.
 * Returns 0 at lim, 1 at an instruction for the executor (at *tp, the tasklet's pc), 2 at
 * a pc the breakpoint filter flags. */
static inline __attribute__((always_inline)) int turn(const func_ctx *c, dpu_tasklet *tk, sim_thread *ts,
                                                      uint64_t *tp, const uint64_t lim, const int instr)
{
    const dpu_insn *const iram = c->iram;
    const uint32_t nwords = c->nwords;
    uint8_t *const wram = c->wram;
    const uint64_t wlim = c->wlim;
    const uint64_t wlo = instr ? c->wlo : 1, whi = instr ? c->whi : 0;
#define WATCHED(addr, n) (instr && (addr) < whi && (uint64_t)(addr) + (n) > wlo)
    const dpu_insn *const guard = &iram[nwords]; /* any pc past IRAM: the illegal guard */
    uint64_t t = *tp;
    const uint64_t t0 = t;
    uint32_t pc = tk->pc;
    int r = 0;
    for (;;) {
        if (instr && c->bpm && dbg_bp_maybe(c->bpm, pc)) {
            r = 2;
            break;
        }
        const dpu_insn *const in = pc < nwords ? &iram[pc] : guard;
        uint32_t *const R = tk->r;
        const uint32_t fa = R[in->ra];
        const uint32_t fb = in->bimm ? (uint32_t)in->imm : R[in->rb];
        uint32_t res, npc = pc + 1;
        int carry, take;
        switch ((enum dpu_fast)in->fast) {
#include "fastops.inc"
        case DPU_FAST_DMA:
        case DPU_FAST_NONE:
        generic:
            r = 1;
            goto out;
        default:
            __builtin_unreachable(); /* predecode.c stores only DPU_FAST_* values */
        }
        pc = npc;
        if (++t >= lim)
            break;
    }
out:
    tk->pc = (uint16_t)pc;
    ts->instructions += t - t0;
    if (t > t0)
        tk->last_issue = t - 1;
    *tp = t;
    return r;
#undef WATCHED
}

/* Quantum 1: the running tasklets issue one instruction each in round-robin order from
 * thread *tsp at cycle *tp while the cycle is below lim and the instructions run inline.
 * Returns as turn, *tsp the thread whose instruction is next. */
static inline __attribute__((always_inline)) int ring(const func_ctx *c, sim_thread **tsp, uint64_t *tp,
                                                      const uint64_t lim, const int instr)
{
    const dpu_insn *const iram = c->iram;
    const uint32_t nwords = c->nwords;
    uint8_t *const wram = c->wram;
    const uint64_t wlim = c->wlim;
    const uint64_t wlo = instr ? c->wlo : 1, whi = instr ? c->whi : 0;
#define WATCHED(addr, n) (instr && (addr) < whi && (uint64_t)(addr) + (n) > wlo)
    /* in locals: the instructions' stores (flags are bytes) could alias c's fields */
    sim_thread *const th = c->th, *const th_end = c->th_end;
    dpu_tasklet *const t_base = c->d->t;
    const dpu_insn *const guard = &iram[nwords]; /* any pc past IRAM: the illegal guard */
    sim_thread *ts = *tsp;
    dpu_tasklet *tk = t_base + (ts - th);
    uint64_t t = *tp;
    int r = 0;
    for (;;) {
        const uint32_t pc = tk->pc;
        if (instr && c->bpm && dbg_bp_maybe(c->bpm, pc)) {
            r = 2;
            break;
        }
        const dpu_insn *const in = pc < nwords ? &iram[pc] : guard;
        uint32_t *const R = tk->r;
        const uint32_t fa = R[in->ra];
        const uint32_t fb = in->bimm ? (uint32_t)in->imm : R[in->rb];
        uint32_t res, npc = pc + 1;
        int carry, take;
        switch ((enum dpu_fast)in->fast) {
#include "fastops.inc"
        case DPU_FAST_DMA:
        case DPU_FAST_NONE:
        generic:
            r = 1;
            goto out;
        default:
            __builtin_unreachable(); /* predecode.c stores only DPU_FAST_* values */
        }
        tk->pc = (uint16_t)npc;
        tk->last_issue = t;
        ts->instructions++;
        const int k = (int)(ts - th);
        const int n = next_running(c->run, k + 1 == (int)(th_end - th) ? 0 : k + 1);
        ts = th + n;
        tk = t_base + n;
        if (++t >= lim)
            break;
    }
out:
    *tsp = ts;
    *tp = t;
    return r;
#undef WATCHED
}

#pragma GCC diagnostic pop

static __attribute__((noinline)) int turn_instr(const func_ctx *c, dpu_tasklet *tk, sim_thread *ts, uint64_t *tp,
                                                uint64_t lim)
{
    return turn(c, tk, ts, tp, lim, 1);
}

static __attribute__((noinline)) int ring_instr(const func_ctx *c, sim_thread **tsp, uint64_t *tp, uint64_t lim)
{
    return ring(c, tsp, tp, lim, 1);
}

/* The fast loop: turns (or, with quantum 1, the ring) run the instructions fast.c runs
 * inline from the same text (fastops.inc); the others go through the executor as in
 * func_loop, with the same order and handling. instr: breakpoints (the filter sends their
 * pcs to the debugger) or WRAM watchpoints (the accesses that may touch the watched span
 * take the executor, which checks them) are set. */
static uint64_t func_fast(sim_machine *m, sim_unit *u, dpu_unit *d, uint64_t now, uint64_t horizon, uint64_t q,
                          const int instr, prof_state *const prof, dpu_fn_state *fs, dpu_fn_ring *ring)
{
    /* without breakpoints and watchpoints: the functional records' ring (with --profile,
     * the records of its feeding copy) */
    const dpu_fn_rec *recs = !instr ? dpu_fn_records(fs, d, prof != NULL) : NULL;
    const int g0 = prof ? u->index * prof->tpu : 0;
    sim_thread *const th = u->threads;
    const int nt = d->ntasklets > 0 && d->ntasklets <= u->nthreads ? d->ntasklets : u->nthreads;
    const uint32_t mask = nt >= 32 ? ~0u : (1u << nt) - 1;
    func_ctx c = {d, th, th + nt, d->iram, d->dm->iram_words, 0, d->wram_p, d->dm->wram_size,
                  instr ? dbg_bp_map(m) : NULL, 1, 0};
    for (int i = 0; instr && i < d->wram->nwatch; i++) {
        const mem_watch *w = &d->wram->watches[i];
        c.wlo = i == 0 || w->addr < c.wlo ? w->addr : c.wlo;
        c.whi = i == 0 || w->addr + w->len > c.whi ? w->addr + w->len : c.whi;
    }
    const int one = q == 1;
    uint64_t t = now;
    int k = u->rr < nt ? u->rr : 0;
    uint64_t qend = one ? SIM_NEVER : (t / q + 1) * q; /* the current quantum's end */
    uint64_t plim = horizon < t + DPU_FUNC_POLL ? horizon : t + DPU_FUNC_POLL;
    for (;;) {
        const uint32_t run = d->run & mask;
        if (recs && ring->run != run) { /* a tasklet stopped or started: the ring again */
            if (ring->run)
                dpu_fn_ring_flush(ring);
            dpu_fn_ring_build(ring, d, recs, run, nt);
        }
        if (!run) {
            leave(u, d, k, t, now, 0);
            dpu_halt_unit(m, u, t);
            return SIM_NEVER;
        }
        k = next_running(run, k);
        if (t >= qend) { /* the quantum is over: the next running tasklet */
            qend = (t / q + 1) * q;
            k = next_running(run, k + 1 == nt ? 0 : k + 1);
        }
        if (t >= plim) {
            if (t >= horizon || sim_stopped(m))
                return leave(u, d, k, t, now, t);
            plim = horizon < t + DPU_FUNC_POLL ? horizon : t + DPU_FUNC_POLL;
        }
        if (prof && !recs) /* (no memory for an ldmai's new records): dpu_func_run goes on */
            return leave(u, d, k, t, now, t);
        int b;
        if (recs) {
            const uint64_t lim = plim < qend ? plim : qend;
            t += dpu_fn_ring_run(ring, d, th, &k, lim - t, one, t, prof, g0);
            b = t < lim;
        } else if (one) {
            /* (also without the records, out of memory: no filter, an empty watched span) */
            sim_thread *ts = th + k;
            c.run = run;
            c.iram = d->iram;
            b = ring_instr(&c, &ts, &t, plim);
            k = (int)(ts - th);
        } else {
            c.iram = d->iram;
            const uint64_t lim = plim < qend ? plim : qend;
            b = turn_instr(&c, d->t + k, th + k, &t, lim);
        }
        if (!b)
            continue;
        dpu_tasklet *const tk = d->t + k;
        const uint32_t pc = tk->pc;
        if (b == 2) {
            /* a flagged pc: the debugger decides, as in func_loop; the instruction then goes
             * through the executor */
            u->last_issue = t;
            if (dbg_before_insn(m, u, k, pc))
                return leave(u, d, k, t, now, t);
        }
        tk->last_issue = t; /* a fault's stop names this cycle */
        if (prof)
            prof_issue(prof, g0 + k, pc, t, th[k].instructions, NULL);
        const uint8_t op = d->iram[pc < d->dm->iram_words ? pc : d->dm->iram_words].op;
        const int r = dpu_execute(m, u, d, k, t);
        t++;
        if (ring->run) /* its pc moved: its slot follows */
            dpu_fn_ring_refresh(ring, k);
        if (instr && d->wram->watch_hit_id) {
            d->wram->watch_hit_id = 0; /* the executor stopped the run on it (exec.c wram_slow): reported */
            if (sim_stopped(m)) {
                const uint32_t nr = d->run & mask;
                return leave(u, d, nr && !((nr >> k) & 1) ? next_running(nr, k) : k, t, now, t);
            }
        }
        if (r) {
            if (d->faulted)
                return leave(u, d, k, t, now, SIM_NEVER);
            if (tk->wait == DPU_W_DMA) {
                dma_now(m, u, d, k, t - 1);
                if (recs && op == DPU_OP_LDMAI) {
                    /* it may have written IRAM (the data landed): the records follow */
                    dpu_fn_ring_flush(ring);
                    ring->run = 0;
                    recs = dpu_fn_records(fs, d, prof != NULL);
                }
                if (sim_stopped(m)) /* a watchpoint on the bytes it wrote */
                    return leave(u, d, k, t, now, t);
            }
            /* (the magic marker, tell: the executor called sim_marker, which stopped the run:
             * handled below) */
        }
        const uint32_t now_run = d->run & mask;
        if (r && sim_stopped(m)) /* it stopped as the run stopped */
            return leave(u, d, now_run && !((now_run >> k) & 1) ? next_running(now_run, k) : k, t, now, t);
        if (one || (now_run & ~run) || !((now_run >> k) & 1)) {
            /* the next running tasklet in order: after each instruction (quantum 1), when it
             * woke a tasklet or when it stopped (func_loop's rule); at the quantum's end
             * too, this once */
            k = k + 1 == nt ? 0 : k + 1;
            if (t >= qend)
                qend = (t / q + 1) * q;
        }
    }
}

/* func_fast with the ring's pcs written back to the tasklets when it returns. */
static uint64_t func_fast_ring(sim_machine *m, sim_unit *u, dpu_unit *d, uint64_t now, uint64_t horizon, uint64_t q,
                               const int instr, prof_state *const prof, dpu_fn_state *fs)
{
    dpu_fn_ring ring;
    ring.run = 0;
    const uint64_t r = func_fast(m, u, d, now, horizon, q, instr, prof, fs, &ring);
    if (ring.run)
        dpu_fn_ring_flush(&ring);
    return r;
}

uint64_t dpu_func_run(sim_machine *m, sim_unit *u, dpu_unit *d, uint64_t now, uint64_t horizon, uint64_t quantum,
                      dpu_fn_state *fs)
{
    dpu_iram_sync(d); /* the host or the debugger may have written IRAM */
    if (d->faulted)
        return SIM_NEVER;
    if (!quantum)
        quantum = 1;
    prof_state *const prof = dbg_profile(m);
    if (dbg_hooks(m) || m->max_instructions) /* (with the hooks off, --profile is this loop's) */
        return func_slow(m, u, d, now, horizon, quantum, dbg_hooks(m) ? NULL : prof);
    const int instr = dbg_bp_map(m) || d->wram->nwatch;
    /* --profile with breakpoints or watchpoints, or without records (or the memory for the
     * batches' pairs that never count, func_rec.c): the executor's loop */
    if (prof && (instr || !dpu_fn_records(fs, d, 1) || !prof_bat_poison(prof, d->dm->iram_words)))
        return func_prof(m, u, d, now, horizon, quantum, prof);
    return func_fast_ring(m, u, d, now, horizon, quantum, instr, prof, fs);
}

void dpu_func_timing_resume(sim_machine *m)
{
    for (int i = 0; i < m->nunits; i++) {
        sim_unit *u = &m->units[i];
        dpu_unit *d = u->isa;
        if (!d || !u->enabled || u->halted)
            continue;
        /* the cycle the unit goes on from: its pending run event (a functional run that
         * stopped returned it), else the machine's cycle */
        uint64_t now = u->ev.when != SIM_NEVER && u->ev.when >= m->now ? u->ev.when : m->now;
        dpu_dma_complete(m, u, d, SIM_NEVER); /* nothing is in flight after a functional run */
        d->dma_free = now;
        for (int k = 0; k < u->nthreads; k++) {
            sim_thread *th = &u->threads[k];
            dpu_tasklet *tk = &d->t[k];
            tk->prev_wmask = 0;
            tk->rev_acc = th->stalls[DPU_STALL_REVOLVER];
            tk->seg_open = 0;
            if (th->state == SIM_T_DISABLED || th->state == SIM_T_HALTED)
                continue;
            if (k < d->ntasklets && ((d->run >> k) & 1) && !d->faulted) {
                /* ready at now; a stretch that starts just before it, as a boot does
                 * (exec.c start_tasklet), so its first issue waited for nothing */
                tk->wait = DPU_W_NONE;
                tk->dma_until = now;
                tk->last_issue = tk->seg_start = now - 1;
                tk->seg_insns = th->instructions;
                tk->seg_shift = tk->shift_sum;
                tk->seg_open = 1;
                th->state = SIM_T_READY;
                th->ready_at = now;
            } else {
                tk->wait = DPU_W_STOPPED;
                th->state = SIM_T_SLEEP;
                th->ready_at = SIM_NEVER;
            }
        }
    }
}
