/* core/clock.c: the machine's time base from its units' clocks (core/clock.h). One distinct
 * clock (every ISA so far): ticks are cycles, every period 1, whatever the clock's value.
 * Several: the least common multiple L of the clocks in whole Hz is the tick rate and each
 * unit's period is L / its clock, so that units of 1 GHz and 1.25 GHz (L = 5 GHz, periods
 * 5 and 4) meet on the queue at the exact times their cycles start. */
#include <math.h>
#include <stdio.h>
#include "clock.h"
#include "run.h"

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

int sim_clock_setup(sim_machine *m, char *err, size_t errlen)
{
    char none[1];
    if (!err || !errlen) {
        err = none;
        errlen = sizeof none;
    }
    int one = 1;
    for (int i = 1; i < m->nunits && one; i++)
        one = m->units[i].clock_hz == m->units[0].clock_hz;
    uint64_t lcm = 1;
    if (!one) {
        for (int i = 0; i < m->nunits; i++) {
            const sim_unit *u = &m->units[i];
            double f = u->clock_hz;
            if (!(f >= 1 && f <= 1e18 && f == floor(f))) {
                snprintf(err, errlen,
                         "unit %s: clock %g Hz: units of different clocks need whole numbers of Hz for a common "
                         "time base",
                         u->name, f);
                return -1;
            }
            uint64_t hz = (uint64_t)f, g = gcd_u64(lcm, hz);
            if (lcm / g > UINT64_MAX / hz) {
                snprintf(err, errlen,
                         "unit %s: clock %.0f Hz: the units' clocks have no common time base in 64 bits (their "
                         "least common multiple overflows)",
                         u->name, f);
                return -1;
            }
            lcm = lcm / g * hz;
        }
        for (int i = 0; i < m->nunits; i++) {
            const sim_unit *u = &m->units[i];
            uint64_t p = lcm / (uint64_t)u->clock_hz;
            if (p > SIM_MAX_PERIOD) {
                snprintf(err, errlen,
                         "unit %s: clock %.0f Hz: the units' clocks have no common time base in range: one cycle "
                         "would be %llu ticks of their least common multiple (at most %u)",
                         u->name, u->clock_hz, (unsigned long long)p, SIM_MAX_PERIOD);
                return -1;
            }
        }
    }
    uint32_t pmax = 1;
    for (int i = 0; i < m->nunits; i++) {
        sim_unit *u = &m->units[i];
        uint32_t old = u->period ? u->period : 1, p = one ? 1 : (uint32_t)(lcm / (uint64_t)u->clock_hz);
        if (ev_pending(&u->ev) && p != old) /* queued with the old period: the same cycle */
            ev_schedule_seq(&m->q, &u->ev, u->ev.when / old * p, u->ev.seq);
        u->period = p;
        /* a unit of period 1 keeps the run loop's own fast paths (the ring, batches, host
         * threads); one of several ticks per cycle runs as an event of its own (run.h) */
        u->ev.fn = p > 1 ? sim_run_clocked_event : sim_run_unit_event;
        pmax = p > pmax ? p : pmax;
    }
    m->max_period = pmax;
    m->tick_hz = one ? (m->nunits ? m->units[0].clock_hz : 0) : (double)lcm;
    return 0;
}
