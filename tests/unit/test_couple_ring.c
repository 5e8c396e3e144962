/* tests/unit/test_couple_ring.c: the run loop's ring of cycle-coupled units (issue 11 pt 2,
 * core/run.c). On machines of at most SIM_RING_MAX units the loop keeps cycle-coupled units'
 * run events off the queue and picks them in the queue's own order; on larger machines they
 * stay on the queue. The ring must change nothing simulated: a model whose units wake each
 * other, an event of the ISA's at the units' own priority (ties broken by insertion order)
 * and a cycle limit in the middle give the same trace of unit_run calls (unit, cycle,
 * horizon, returned cycle) with the ring (8 units) as without it (the same 8 units and a
 * ninth, never started and disabled, which keeps the machine over the ring's size). The
 * couple model of couple_model.h, switching between event and cycle coupling at run time,
 * gives the results of the cycle-coupled run on a machine small enough for the ring. */
#include "../testlib.h"
#include "couple_model.h"

#define KV(...) ((const char *const[]){__VA_ARGS__, NULL})

/* ---- the ring model: a fake ISA whose units interact cycle by cycle ----
 * Each unit has 2 threads and issues at most one instruction per cycle (sched_pick). The
 * k-th instruction of thread t on unit i is ready again after 1 + (i + 3k + t) % 4 cycles;
 * every 7th makes thread t of the next unit ready 2 cycles later, sooner or later than it
 * would be (sched_wake: a cross-unit effect, which only cycle coupling allows); a thread
 * halts after `insns`. A
 * "tick" event (priority 0, the units' own) every 5 cycles wakes thread 0 of unit
 * (tick / 5) % units at its cycle. unit_run folds (unit, now, horizon, result) into a hash:
 * any difference in the order or the horizons of the bursts shows there. */
typedef struct rm_machine {
    int units, started;
    uint64_t insns, hash, calls, ring_seen;
    uint64_t done[16][2];
    ev_event tick;
    sim_machine *m;
} rm_machine;

static void rm_tick(ev_event *e, void *ctx)
{
    rm_machine *rm = ctx;
    sim_machine *m = rm->m;
    sim_unit *u = &m->units[(m->now / 5) % (uint64_t)rm->started];
    sched_wake(u, 0, m->now);
    rm->hash = rm->hash * 1000003u + m->now;
    if (m->now < 3000)
        sim_schedule(m, e, m->now + 5);
}

static int rm_create(sim_machine *m, char *err, size_t errlen)
{
    uint64_t units, started, insns;
    rm_machine *rm = calloc(1, sizeof *rm);
    if (!rm)
        return -1;
    m->isa_state = rm;
    rm->m = m;
    if (opt_get_u64(&m->opts, "units", 8, 1, 16, &units, err, errlen) ||
        opt_get_u64(&m->opts, "started", 8, 1, 16, &started, err, errlen) ||
        opt_get_u64(&m->opts, "insns", 600, 1, 1000000, &insns, err, errlen))
        return -1;
    rm->units = (int)units;
    rm->started = (int)started;
    rm->insns = insns;
    if (sim_add_units(m, rm->units, 2, "u%d", 1e9) || sim_register_event(m, &rm->tick, "tick", rm_tick, rm, 0))
        return snprintf(err, errlen, "out of memory"), -1;
    for (int i = 0; i < rm->units; i++)
        if (i >= rm->started)
            sim_unit_disable(m, &m->units[i]);
        else
            for (int t = 0; t < 2; t++)
                sched_start(&m->units[i], t, (uint64_t)i);
    sim_schedule(m, &rm->tick, 5);
    return 0;
}

static void rm_destroy(sim_machine *m)
{
    free(m->isa_state);
    m->isa_state = NULL;
}

static uint64_t rm_unit_run(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon)
{
    rm_machine *rm = m->isa_state;
    int i = u->index;
    uint64_t c = now, ret;
    rm->calls++;
    rm->ring_seen += m->nring > 0;
    for (;;) {
        if (c >= horizon) {
            ret = c;
            break;
        }
        int t = sched_pick(u, c);
        if (t < 0) {
            uint64_t nr = sched_next_ready(u);
            if (nr == SIM_NEVER || nr >= horizon) {
                ret = nr;
                break;
            }
            c = nr;
            continue;
        }
        sim_thread *th = &u->threads[t];
        uint64_t k = rm->done[i][t]++;
        u->last_issue = c;
        th->instructions++;
        th->issue_cycles++;
        th->ready_at = c + 1 + (uint64_t)(i + 3 * k + (uint64_t)t) % 4;
        if (rm->done[i][t] == rm->insns) {
            sched_halt(u, t, c + 1);
        } else if (k % 7 == 6) {
            sched_wake(&m->units[(i + 1) % rm->started], t, c + 2);
        }
        c++;
    }
    rm->hash = rm->hash * 1000003u + (uint64_t)i * 7919u + now * 31u + (horizon == SIM_NEVER ? 1 : horizon) * 17u +
               (ret == SIM_NEVER ? 3 : ret);
    return ret;
}

static uint64_t rm_pc_get(sim_machine *m, int unit, int thread)
{
    const rm_machine *rm = m->isa_state;
    return rm->done[unit][thread];
}

static const char *const rm_stalls[] = {"wait", NULL};

static const isa_ops rm_isa = {
    .name = "ring-model",
    .description = "cycle-coupled units that wake each other",
    .stall_names = rm_stalls,
    .create = rm_create,
    .destroy = rm_destroy,
    .unit_run = rm_unit_run,
    .pc_get = rm_pc_get,
};

typedef struct rm_result {
    sim_stop_kind kind1, kind2;
    uint64_t stop1, end, total, hash, calls, ring_seen;
    uint64_t insns[8][2], halted_at[8][2];
} rm_result;

/* Run to cycle 400 (a limit in the middle), then to the end. */
static void rm_run(const char *units, rm_result *r)
{
    sim_machine m;
    sim_opts o;
    char err[200] = "";
    opt_init(&o);
    assert_int_equal(opt_parse(&o, units), 0);
    assert_int_equal(opt_parse(&o, "started=8"), 0);
    if (sim_create(&m, &rm_isa, &o, err, sizeof err))
        fail_msg("sim_create: %s", err);
    memset(r, 0, sizeof *r);
    r->kind1 = sim_run(&m, 400);
    r->stop1 = m.stop.cycle;
    assert_int_equal(m.nring, 0); /* the ring is the loop's own: empty between runs */
    r->kind2 = sim_run(&m, SIM_NEVER);
    const rm_machine *rm = m.isa_state;
    r->end = sim_end_cycle(&m);
    r->total = sim_total_instructions(&m);
    r->hash = rm->hash;
    r->calls = rm->calls;
    r->ring_seen = rm->ring_seen;
    for (int i = 0; i < 8; i++)
        for (int t = 0; t < 2; t++) {
            r->insns[i][t] = m.units[i].threads[t].instructions;
            r->halted_at[i][t] = m.units[i].threads[t].halted_at;
        }
    sim_destroy(&m);
}

/* The same bursts, in the same order, with and without the ring. */
static void test_ring_same_order(void **state)
{
    (void)state;
    rm_result with, without;
    rm_run("units=8", &with);       /* 8 units: on the ring */
    rm_run("units=9", &without);    /* 9 (one disabled): over SIM_RING_MAX, on the queue */
    assert_true(SIM_RING_MAX == 8);
    assert_true(with.ring_seen > 0);
    assert_int_equal(without.ring_seen, 0);
    assert_int_equal(with.kind1, SIM_STOP_LIMIT);
    assert_int_equal(with.stop1, 400);
    assert_int_equal(with.kind2, SIM_STOP_HALT);
    /* 8 units x 2 threads x 600 instructions */
    assert_int_equal(with.total, 8 * 2 * 600);
    assert_int_equal(with.kind1, without.kind1);
    assert_int_equal(with.kind2, without.kind2);
    assert_int_equal(with.stop1, without.stop1);
    assert_int_equal(with.end, without.end);
    assert_int_equal(with.total, without.total);
    assert_int_equal(with.calls, without.calls);
    assert_int_equal(with.hash, without.hash);
    for (int i = 0; i < 8; i++)
        for (int t = 0; t < 2; t++) {
            assert_int_equal(with.insns[i][t], without.insns[i][t]);
            assert_int_equal(with.halted_at[i][t], without.halted_at[i][t]);
        }
}

/* The couple model on 6 units (on the ring while cycle-coupled): units switching from event
 * to cycle coupling at their arrival and back at the release leave and rejoin the ring; the
 * results are those of the cycle-coupled run and of the same run on 3 host threads. */
static void test_ring_switching(void **state)
{
    (void)state;
    uint64_t end[3], total[3], hash[3], rel[3];
    const char *const *kvs[3] = {
        KV("units=6", "insns=29", "jitter=4", "phases=5", "coupling=cycle"),
        KV("units=6", "insns=29", "jitter=4", "phases=5", "coupling=event", "switch=1"),
        KV("units=6", "insns=29", "jitter=4", "phases=5", "coupling=event", "switch=1", "jobs=3"),
    };
    for (int k = 0; k < 3; k++) {
        sim_machine m;
        char err[200] = "";
        if (cm_make(&m, &cm_isa, kvs[k], err, sizeof err))
            fail_msg("cm_make: %s", err);
        assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
        const cm_machine *cm = m.isa_state;
        end[k] = sim_end_cycle(&m);
        total[k] = sim_total_instructions(&m);
        hash[k] = cm->hash;
        rel[k] = cm->releases;
        sim_destroy(&m);
    }
    assert_int_equal(rel[0], 4);
    /* per thread and phase 29 + 4 * (i % 5) instructions: 29, 33, 37, 41, 45, 29 */
    assert_int_equal(total[0], 7 * 5 * (29 * 2 + 33 + 37 + 41 + 45));
    for (int k = 1; k < 3; k++) {
        assert_int_equal(end[k], end[0]);
        assert_int_equal(total[k], total[0]);
        assert_int_equal(rel[k], rel[0]);
    }
    assert_int_equal(hash[1], hash[2]);
}

XPUSIM_TESTS(couple_ring,
             cmocka_unit_test(test_ring_same_order),
             cmocka_unit_test(test_ring_switching))
