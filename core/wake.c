/* core/wake.c: what ISAs call while running that reaches the queue (core/run.h): events
 * scheduled, units woken, halted, resumed, disabled, their coupling changed, a unit's run
 * event taken; where the run loop keeps a cycle-coupled unit's event off the queue (the
 * ring), and where a batch of event-coupled units defers every schedule and wake to its end
 * (so that the queue sees the same sequence for every -o jobs=), and the burst of a
 * cycle-coupled unit of a machine of several clocks (run_cycle_burst_clocked). */
#include <pthread.h>
#include <stdlib.h>
#include "sim.h"
#include "run.h"
#include "clock.h"

void sim_schedule(sim_machine *m, ev_event *e, uint64_t when)
{
    if (m->batch && run_batch_defer(m, e, NULL, when))
        return; /* an event-coupled burst's: it takes effect when the batch ends */
    if (ev_schedule(&m->q, e, when))
        sim_set_stop(m, SIM_STOP_ERROR, -1, -1, 0, "event queue overflow scheduling '%s' (unregistered event)",
                     e->name ? e->name : "?");
}

void sim_unit_wake(sim_machine *m, sim_unit *u, uint64_t when)
{
    if (m->batch && run_batch_defer(m, NULL, u, when))
        return; /* an event-coupled burst's: it takes effect when the batch ends */
    if (u->halted || !u->enabled)
        return;
    if (u->period > 1) /* the unit's cycle `when` starts at this tick (core/clock.h) */
        when = sim_unit_tick(u, when);
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
    *when = sim_unit_cycle_at(u, u->ev.when); /* the unit's own cycle, as sim_unit_wake takes it */
    *seq = u->ev.seq;
    return 1;
}

void sim_unit_set_coupling(sim_machine *m, sim_unit *u, sim_coupling kind)
{
    (void)m;
    if (u->coupling == (uint8_t)kind)
        return;
    if (u->ring)
        run_ring_leave(m, u); /* the ring is for cycle-coupled units (batches look at the queue) */
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

/* u leaves the ring; its due event (if any) goes to the queue in its place. */
void run_ring_leave(sim_machine *m, sim_unit *u)
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
void run_ring_flush(sim_machine *m)
{
    while (m->nring)
        run_ring_leave(m, m->ring[m->nring - 1]);
}

/* sim_schedule / sim_unit_wake during a batch: record it for the end of the batch. 0: no
 * batch runs, do it now. */
int run_batch_defer(sim_machine *m, ev_event *e, sim_unit *u, uint64_t when)
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

void run_cycle_burst_clocked(sim_machine *m, sim_unit *u, uint64_t next_other)
{
    /* the unit's own cycles: from its first that starts at m->now, those that start before
     * the horizon's tick */
    uint64_t h = sim_unit_cycle_at(u, run_horizon(m, m->now, 0, next_other));
    uint64_t next = m->isa->unit_run(m, u, sim_unit_now(m, u), h);
    if (next == SIM_NEVER)
        return;
    uint64_t r = (next < h ? next : h);
    if (r && r - 1 > u->reached)
        u->reached = r - 1;
    if (u->halted || !u->enabled)
        return;
    if (u->ring && !m->in_parallel) { /* as sim_unit_wake on the ring, at the cycle's tick */
        uint64_t t = sim_unit_tick(u, next);
        if (u->ring == 2 && u->ev.when <= t)
            return;
        u->ev.when = t;
        u->ev.seq = m->q.next_seq++;
        u->ring = 2;
        return;
    }
    sim_unit_wake(m, u, next);
}
