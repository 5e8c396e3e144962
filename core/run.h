/* core/run.h: what the run loop's files share, and nothing outside core/ includes. The loop
 * is cut in layers that call one way only (tests/unit/layering.t.sh): core/stop.c (stops and
 * counters, a leaf), core/limits.c (burst horizons, watchdogs, instruction caps),
 * core/wake.c (what ISAs call while running: schedules, wakes, halts, coupling; the ring of
 * cycle-coupled units; deferral during a batch), core/batch.c (batches of event-coupled
 * units: the BSP pattern) and core/run.c (sim_run, the unit and watchdog events, the
 * parallel path of independent units, progress reports). core/sim.c registers the unit and
 * watchdog events and frees the batch state. The batch's data is declared here so that the
 * lower layers can read it (is a batch running, which unit raised a stop) without calling
 * up into batch.c. */
#ifndef XPUSIM_RUN_H
#define XPUSIM_RUN_H
#include <pthread.h>
#include "clock.h"
#include "event.h"
#include "sim.h"
#include "../isa/isa.h"

/* A unit's run event (ctx: the sim_unit): one burst of the ISA's unit_run. */
void sim_run_unit_event(ev_event *e, void *ctx);
/* The same for a unit whose cycle is more than one tick (sim_clock_setup sets it): the run
 * loop runs it as any event, not on its ring, in its batches or on host threads. */
void sim_run_clocked_event(ev_event *e, void *ctx);
/* The watchdog's check every `watchdog` cycles (ctx: the sim_machine). */
void sim_run_watchdog_event(ev_event *e, void *ctx);
/* Free what the run loop keeps for batches of event-coupled units (sim_destroy). */
void sim_run_free(sim_machine *m);

/* ---- batches of event-coupled units (core/batch.c; issue 11: the BSP pattern) ---- */

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
    int marking;        /* independent units on host threads (core/run.c): raised is kept */
    int par_ran;        /* this sim_run ran the parallel path (core/run.c) */
    int njobs_max;      /* m->jobs */
    sim_batch_job jobs[]; /* m->jobs of them, and the finish's */
} sim_batch;

/* Independent units on host threads (core/run.c): on 1, the batch's state (allocated if
 * need be; NULL: no memory) keeps which units raise a stop, and of two units' faults the
 * earliest is kept, as in a batch; on 0 that ends. */
sim_batch *run_batch_marks(sim_machine *m, int on);
/* The batch that starts with first (just popped from the queue), within `until`. */
void run_batch(sim_machine *m, sim_unit *first, uint64_t until);
/* sim_schedule / sim_unit_wake during a batch: record it for the end of the batch. 0: no
 * batch runs, do it now (core/wake.c). */
int run_batch_defer(sim_machine *m, ev_event *e, sim_unit *u, uint64_t when);

/* ---- stops (core/stop.c) ---- */

/* A unit's own stop that a batch finishes (run_batch): a fault, an illegal instruction, a
 * livelock its own watchdog found. */
static inline int run_unit_fault(sim_stop_kind kind, int unit)
{
    return unit >= 0 && (kind == SIM_STOP_FAULT || kind == SIM_STOP_ILLEGAL || kind == SIM_STOP_DEADLOCK);
}

/* A stop's time in machine ticks: a unit's stop is at the unit's own cycle (core/clock.h). */
static inline uint64_t run_stop_tick(const sim_machine *m, uint64_t cycle, int unit)
{
    return unit >= 0 && unit < m->nunits ? sim_unit_tick(&m->units[unit], cycle) : cycle;
}

/* a's stop comes before b's: the earlier time, then the lower unit */
static inline int run_stop_before(const sim_machine *m, uint64_t ca, int ua, uint64_t cb, int ub)
{
    uint64_t ta = run_stop_tick(m, ca, ua), tb = run_stop_tick(m, cb, ub);
    return ta != tb ? ta < tb : ua < ub;
}

/* Instructions retired by u's threads. */
uint64_t run_unit_instructions(const sim_unit *u);

/* ---- the ring of cycle-coupled units (core/wake.c) ----
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
static inline sim_unit *run_ring_scan(const sim_machine *m, uint64_t *rest)
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

static inline sim_unit *run_ring_first(const sim_machine *m)
{
    uint64_t rest;
    return run_ring_scan(m, &rest);
}

/* The cycle of the next event, on the queue or the ring (a cycle-coupled burst's horizon). */
static inline uint64_t run_ring_next_time(const sim_machine *m)
{
    uint64_t h = ev_next_time(&m->q);
    for (int i = 0; i < m->nring; i++)
        if (m->ring[i]->ring == 2 && m->ring[i]->ev.when < h)
            h = m->ring[i]->ev.when;
    return h;
}

/* u leaves the ring; its due event (if any) goes to the queue in its place. */
void run_ring_leave(sim_machine *m, sim_unit *u);
/* End of sim_run: every unit's event back on the queue, where everything else looks. */
void run_ring_flush(sim_machine *m);

/* ---- horizons, watchdogs, instruction caps (core/limits.c) ---- */

/* Does u's burst ignore other units' events (event-coupled or independent)? The same with
 * the debugger's hooks on (m->slow) or off, so a run with a breakpoint that is never hit, a
 * trace or a profile has the bursts, and so the results, of a plain run. */
static inline int run_decoupled(const sim_unit *u) { return u->coupling != SIM_COUPLE_CYCLE; }

/* The nearer of the instruction limit and a fast-forward's instruction count (0: none). */
static inline uint64_t run_insn_cap(const sim_machine *m)
{
    uint64_t a = m->max_instructions, b = m->ff_insns;
    return !a ? b : !b ? a : a < b ? a : b;
}

/* The run's limits for a burst that starts at `now` (a decoupled unit's horizon). */
uint64_t run_limits_for(const sim_machine *m, uint64_t now, int decoupled);

/* The horizon of a burst that starts at `now`: the run's limits, and for a cycle-coupled
 * unit (decoupled 0) also the next other event, at `next` (run_ring_next_time). Each
 * decoupled unit is watched on its own (sim_run_unit_event, run_unit_watchdog). */
static inline uint64_t run_horizon(const sim_machine *m, uint64_t now, int decoupled, uint64_t next)
{
    uint64_t lim = m->run_lim ? m->run_lim : run_limits_for(m, now, decoupled);
    if (decoupled)
        return lim;
    if (next <= now)
        next = now + 1; /* always simulate at least the current cycle */
    return next < lim ? next : lim;
}

/* A decoupled unit's watchdog window starts afresh where it was stale. */
void run_unit_watchdog_fresh(sim_machine *m, sim_unit *u, uint64_t now);
/* A decoupled unit's livelock check up to `reached`; 1 when it stopped the run. */
int run_unit_watchdog(sim_machine *m, sim_unit *u, uint64_t reached);
/* The instruction limit and a fast-forward's count, checked between events (and between
 * the bursts of a sequential batch): the test inline, the count in limits.c. */
void run_insn_count_check(sim_machine *m);
static inline void run_insn_check(sim_machine *m)
{
    if (m->max_instructions || m->ff_insns)
        run_insn_count_check(m);
}
/* ---- a unit's burst (sim_run_unit_event in core/wake.c, and sim_run's loop) ---- */

/* A cycle-coupled unit's burst at m->now, the next other event at `next`: to it or the
 * run's limits. For a unit of period 1 (core/clock.h: ticks are its cycles, nothing
 * converts); a unit of a machine of several clocks has its run event on
 * sim_run_clocked_event, which the loop does not take for its own, and its bursts run in
 * run_cycle_burst_clocked (core/wake.c): so the ring of Nyuzi cores pays no test. */
void run_cycle_burst_clocked(sim_machine *m, sim_unit *u, uint64_t next_other);
/* The burst of a unit that is neither halted nor disabled (run_ring_round's: a unit due on
 * the ring is neither, as sim_unit_halt and sim_unit_disable take it off the due units).
 * seq: called from sim_run's loop, never inside a batch (a constant where inlined). */
static inline void run_cycle_burst_live(sim_machine *m, sim_unit *u, uint64_t next_other, const int seq)
{
    uint64_t h = run_horizon(m, m->now, 0, next_other);
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
    if (u->ring && (seq || !m->in_parallel)) { /* sim_unit_wake on the ring (never inside a batch) */
        if (u->ring == 2 && u->ev.when <= next)
            return;
        u->ev.when = next;
        u->ev.seq = m->q.next_seq++;
        u->ring = 2;
        return;
    }
    sim_unit_wake(m, u, next);
}

static inline void run_cycle_burst(sim_machine *m, sim_unit *u, uint64_t next_other)
{
    if (!u->halted && u->enabled)
        run_cycle_burst_live(m, u, next_other, 0);
}

#endif
