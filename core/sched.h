/* core/sched.h: per-unit thread selection shared by every barrel/revolver ISA.
 * Each thread carries ready_at (earliest issue cycle) and a state. sched_pick returns the
 * next READY thread in round-robin order, starting at the unit's cursor, whose ready_at has
 * passed; the ISA then executes it and sets its new ready_at from its timing rule (DPU:
 * +11 revolver; IPU: +6 barrel slot; Nyuzi: scoreboard/latency; MCCP: +4 or arbiter wake).
 * sched_next_ready gives the earliest cycle at which any thread can issue, so the unit can
 * jump straight over idle cycles. Sleeping threads wait for sched_wake (DMA done, barrier,
 * token) and cost nothing meanwhile. */
#ifndef XPUSIM_SCHED_H
#define XPUSIM_SCHED_H
#include "sim.h"

/* Next thread that may issue at 'now' in round-robin order; advances the cursor past it.
 * -1 if none. */
static inline int sched_pick(sim_unit *u, uint64_t now)
{
    int n = u->nthreads, i = u->rr;
    for (int k = 0; k < n; k++) {
        sim_thread *t = &u->threads[i];
        if (t->state == SIM_T_READY && t->ready_at <= now) {
            u->rr = i + 1 == n ? 0 : i + 1;
            return i;
        }
        if (++i == n)
            i = 0;
    }
    return -1;
}

/* Earliest ready_at among READY threads, SIM_NEVER if none. */
uint64_t sched_next_ready(const sim_unit *u);
/* Number of threads not halted or disabled. */
int sched_live(const sim_unit *u);
void sched_sleep(sim_unit *u, int tid);
/* Make a sleeping thread ready at 'when' and make sure the unit runs then. */
void sched_wake(sim_unit *u, int tid, uint64_t when);
/* Halt a thread at 'cycle'; halts the unit when it was the last live thread, unless the ISA
 * says when the unit halts (u->halt_by_isa: then it calls sim_unit_halt itself). */
void sched_halt(sim_unit *u, int tid, uint64_t cycle);
void sched_start(sim_unit *u, int tid, uint64_t when);

#endif
