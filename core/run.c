/* core/run.c: the event-driven run loop.
 * The loop pops the earliest event and runs it; a unit's event calls the ISA's unit_run,
 * which simulates that unit back to back until the next other event (the horizon), so the
 * heap is touched once per burst, not once per instruction, and idle stretches cost one
 * pop. How far a burst may go is the unit's coupling contract (issue 11; isa/isa.h): a
 * cycle-coupled unit's ends at the next other event; event-coupled units run until they
 * block, in batches (every such unit due before the next other event: their bursts, on
 * -o jobs=N host threads, then the other events in time order: the BSP pattern), their
 * schedules and wakes deferred to the end of the batch so that every N gives the same
 * results; units that never interact (isa->independent_units) run to the limit in one
 * call, and with -o jobs=N on N host threads. Also here: the watchdog, the instruction
 * limits' horizons and the progress reports. */
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

static int unit_watchdog(sim_machine *m, sim_unit *u, uint64_t reached);
static int batch_defer(sim_machine *m, ev_event *e, sim_unit *u, uint64_t when);
static int batch_raised(sim_machine *m, int unit);
static void ring_leave(sim_machine *m, sim_unit *u);

/* A unit's own stop that a batch finishes (run_batch): a fault, an illegal instruction, a
 * livelock its own watchdog found. */
static inline int unit_fault(sim_stop_kind kind, int unit)
{
    return unit >= 0 && (kind == SIM_STOP_FAULT || kind == SIM_STOP_ILLEGAL || kind == SIM_STOP_DEADLOCK);
}

/* a's stop comes before b's: the earlier cycle, then the lower unit */
static inline int stop_before(uint64_t ca, int ua, uint64_t cb, int ub)
{
    return ca != cb ? ca < cb : ua < ub;
}

/* ---- used by ISAs while running: stops, events, wakes and halts ---- */
static void sim_set_stop_v(sim_machine *m, sim_stop_kind kind, int unit, int thread, uint64_t pc, uint64_t cycle,
                           const char *fmt, va_list ap)
{
    pthread_mutex_lock(m->lock);
    int in_batch = m->batch && batch_raised(m, unit);
    /* the first reason wins: a fault is not overwritten by the halt it causes; but of two
     * units' faults in a batch (host threads race there), the earliest by (cycle, unit), so
     * that the one reported is the same for every -o jobs= (run_batch) */
    if (m->stop.kind == SIM_STOP_NONE ||
        (in_batch && unit_fault(kind, unit) && unit_fault(m->stop.kind, m->stop.unit) &&
         stop_before(cycle, unit, m->stop.cycle, m->stop.unit))) {
        m->stop.unit = unit;
        m->stop.thread = thread;
        m->stop.pc = pc;
        m->stop.cycle = cycle;
        vsnprintf(m->stop.msg, sizeof m->stop.msg, fmt, ap);
        __atomic_store_n(&m->stop.kind, kind, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(m->lock);
}

void sim_set_stop(sim_machine *m, sim_stop_kind kind, int unit, int thread, uint64_t pc, const char *fmt, ...)
{
    /* a unit stops inside a burst: its own issue cycle is the stop's cycle, not the
     * burst's start (m->now) */
    uint64_t cycle = unit >= 0 && unit < m->nunits && m->units[unit].last_issue != SIM_NEVER
                         ? m->units[unit].last_issue
                         : m->now;
    va_list ap;
    va_start(ap, fmt);
    sim_set_stop_v(m, kind, unit, thread, pc, cycle, fmt, ap);
    va_end(ap);
}

void sim_set_stop_at(sim_machine *m, sim_stop_kind kind, int unit, int thread, uint64_t pc, uint64_t cycle,
                     const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sim_set_stop_v(m, kind, unit, thread, pc, cycle, fmt, ap);
    va_end(ap);
}

void sim_schedule(sim_machine *m, ev_event *e, uint64_t when)
{
    if (m->batch && batch_defer(m, e, NULL, when))
        return; /* an event-coupled burst's: it takes effect when the batch ends */
    if (ev_schedule(&m->q, e, when))
        sim_set_stop(m, SIM_STOP_ERROR, -1, -1, 0, "event queue overflow scheduling '%s' (unregistered event)",
                     e->name ? e->name : "?");
}

void sim_unit_wake(sim_machine *m, sim_unit *u, uint64_t when)
{
    if (m->batch && batch_defer(m, NULL, u, when))
        return; /* an event-coupled burst's: it takes effect when the batch ends */
    if (u->halted || !u->enabled)
        return;
    if (u->ring) { /* on the ring: what ev_schedule would do, without the queue */
        if (u->ring == 2 && u->ev.when <= when)
            return;
        u->ev.when = when;
        u->ev.seq = m->q.next_seq++;
        u->ring = 2;
        return;
    }
    if (ev_pending(&u->ev) && u->ev.when <= when)
        return;
    sim_schedule(m, &u->ev, when);
}

int sim_unit_event_take(sim_machine *m, sim_unit *u, uint64_t *when, uint64_t *seq)
{
    if (u->ring == 2)
        u->ring = 1;
    else if (ev_pending(&u->ev))
        ev_cancel(&m->q, &u->ev);
    else
        return 0;
    *when = u->ev.when;
    *seq = u->ev.seq;
    return 1;
}

void sim_unit_set_coupling(sim_machine *m, sim_unit *u, sim_coupling kind)
{
    (void)m;
    if (u->coupling == (uint8_t)kind)
        return;
    if (u->ring)
        ring_leave(m, u); /* the ring is for cycle-coupled units (batches look at the queue) */
    u->coupling = (uint8_t)kind;
    u->wd_stale = 1; /* a decoupled unit's own watchdog window starts at its next burst */
}

void sim_unit_halt(sim_machine *m, sim_unit *u, uint64_t cycle)
{
    if (u->halted)
        return;
    u->halted = 1;
    u->halted_at = cycle;
    if (u->ring == 2)
        u->ring = 1;
    if (!m->in_parallel) /* in a parallel section the jobs own the units' events */
        ev_cancel(&m->q, &u->ev);
    int n = __atomic_add_fetch(&m->nhalted, 1, __ATOMIC_ACQ_REL);
    if (n >= m->nenabled)
        sim_set_stop_at(m, SIM_STOP_HALT, -1, -1, 0, sim_end_cycle(m), "all %d units halted", m->nenabled);
}

void sim_unit_resume(sim_machine *m, sim_unit *u)
{
    if (!u->halted || !u->enabled)
        return;
    u->halted = 0;
    __atomic_sub_fetch(&m->nhalted, 1, __ATOMIC_ACQ_REL);
}

void sim_unit_disable(sim_machine *m, sim_unit *u)
{
    if (!u->enabled)
        return;
    u->enabled = 0;
    m->nenabled--;
    if (u->halted)
        __atomic_sub_fetch(&m->nhalted, 1, __ATOMIC_ACQ_REL);
    if (u->ring == 2)
        u->ring = 1;
    ev_cancel(&m->q, &u->ev);
    for (int t = 0; t < u->nthreads; t++)
        u->threads[t].state = SIM_T_DISABLED;
}

uint64_t sim_total_instructions(const sim_machine *m)
{
    uint64_t n = 0;
    for (int i = 0; i < m->nunits; i++)
        for (int t = 0; t < m->units[i].nthreads; t++)
            n += m->units[i].threads[t].instructions;
    return n;
}

uint64_t sim_end_cycle(const sim_machine *m)
{
    uint64_t end = 0;
    for (int i = 0; i < m->nunits; i++) {
        const sim_unit *u = &m->units[i];
        if (!u->enabled)
            continue;
        uint64_t c = u->halted ? u->halted_at : m->now > u->reached ? m->now : u->reached;
        if (c > end)
            end = c;
    }
    return end;
}

/* ---- the loop ---- */

/* Does u's burst ignore other units' events (event-coupled or independent)? The same with
 * the debugger's hooks on (m->slow) or off, so a run with a breakpoint that is never hit, a
 * trace or a profile has the bursts, and so the results, of a plain run. */
static inline int unit_decoupled(const sim_machine *m, const sim_unit *u)
{
    (void)m;
    return u->coupling != SIM_COUPLE_CYCLE;
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
     * (unit_watchdog): the check is for machines with a live cycle-coupled unit */
    int coupled = 0;
    for (int i = 0; i < m->nunits && !coupled; i++) {
        const sim_unit *u = &m->units[i];
        coupled = u->enabled && !u->halted && !unit_decoupled(m, u);
    }
    if (coupled && n == m->wd_insns && m->nhalted < m->nenabled) {
        sim_set_stop_at(m, SIM_STOP_DEADLOCK, -1, -1, 0, m->now,
                        "livelock: no instruction retired in cycles %llu-%llu; -o watchdog=0 turns this check off",
                        (unsigned long long)(m->now - m->watchdog), (unsigned long long)m->now);
        return;
    }
    m->wd_insns = n;
    sim_schedule(m, e, m->now + m->watchdog);
}

/* The nearer of the instruction limit and a fast-forward's instruction count (0: none). */
static uint64_t insn_cap(const sim_machine *m)
{
    uint64_t a = m->max_instructions, b = m->ff_insns;
    return !a ? b : !b ? a : a < b ? a : b;
}

/* ---- the ring of cycle-coupled units (issue 11 pt 2) ----
 * Cycle-coupled units that run in step (four Nyuzi cores, each due every cycle) would cost
 * a pop and a push of the queue per burst of one cycle. On machines of at most SIM_RING_MAX
 * units, a cycle-coupled unit's run event, once popped from the queue, is kept by the loop
 * instead (u->ring): its cycle and insertion number stay in u->ev as the queue would hold
 * them (sim_unit_wake takes the number from the queue's counter as ev_schedule does), and
 * the loop runs the earliest of the ring's due units and the queue's first event in the
 * queue's own order (ev_before). So the bursts are the same, in the same order, with the
 * same horizons: results cannot change, and while no other event is due the units go round
 * one burst each for a scan of a few slots. At the end of sim_run the due units go back to
 * the queue with their insertion numbers (ev_schedule_seq). */

/* The ring's earliest due unit, or NULL; *rest: the earliest cycle of the others. */
static inline sim_unit *ring_scan(const sim_machine *m, uint64_t *rest)
{
    sim_unit *best = NULL;
    uint64_t other = SIM_NEVER;
    for (int i = 0; i < m->nring; i++) {
        sim_unit *u = m->ring[i];
        if (u->ring != 2)
            continue;
        if (!best) {
            best = u;
        } else if (ev_before(&u->ev, &best->ev)) {
            other = best->ev.when < other ? best->ev.when : other;
            best = u;
        } else if (u->ev.when < other) {
            other = u->ev.when;
        }
    }
    *rest = other;
    return best;
}

static inline sim_unit *ring_first(const sim_machine *m)
{
    uint64_t rest;
    return ring_scan(m, &rest);
}

/* The cycle of the next event, on the queue or the ring (a cycle-coupled burst's horizon). */
static inline uint64_t ring_next_time(const sim_machine *m)
{
    uint64_t h = ev_next_time(&m->q);
    for (int i = 0; i < m->nring; i++)
        if (m->ring[i]->ring == 2 && m->ring[i]->ev.when < h)
            h = m->ring[i]->ev.when;
    return h;
}

/* u leaves the ring; its due event (if any) goes to the queue in its place. */
static void ring_leave(sim_machine *m, sim_unit *u)
{
    if (u->ring == 2)
        ev_schedule_seq(&m->q, &u->ev, u->ev.when, u->ev.seq);
    u->ring = 0;
    for (int i = 0; i < m->nring; i++)
        if (m->ring[i] == u) {
            m->ring[i] = m->ring[--m->nring];
            break;
        }
}

/* End of sim_run: every unit's event back on the queue, where everything else looks. */
static void ring_flush(sim_machine *m)
{
    while (m->nring)
        ring_leave(m, m->ring[m->nring - 1]);
}

/* The run's limits for a burst that starts at `now` (a decoupled unit's horizon). */
static uint64_t limits_for(const sim_machine *m, uint64_t now, int decoupled)
{
    uint64_t lim = m->limit == SIM_NEVER ? SIM_NEVER : m->limit + 1;
    if (m->max_instructions) {
        /* a unit retires at most a few instructions per cycle: cap the burst so the
         * instruction limit, checked between events, is not overrun by a whole program */
        uint64_t done = sim_total_instructions(m);
        uint64_t left = done < m->max_instructions ? m->max_instructions - done : 1;
        if (now + left < lim)
            lim = now + left;
    }
    if (m->ff_insns) {
        /* a fast-forward's count: every hardware thread may retire an instruction (a
         * bundle of two) per cycle, so bursts of left / (2 x threads) cycles never pass
         * it by more than one cycle's worth; they shrink as it nears (a few hundred
         * bursts for any count), and burst ends change nothing simulated */
        uint64_t done = sim_total_instructions(m), w = 0;
        for (int i = 0; i < m->nunits; i++)
            w += m->units[i].enabled ? 2 * (uint64_t)m->units[i].nthreads : 0;
        uint64_t left = done < m->ff_insns ? (m->ff_insns - done) / (w ? w : 1) : 0;
        if (now + (left ? left : 1) < lim)
            lim = now + (left ? left : 1);
    }
    if (m->ff_armed && decoupled && now + SIM_FF_QUANTUM < lim)
        lim = now + SIM_FF_QUANTUM; /* (m->ff_armed) burst ends change nothing simulated */
    /* progress reports come between events: with them on, no burst runs more than 2^22
     * cycles (burst ends change nothing simulated; tests/cli/progress.t.sh compares) */
    if (m->progress_fn && now + (1u << 22) < lim)
        lim = now + (1u << 22);
    return lim;
}

/* The horizon of a burst that starts at `now`: the run's limits, and for a cycle-coupled
 * unit (decoupled 0) also the next other event, at `next` (ring_next_time). Each decoupled
 * unit is watched on its own (unit_event, unit_watchdog). */
static inline uint64_t horizon_for(const sim_machine *m, uint64_t now, int decoupled, uint64_t next)
{
    uint64_t lim = !m->max_instructions && !m->ff_insns && !m->ff_armed && !m->progress_fn
                       ? (m->limit == SIM_NEVER ? SIM_NEVER : m->limit + 1)
                       : limits_for(m, now, decoupled);
    if (decoupled)
        return lim;
    if (next <= now)
        next = now + 1; /* always simulate at least the current cycle */
    return next < lim ? next : lim;
}

/* A decoupled unit's watchdog window starts afresh where it was stale: after it blocked
 * (waiting for another unit is no livelock, however long) or changed its coupling. The
 * boundaries stay multiples of `watchdog`, so they are the same for every -o jobs=. */
static void unit_watchdog_fresh(sim_machine *m, sim_unit *u, uint64_t now)
{
    if (!u->wd_stale)
        return;
    u->wd_stale = 0;
    if (!m->watchdog)
        return;
    uint64_t n = 0;
    for (int t = 0; t < u->nthreads; t++)
        n += u->threads[t].instructions;
    u->wd_insns = n;
    u->wd_next = (now / m->watchdog + 1) * m->watchdog;
}

/* A cycle-coupled unit's burst at m->now, the next other event at `next`: to it or the
 * run's limits. */
static inline void cycle_burst(sim_machine *m, sim_unit *u, uint64_t next_other)
{
    if (u->halted || !u->enabled)
        return;
    uint64_t h = horizon_for(m, m->now, 0, next_other);
    uint64_t next = m->isa->unit_run(m, u, m->now, h);
    if (next == SIM_NEVER)
        return;
    /* a unit runs in bursts ahead of m->now: remember how far, so a run stopped in the
     * middle of a burst (Ctrl-C) reports the cycles it simulated, not the burst's start */
    uint64_t r = (next < h ? next : h);
    if (r && r - 1 > u->reached)
        u->reached = r - 1;
    if (u->halted || !u->enabled)
        return;
    if (u->ring && !m->in_parallel) { /* sim_unit_wake on the ring (never inside a batch) */
        if (u->ring == 2 && u->ev.when <= next)
            return;
        u->ev.when = next;
        u->ev.seq = m->q.next_seq++;
        u->ring = 2;
        return;
    }
    sim_unit_wake(m, u, next);
}

void sim_run_unit_event(ev_event *e, void *ctx)
{
    (void)e;
    sim_unit *u = ctx;
    sim_machine *m = u->m;
    if (u->halted || !u->enabled)
        return;
    const int dec = unit_decoupled(m, u);
    if (!dec) {
        cycle_burst(m, u, ring_next_time(m));
        return;
    }
    if (dec)
        unit_watchdog_fresh(m, u, m->now);
    if (dec && unit_watchdog(m, u, m->now))
        return; /* it slept past a boundary without retiring anything since the one before */
    uint64_t h = horizon_for(m, m->now, dec, SIM_NEVER);
    if (dec && m->watchdog && u->wd_next < h)
        h = u->wd_next; /* the unit's own watchdog boundary (unit_watchdog) */
    uint64_t next = m->isa->unit_run(m, u, m->now, h);
    /* a unit runs in bursts ahead of m->now: remember how far, so a run stopped in the
     * middle of a burst (Ctrl-C) reports the cycles it simulated, not the burst's start */
    if (next != SIM_NEVER) {
        uint64_t r = (next < h ? next : h);
        if (r && r - 1 > u->reached)
            u->reached = r - 1;
    }
    if (dec && next == SIM_NEVER && u->coupling == SIM_COUPLE_EVENT)
        u->wd_stale = 1; /* blocked: it waits for another unit, which is no livelock */
    else if (dec && unit_watchdog(m, u, next < h ? next : h))
        return;
    if (next != SIM_NEVER && !u->halted && u->enabled)
        sim_unit_wake(m, u, next);
}

/* ---- parallel runs of independent units ---- */
typedef struct sim_job {
    sim_machine *m;
    int first, step;
    uint64_t last; /* latest cycle reached by this job's units */
    int finished;  /* set (atomic) when the job's last unit is done */
} sim_job;

static uint64_t unit_instructions(const sim_unit *u)
{
    uint64_t n = 0;
    for (int t = 0; t < u->nthreads; t++)
        n += u->threads[t].instructions;
    return n;
}

/* Independent units are watched one by one, at boundaries every `watchdog` cycles that are
 * the same whether the unit runs on this thread or another (so the stop is the same for
 * every -o jobs=): a unit that has passed a boundary (reached: the cycle it simulated up
 * to, or beyond which it only sleeps) without retiring an instruction since the one before
 * is a livelock. Returns 1 when it stopped the run. */
static int unit_watchdog(sim_machine *m, sim_unit *u, uint64_t reached)
{
    if (!m->watchdog || u->halted || reached == SIM_NEVER)
        return 0;
    while (reached >= u->wd_next) {
        uint64_t n = unit_instructions(u);
        if (n == u->wd_insns) {
            sim_set_stop_at(m, SIM_STOP_DEADLOCK, u->index, -1, 0, u->wd_next,
                            "livelock: %s retired no instruction in cycles %llu-%llu; -o watchdog=0 turns this check off",
                            u->name, (unsigned long long)(u->wd_next - m->watchdog), (unsigned long long)u->wd_next);
            return 1;
        }
        u->wd_insns = n;
        u->wd_next += m->watchdog;
    }
    return 0;
}

static void *sim_job_main(void *arg)
{
    sim_job *j = arg;
    sim_machine *m = j->m;
    uint64_t lim = m->limit == SIM_NEVER ? SIM_NEVER : m->limit + 1;
    const uint64_t wd = m->watchdog;
    for (int i = j->first; i < m->nunits && !sim_stopped(m); i += j->step) {
        sim_unit *u = &m->units[i];
        uint64_t t = u->ev.when;
        while (t < lim && !u->halted && !sim_stopped(m) && !unit_watchdog(m, u, t)) {
            /* bursts end at the unit's watchdog boundaries, as in a sequential run (burst
             * ends change nothing simulated) */
            uint64_t h = wd && u->wd_next < lim ? u->wd_next : lim;
            uint64_t next = m->isa->unit_run(m, u, t, h);
            if (next <= t && !sim_stopped(m))
                next = t + 1;
            t = next;
            if (unit_watchdog(m, u, t < h ? t : h))
                break;
        }
        u->ev.when = t; /* rescheduled on the shared queue after the join */
        /* the cycle this unit's simulation reached: its halt, else the limit it ran to */
        uint64_t reached = u->halted ? u->halted_at : t == SIM_NEVER ? 0 : t > m->limit ? m->limit : t;
        if (reached > u->reached && !u->halted)
            u->reached = reached;
        if (reached > j->last)
            j->last = reached;
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
    m->in_parallel = 1;
    m->par_units_done = 0;
    for (int k = 0; k < jobs; k++) {
        job[k] = (sim_job){m, k, jobs, 0, 0};
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
    for (int i = 0; i < m->nunits; i++) {
        sim_unit *u = &m->units[i];
        uint64_t when = u->ev.when;
        u->ev.when = SIM_NEVER;
        if (!u->halted && u->enabled && when != SIM_NEVER)
            sim_schedule(m, &u->ev, when);
    }
}

/* ---- batches of event-coupled units (issue 11: the BSP pattern) ---- */

/* A schedule or wake made during a batch, applied when it ends: an event to schedule (e),
 * or a unit to wake (u), at `when`, made by the burst at batch position pos. */
typedef struct sim_deferred {
    ev_event *e;
    sim_unit *u;
    uint64_t when;
    int pos;
} sim_deferred;

/* One host thread's share of a batch: the positions it takes come in increasing order, so
 * its deferred list is sorted by position. */
typedef struct sim_batch_job {
    struct sim_batch *b;
    pthread_t tid;      /* as pthread_create gave it, for the join */
    pthread_t self;     /* as the job's thread sees itself; valid once live */
    int started;        /* pthread_create succeeded */
    int live;           /* (atomic) self is set: the job runs (job 0 on the caller's thread) */
    int pos;            /* the burst it runs now */
    sim_deferred *d;
    size_t n, cap, applied;
    int oom;
} sim_batch_job;

typedef struct sim_batch {
    sim_machine *m;
    sim_unit **units;   /* the batch, in the queue's order */
    int *job_of;        /* the job that ran each position; -1: not run (the run stopped) */
    uint8_t *cut;       /* per position: its burst ended early, at another unit's stop */
    uint8_t *finished;  /* per position: run (or run on) by the batch's finish */
    uint8_t *raised;    /* per unit index: it raised a stop in this batch */
    uint64_t *reached;  /* per position: the unit's `reached` before its burst */
    int n;
    int next;           /* the next position to take (atomic) */
    int njobs;
    int active;         /* schedules and wakes are deferred */
    int seq_checks;     /* sequential, with the instruction caps checked after each burst */
    int finishing;      /* the finish runs: schedules and wakes go to jobs[njobs_max] */
    int njobs_max;      /* m->jobs */
    sim_batch_job jobs[]; /* m->jobs of them, and the finish's */
} sim_batch;

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

/* sim_schedule / sim_unit_wake during a batch: record it for the end of the batch. 0: no
 * batch runs, do it now. */
static int batch_defer(sim_machine *m, ev_event *e, sim_unit *u, uint64_t when)
{
    sim_batch *b = m->batch;
    if (!b->active)
        return 0;
    sim_batch_job *j = &b->jobs[b->finishing ? b->njobs_max : 0];
    if (b->njobs > 1 && !b->finishing) { /* which host thread is this? (a handful: a scan) */
        pthread_t self = pthread_self();
        for (int k = 0; k < b->njobs; k++)
            if (__atomic_load_n(&b->jobs[k].live, __ATOMIC_ACQUIRE) && pthread_equal(b->jobs[k].self, self)) {
                j = &b->jobs[k];
                break;
            }
    }
    if (j->n == j->cap) {
        size_t cap = j->cap ? 2 * j->cap : 64;
        sim_deferred *d = realloc(j->d, cap * sizeof *d);
        if (!d) {
            j->oom = 1;
            return 1;
        }
        j->d = d;
        j->cap = cap;
    }
    j->d[j->n++] = (sim_deferred){e, u, when, j->pos};
    return 1;
}

static inline void insn_check(sim_machine *m);

/* sim_set_stop during a batch (under the stop's lock): remember which unit stopped.
 * Returns 1 if a batch runs. */
static int batch_raised(sim_machine *m, int unit)
{
    sim_batch *b = m->batch;
    if (!b->active)
        return 0;
    if (unit >= 0 && unit < m->nunits)
        b->raised[unit] = 1;
    return 1;
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
    unit_watchdog_fresh(m, u, t);
    if (unit_watchdog(m, u, t))
        return 0;
    uint64_t h = horizon_for(m, t, 1, SIM_NEVER);
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
    if (unit_watchdog(m, u, r))
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
            insn_check(m);
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
        if (!unit_fault(m->stop.kind, m->stop.unit) ||
            !stop_before(m->stop.cycle, m->stop.unit, keep.cycle, keep.unit))
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
static void run_batch(sim_machine *m, sim_unit *first, uint64_t until)
{
    sim_batch *b = batch_get(m);
    if (!b) {
        sim_set_stop(m, SIM_STOP_ERROR, -1, -1, 0, "out of memory for a batch of event-coupled units");
        return;
    }
    b->n = 0;
    first->burst_at = first->ev.when;
    b->units[b->n++] = first;
    const sim_unit *rf = ring_first(m); /* a cycle-coupled unit's event ends the batch too */
    for (ev_event *e; (e = ev_peek(&m->q)) && e->fn == sim_run_unit_event && e->when <= until;) {
        sim_unit *u = e->ctx;
        if (u->coupling != SIM_COUPLE_EVENT || (rf && ev_before(&rf->ev, e)))
            break;
        ev_pop(&m->q);
        u->burst_at = e->when;
        b->units[b->n++] = u;
    }
    for (int i = 0; i < b->n; i++) {
        b->job_of[i] = -1;
        b->cut[i] = b->finished[i] = 0;
        b->raised[b->units[i]->index] = 0;
        b->reached[i] = b->units[i]->reached;
    }
    int jobs = m->jobs < b->n ? m->jobs : b->n;
    b->seq_checks = insn_cap(m) != 0;
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
    if (unit_fault(m->stop.kind, m->stop.unit) && !m->slow && !m->ff_armed && !b->seq_checks)
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

static int only_unit_events(const sim_machine *m)
{
    for (uint32_t i = 0; i < m->q.n; i++) {
        const ev_event *e = m->q.heap[i];
        if (e->fn != sim_run_unit_event && e != &m->wd_ev)
            return 0;
    }
    return 1;
}

/* The instruction limit and a fast-forward's count, checked between events (and between
 * the bursts of a sequential batch). */
static inline void insn_check(sim_machine *m)
{
    if (!m->max_instructions && !m->ff_insns)
        return;
    uint64_t n = sim_total_instructions(m);
    if (m->ff_insns && n >= m->ff_insns) /* the marker first: the limit may be the same count */
        sim_set_stop(m, SIM_STOP_MARKER, -1, -1, 0, "instruction count %llu reached (%llu retired)",
                     (unsigned long long)m->ff_insns, (unsigned long long)n);
    else if (m->max_instructions && n >= m->max_instructions)
        sim_set_stop(m, SIM_STOP_LIMIT, -1, -1, 0, "instruction limit %llu reached",
                     (unsigned long long)m->max_instructions);
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
    /* an instruction limit counts the machine's total in simulated-time order, which host
     * threads cannot keep: with one set, the units run on this thread, so the stop point is
     * the same for every -o jobs= (and the same from run to run) */
    if (m->jobs > 1 && m->isa->independent_units && !m->slow && !insn_cap(m) && !m->ff_armed && only_unit_events(m))
        sim_run_parallel(m);
    while (!sim_stopped(m)) {
        ev_event *e = ev_peek(&m->q);
        uint64_t rest = SIM_NEVER; /* the earliest of the ring's other due units */
        sim_unit *r = m->nring ? ring_scan(m, &rest) : NULL, *from_ring = NULL;
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
            if (u && u->coupling == SIM_COUPLE_CYCLE && !u->ring && m->nunits <= SIM_RING_MAX) {
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
            cycle_burst(m, eu, next_other);
        else
            e->fn(e, e->ctx);
        if (m->progress_fn)
            progress_check(m);
        insn_check(m);
    }
    ring_flush(m);
    if (m->stop.kind != SIM_STOP_HALT) {
        uint64_t end = sim_end_cycle(m);
        if (m->stop.unit < 0 && m->stop.cycle < end)
            m->stop.cycle = end; /* limits, deadlocks, interrupts: where the machine is */
        if (m->stop.cycle > m->now)
            m->now = m->stop.cycle; /* statistics of a stopped machine end where it stopped */
    }
    m->host_seconds += host_now() - t0;
    return m->stop.kind;
}
