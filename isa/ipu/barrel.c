/* isa/ipu/barrel.c: the tile's six-slot barrel and its issue timing (reference §2.5, §3.1).
 * Tile cycle t belongs to slot t % 6. Worker context Wk is bound to slot k: while it is
 * active (from its run/runall to its exit) it owns the slot and issues one bundle there
 * every 6 cycles, seeing every result by its next turn, so a worker never stalls. The
 * supervisor issues in every slot no active worker owns -- all six when no worker runs,
 * none when six do -- but waits out its own latencies: an instruction that reads an MRF
 * register issues at least sup_dep_cycles after the instruction that wrote it, and the
 * bundle after a taken branch at least sup_branch_cycles after the branch (both 6 by
 * default, from PopLibs' cycle comments). A started worker first issues at the first cycle
 * of its slot at least run_cycles after the run (inferred: one barrel turn). A worker that
 * exits gives its slot back at once: the supervisor may use it the next time it comes round.
 * The loop jumps over cycles in which nothing can issue. Lost cycles are booked per
 * context: a worker's five cycles between turns and a supervisor's cycles in slots held by
 * workers are "barrel"; a supervisor's cycles waiting for a result "dependency", after a
 * taken branch "branch", after a sync, delay or send "sync" (a cycle held by several counts
 * for the first of sync, branch, dependency, barrel). */
#include <string.h>
#include "tile.h"
#include "../../core/sched.h"
#include "../../core/debug.h"
#include "../../core/task.h"
#include "../../core/profile.h"

static const char *const ctx_names[IPU_NCTX] = {"supervisor", "W0", "W1", "W2", "W3", "W4", "W5"};
const char *ipu_ctx_name(int tid) { return tid >= 0 && tid < IPU_NCTX ? ctx_names[tid] : "?"; }

int ipu_active_workers(const ipu_tile *tl)
{
    int n = 0;
    for (int k = 0; k < IPU_NSLOTS; k++)
        n += tl->ctx[IPU_WORKER(k)].state == IPU_CS_ACTIVE;
    return n;
}

void ipu_start_worker(ipu_tile *tl, int k, uint32_t entry, uint32_t vbase, uint64_t t)
{
    ipu_ctx *w = &tl->ctx[IPU_WORKER(k)];
    const uint64_t first0 = t + tl->im->run_cycles;
    w->state = IPU_CS_ACTIVE;
    w->pc = entry;
    w->vertex_base = vbase;
    w->worker_base = tl->worker_base_csr[k];
    /* the ABI: on entry $mvertex_base ($m13) and $mworker_base ($m12) hold them */
    w->m[13] = vbase;
    w->m[12] = w->worker_base;
    w->etype = w->cause = 0;
    w->erpt = 0;
    /* $FP_CTL comes from the supervisor's $FP_ICTL (-o fp_ctl); $FP_STS is reset at launch
     * (help text); $TAS and $REPEAT_COUNT keep their values */
    w->fp_ctl = tl->fp_ictl_set ? tl->fp_ictl : tl->im->fp_ctl_launch; /* $FP_ICTL (exec_misc.c) */
    w->fp_sts = 0;
    w->next = first0 + (uint64_t)((k - (int)(first0 % IPU_NSLOTS) + IPU_NSLOTS) % IPU_NSLOTS);
    w->last_issue = t; /* the wait for the first turn counts as barrel */
    w->launches++;
}

void ipu_end_worker(ipu_tile *tl, int k, uint64_t t)
{
    ipu_ctx *w = &tl->ctx[IPU_WORKER(k)];
    w->state = IPU_CS_EXITED;
    w->exited_at = t + 1; /* its thread cycles run through its last bundle's cycle */
    w->next = SIM_NEVER;
}

/* Is slot s held by an active worker? */
static int held(const ipu_tile *tl, uint64_t cyc) { return tl->ctx[IPU_WORKER(cyc % IPU_NSLOTS)].state == IPU_CS_ACTIVE; }

/* The earliest cycle >= from at which the supervisor may issue, ignoring slots. */
static uint64_t sup_ready(ipu_tile *tl, uint64_t *dep_at)
{
    ipu_ctx *s = &tl->ctx[IPU_SUP];
    uint32_t reads = ipu_bundle_reads(tl, IPU_SUP);
    uint64_t dep = 0;
    for (; reads; reads &= reads - 1) {
        uint64_t r = s->reg_ready[__builtin_ctz(reads)];
        if (r > dep)
            dep = r;
    }
    *dep_at = dep;
    uint64_t t = s->next;
    if (s->sync_local) { /* sync LOCAL (exec_misc.c): ready once the last worker has exited */
        if (ipu_active_workers(tl))
            return SIM_NEVER;
        s->sync_local = 0;
        for (int k = 0; k < IPU_NSLOTS; k++)
            if (tl->ctx[IPU_WORKER(k)].exited_at > s->sync_ready)
                s->sync_ready = tl->ctx[IPU_WORKER(k)].exited_at;
    }
    if (s->sync_ready > t) /* after a sync, delay or send (exec_misc.c) */
        t = s->sync_ready;
    if (s->branch_ready > t)
        t = s->branch_ready;
    return dep > t ? dep : t;
}

/* Who issues at cycle t: a context index, or -1 with *next the earliest cycle at which some
 * context can (SIM_NEVER: none can until something outside the tile happens). */
static int pick(ipu_tile *tl, uint64_t t, uint64_t *next, uint64_t *dep_at)
{
    int k = (int)(t % IPU_NSLOTS);
    ipu_ctx *w = &tl->ctx[IPU_WORKER(k)];
    if (w->state == IPU_CS_ACTIVE && w->next <= t)
        return IPU_WORKER(k);
    uint64_t best = SIM_NEVER;
    ipu_ctx *s = &tl->ctx[IPU_SUP];
    if (s->state == IPU_CS_ACTIVE) {
        uint64_t r = sup_ready(tl, dep_at);
        if (r <= t && !held(tl, t))
            return IPU_SUP;
        if (r != SIM_NEVER && ipu_active_workers(tl) < IPU_NSLOTS) {
            uint64_t c = r > t ? r : t + 1;
            while (held(tl, c))
                c++;
            best = c;
        }
    }
    for (int j = 0; j < IPU_NSLOTS; j++) {
        const ipu_ctx *o = &tl->ctx[IPU_WORKER(j)];
        if (o->state == IPU_CS_ACTIVE && o->next < best)
            best = o->next > t ? o->next : t + 1;
    }
    *next = best;
    return -1;
}

/* Book the cycles between a context's previous issue (or launch) and this one. */
static void book_stalls(ipu_tile *tl, sim_thread *th, int tid, uint64_t t, uint64_t dep_at)
{
    ipu_ctx *c = &tl->ctx[tid];
    uint64_t from = c->last_issue == SIM_NEVER ? 0 : c->last_issue + 1;
    if (t <= from)
        return;
    if (tid != IPU_SUP) {
        uint64_t fpu = c->fpu_hold < t - from ? c->fpu_hold : t - from;
        th->stalls[IPU_STALL_FPU] += fpu;
        th->stalls[IPU_STALL_BARREL] += t - from - fpu;
        c->fpu_hold = 0;
        return;
    }
    uint64_t sy_end = c->sync_ready < t ? c->sync_ready : t;
    if (sy_end > from) {
        th->stalls[IPU_STALL_SYNC] += sy_end - from;
        from = sy_end;
    }
    uint64_t br_end = c->branch_ready < t ? c->branch_ready : t;
    if (br_end > from) {
        th->stalls[IPU_STALL_BRANCH] += br_end - from;
        from = br_end;
    }
    uint64_t dep_end = dep_at < t ? dep_at : t;
    if (dep_end > from) {
        th->stalls[IPU_STALL_DEP] += dep_end - from;
        from = dep_end;
    }
    th->stalls[IPU_STALL_BARREL] += t - from;
}

/* The tile stops when the supervisor has returned and no worker is active. */
static int finished(const ipu_tile *tl)
{
    return tl->ctx[IPU_SUP].state == IPU_CS_RETURNED && !ipu_active_workers(tl);
}

/* Keep the core's view of the threads (states, next issue) in step with the contexts. */
void ipu_sync_threads(sim_unit *u, ipu_tile *tl)
{
    for (int c = 0; c < IPU_NCTX; c++) {
        const ipu_ctx *x = &tl->ctx[c];
        sim_thread *th = &u->threads[c];
        switch (x->state) {
        case IPU_CS_ACTIVE:
            th->state = SIM_T_READY;
            th->started = 1;
            th->ready_at = x->next;
            break;
        case IPU_CS_EXITED:
            th->state = SIM_T_HALTED;
            th->halted_at = x->exited_at;
            th->ready_at = SIM_NEVER;
            break;
        case IPU_CS_RETURNED:
            th->state = SIM_T_HALTED;
            th->halted_at = x->exited_at;
            th->ready_at = SIM_NEVER;
            break;
        default:
            th->state = SIM_T_SLEEP;
            th->ready_at = SIM_NEVER;
        }
    }
}

int ipu_barrel_step(sim_machine *m, sim_unit *u, ipu_tile *tl, uint64_t *tp, uint64_t *ret)
{
    ipu_machine *im = tl->im;
    uint64_t t = *tp;
    uint64_t next = SIM_NEVER, dep_at = 0;
    int tid = pick(tl, t, &next, &dep_at);
    if (tid < 0) {
        if (next == SIM_NEVER) {
            ipu_sync_threads(u, tl);
            if (finished(tl)) {
                sim_unit_halt(m, u, t);
                ipu_xchg_halted(m, tl, t);
            }
            /* else a context excepted (the run has stopped already), or the supervisor
             * waits for other tiles or words (exchange.c wakes the tile) */
            *ret = SIM_NEVER;
            return 1;
        }
        *tp = next;
        return 0;
    }
    ipu_ctx *c = &tl->ctx[tid];
    sim_thread *th = &u->threads[tid];
    uint32_t pc = c->pc;
    u->last_issue = t;
    if (m->slow && dbg_before_insn(m, u, tid, pc)) {
        ipu_sync_threads(u, tl);
        *ret = t; /* resumes in this very slot */
        return 1;
    }
    if (__builtin_expect(tl->x.clash_at == t, 0) && ipu_xchg_clash(m, tl, tid, t, pc, 1)) {
        ipu_sync_threads(u, tl); /* an exchange item written in the element of this fetch */
        *ret = t;
        return 1;
    }
    uint64_t stalls0[IPU_STALL_N];
    memcpy(stalls0, th->stalls, sizeof stalls0);
    book_stalls(tl, th, tid, t, dep_at);
    c->last_issue = t;
    ipu_issue is;
    const uint64_t insns0 = th->instructions;
    int rc = ipu_exec_bundle(m, u, tl, tid, t, &is);
    prof_state *prof = dbg_profile(m);
    if (prof) { /* --profile without the hooks (isa_ops.profile_fast): as the hook path, the
                 * stalls of the gap before this issue are this bundle's */
        const int g = u->index * prof->tpu + tid;
        prof_issue(prof, g, pc, t, insns0, NULL);
        for (int k = 0; k < IPU_STALL_N; k++)
            if (th->stalls[k] != stalls0[k])
                prof_stall(prof, g, k, th->stalls[k] - stalls0[k]);
    }
    if (rc == 0) {
        th->instructions += (uint64_t)is.ninsn;
        th->issue_cycles++;
        if (tid == IPU_SUP) {
            c->next = t + 1;
            for (uint32_t w = is.wmask; w; w &= w - 1)
                c->reg_ready[__builtin_ctz(w)] = t + im->sup_dep_cycles;
            if (is.taken)
                c->branch_ready = t + im->sup_branch_cycles;
            if (c->pc == IPU_HOST_RETURN) {
                c->state = IPU_CS_RETURNED;
                c->exited_at = t + 1;
            }
        } else if (c->state == IPU_CS_ACTIVE) {
            /* a transcendental holds the worker (and its slot) for its extra turns */
            c->fpu_hold = (uint64_t)IPU_NSLOTS * is.busy;
            c->next = t + IPU_NSLOTS + c->fpu_hold;
        }
    }
    if (tid != IPU_SUP && c->state != IPU_CS_ACTIVE) /* an exit (or an exception) ends its vertex run */
        sim_task_end(m, u->index, tid, t + 1);
    t++;
    *tp = t;
    if (m->slow) {
        ipu_sync_threads(u, tl);
        dbg_after_insn(m, u, tid, pc);
    }
    if (m->max_instructions && sim_total_instructions(m) >= m->max_instructions)
        sim_set_stop_at(m, SIM_STOP_LIMIT, u->index, tid, c->pc, t - 1, "instruction limit reached");
    if (sim_stopped(m)) {
        ipu_sync_threads(u, tl);
        *ret = t; /* an excepted context issues no more; the others may go on */
        return 1;
    }
    if (tl->x.xend) { /* the tile became cycle-coupled (exchange.c): the burst ends here */
        tl->x.xend = 0;
        ipu_sync_threads(u, tl);
        *ret = t;
        return 1;
    }
    return 0;
}

/* The reference loop (the debugger's, and every run that needs its per-issue hooks) or,
 * for plain runs, fast.c's: both issue the same bundles at the same cycles. */
uint64_t ipu_unit_run(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon)
{
    ipu_tile *tl = ipu_t(u);
    ipu_machine *im = tl->im;
    uint64_t t = now, ret;
    if (!im->have_program)
        return SIM_NEVER;
    /* Coupling (tile.c): the functional schedule switches contexts at burst ends (func.c's
     * budget stops at the horizon), so its issue steps depend on where bursts end and
     * functional tiles stay cycle-coupled, with the steps they always had; the cycle model's
     * bursts change nothing simulated, so from the end of a fast-forward on a tile is
     * event-coupled (from its next burst), except while it may receive or waits for other
     * tiles (exchange.c: then it must not run ahead of them). */
    tl->x.xend = 0;
    if (!m->functional) {
        const sim_coupling want = ipu_xchg_wants_cycle(tl) ? SIM_COUPLE_CYCLE : SIM_COUPLE_EVENT;
        if (u->coupling != want) {
            sim_unit_set_coupling(m, u, want);
            if (want == SIM_COUPLE_CYCLE)
                return now; /* this burst's horizon was an event-coupled one: start again */
        }
    }
    if (m->functional) /* -o timing=none (func.c) */
        return ipu_run_func(m, u, now, horizon);
    /* an item the exchange wrote in this cycle: its issue goes the reference way, which
     * checks the fetch and the accesses against the item's memory element (exchange.c) */
    if (tl->x.clash_at == t && ipu_barrel_step(m, u, tl, &t, &ret))
        return ret;
    /* watchpoints and the slow flag change only while no unit runs */
    if (!dbg_hooks(m) && !dbg_bp_map(m) && !(m->dbg && m->dbg->watching) && !m->max_instructions && im->predecode &&
        !tl->tmem->nwatch)
        return ipu_run_fast(m, u, now, horizon);
    while (t < horizon)
        if (ipu_barrel_step(m, u, tl, &t, &ret))
            return ret;
    ipu_sync_threads(u, tl);
    return t;
}
