/* isa/ipu/func.c: the tile's functional run loop (-o timing=none, m->functional): every
 * bundle executes with its architectural effect, and nothing of the barrel's timing is
 * modelled. The contexts take turns in the order supervisor, W0 .. W5, each running a burst
 * of up to IPU_FUNC_BURST bundles (fewer when it exits, returns, waits or excepts) before the
 * next context that can run gets the tile. A context can run when it is active; the
 * supervisor also not while six workers are active (it is suspended then, as in the barrel)
 * nor while a `sync LOCAL` waits for active workers. There are no issue latencies: no
 * supervisor dependency or branch delay, no run_cycles, no transcendental holds, no wait
 * after a sync, delay or send; no stall is booked. Each bundle issued is one cycle of the
 * tile, so cycles count issue steps and the machine's watchdog and limits still move. A
 * `run` starts its worker in the lowest-numbered slot no active worker holds (the barrel
 * gives it the slot the run issued in, which timing decides; docs/isa/ipu.md "Functional
 * mode"). Worker bundles with a fast record (exec.c's ipu_frec_build, the records fast.c
 * uses) run in func_fx.c's bursts (common integer singles from entries of their own, the
 * rest from the record);
 * everything else -- supervisor bundles, float, CSR, run, exit, anything a record leaves to
 * the generic executor, and every bundle of a run with the debugger, profile, trace,
 * instruction limit or a watchpoint -- goes through ipu_exec_bundle one bundle at a time.
 * ipu_timing_resume rebuilds the barrel's readiness when a fast-forward ends, so the cycle
 * model carries on from the architectural state. */
#include "fop.h"
#include "../../core/debug.h"
#include "../../core/task.h"
#include "../../core/profile.h"

#define IPU_FUNC_BURST 4096 /* bundles a context runs before the next one's turn */

static int sup_runnable(ipu_tile *tl)
{
    ipu_ctx *s = &tl->ctx[IPU_SUP];
    if (s->state != IPU_CS_ACTIVE || s->sync_ready == SIM_NEVER) /* (waiting for tiles or words) */
        return 0;
    int n = ipu_active_workers(tl);
    if (n == IPU_NSLOTS)
        return 0;
    if (s->sync_local) {
        if (n)
            return 0;
        s->sync_local = 0; /* the last worker has exited: the sync completes */
    }
    return 1;
}

static int runnable(ipu_tile *tl, int tid)
{
    return tid == IPU_SUP ? sup_runnable(tl) : tl->ctx[tid].state == IPU_CS_ACTIVE;
}

/* The core's view of the threads: every active context is ready now (the contexts' barrel
 * fields, next included, are left as the executor set them; ipu_timing_resume rebuilds them). */
static void func_sync(sim_unit *u, ipu_tile *tl, uint64_t t)
{
    ipu_sync_threads(u, tl);
    for (int c = 0; c < IPU_NCTX; c++)
        if (tl->ctx[c].state == IPU_CS_ACTIVE)
            u->threads[c].ready_at = t;
}

/* One bundle of context tid at *tp through the generic executor, with the debugger's hooks
 * when they are on. Returns 0 to go on, 1 when the run must return *tp (stopped, or the
 * debugger stopped before the bundle: *tp unchanged, so it resumes with this bundle). */
static int func_step(sim_machine *m, sim_unit *u, ipu_tile *tl, int tid, uint64_t *tp)
{
    ipu_ctx *c = &tl->ctx[tid];
    sim_thread *th = &u->threads[tid];
    const uint64_t t = *tp;
    const uint32_t pc = c->pc;
    if (m->slow) {
        func_sync(u, tl, t);
        if (dbg_before_insn(m, u, tid, pc))
            return 1;
    }
    u->last_issue = t;
    c->last_issue = t;
    ipu_issue is;
    const uint64_t insns0 = th->instructions;
    const int rc = ipu_exec_bundle(m, u, tl, tid, t, &is);
    prof_state *prof = dbg_profile(m);
    if (prof) /* --profile without the hooks (isa_ops.profile_fast): what prof_record does */
        prof_issue(prof, u->index * prof->tpu + tid, pc, t, insns0, NULL);
    if (rc == 0) {
        th->instructions += (uint64_t)is.ninsn;
        th->issue_cycles++;
        if (tid == IPU_SUP && c->pc == IPU_HOST_RETURN) {
            c->state = IPU_CS_RETURNED;
            c->exited_at = t + 1;
        }
    }
    if (tid != IPU_SUP && c->state != IPU_CS_ACTIVE) /* an exit (or an exception) ends its vertex run */
        sim_task_end(m, u->index, tid, t + 1);
    *tp = t + 1;
    if (m->slow) {
        func_sync(u, tl, t + 1);
        dbg_after_insn(m, u, tid, pc);
    }
    if (m->max_instructions && sim_total_instructions(m) >= m->max_instructions)
        sim_set_stop_at(m, SIM_STOP_LIMIT, u->index, tid, c->pc, t, "instruction limit reached");
    if (tl->x.xend) { /* a put of $INCOMING_MUX ends the burst (exchange.c) */
        tl->x.xend = 0;
        return 1;
    }
    return sim_stopped(m) ? 1 : 0;
}

uint64_t ipu_run_func(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon)
{
    ipu_tile *tl = ipu_t(u);
    const ipu_machine *im = tl->im;
    uint64_t t = now;
    /* the same conditions as the cycle model's fast loop (barrel.c): the per-bundle hooks
     * (debugger, trace, profile), an instruction limit and watchpoints need every bundle to
     * go through ipu_exec_bundle; they change only while no unit runs */
    const int fast = !dbg_hooks(m) && !dbg_bp_map(m) && !(m->dbg && m->dbg->watching) && !m->max_instructions &&
                     im->predecode && !tl->tmem->nwatch;
    prof_state *const prof = dbg_profile(m);
    while (t < horizon) {
        if (sim_stopped(m))
            break;
        int tid = -1;
        for (int i = 0; i < IPU_NCTX; i++) {
            const int x = (tl->fcur + i) % IPU_NCTX;
            if (runnable(tl, x)) {
                tid = x;
                break;
            }
        }
        if (tid < 0) {
            func_sync(u, tl, t);
            if (tl->ctx[IPU_SUP].state == IPU_CS_RETURNED && !ipu_active_workers(tl)) {
                sim_unit_halt(m, u, t);
                ipu_xchg_halted(m, tl, t);
            }
            /* else a context excepted: the run has stopped already */
            return SIM_NEVER;
        }
        tl->fcur = (uint8_t)tid;
        uint64_t budget = horizon - t < IPU_FUNC_BURST ? horizon - t : IPU_FUNC_BURST;
        while (budget && runnable(tl, tid)) {
            if (fast && tid != IPU_SUP) {
                /* with a debugger attached (the host may have written memory between runs)
                 * or a profile: the loop that checks every entry against its word */
                const uint64_t n = m->dbg ? ipu_fx_burst_prof(u, tl, tid, budget, t, prof)
                                          : ipu_fx_burst(u, tl, tid, budget, t);
                t += n;
                budget -= n;
                if (!budget)
                    break;
            }
            if (func_step(m, u, tl, tid, &t)) {
                func_sync(u, tl, t);
                return t;
            }
            budget--;
        }
        tl->fcur = (uint8_t)((tid + 1) % IPU_NCTX);
    }
    func_sync(u, tl, t);
    return t;
}

/* A fast-forward ended (m->functional cleared between two unit_run calls): the barrel goes
 * on from the tile's next cycle T (the one after its last issue) with empty pipelines.
 * Active workers issue from their slot's first turn at or after T; the supervisor is ready
 * at T with no pending result, taken branch or wait (a `sync LOCAL` still waiting for
 * workers keeps waiting); no transcendental hold is pending. */
void ipu_timing_resume(sim_machine *m)
{
    for (int i = 0; i < m->nunits; i++) {
        sim_unit *u = &m->units[i];
        ipu_tile *tl = ipu_t(u);
        const uint64_t T = u->last_issue == SIM_NEVER ? 0 : u->last_issue + 1;
        for (int k = 0; k < IPU_NSLOTS; k++) {
            ipu_ctx *w = &tl->ctx[IPU_WORKER(k)];
            w->fpu_hold = 0;
            if (w->state == IPU_CS_ACTIVE) {
                w->next = T + (uint64_t)((k - (int)(T % IPU_NSLOTS) + IPU_NSLOTS) % IPU_NSLOTS);
                /* the timed part books a context's stalls from T, not from its last
                 * functional step */
                w->last_issue = T ? T - 1 : SIM_NEVER;
            }
        }
        ipu_ctx *s = &tl->ctx[IPU_SUP];
        for (int r = 0; r < 16; r++)
            s->reg_ready[r] = 0;
        s->branch_ready = 0;
        if (s->sync_ready != SIM_NEVER) /* (a wait for other tiles or words goes on) */
            s->sync_ready = 0;
        if (s->state == IPU_CS_ACTIVE) {
            s->next = T;
            s->last_issue = T ? T - 1 : SIM_NEVER;
        }
        ipu_sync_threads(u, tl);
    }
}
