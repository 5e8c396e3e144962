/* core/stop.c: the run's stop reason and the machine's counters, the leaf of the run loop's
 * files (core/run.h): sim_set_stop / sim_set_stop_at (the first reason wins, but of two
 * units' faults inside a batch of event-coupled units the earliest by (cycle, unit), so the
 * reported stop is the same for every -o jobs=), and the totals everything else reads
 * (instructions retired, the machine's end cycle, the units' counters made current). It
 * reads the batch's data (is a batch running) and calls nothing of the other run files. */
#include <pthread.h>
#include "sim.h"
#include "run.h"
#include "clock.h"
#include "../isa/isa.h"

/* sim_set_stop during a batch, or while independent units run on host threads (under the
 * stop's lock): remember which unit stopped. Returns 1 if so. */
static int batch_raised(sim_machine *m, int unit)
{
    sim_batch *b = m->batch;
    if (!b->active && !b->marking)
        return 0;
    if (unit >= 0 && unit < m->nunits)
        b->raised[unit] = 1;
    return 1;
}

static void sim_set_stop_v(sim_machine *m, sim_stop_kind kind, int unit, int thread, uint64_t pc, uint64_t cycle,
                           const char *fmt, va_list ap)
{
    pthread_mutex_lock(m->lock);
    int in_batch = m->batch && batch_raised(m, unit);
    /* a unit's own fault: it has simulated up to that cycle, whether or not its stop is
     * the one reported (of several faults among decoupled units, only the earliest is) */
    if (run_unit_fault(kind, unit) && unit < m->nunits && cycle != SIM_NEVER && cycle > m->units[unit].reached)
        m->units[unit].reached = cycle;
    /* the first reason wins: a fault is not overwritten by the halt it causes; but of two
     * units' faults in a batch (host threads race there), the earliest by (cycle, unit), so
     * that the one reported is the same for every -o jobs= (run_batch) */
    if (m->stop.kind == SIM_STOP_NONE ||
        (in_batch && run_unit_fault(kind, unit) && run_unit_fault(m->stop.kind, m->stop.unit) &&
         run_stop_before(m, cycle, unit, m->stop.cycle, m->stop.unit))) {
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
     * burst's start (m->now); a unit's stop is at its own cycle (core/clock.h) */
    int own = unit >= 0 && unit < m->nunits;
    uint64_t cycle = own && m->units[unit].last_issue != SIM_NEVER ? m->units[unit].last_issue
                     : own                                         ? sim_unit_now(m, &m->units[unit])
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

uint64_t run_unit_instructions(const sim_unit *u)
{
    uint64_t n = 0;
    for (int t = 0; t < u->nthreads; t++)
        n += u->threads[t].instructions;
    return n;
}

uint64_t sim_total_instructions(const sim_machine *m)
{
    uint64_t n = 0;
    for (int i = 0; i < m->nunits; i++)
        for (int t = 0; t < m->units[i].nthreads; t++)
            n += m->units[i].threads[t].instructions;
    return n;
}

uint64_t sim_unit_end_cycle(const sim_machine *m, const sim_unit *u)
{
    if (u->halted)
        return u->halted_at;
    uint64_t now = u->period > 1 ? m->now / u->period : m->now; /* its cycles begun by m->now */
    return now > u->reached ? now : u->reached;
}

uint64_t sim_end_cycle(const sim_machine *m)
{
    uint64_t end = 0;
    for (int i = 0; i < m->nunits; i++) {
        const sim_unit *u = &m->units[i];
        if (!u->enabled)
            continue;
        uint64_t c = sim_unit_tick(u, sim_unit_end_cycle(m, u));
        if (c > end)
            end = c;
    }
    return end;
}

void sim_counters_sync(sim_machine *m)
{
    if (m->isa->counters_sync)
        for (int i = 0; i < m->nunits; i++)
            m->isa->counters_sync(m, &m->units[i]);
}
