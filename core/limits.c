/* core/limits.c: how far a burst may run and when a run must stop without any unit's say
 * (core/run.h): the run's limits for a burst (cycle limit, instruction caps, a fast-forward's
 * count and quantum, progress reports' spacing; burst ends change nothing simulated), the
 * decoupled units' own watchdogs (boundaries every `watchdog` cycles, the same whatever host
 * thread runs the unit) and the instruction caps' check between events. */
#include "sim.h"
#include "run.h"

/* The run's limits for a burst that starts at `now` (a decoupled unit's horizon). */
uint64_t run_limits_for(const sim_machine *m, uint64_t now, int decoupled)
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

/* A decoupled unit's watchdog window starts afresh where it was stale: after it blocked
 * (waiting for another unit is no livelock, however long) or changed its coupling. The
 * boundaries stay multiples of `watchdog`, so they are the same for every -o jobs=. */
void run_unit_watchdog_fresh(sim_machine *m, sim_unit *u, uint64_t now)
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

/* Independent units are watched one by one, at boundaries every `watchdog` cycles that are
 * the same whether the unit runs on this thread or another (so the stop is the same for
 * every -o jobs=): a unit that has passed a boundary (reached: the cycle it simulated up
 * to, or beyond which it only sleeps) without retiring an instruction since the one before
 * is a livelock. Returns 1 when it stopped the run. */
int run_unit_watchdog(sim_machine *m, sim_unit *u, uint64_t reached)
{
    if (!m->watchdog || u->halted || reached == SIM_NEVER)
        return 0;
    while (reached >= u->wd_next) {
        uint64_t n = run_unit_instructions(u);
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

void run_insn_count_check(sim_machine *m)
{
    uint64_t n = sim_total_instructions(m);
    if (m->ff_insns && n >= m->ff_insns) /* the marker first: the limit may be the same count */
        sim_set_stop(m, SIM_STOP_MARKER, -1, -1, 0, "instruction count %llu reached (%llu retired)",
                     (unsigned long long)m->ff_insns, (unsigned long long)n);
    else if (m->max_instructions && n >= m->max_instructions)
        sim_set_stop(m, SIM_STOP_LIMIT, -1, -1, 0, "instruction limit %llu reached",
                     (unsigned long long)m->max_instructions);
}
