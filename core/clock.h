/* core/clock.h: the machine's time base (issue 11 pt 1: each group at its own clock).
 * Units of different clocks share one event queue, so its times are machine ticks of 1/L s,
 * L the least common multiple of the units' clocks (in whole Hz), and a unit's cycle is
 * u->period ticks (L / its clock). On a machine whose units share one clock (every ISA
 * today) L is that clock and every period is 1: ticks are cycles and nothing converts. The
 * ISA's unit_run gets and returns the unit's own cycles (the run loop converts), threads'
 * ready_at and sim_unit_wake / sched_wake / sim_unit_halt take the unit's own cycles, and the
 * unit's statistics count its own cycles; sim_schedule, m->now, the run's cycle limit and
 * the machine's end (sim_end_cycle) are ticks. A unit whose event crosses to a unit of
 * another clock converts with sim_unit_tick / sim_unit_cycle_at. */
#ifndef XPUSIM_CLOCK_H
#define XPUSIM_CLOCK_H
#include "sim.h"

/* The longest unit cycle in ticks: time in ticks is 64 bits, so a machine of clocks whose
 * lcm needs more ticks per cycle would run out of time range (and is refused). */
#define SIM_MAX_PERIOD (1u << 20)

/* Set every unit's period and m->tick_hz from the units' clocks; the run events already
 * queued move with their units' periods. -1 with err filled (err may be NULL) when the
 * clocks have no common time base in range: a clock that is not a whole number of Hz, or a
 * period over SIM_MAX_PERIOD. sim_add_units_in and sim_create call it. */
int sim_clock_setup(sim_machine *m, char *err, size_t errlen);

/* The machine tick at which u's cycle `cycle` starts (SIM_NEVER stays SIM_NEVER). */
static inline uint64_t sim_unit_tick(const sim_unit *u, uint64_t cycle)
{
    if (u->period <= 1 || cycle == SIM_NEVER)
        return cycle;
    return cycle > (SIM_NEVER - 1) / u->period ? SIM_NEVER : cycle * u->period;
}

/* u's first cycle that starts at or after machine tick `tick`. */
static inline uint64_t sim_unit_cycle_at(const sim_unit *u, uint64_t tick)
{
    if (u->period <= 1 || tick == SIM_NEVER)
        return tick;
    return tick / u->period + (tick % u->period != 0);
}

/* u's cycle at the time of the event being processed (m->now). */
static inline uint64_t sim_unit_now(const sim_machine *m, const sim_unit *u) { return sim_unit_cycle_at(u, m->now); }

/* u's end so far in its own cycles: its halt, else how far it has run (m->now or beyond,
 * u->reached). sim_end_cycle is the machine's: the latest of its units' ends, in ticks. */
uint64_t sim_unit_end_cycle(const sim_machine *m, const sim_unit *u);

/* The fast-forward's switch (m->ff->cycle, ticks) as u's own cycle: the cycle in progress
 * at the switch tick, where u's timed part starts (a unit of a slower clock that had not
 * simulated that cycle yet issues in it after the switch, so its cycle counts with its
 * instructions); 0 without a fast-forward. */
static inline uint64_t sim_ff_unit_cycle(const sim_machine *m, const sim_unit *u)
{
    if (!m->ff)
        return 0;
    return u->period > 1 ? m->ff->cycle / u->period : m->ff->cycle;
}

/* The machine's watchdog window in ticks: `watchdog` cycles of its slowest unit. */
static inline uint64_t sim_watchdog_ticks(const sim_machine *m)
{
    uint64_t p = m->max_period > 1 ? m->max_period : 1;
    return m->watchdog > UINT64_MAX / 4 / p ? UINT64_MAX / 4 : m->watchdog * p;
}
#endif
