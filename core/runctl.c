/* core/runctl.c: the one run-control session of `xpusim run`, `xpusim debug` and
 * `xpusim gdbserver` (core/runctl.h). runctl_run is the only place that calls sim_run for
 * them: it resumes the thread last reported past its breakpoint, cuts the run into polled
 * slices (slice ends only move the run limit, so simulated results are those of one run),
 * switches to the cycle model at a fast-forward marker, passes over watchpoint hits that a
 * thread or condition filter rejects (core/debug.c dbg_watch_wanted), and tidies the stop
 * the way every frontend then reports it. */
#include <string.h>
#include "runctl.h"
#include "debug.h"
#include "../isa/isa.h"

void runctl_init(runctl *rc, sim_machine *m, uint64_t limit)
{
    memset(rc, 0, sizeof *rc);
    rc->m = m;
    rc->limit = limit ? limit : SIM_NEVER;
    rc->seen_unit = rc->seen_thread = -1;
}

int runctl_thread_live(const sim_machine *m, int unit, int thread)
{
    return unit >= 0 && unit < m->nunits && thread >= 0 && thread < m->units[unit].nthreads &&
           sim_thread_active(&m->units[unit].threads[thread]) && m->units[unit].enabled;
}

uint64_t runctl_now(const sim_machine *m)
{
    uint64_t now = m->now;
    for (int u = 0; u < m->nunits; u++)
        if (m->units[u].last_issue != SIM_NEVER && m->units[u].last_issue > now)
            now = m->units[u].last_issue;
    if (m->stop.kind == SIM_STOP_HALT && sim_end_cycle(m) > now)
        now = sim_end_cycle(m);
    return now;
}

void runctl_interrupt(sim_machine *m)
{
    /* sim_set_stop takes a mutex and formats text, neither async-signal-safe: a signal
     * handler may only swap the kind in; runctl_run fills in the rest */
    sim_stop_kind none = SIM_STOP_NONE;
    __atomic_compare_exchange_n(&m->stop.kind, &none, SIM_STOP_USER, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}

int runctl_ff_at_pc(runctl *rc, uint64_t pc, const char *label)
{
    snprintf(rc->ff_marker, sizeof rc->ff_marker, "%s", label);
    if (dbg_attach(rc->m) || (rc->ff_break = dbg_break_add(rc->m, pc, -1, 1, label)) < 0) {
        rc->ff_break = 0;
        return -1;
    }
    rc->ff_armed = 1;
    rc->m->ff_armed = 1;
    return 0;
}

void runctl_ff_at_insns(runctl *rc, uint64_t n, const char *label)
{
    snprintf(rc->ff_marker, sizeof rc->ff_marker, "%s", label);
    rc->ff_armed = 1;
    rc->m->ff_armed = 1;
    rc->m->ff_insns = n;
}

void runctl_ff_at_magic(runctl *rc, const char *label)
{
    snprintf(rc->ff_marker, sizeof rc->ff_marker, "%s", label);
    rc->ff_armed = 1;
    rc->m->ff_armed = 1;
    rc->m->ff_magic = 1;
}

/* Is the run's stop the armed marker? A symbol's temporary breakpoint is gone once hit. */
static int ff_at_marker(const runctl *rc)
{
    const sim_machine *m = rc->m;
    if (m->stop.kind == SIM_STOP_MARKER)
        return 1;
    if (m->stop.kind != SIM_STOP_BREAK || !rc->ff_break || !m->dbg)
        return 0;
    for (int i = 0; i < m->dbg->nbrk; i++)
        if (m->dbg->brk[i].id == rc->ff_break)
            return 0;
    return 1;
}

/* The marker is reached: switch to the cycle model. With ff_stop the run ends here as a
 * SIM_STOP_MARKER of the thread that reached it; else it goes on. 1: stopped here. */
static int ff_switch(runctl *rc)
{
    sim_machine *m = rc->m;
    sim_stop at = m->stop;
    rc->ff_armed = 0;
    rc->ff_break = 0;
    if (sim_ff_switch(m, rc->ff_marker, 1)) {
        m->stop.kind = SIM_STOP_NONE;
        sim_set_stop(m, SIM_STOP_ERROR, -1, -1, 0, "fast-forward: out of memory at the switch");
        return 1;
    }
    if (!rc->ff_stop)
        return 0;
    at.kind = SIM_STOP_MARKER;
    snprintf(at.msg, sizeof at.msg, "fast-forward marker %s reached after %llu instructions: the cycle model runs "
             "from here", rc->ff_marker, (unsigned long long)(m->ff ? m->ff->instructions : 0));
    m->stop = at;
    return 1;
}

int runctl_ff_finish(runctl *rc)
{
    sim_machine *m = rc->m;
    if (!rc->ff_armed)
        return 0;
    rc->ff_armed = 0;
    if (rc->ff_break)
        dbg_break_delete(m, rc->ff_break);
    rc->ff_break = 0;
    if (sim_ff_switch(m, rc->ff_marker, 0))
        return -1;
    rc->ff_missed = 1;
    return 1;
}

void runctl_finish(runctl *rc)
{
    if (!rc->finished && rc->m->isa->finish)
        rc->m->isa->finish(rc->m);
    rc->finished = 1;
}

sim_stop_kind runctl_run(runctl *rc, uint64_t until)
{
    sim_machine *m = rc->m;
    if (until > rc->limit)
        until = rc->limit;
    /* the thread the last stop was reported for resumes past a breakpoint at the PC it was
     * shown at (after a step onto one, say); marks are per thread, so the core's marks for
     * threads a breakpoint stopped stay. A thread merely selected is not excused: a
     * breakpoint it sits on has not been reported yet. */
    if (m->dbg && rc->seen_unit >= 0 && runctl_thread_live(m, rc->seen_unit, rc->seen_thread) && m->isa->pc_get &&
        m->isa->pc_get(m, rc->seen_unit, rc->seen_thread) == rc->seen_pc)
        dbg_skip_once(m, rc->seen_unit, rc->seen_thread, rc->seen_pc);
    /* with the hooks off (breakpoints and watchpoints only) the ISA's fast path runs and
     * records no history: the instructions it ran show as one gap */
    uint64_t insns0 = sim_total_instructions(m), hist0 = m->dbg ? m->dbg->nhist : 0;
    int interrupted = 0, same = 0;
    uint64_t next = until, last_insns = UINT64_MAX, last_cycle = 0;
    if (rc->slice && rc->poll) {
        uint64_t now = runctl_now(m);
        next = now / rc->slice < (SIM_NEVER - 1) / rc->slice ? (now / rc->slice + 1) * rc->slice : until;
    }
    for (;;) {
        uint64_t to = next < until ? next : until;
        sim_run(m, to);
        if (rc->ff_armed && ff_at_marker(rc)) {
            if (ff_switch(rc))
                break;
            continue;
        }
        if (m->stop.kind == SIM_STOP_WATCH && !dbg_watch_wanted(m)) {
            /* passed over; but an ISA that stopped before finishing the access would meet
             * it again at once: after 64 pass-overs with no instruction retired and no
             * cycle gone by, the stop stands rather than the loop going on forever */
            uint64_t n = sim_total_instructions(m);
            same = n == last_insns && m->stop.cycle == last_cycle ? same + 1 : 0;
            last_insns = n;
            last_cycle = m->stop.cycle;
            if (same < 64) {
                rc->watch_resumes++;
                continue;
            }
        }
        /* only the end of a slice goes on; the run's end and --max-insns are real stops */
        if (m->stop.kind != SIM_STOP_LIMIT || to >= until ||
            (m->max_instructions && sim_total_instructions(m) >= m->max_instructions))
            break;
        int p = rc->poll(rc->poll_ctx);
        if (p < 0) {
            rc->abandoned = 1;
            break;
        }
        if (p > 0) {
            interrupted = 1;
            break;
        }
        next = to + rc->slice > to ? to + rc->slice : until;
    }
    if (m->dbg) {
        uint64_t ran = sim_total_instructions(m) - insns0;
        if (ran && m->dbg->nhist == hist0)
            dbg_hist_gap(m, ran);
        dbg_clear_run_targets(m);
        m->dbg->step_unit = m->dbg->step_thread = -1;
    }
    if (interrupted) {
        m->stop.kind = SIM_STOP_USER;
        m->stop.msg[0] = 0;
    }
    sim_stop_kind k = m->stop.kind;
    rc->over = k == SIM_STOP_HALT || k == SIM_STOP_FAULT || k == SIM_STOP_ILLEGAL || k == SIM_STOP_DEADLOCK ||
               k == SIM_STOP_ERROR;
    rc->ran = 1;
    if (!rc->interactive)
        return k;
    /* isa->finish drains buffered program output and writes final reports: once, when the
     * program is over (or when the session ends), not at every stop */
    if (rc->over)
        runctl_finish(rc);
    fflush(m->out);
    /* A stop inside a burst is at the unit's last issue (an ISA that sets last_issue only
     * when its burst returns reported an older cycle). A watchpoint is the exception: a
     * device or DMA write stops at its own cycle (sim_set_stop_at), after the last issue,
     * so its cycle is only ever raised. */
    if (m->stop.unit >= 0 && m->stop.thread >= 0 && m->stop.unit < m->nunits &&
        m->units[m->stop.unit].last_issue != SIM_NEVER &&
        (k != SIM_STOP_WATCH || m->units[m->stop.unit].last_issue > m->stop.cycle))
        m->stop.cycle = m->units[m->stop.unit].last_issue;
    if (k == SIM_STOP_USER && !m->stop.msg[0]) {
        m->stop.unit = m->stop.thread = -1;
        m->stop.cycle = runctl_now(m);
        snprintf(m->stop.msg, sizeof m->stop.msg, "interrupted (Ctrl-C)");
    }
    return k;
}

sim_stop_kind runctl_continue(runctl *rc) { return runctl_run(rc, rc->limit); }

sim_stop_kind runctl_step(runctl *rc, int unit, int thread, uint64_t n)
{
    if (runctl_thread_live(rc->m, unit, thread))
        dbg_step(rc->m, unit, thread, n);
    return runctl_run(rc, rc->limit);
}

sim_stop_kind runctl_until_pc(runctl *rc, int unit, uint64_t pc)
{
    dbg_until(rc->m, pc);
    if (rc->m->dbg)
        rc->m->dbg->step_unit = unit; /* only that unit's arrival counts */
    return runctl_run(rc, rc->limit);
}

sim_stop_kind runctl_until_cycle(runctl *rc, uint64_t cycle, int unit, int thread)
{
    sim_machine *m = rc->m;
    int target = cycle < rc->limit;
    runctl_run(rc, target ? cycle : rc->limit);
    if (target && m->stop.kind == SIM_STOP_LIMIT && m->now == cycle) {
        m->stop.kind = SIM_STOP_STEP;
        m->stop.unit = unit;
        m->stop.thread = thread;
        m->stop.cycle = m->now;
        snprintf(m->stop.msg, sizeof m->stop.msg, "reached cycle %llu", (unsigned long long)cycle);
    }
    return m->stop.kind;
}

void runctl_stop_get(const runctl *rc, runctl_stop *st)
{
    const sim_stop *s = &rc->m->stop;
    *st = (runctl_stop){s->kind, s->unit, s->thread, s->pc, s->cycle, s->msg, rc->over};
}

void runctl_seen(runctl *rc, int unit, int thread)
{
    sim_machine *m = rc->m;
    rc->seen_unit = unit;
    rc->seen_thread = thread;
    rc->seen_pc = unit >= 0 && m->isa->pc_get ? m->isa->pc_get(m, unit, thread) : 0;
}

int runctl_waiting(const sim_machine *m, FILE *f, const char *prefix, int max)
{
    int shown = 0, more = 0;
    for (int i = 0; i < m->nunits; i++) {
        const sim_unit *u = &m->units[i];
        if (!u->enabled || u->halted)
            continue;
        for (int t = 0; t < u->nthreads; t++) {
            const sim_thread *th = &u->threads[t];
            if (!sim_thread_active(th))
                continue;
            if (shown == max) {
                more++;
                continue;
            }
            char st[200] = "";
            if (m->isa->thread_state)
                m->isa->thread_state((sim_machine *)m, i, t, st, sizeof st);
            if (!st[0]) /* an ISA without a view of its own: the core's schedule */
                snprintf(st, sizeof st, th->state == SIM_T_SLEEP ? "sleeping (waits for a wake-up)"
                                                                 : "ready at cycle %llu",
                         (unsigned long long)th->ready_at);
            fprintf(f, "%s%s thread %d: %s\n", prefix, u->name, t, st);
            shown++;
        }
    }
    if (more)
        fprintf(f, "%s(%d more threads not shown)\n", prefix, more);
    return shown + more;
}
