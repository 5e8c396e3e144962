/* core/batch.c: batches of event-coupled units (issue 11 pt 2: the BSP pattern; the
 * contract in isa/isa.h, the picture in docs/architecture.md "Coupling"). An event-coupled
 * unit runs until it blocks, so the loop takes every such unit due before the next other
 * event and runs their bursts, on -o jobs=N host threads, with every schedule and wake they
 * make deferred (core/wake.c) and applied after the join in the batch's order, so that the
 * queue sees the same sequence for every N. A unit's fault inside a batch finishes every
 * burst of the batch and reports the earliest fault by (cycle, unit) (batch_finish). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"
#include "run.h"
#include "../isa/isa.h"

void sim_run_free(sim_machine *m)
{
    sim_batch *b = m->batch;
    if (!b)
        return;
    for (int k = 0; k <= b->njobs_max; k++)
        free(b->jobs[k].d);
    free(b->units);
    free(b->job_of);
    free(b->cut);
    free(b->finished);
    free(b->raised);
    free(b->reached);
    free(b);
    m->batch = NULL;
}

static sim_batch *batch_get(sim_machine *m)
{
    if (m->batch)
        return m->batch;
    int jobs = m->jobs > 0 ? m->jobs : 1;
    sim_batch *b = calloc(1, sizeof *b + (size_t)(jobs + 1) * sizeof b->jobs[0]);
    if (!b)
        return NULL;
    b->m = m;
    b->njobs_max = jobs;
    size_t n = (size_t)(m->nunits ? m->nunits : 1);
    b->units = malloc(sizeof *b->units * n);
    b->job_of = malloc(sizeof *b->job_of * n);
    b->cut = calloc(n, 1);
    b->finished = calloc(n, 1);
    b->raised = calloc(n, 1);
    b->reached = calloc(n, sizeof *b->reached);
    m->batch = b;
    if (!b->units || !b->job_of || !b->cut || !b->finished || !b->raised || !b->reached) {
        sim_run_free(m);
        return NULL;
    }
    for (int k = 0; k <= jobs; k++)
        b->jobs[k].b = b;
    return b;
}

sim_batch *run_batch_marks(sim_machine *m, int on)
{
    sim_batch *b = on ? batch_get(m) : m->batch;
    if (!b)
        return NULL;
    if (on)
        memset(b->raised, 0, (size_t)(m->nunits ? m->nunits : 1));
    b->marking = on;
    return b;
}

/* One event-coupled unit's burst from u->burst_at: until it blocks or the run's limits.
 * u->burst_next: where it goes on (SIM_NEVER: blocked, halted, or stopped by its watchdog).
 * Returns 1 if the burst was cut short by another unit's stop: it returned before its
 * horizon, not blocked, not halted, with its coupling unchanged, while the machine was
 * stopped by someone else (isa/isa.h: an event-coupled burst ends before its horizon only
 * when the unit blocks, halts, stops or changes its coupling). */
static int batch_burst(sim_machine *m, sim_unit *u)
{
    uint64_t t = u->burst_at;
    u->burst_next = SIM_NEVER;
    if (u->halted || !u->enabled)
        return 0;
    run_unit_watchdog_fresh(m, u, t);
    if (run_unit_watchdog(m, u, t))
        return 0;
    uint64_t h = sim_unit_cycle_at(u, run_horizon(m, sim_unit_tick(u, t), 1, SIM_NEVER));
    if (m->watchdog && u->wd_next < h)
        h = u->wd_next;
    const uint8_t coupling = u->coupling;
    uint64_t next = m->isa->unit_run(m, u, t, h);
    if (u->halted || !u->enabled)
        return 0; /* its end is halted_at; how far the burst went after is no result (the
                   * last unit to halt sees the machine stopped, whichever host thread) */
    if (next == SIM_NEVER) {
        u->wd_stale = 1; /* blocked: waiting for another unit is no livelock */
        return 0;
    }
    uint64_t r = next < h ? next : h;
    if (r && r - 1 > u->reached)
        u->reached = r - 1;
    if (run_unit_watchdog(m, u, r))
        return 0;
    u->burst_next = next;
    return next < h && u->coupling == coupling && sim_stopped(m) && !m->batch->raised[u->index];
}

static void batch_run_job(sim_batch_job *j)
{
    sim_batch *b = j->b;
    sim_machine *m = b->m;
    for (;;) {
        if (sim_stopped(m))
            return;
        int pos = __atomic_fetch_add(&b->next, 1, __ATOMIC_RELAXED);
        if (pos >= b->n)
            return;
        b->job_of[pos] = (int)(j - b->jobs);
        j->pos = pos;
        b->cut[pos] = (uint8_t)batch_burst(m, b->units[pos]);
        if (b->seq_checks)
            run_insn_check(m);
    }
}

static void *batch_thread(void *arg)
{
    sim_batch_job *j = arg;
    j->self = pthread_self(); /* before its first burst can defer anything */
    __atomic_store_n(&j->live, 1, __ATOMIC_RELEASE);
    batch_run_job(j);
    return NULL;
}

/* A unit stopped the run with a fault (or an illegal instruction, or its own livelock)
 * inside the batch. On several host threads the other bursts end wherever they see the
 * stop, and on one the positions after it are not run: what the other units did would
 * depend on -o jobs=. So every burst of the batch is finished here, on this thread, in the
 * batch's order: those cut short go on from where they ended (burst ends change nothing
 * simulated) and those not run run; each sees only its own stop. The stop reported is the
 * earliest of the batch's faults by (cycle, unit). Results (the stop, every unit's counts)
 * are then those of a batch whose bursts all ran to their ends, for every jobs=. */
static void batch_finish(sim_machine *m, sim_batch *b)
{
    sim_batch_job *f = &b->jobs[b->njobs_max];
    f->n = f->applied = 0;
    f->oom = 0;
    b->finishing = 1;
    for (int i = 0; i < b->n; i++) {
        sim_unit *u = b->units[i];
        if (b->job_of[i] >= 0 && !b->cut[i])
            continue;
        if (b->job_of[i] >= 0) {
            u->burst_at = u->burst_next; /* where the cut burst ended */
            u->reached = b->reached[i]; /* as if it had not ended there */
        }
        b->finished[i] = 1;
        sim_stop keep = m->stop;
        m->stop.kind = SIM_STOP_NONE; /* the burst sees only a stop of its own */
        f->pos = i;
        batch_burst(m, u);
        if (!run_unit_fault(m->stop.kind, m->stop.unit) ||
            !run_stop_before(m, m->stop.cycle, m->stop.unit, keep.cycle, keep.unit))
            m->stop = keep; /* (a halt after a fault: the fault) */
    }
    b->finishing = 0;
}

/* The batch that starts with first (just popped): first and every event-coupled unit's run
 * event before the next other event and within `until`, in the queue's order. Their bursts
 * run on this thread or, with -o jobs=N (and nothing that must stop in the batch's order:
 * instruction caps, fast-forward markers, the debugger), on N host threads; then, position by
 * position, what each burst scheduled or woke, and its own next run event. The order of
 * everything that reaches the queue is thus the batch's, whatever N. */
void run_batch(sim_machine *m, sim_unit *first, uint64_t until)
{
    sim_batch *b = batch_get(m);
    if (!b) {
        sim_set_stop(m, SIM_STOP_ERROR, -1, -1, 0, "out of memory for a batch of event-coupled units");
        return;
    }
    b->n = 0;
    first->burst_at = sim_unit_cycle_at(first, first->ev.when); /* its own cycles (core/clock.h) */
    b->units[b->n++] = first;
    const sim_unit *rf = run_ring_first(m); /* a cycle-coupled unit's event ends the batch too */
    /* (a unit's run event is first's kind: no reference up to run.c, which runs batches) */
    for (ev_event *e; (e = ev_peek(&m->q)) && e->fn == first->ev.fn && e->when <= until;) {
        sim_unit *u = e->ctx;
        if (u->coupling != SIM_COUPLE_EVENT || (rf && ev_before(&rf->ev, e)))
            break;
        ev_pop(&m->q);
        u->burst_at = sim_unit_cycle_at(u, e->when);
        b->units[b->n++] = u;
    }
    for (int i = 0; i < b->n; i++) {
        b->job_of[i] = -1;
        b->cut[i] = b->finished[i] = 0;
        b->raised[b->units[i]->index] = 0;
        b->reached[i] = b->units[i]->reached;
    }
    int jobs = m->jobs < b->n ? m->jobs : b->n;
    b->seq_checks = run_insn_cap(m) != 0;
    /* one host thread where a stop must come in the batch's order: instruction caps,
     * fast-forward markers, the debugger's breakpoints, watchpoints and steps (m->slow) */
    if (b->seq_checks || m->ff_armed || m->slow || jobs < 1)
        jobs = 1;
    b->njobs = jobs;
    b->next = 0;
    for (int k = 0; k < jobs; k++) {
        b->jobs[k].n = b->jobs[k].applied = 0;
        b->jobs[k].pos = 0;
        b->jobs[k].live = b->jobs[k].started = 0;
    }
    b->jobs[0].self = pthread_self();
    b->jobs[0].live = 1;
    b->active = 1;
    if (jobs > 1)
        m->in_parallel = 1;
    for (int k = 1; k < jobs; k++) /* a job whose thread cannot start takes no position */
        b->jobs[k].started = !pthread_create(&b->jobs[k].tid, NULL, batch_thread, &b->jobs[k]);
    batch_run_job(&b->jobs[0]);
    for (int k = 1; k < jobs; k++)
        if (b->jobs[k].started)
            pthread_join(b->jobs[k].tid, NULL);
    m->in_parallel = 0;
    /* a unit's fault: the batch's other bursts are finished (batch_finish) */
    if (run_unit_fault(m->stop.kind, m->stop.unit) && !m->slow && !m->ff_armed && !b->seq_checks)
        batch_finish(m, b);
    b->active = 0;
    int oom = 0;
    sim_batch_job *f = &b->jobs[b->njobs_max]; /* the finish's schedules and wakes */
    oom |= f->oom;
    for (int i = 0; i < b->n; i++) {
        sim_unit *u = b->units[i];
        int k = b->job_of[i];
        if (k < 0 && !b->finished[i]) { /* not run: the run stopped first; it runs when the run goes on */
            sim_unit_wake(m, u, u->burst_at);
            continue;
        }
        for (int pass = 0; pass < 2; pass++) { /* the burst's, then its finish's */
            sim_batch_job *j = pass ? f : k >= 0 ? &b->jobs[k] : NULL;
            if (!j)
                continue;
            oom |= j->oom;
            for (; j->applied < j->n && j->d[j->applied].pos == i; j->applied++) {
                const sim_deferred *d = &j->d[j->applied];
                if (d->e)
                    sim_schedule(m, d->e, d->when);
                else
                    sim_unit_wake(m, d->u, d->when);
            }
        }
        if (u->burst_next != SIM_NEVER)
            sim_unit_wake(m, u, u->burst_next);
    }
    if (oom)
        sim_set_stop(m, SIM_STOP_ERROR, -1, -1, 0, "out of memory deferring the events of a batch");
}
