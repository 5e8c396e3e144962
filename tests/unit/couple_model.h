/* tests/unit/couple_model.h: a synthetic tile model (a fake ISA, never registered) for the
 * coupling contract (issue 11 pt 2): tests/unit/test_couple.c checks the run loop with it
 * and tests/bench/couple.c (make bench) measures what coupling costs. Its timing is simple
 * enough to derive by hand:
 *   - `units` units of `threads` threads (7: an IPU tile's supervisor and six workers), all
 *     started at cycle 0; a unit issues at most one instruction per cycle, picking threads
 *     round robin (sched_pick); after an issue at cycle c a thread is ready again at c + lat;
 *   - a phase: each thread of unit i retires insns + jitter * (i % 5) instructions; after
 *     the last of `phases` phases it halts at c + 1;
 *   - between phases, a barrier (the BSP pattern of an IPU): a thread that ends its phase
 *     sleeps; when every thread of its unit sleeps (at cycle c of the last one's issue) the
 *     unit is blocked and arrives: an event of its own at c + 1 tells the barrier. When all
 *     units have arrived, a release event at the latest arrival + sync wakes every thread of
 *     every unit at that cycle. Nothing else connects units, so the model keeps the
 *     event-coupled promise: another unit reaches a unit only through the release, while it
 *     is blocked, at a cycle after it blocked;
 *   - coupling=cycle|event: every unit's contract (sim_unit_set_coupling at create);
 *     switch=1 makes a unit cycle-coupled from its arrival to its release (an IPU tile in
 *     exchange) and event-coupled again at the release, as an ISA would at run time;
 *   - cm_isa_indep: the same units declared independent (isa_ops.independent_units), with
 *     no barrier: a thread goes straight on into its next phase, so the instructions are the
 *     same and only the barrier waits are missing;
 *   - hash: the order and cycles of the barrier's arrival events, which depend on the order
 *     in which the units' events reach the queue: equal for every -o jobs=;
 *   - fault_unit=U fault_k=K (and fault_unit2, fault_k2): thread 0 of unit U faults
 *     (SIM_STOP_FAULT, at its cycle) instead of issuing its instruction K (from 0), and the
 *     unit's burst ends there, as isa.h asks (unit -1: none).
 * Header-only (static functions) so the test and the bench program each build their own. */
#ifndef XPUSIM_TEST_COUPLE_MODEL_H
#define XPUSIM_TEST_COUPLE_MODEL_H
#include <stdlib.h>
#include <string.h>
#include "../../core/sim.h"
#include "../../core/sched.h"
#include "../../isa/isa.h"

#define CM_MAX_THREADS 32

typedef struct cm_unit {
    uint64_t done[CM_MAX_THREADS];  /* instructions of the current phase, per thread */
    uint64_t phase[CM_MAX_THREADS]; /* phases ended, per thread */
    int asleep;                     /* threads waiting at the barrier */
    uint64_t per;                   /* instructions per thread per phase */
    ev_event arrive;                /* tells the barrier this unit has arrived */
    sim_unit *u;
} cm_unit;

typedef struct cm_machine {
    uint64_t lat, insns, jitter, phases, sync;
    int barrier, switching;
    int64_t fault_unit[2];
    uint64_t fault_k[2];
    sim_coupling coupling;
    ev_event release;
    int arrived;
    uint64_t last_arrival, hash, releases;
    sim_machine *m;
    cm_unit *units;
} cm_machine;

static void cm_arrive_fn(ev_event *e, void *ctx)
{
    (void)e;
    cm_unit *cu = ctx;
    sim_machine *m = cu->u->m;
    cm_machine *cm = m->isa_state;
    cm->hash = cm->hash * 1000003u + (uint64_t)(cu->u->index + 1) * 7919u + m->now;
    if (m->now > cm->last_arrival)
        cm->last_arrival = m->now;
    if (++cm->arrived == m->nunits)
        sim_schedule(m, &cm->release, cm->last_arrival + cm->sync);
}

static void cm_release_fn(ev_event *e, void *ctx)
{
    (void)e;
    cm_machine *cm = ctx;
    sim_machine *m = cm->m;
    cm->arrived = 0;
    cm->releases++;
    for (int i = 0; i < m->nunits; i++) {
        sim_unit *u = &m->units[i];
        cm->units[i].asleep = 0;
        if (cm->switching)
            sim_unit_set_coupling(m, u, SIM_COUPLE_EVENT); /* compute again */
        for (int t = 0; t < u->nthreads; t++)
            sched_wake(u, t, m->now);
    }
}

static int cm_create(sim_machine *m, char *err, size_t errlen)
{
    static const char *const kinds[] = {"cycle", "event", NULL};
    static const opt_desc desc[] = {
        OPT_C("coupling", "event", kinds, "every unit's coupling"),
        OPT_END};
    uint64_t units, threads, sw, fu[2];
    int kind;
    cm_machine *cm = calloc(1, sizeof *cm);
    if (!cm)
        return -1;
    m->isa_state = cm;
    cm->m = m;
    if (opt_get_u64(&m->opts, "units", 4, 1, 4096, &units, err, errlen) ||
        opt_get_u64(&m->opts, "threads", 7, 1, CM_MAX_THREADS, &threads, err, errlen) ||
        opt_get_u64(&m->opts, "lat", 6, 1, 1000000, &cm->lat, err, errlen) ||
        opt_get_u64(&m->opts, "insns", 100, 1, UINT64_MAX / 8, &cm->insns, err, errlen) ||
        opt_get_u64(&m->opts, "jitter", 0, 0, 1000000, &cm->jitter, err, errlen) ||
        opt_get_u64(&m->opts, "phases", 1, 1, 1000000, &cm->phases, err, errlen) ||
        opt_get_u64(&m->opts, "sync", 10, 1, 1000000, &cm->sync, err, errlen) ||
        opt_get_u64(&m->opts, "switch", 0, 0, 1, &sw, err, errlen) ||
        opt_get_u64(&m->opts, "fault_unit", 0, 0, 4096, &fu[0], err, errlen) ||
        opt_get_u64(&m->opts, "fault_k", UINT64_MAX, 0, UINT64_MAX, &cm->fault_k[0], err, errlen) ||
        opt_get_u64(&m->opts, "fault_unit2", 0, 0, 4096, &fu[1], err, errlen) ||
        opt_get_u64(&m->opts, "fault_k2", UINT64_MAX, 0, UINT64_MAX, &cm->fault_k[1], err, errlen) ||
        opt_choice(&m->opts, desc, "coupling", &kind, err, errlen))
        return -1;
    cm->barrier = !m->isa->independent_units;
    cm->switching = (int)sw;
    for (int k = 0; k < 2; k++)
        cm->fault_unit[k] = cm->fault_k[k] == UINT64_MAX ? -1 : (int64_t)fu[k];
    cm->coupling = kind ? SIM_COUPLE_EVENT : SIM_COUPLE_CYCLE;
    if (sim_add_units(m, (int)units, (int)threads, "tile%d", 1e9) ||
        !(cm->units = calloc(units, sizeof *cm->units)) ||
        sim_register_event(m, &cm->release, "release", cm_release_fn, cm, 1))
        return snprintf(err, errlen, "out of memory"), -1;
    for (int i = 0; i < (int)units; i++) {
        cm_unit *cu = &cm->units[i];
        sim_unit *u = &m->units[i];
        cu->u = u;
        cu->per = cm->insns + cm->jitter * (uint64_t)(i % 5);
        u->isa = cu;
        if (sim_register_event(m, &cu->arrive, "arrive", cm_arrive_fn, cu, 1))
            return snprintf(err, errlen, "out of memory"), -1;
        if (cm->barrier)
            sim_unit_set_coupling(m, u, cm->coupling);
        for (int t = 0; t < (int)threads; t++)
            sched_start(u, t, 0);
    }
    return 0;
}

static void cm_destroy(sim_machine *m)
{
    cm_machine *cm = m->isa_state;
    free(cm->units);
    free(cm);
    m->isa_state = NULL;
}

static uint64_t cm_unit_run(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon)
{
    cm_machine *cm = m->isa_state;
    cm_unit *cu = u->isa;
    uint64_t c = now;
    while (c < horizon) {
        if (sim_stopped(m))
            return c;
        int t = sched_pick(u, c);
        if (t < 0) {
            uint64_t nr = sched_next_ready(u);
            if (nr == SIM_NEVER || nr >= horizon)
                return nr;
            c = nr; /* skip idle cycles */
            continue;
        }
        sim_thread *th = &u->threads[t];
        u->last_issue = c;
        for (int k = 0; k < 2; k++)
            if (t == 0 && cm->fault_unit[k] == u->index && th->instructions == cm->fault_k[k]) {
                sim_set_stop(m, SIM_STOP_FAULT, u->index, 0, th->instructions, "fault at instruction %llu",
                             (unsigned long long)th->instructions);
                return c;
            }
        th->stalls[0] += c - th->ready_at;
        th->instructions++;
        th->issue_cycles++;
        th->ready_at = c + cm->lat;
        if (++cu->done[t] == cu->per) {
            cu->done[t] = 0;
            if (++cu->phase[t] == cm->phases) {
                sched_halt(u, t, c + 1);
            } else if (cm->barrier) {
                sched_sleep(u, t);
                if (++cu->asleep == u->nthreads) { /* blocked: arrive at the barrier */
                    sim_schedule(m, &cu->arrive, c + 1);
                    if (cm->switching) /* in exchange until the release */
                        sim_unit_set_coupling(m, u, SIM_COUPLE_CYCLE);
                }
            }
        }
        c++;
    }
    return c;
}

static uint64_t cm_pc_get(sim_machine *m, int unit, int thread)
{
    const cm_unit *cu = m->units[unit].isa;
    return cu->done[thread];
}

static const char *const cm_stalls[] = {"wait", NULL};

__attribute__((unused)) static const isa_ops cm_isa = {
    .name = "tiles",
    .description = "synthetic tile model (coupled units)",
    .stall_names = cm_stalls,
    .create = cm_create,
    .destroy = cm_destroy,
    .unit_run = cm_unit_run,
    .pc_get = cm_pc_get,
};

__attribute__((unused)) static const isa_ops cm_isa_indep = {
    .name = "tiles-indep",
    .description = "synthetic tile model (independent units, no barrier)",
    .stall_names = cm_stalls,
    .create = cm_create,
    .destroy = cm_destroy,
    .unit_run = cm_unit_run,
    .independent_units = 1,
    .pc_get = cm_pc_get,
};

/* Build a machine from "key=value" strings (NULL-terminated); 0 ok, -1 with err. */
__attribute__((unused)) static int cm_make(sim_machine *m, const isa_ops *isa, const char *const *kv, char *err,
                                           size_t errlen)
{
    sim_opts o;
    opt_init(&o);
    for (int i = 0; kv && kv[i]; i++)
        if (opt_parse(&o, kv[i])) {
            snprintf(err, errlen, "bad option %s", kv[i]);
            return -1;
        }
    return sim_create(m, isa, &o, err, errlen);
}

#endif
