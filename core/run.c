/* core/run.c: the event-driven run loop.
 * The loop pops the earliest event and runs it; a unit's event calls the ISA's unit_run,
 * which simulates that unit back to back until the next other event (the horizon), so the
 * heap is touched once per burst, not once per instruction, and idle stretches cost one
 * pop. How far a burst may go is the unit's coupling contract (issue 11; isa/isa.h): a
 * cycle-coupled unit's ends at the next other event; event-coupled units run until they
 * block, in batches (core/batch.c: every such unit due before the next other event, their
 * bursts on -o jobs=N host threads, then the other events in time order: the BSP pattern);
 * units that never interact (isa->independent_units) run to the limit in one call, and with
 * -o jobs=N on N host threads (here). Also here: the unit and watchdog events and the
 * progress reports. The other run files are below this one (core/run.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sim.h"
#include "run.h"
#include "../isa/isa.h"

static double host_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The watchdog: an event every `watchdog` cycles, after everything else of its cycle (the
 * coupled units' bursts end at it, as at any event). If no thread retired an instruction
 * since the last check, the threads are not waiting for anything that will come (that is
 * a deadlock, found when the queue empties) but the model keeps stepping without progress:
 * a livelock, which would otherwise spin for ever. */
void sim_run_watchdog_event(ev_event *e, void *ctx)
{
    sim_machine *m = ctx;
    uint64_t n = sim_total_instructions(m);
    /* decoupled units run ahead of this check and are watched on their own
     * (run_unit_watchdog): the check is for machines with a live cycle-coupled unit */
    int coupled = 0;
    for (int i = 0; i < m->nunits && !coupled; i++) {
        const sim_unit *u = &m->units[i];
        coupled = u->enabled && !u->halted && !run_decoupled(u);
    }
    /* `watchdog` cycles of the slowest unit: ticks are cycles on a machine of one clock */
    const uint64_t w = sim_watchdog_ticks(m);
    if (coupled && n == m->wd_insns && m->nhalted < m->nenabled) {
        sim_set_stop_at(m, SIM_STOP_DEADLOCK, -1, -1, 0, m->now,
                        "livelock: no instruction retired in cycles %llu-%llu; -o watchdog=0 turns this check off",
                        (unsigned long long)(m->now - w), (unsigned long long)m->now);
        return;
    }
    m->wd_insns = n;
    sim_schedule(m, e, m->now + w);
}

void sim_run_unit_event(ev_event *e, void *ctx)
{
    (void)e;
    sim_unit *u = ctx;
    sim_machine *m = u->m;
    if (u->halted || !u->enabled)
        return;
    const int dec = run_decoupled(u);
    if (!dec) {
        if (u->period > 1)
            run_cycle_burst_clocked(m, u, run_ring_next_time(m));
        else
            run_cycle_burst(m, u, run_ring_next_time(m));
        return;
    }
    const uint64_t now = sim_unit_now(m, u); /* its own cycles from here (core/clock.h) */
    if (dec)
        run_unit_watchdog_fresh(m, u, now);
    if (dec && run_unit_watchdog(m, u, now))
        return; /* it slept past a boundary without retiring anything since the one before */
    uint64_t h = sim_unit_cycle_at(u, run_horizon(m, m->now, dec, SIM_NEVER));
    if (dec && m->watchdog && u->wd_next < h)
        h = u->wd_next; /* the unit's own watchdog boundary (run_unit_watchdog) */
    uint64_t next = m->isa->unit_run(m, u, now, h);
    /* a unit runs in bursts ahead of m->now: remember how far, so a run stopped in the
     * middle of a burst (Ctrl-C) reports the cycles it simulated, not the burst's start */
    if (next != SIM_NEVER) {
        uint64_t r = (next < h ? next : h);
        if (r && r - 1 > u->reached)
            u->reached = r - 1;
    }
    if (dec && next == SIM_NEVER && u->coupling == SIM_COUPLE_EVENT)
        u->wd_stale = 1; /* blocked: it waits for another unit, which is no livelock */
    else if (dec && run_unit_watchdog(m, u, next < h ? next : h))
        return;
    if (next != SIM_NEVER && !u->halted && u->enabled)
        sim_unit_wake(m, u, next);
}

void sim_run_clocked_event(ev_event *e, void *ctx)
{
    sim_run_unit_event(e, ctx);
}

/* ---- parallel runs of independent units ---- */
typedef struct sim_job {
    sim_machine *m;
    int *next;     /* the next unit to claim, shared by the jobs (atomic) */
    uint64_t last; /* latest time (tick) reached by this job's units */
    int finished;  /* set (atomic) when the job's last unit is done */
} sim_job;

/* Run independent unit u on this host thread from u->ev.when (off the queue) until the
 * run's limit (lim_tick), its halt, its own watchdog or a stop; u->ev.when: where it goes on.
 * Returns the tick its simulation reached. */
static uint64_t indep_run(sim_machine *m, sim_unit *u, uint64_t lim_tick)
{
    const uint64_t wd = m->watchdog;
    /* the unit's own cycles (core/clock.h): those that start before the limit's tick */
    const uint64_t lim = sim_unit_cycle_at(u, lim_tick), last = lim == SIM_NEVER ? SIM_NEVER : lim - 1;
    uint64_t t = sim_unit_cycle_at(u, u->ev.when);
    while (t < lim && !u->halted && !sim_stopped(m) && !run_unit_watchdog(m, u, t)) {
        /* bursts end at the unit's watchdog boundaries, as in a sequential run (burst ends
         * change nothing simulated) */
        uint64_t h = wd && u->wd_next < lim ? u->wd_next : lim;
        uint64_t next = m->isa->unit_run(m, u, t, h);
        if (next <= t && !sim_stopped(m))
            next = t + 1;
        t = next;
        if (run_unit_watchdog(m, u, t < h ? t : h))
            break;
    }
    u->ev.when = sim_unit_tick(u, t); /* rescheduled on the shared queue after the run */
    /* the cycle this unit's simulation reached: its halt, else the limit it ran to, else
     * (stopped) the cycle before the one it goes on at, as a sequential burst counts it */
    uint64_t reached = u->halted ? u->halted_at : t == SIM_NEVER ? 0 : t > last ? last : t ? t - 1 : 0;
    if (reached > u->reached && !u->halted)
        u->reached = reached;
    return sim_unit_tick(u, reached);
}

/* A unit's fault (a fault, an illegal instruction, its own livelock) among independent
 * units (session 24's rule, as batch_finish for a batch): on several host threads the other
 * units would end wherever they saw the stop, and on one the units after it would not run,
 * so what they did would depend on -o jobs=. So every unit that has not ended (its halt,
 * the limit, or a stop of its own: `raised`, or the unit `own` when raised is NULL) runs on
 * here, on this thread in unit order, seeing only a stop of its own; the stop reported is
 * the earliest fault by (time, unit). From the queue (queued: the sequential loop's events,
 * put back after) or from u->ev.when (the parallel path's). Returns the latest tick
 * reached. */
static uint64_t indep_finish(sim_machine *m, const uint8_t *raised, int own, uint64_t until, int queued)
{
    const uint64_t lim_tick = until == SIM_NEVER ? SIM_NEVER : until + 1;
    uint64_t last = 0;
    for (int i = 0; i < m->nunits; i++) {
        sim_unit *u = &m->units[i];
        if (!u->enabled || u->halted || (raised ? raised[i] : i == own))
            continue;
        if (queued && (!ev_pending(&u->ev) || u->ev.when > until))
            continue;
        if (!queued && u->ev.when >= lim_tick)
            continue;
        if (queued)
            ev_cancel(&m->q, &u->ev); /* u->ev.when stays */
        sim_stop keep = m->stop;
        m->stop.kind = SIM_STOP_NONE; /* the unit sees only a stop of its own */
        uint64_t r = indep_run(m, u, lim_tick);
        last = r > last ? r : last;
        if (!run_unit_fault(m->stop.kind, m->stop.unit) ||
            !run_stop_before(m, m->stop.cycle, m->stop.unit, keep.cycle, keep.unit))
            m->stop = keep; /* (a halt after a fault: the fault) */
        if (queued && !u->halted && u->ev.when != SIM_NEVER)
            sim_schedule(m, &u->ev, u->ev.when);
    }
    return last;
}

/* Stops that must come in simulated-time order (instruction caps, fast-forward markers, the
 * debugger's hooks): independent units then run on the loop's thread and a stop ends the
 * run where it comes, with no finish. */
static int indep_seq_only(const sim_machine *m) { return m->slow || run_insn_cap(m) || m->ff_armed; }

/* After the sequential loop stopped on a unit's fault: the other units run to their ends
 * (indep_finish), unless the parallel path ran (it finished them itself). */
static void indep_after_loop(sim_machine *m, uint64_t until)
{
    if (indep_seq_only(m) || (m->batch && m->batch->par_ran))
        return;
    uint64_t l = indep_finish(m, NULL, m->stop.unit, until, 1);
    m->now = l > m->now ? l : m->now;
}

static void *sim_job_main(void *arg)
{
    sim_job *j = arg;
    sim_machine *m = j->m;
    const uint64_t lim_tick = m->limit == SIM_NEVER ? SIM_NEVER : m->limit + 1;
    /* units are claimed one at a time, not dealt out in advance: a host thread that the
     * host's other work slows takes fewer of them, and the run ends with both busy (which
     * job runs a unit changes nothing: the units are independent) */
    for (int i; !sim_stopped(m) && (i = __atomic_fetch_add(j->next, 1, __ATOMIC_RELAXED)) < m->nunits;) {
        uint64_t r = indep_run(m, &m->units[i], lim_tick);
        if (r > j->last)
            j->last = r;
        __atomic_add_fetch(&m->par_units_done, 1, __ATOMIC_RELAXED);
    }
    __atomic_store_n(&j->finished, 1, __ATOMIC_RELEASE);
    return NULL;
}

void sim_set_progress(sim_machine *m, void (*fn)(void *ctx, const sim_progress *p), void *ctx, double every)
{
    m->progress_fn = fn;
    m->progress_ctx = ctx;
    m->progress_every = every > 0 ? every : 0.5;
    m->progress_read = host_now();
    m->progress_next = m->progress_read + m->progress_every;
    m->progress_stride = 1;
    m->progress_tick = 0;
}

/* Sequential runs: a report when its time has come. The clock is read every `stride`
 * events, the stride adapted so that reads come about every 10 ms whether events are a
 * cycle apart (Nyuzi) or a watchdog period apart (one DPU). */
static void progress_check(sim_machine *m)
{
    if (++m->progress_tick < m->progress_stride)
        return;
    double t = host_now(), dt = t - m->progress_read;
    /* grow at most twofold per read, so one fast event early on cannot stop the reads */
    double want = dt > 0 ? (double)m->progress_stride * 0.01 / dt : (double)m->progress_stride * 2;
    if (want > (double)m->progress_stride * 2)
        want = (double)m->progress_stride * 2;
    m->progress_stride = want < 1 ? 1 : want > 1e6 ? 1000000 : (unsigned)want;
    m->progress_tick = 0;
    m->progress_read = t;
    if (t < m->progress_next)
        return;
    m->progress_next = t + m->progress_every;
    sim_progress p = {m->now, sim_total_instructions(m), 0, 0, m->nunits};
    m->progress_fn(m->progress_ctx, &p);
}

/* Parallel runs: this thread waits for the jobs, reporting the units done meanwhile. */
static void progress_wait(sim_machine *m, sim_job *job, int jobs)
{
    const struct timespec nap = {0, 20 * 1000 * 1000};
    for (;;) {
        int done = 1;
        for (int k = 0; k < jobs && done; k++)
            done = __atomic_load_n(&job[k].finished, __ATOMIC_ACQUIRE);
        if (done)
            return;
        nanosleep(&nap, NULL);
        double t = host_now();
        if (t >= m->progress_next) {
            m->progress_next = t + m->progress_every;
            sim_progress p = {0, 0, 1, __atomic_load_n(&m->par_units_done, __ATOMIC_RELAXED), m->nunits};
            m->progress_fn(m->progress_ctx, &p);
        }
    }
}

static void sim_run_parallel(sim_machine *m)
{
    int jobs = m->jobs < m->nunits ? m->jobs : m->nunits;
    pthread_t tid[1024];
    sim_job job[1024];
    /* take every pending unit event off the heap; the jobs own the units now */
    for (int i = 0; i < m->nunits; i++) {
        sim_unit *u = &m->units[i];
        uint64_t when = ev_pending(&u->ev) ? u->ev.when : SIM_NEVER;
        ev_cancel(&m->q, &u->ev);
        u->ev.when = when;
    }
    /* which units raise a stop, and of two faults the earliest (a unit's fault: indep_finish) */
    sim_batch *marks = run_batch_marks(m, 1);
    if (marks)
        marks->par_ran = 1;
    m->in_parallel = 1;
    m->par_units_done = 0;
    int next = 0;
    for (int k = 0; k < jobs; k++) {
        job[k] = (sim_job){m, &next, 0, 0};
        if (pthread_create(&tid[k], NULL, sim_job_main, &job[k])) {
            sim_job_main(&job[k]);
            tid[k] = 0;
        }
    }
    uint64_t last = m->now;
    if (m->progress_fn)
        progress_wait(m, job, jobs);
    for (int k = 0; k < jobs; k++) {
        if (tid[k])
            pthread_join(tid[k], NULL);
        if (job[k].last > last)
            last = job[k].last;
    }
    m->in_parallel = 0;
    m->now = last;
    if (marks) {
        run_batch_marks(m, 0);
        if (run_unit_fault(m->stop.kind, m->stop.unit)) {
            uint64_t l = indep_finish(m, marks->raised, -1, m->limit, 0);
            m->now = l > m->now ? l : m->now;
        }
    }
    for (int i = 0; i < m->nunits; i++) {
        sim_unit *u = &m->units[i];
        uint64_t when = u->ev.when;
        u->ev.when = SIM_NEVER;
        if (!u->halted && u->enabled && when != SIM_NEVER)
            sim_schedule(m, &u->ev, when);
    }
}

static int only_unit_events(const sim_machine *m)
{
    for (uint32_t i = 0; i < m->q.n; i++) {
        const ev_event *e = m->q.heap[i];
        if (e->fn != sim_run_unit_event && e != &m->wd_ev)
            return 0;
    }
    return 1;
}

/* ev_before of two ring units due at the same cycle (the sort's) */
static inline int ring_before(const sim_unit *a, const sim_unit *b)
{
    return a->ev.prio != b->ev.prio ? a->ev.prio < b->ev.prio : a->ev.seq < b->ev.seq;
}

/* After a burst of the ring's unit at cycle c (the loop chose it: no queued event before
 * it): the ring's units due at c run now, in the queue's order, without the loop's choice
 * between bursts. Four Nyuzi cores in step are four bursts of one cycle, and the choice
 * (the queue's head, the ring's scan in ev_before order, the checks) was most of the run
 * loop's cost. The loop would choose exactly these units in exactly this order as long as
 * the queue's first event is after c and each is still due at c when its turn comes (a
 * burst may halt, disable, decouple or wake units, or schedule events; a unit it wakes to c
 * takes a later insertion number than every unit of the round, so it comes after them):
 * each burst checks both and otherwise leaves the choice to the loop. Its horizon is the
 * loop's: c + 1 while the unit after it is still due at c or the one before it is due
 * again by c + 1 (the next event is at most c + 1, and every burst runs at least one cycle:
 * run_horizon); else the next event on the queue or the ring. The limits, progress and
 * instruction caps are checked after each burst as after any event. Then the next round
 * starts at the ring's earliest cycle c' (a unit woken to c: c again) when the loop would
 * choose the same: c' before the queue's first event and within the plain limit
 * (m->run_lim, set only when there are no progress reports or instruction caps to check
 * between events); the loop's choice is then the ring's first unit by ev_before, which is
 * the round's first, with the horizon the round gives it (c' + 1 when another unit is due
 * at c', else the next event on the queue or the ring), and the loop's round after it takes
 * the others due at c'. (No unit is woken to a cycle before the loop's: the collection
 * gives up if it finds one.) Four cores in step so cost the loop's choice once, not once a
 * cycle. */
static void run_ring_round(sim_machine *m, uint64_t c)
{
    sim_unit *l[SIM_RING_MAX];
    for (;;) {
        int n = 0, ordered = 1;
        uint64_t at = SIM_NEVER; /* the ring's earliest cycle, its units in l[] */
        /* in ev_before order if their insertion numbers rise (the ring's units are of one
         * priority, sim_run; the numbers are distinct): the last unit's kept here */
        uint64_t seq = 0;
        for (int i = 0; i < m->nring; i++) { /* the due units */
            sim_unit *u = m->ring[i];
            if (u->ring != 2 || u->ev.when > at)
                continue;
            if (u->ev.when < at) {
                if (u->ev.when < c)
                    return; /* (woken into the past: the loop decides) */
                at = u->ev.when;
                n = 0;
                ordered = 1;
                seq = 0;
            }
            ordered &= u->ev.seq >= seq;
            seq = u->ev.seq;
            l[n++] = u;
        }
        if (!ordered) { /* in ev_before order; the ring in that order when all are due (the
                         * bursts' wakes keep it, so the next round finds it in order) */
            for (int j = 1; j < n; j++) {
                sim_unit *u = l[j];
                int k = j;
                for (; k > 0 && ring_before(u, l[k - 1]); k--)
                    l[k] = l[k - 1];
                l[k] = u;
            }
            if (n == m->nring)
                memcpy(m->ring, l, sizeof l[0] * (size_t)n);
        }
        if (at != c) { /* a new cycle: the loop's choice, as above */
            if (!n || at >= m->run_lim || at >= ev_next_time(&m->q))
                return;
            m->now = c = at;
        }
        for (int j = 0; j < n; j++) {
            sim_unit *u = l[j];
            if (sim_stopped(m) || u->ring != 2 || u->ev.when != c || ev_next_time(&m->q) <= c)
                return;
            u->ring = 1; /* taken: off the ring's due units, as the loop marks its choice */
            /* (a burst may have moved l[j + 1]; the one before, due by c + 1, gives the
             * horizon the ring's scan would: at most c + 1, and a burst runs at least to
             * c + 1) */
            const int next_due = (j + 1 < n && l[j + 1]->ring == 2 && l[j + 1]->ev.when == c) ||
                                 (j && l[j - 1]->ring == 2 && l[j - 1]->ev.when <= c + 1);
            run_cycle_burst_live(m, u, next_due ? c : run_ring_next_time(m), 1);
            if (!m->run_lim) { /* (else neither checks anything) */
                if (m->progress_fn)
                    progress_check(m);
                run_insn_check(m);
            }
        }
        if (sim_stopped(m))
            return;
    }
}

sim_stop_kind sim_run(sim_machine *m, uint64_t until)
{
    double t0 = host_now();
    m->limit = until;
    if (m->nhalted >= m->nenabled) {
        m->stop.kind = SIM_STOP_NONE;
        sim_set_stop_at(m, SIM_STOP_HALT, -1, -1, 0, sim_end_cycle(m), "all %d units halted", m->nenabled);
        return m->stop.kind;
    }
    m->stop.kind = SIM_STOP_NONE;
    m->stop.msg[0] = 0;
    m->run_lim = !m->max_instructions && !m->ff_insns && !m->ff_armed && !m->progress_fn
                     ? (until == SIM_NEVER ? SIM_NEVER : until + 1)
                     : 0;
    /* an instruction limit counts the machine's total in simulated-time order, which host
     * threads cannot keep: with one set, the units run on this thread, so the stop point is
     * the same for every -o jobs= (and the same from run to run) */
    if (m->batch)
        m->batch->par_ran = 0;
    if (m->jobs > 1 && m->isa->independent_units && !indep_seq_only(m) && only_unit_events(m))
        sim_run_parallel(m); /* (it sets m->batch->par_ran: nothing more live across the loop) */
    while (!sim_stopped(m)) {
        ev_event *e = ev_peek(&m->q);
        uint64_t rest = SIM_NEVER; /* the earliest of the ring's other due units */
        sim_unit *r = m->nring ? run_ring_scan(m, &rest) : NULL, *from_ring = NULL;
        if (r && (!e || ev_before(&r->ev, e)))
            e = &(from_ring = r)->ev; /* the ring's unit comes first */
        else if (!e || (e == &m->wd_ev && m->q.n == 1 && !r)) { /* the watchdog alone wakes nobody */
            if (m->nhalted >= m->nenabled)
                sim_set_stop_at(m, SIM_STOP_HALT, -1, -1, 0, sim_end_cycle(m), "all %d units halted", m->nenabled);
            else
                sim_set_stop(m, SIM_STOP_DEADLOCK, -1, -1, 0,
                             "deadlock at cycle %llu: %d unit(s) not halted and nothing left that can wake them",
                             (unsigned long long)m->now, m->nenabled - m->nhalted);
            break;
        }
        if (e->when > until) {
            if (until > m->now)
                m->now = until;
            sim_set_stop(m, SIM_STOP_LIMIT, -1, -1, 0, "cycle limit %llu reached", (unsigned long long)until);
            break;
        }
        uint64_t next_other; /* the next event after e: a cycle-coupled burst's horizon */
        if (from_ring) {
            from_ring->ring = 1;
            next_other = ev_next_time(&m->q);
            next_other = rest < next_other ? rest : next_other;
        } else {
            ev_pop(&m->q);
            sim_unit *u = e->fn == sim_run_unit_event ? e->ctx : NULL;
            if (u && u->coupling == SIM_COUPLE_CYCLE && !u->ring && m->nunits <= SIM_RING_MAX &&
                (!m->nring || u->ev.prio == m->ring[0]->ev.prio)) { /* (one priority: run_ring_round) */
                u->ring = 1; /* from now on its wakes go to the ring */
                m->ring[m->nring++] = u;
            }
            next_other = ev_next_time(&m->q);
            if (r && r->ev.when < next_other)
                next_other = r->ev.when;
        }
        m->now = e->when;
        sim_unit *eu = e->fn == sim_run_unit_event ? e->ctx : NULL;
        if (eu && eu->coupling == SIM_COUPLE_EVENT)
            run_batch(m, eu, until);
        else if (eu && eu->coupling == SIM_COUPLE_CYCLE)
            run_cycle_burst(m, eu, next_other);
        else
            e->fn(e, e->ctx);
        if (!m->run_lim) { /* (else neither checks anything) */
            if (m->progress_fn)
                progress_check(m);
            run_insn_check(m);
        }
        if (from_ring && rest == m->now && !sim_stopped(m))
            run_ring_round(m, m->now); /* the ring's other units due in this cycle */
    }
    /* a unit's fault among independent units run here: the others run to their ends too, as
     * on host threads (indep_finish), so the stop is the same for every -o jobs= */
    if (m->isa->independent_units && run_unit_fault(m->stop.kind, m->stop.unit))
        indep_after_loop(m, until);
    m->run_lim = 0; /* (a burst outside sim_run, if any: run_limits_for) */
    run_ring_flush(m);
    sim_counters_sync(m); /* what reads them (statistics, the debugger) comes after */
    if (m->stop.kind != SIM_STOP_HALT) {
        uint64_t end = sim_end_cycle(m);
        if (m->stop.unit < 0 && m->stop.cycle < end)
            m->stop.cycle = end; /* limits, deadlocks, interrupts: where the machine is */
        uint64_t at = run_stop_tick(m, m->stop.cycle, m->stop.unit);
        if (at > m->now)
            m->now = at; /* statistics of a stopped machine end where it stopped */
    }
    m->host_seconds += host_now() - t0;
    return m->stop.kind;
}
