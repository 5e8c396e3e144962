/* core/sched.c: thread state changes shared by the ISAs' issue loops (see sched.h). The hot
 * pick is inline in the header; these run only when a thread sleeps, wakes or ends. */
#include "sched.h"

uint64_t sched_next_ready(const sim_unit *u)
{
    uint64_t best = SIM_NEVER;
    for (int i = 0; i < u->nthreads; i++) {
        const sim_thread *t = &u->threads[i];
        if (t->state == SIM_T_READY && t->ready_at < best)
            best = t->ready_at;
    }
    return best;
}

int sched_live(const sim_unit *u)
{
    int n = 0;
    for (int i = 0; i < u->nthreads; i++)
        n += sim_thread_active(&u->threads[i]);
    return n;
}

void sched_sleep(sim_unit *u, int tid)
{
    u->threads[tid].state = SIM_T_SLEEP;
    u->threads[tid].ready_at = SIM_NEVER;
}

void sched_wake(sim_unit *u, int tid, uint64_t when)
{
    sim_thread *t = &u->threads[tid];
    if (t->state != SIM_T_SLEEP && t->state != SIM_T_READY)
        return;
    t->state = SIM_T_READY;
    t->ready_at = when;
    sim_unit_wake(u->m, u, when);
}

void sched_start(sim_unit *u, int tid, uint64_t when)
{
    sim_thread *t = &u->threads[tid];
    t->state = SIM_T_READY;
    t->started = 1;
    t->ready_at = when;
    sim_unit_wake(u->m, u, when);
}

void sched_halt(sim_unit *u, int tid, uint64_t cycle)
{
    sim_thread *t = &u->threads[tid];
    if (t->state == SIM_T_HALTED)
        return;
    t->state = SIM_T_HALTED;
    t->halted_at = cycle;
    t->ready_at = SIM_NEVER;
    if (sched_live(u) == 0 && !u->halt_by_isa)
        sim_unit_halt(u->m, u, cycle);
}
