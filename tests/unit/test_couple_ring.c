/* tests/unit/test_couple_ring.c: the run loop's ring of cycle-coupled units (issue 11 pt 2,
 * core/run.c). On machines of at most SIM_RING_MAX units the loop keeps cycle-coupled units'
 * run events off the queue and picks them in the queue's own order; on larger machines they
 * stay on the queue. The ring must change nothing simulated: a model whose units wake each
 * other, an event of the ISA's at the units' own priority (ties broken by insertion order)
 * and a cycle limit in the middle give the same trace of unit_run calls (unit, cycle,
 * horizon, returned cycle) with the ring (8 units) as without it (the same 8 units and a
 * ninth, never started and disabled, which keeps the machine over the ring's size). The
 * couple model of couple_model.h, switching between event and cycle coupling at run time,
 * gives the results of the cycle-coupled run on a machine small enough for the ring.
 * The loop runs the ring's units due in one cycle as a round (run_ring_round) without
 * choosing between their bursts: the same comparison with four units and longer waits (so
 * that the last of a round often has a horizon past the next cycle) and with bursts that
 * schedule an event of their own cycle ahead of the units (which must end the round). */
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
    uint64_t insns, hash, calls, ring_seen, lat, urgent, take;
    uint64_t done[16][2];
    ev_event tick, urg[16];
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

/* An event at priority -1 (before the units of its cycle) that a burst schedules at its own
 * first cycle: the loop must run it before the cycle's other units. */
static void rm_urgent(ev_event *e, void *ctx)
{
    rm_machine *rm = ctx;
    rm->hash = rm->hash * 1000003u + rm->m->now * 13u + (uint64_t)(e - rm->urg);
}

static int rm_create(sim_machine *m, char *err, size_t errlen)
{
    uint64_t units, started, insns, lat, urgent, take;
    rm_machine *rm = calloc(1, sizeof *rm);
    if (!rm)
        return -1;
    m->isa_state = rm;
    rm->m = m;
    if (opt_get_u64(&m->opts, "units", 8, 1, 16, &units, err, errlen) ||
        opt_get_u64(&m->opts, "started", 8, 1, 16, &started, err, errlen) ||
        opt_get_u64(&m->opts, "insns", 600, 1, 1000000, &insns, err, errlen) ||
        opt_get_u64(&m->opts, "lat", 4, 1, 64, &lat, err, errlen) ||
        opt_get_u64(&m->opts, "urgent", 0, 0, 1, &urgent, err, errlen) ||
        opt_get_u64(&m->opts, "take", 0, 0, 64, &take, err, errlen))
        return -1;
    rm->take = take;
    rm->lat = lat;
    rm->urgent = urgent;
    rm->units = (int)units;
    rm->started = (int)started;
    rm->insns = insns;
    if (sim_add_units(m, rm->units, 2, "u%d", 1e9) || sim_register_event(m, &rm->tick, "tick", rm_tick, rm, 0))
        return snprintf(err, errlen, "out of memory"), -1;
    for (int i = 0; i < rm->units; i++)
        if (sim_register_event(m, &rm->urg[i], "urgent", rm_urgent, rm, -1))
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
        th->ready_at = c + 1 + (uint64_t)(i + 3 * k + (uint64_t)t) % rm->lat;
        if (rm->urgent && c == now && k % 5 == 2 && !ev_pending(&rm->urg[i]))
            sim_schedule(m, &rm->urg[i], c);
        if (rm->take && c == now && k % rm->take == rm->take / 2) { /* the next unit's event 3 cycles later (as MCCP's cluster takes them) */
            sim_unit *o = &m->units[(i + 1) % rm->started];
            uint64_t w, sq;
            if (sim_unit_event_take(m, o, &w, &sq))
                sim_unit_wake(m, o, w + 3);
        }
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
static void rm_run(const char *const *kv, rm_result *r)
{
    sim_machine m;
    sim_opts o;
    char err[200] = "";
    opt_init(&o);
    for (; *kv; kv++)
        assert_int_equal(opt_parse(&o, *kv), 0);
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
    for (int i = 0; i < 8 && i < m.nunits; i++)
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
    rm_run(KV("units=8", "started=8"), &with);    /* 8 units: on the ring */
    rm_run(KV("units=9", "started=8"), &without); /* 9 (one disabled): over SIM_RING_MAX, on the queue */
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

/* Rounds (run_ring_round): four units on the ring against the same four on the queue
 * (nine units, five disabled), with waits of 1-9 cycles (lat=9: a round's last unit often has
 * no other unit due in the next cycle, so its horizon is further) and with urgent events
 * (each burst that starts a thread's 5k+2-th instruction schedules an event at priority -1
 * for its first cycle, which the queue runs before the cycle's remaining units) and with
 * bursts that move the next unit's event 3 cycles later (take=N: a burst whose first
 * instruction is a thread's (N/2 mod N)-th does sim_unit_event_take and a wake, as MCCP's
 * cluster does; a round must not run a unit no longer due, nor give the unit before it a
 * horizon of the next cycle for its sake). */
static void test_ring_rounds(void **state)
{
    (void)state;
    static const char *const variants[][3] = {
        {"lat=9", "urgent=0", "take=0"}, {"lat=4", "urgent=1", "take=0"}, {"lat=9", "urgent=1", "take=0"},
        {"lat=4", "urgent=0", "take=11"}, {"lat=9", "urgent=0", "take=3"}};
    for (int v = 0; v < 5; v++) {
        rm_result with, without;
        rm_run(KV("units=4", "started=4", variants[v][0], variants[v][1], variants[v][2]), &with);
        rm_run(KV("units=9", "started=4", variants[v][0], variants[v][1], variants[v][2]), &without);
        assert_true(with.ring_seen > 0);
        assert_int_equal(without.ring_seen, 0);
        assert_int_equal(with.kind2, SIM_STOP_HALT);
        assert_int_equal(with.total, 4 * 2 * 600); /* 4 units x 2 threads x 600 instructions */
        assert_int_equal(with.kind1, without.kind1);
        assert_int_equal(with.stop1, without.stop1);
        assert_int_equal(with.end, without.end);
        assert_int_equal(with.total, without.total);
        assert_int_equal(with.calls, without.calls);
        assert_int_equal(with.hash, without.hash);
        for (int i = 0; i < 4; i++)
            for (int t = 0; t < 2; t++)
                assert_int_equal(with.halted_at[i][t], without.halted_at[i][t]);
    }
}

/* ---- a scripted round: the horizons worked out by hand ----
 * Four cycle-coupled units A-D (0-3), all started at cycle 10 in that order, each working
 * every cycle of its burst (it returns its horizon), except at cycle 12: A returns 16, and
 * B takes D's event (sim_unit_event_take, as MCCP's cluster does), wakes D at 20 and
 * returns 17. */
typedef struct sr_machine {
    int n;
    uint64_t log[16][4]; /* unit, now, horizon, returned */
} sr_machine;

static int sr_create(sim_machine *m, char *err, size_t errlen)
{
    sr_machine *sr = calloc(1, sizeof *sr);
    if (!sr)
        return -1;
    m->isa_state = sr;
    uint64_t units;
    if (opt_get_u64(&m->opts, "units", 4, 4, 9, &units, err, errlen))
        return -1;
    if (sim_add_units(m, (int)units, 1, "u%d", 1e9))
        return snprintf(err, errlen, "out of memory"), -1;
    for (int i = 0; i < (int)units; i++)
        if (i < 4)
            sched_start(&m->units[i], 0, 10);
        else
            sim_unit_disable(m, &m->units[i]);
    return 0;
}

static uint64_t sr_unit_run(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon)
{
    sr_machine *sr = m->isa_state;
    uint64_t ret = horizon;
    if (now == 12 && u->index == 0)
        ret = 16;
    if (now == 12 && u->index == 1) {
        uint64_t w, sq;
        if (sim_unit_event_take(m, &m->units[3], &w, &sq))
            sim_unit_wake(m, &m->units[3], 20);
        ret = 17;
    }
    if (sr->n < 16) {
        uint64_t *l = sr->log[sr->n++];
        l[0] = (uint64_t)u->index, l[1] = now, l[2] = horizon, l[3] = ret;
    }
    return ret;
}

static const isa_ops sr_isa = {
    .name = "round-script",
    .description = "four cycle-coupled units with a script",
    .stall_names = rm_stalls,
    .create = sr_create,
    .destroy = rm_destroy, /* (frees isa_state) */
    .unit_run = sr_unit_run,
    .pc_get = rm_pc_get,
};

/* The bursts to cycle 16, by the queue's rule (earliest cycle, then insertion order; a
 * cycle-coupled burst's horizon is the next other event, at least the next cycle):
 *   10: A, B, C, D from the queue, in their start order, each with horizon 11.
 *   11: A, B, C, D (their numbers from their bursts at 10, in that order): horizon 12 each
 *       (the others due at 11 or 12); from here on they are on the ring, B-D in a round.
 *   12: A: horizon 13, returns 16. B: C still due at 12, horizon 13; moves D to 20,
 *       returns 17. C: D no longer due, the others at A 16, B 17, D 20: horizon 16.
 *       D is not run at 12.
 *   16: A (its number from 12) before C (from its burst after A's): A horizon 17 (C due
 *       at 16); C: A 17, B 17, D 20: horizon 17. The run's limit is cycle 16.
 * The same on the ring (4 units) as on the queue (9 units, 5 disabled). */
static void test_ring_round_script(void **state)
{
    (void)state;
    static const uint64_t want[][4] = {
        {0, 10, 11, 11}, {1, 10, 11, 11}, {2, 10, 11, 11}, {3, 10, 11, 11}, {0, 11, 12, 12}, {1, 11, 12, 12},
        {2, 11, 12, 12}, {3, 11, 12, 12}, {0, 12, 13, 16}, {1, 12, 13, 17}, {2, 12, 16, 16}, {0, 16, 17, 17},
        {2, 16, 17, 17}};
    const int nw = (int)(sizeof want / sizeof want[0]);
    for (int k = 0; k < 2; k++) {
        sim_machine m;
        sim_opts o;
        char err[200] = "";
        opt_init(&o);
        assert_int_equal(opt_parse(&o, k ? "units=9" : "units=4"), 0);
        if (sim_create(&m, &sr_isa, &o, err, sizeof err))
            fail_msg("sim_create: %s", err);
        assert_int_equal(sim_run(&m, 16), SIM_STOP_LIMIT);
        const sr_machine *sr = m.isa_state;
        for (int i = 0; i < nw && i < sr->n; i++)
            for (int f = 0; f < 4; f++)
                if (sr->log[i][f] != want[i][f])
                    fail_msg("%s: burst %d is unit %llu at %llu horizon %llu returning %llu, expected %llu %llu %llu %llu",
                             k ? "queue" : "ring", i, (unsigned long long)sr->log[i][0], (unsigned long long)sr->log[i][1],
                             (unsigned long long)sr->log[i][2], (unsigned long long)sr->log[i][3],
                             (unsigned long long)want[i][0], (unsigned long long)want[i][1],
                             (unsigned long long)want[i][2], (unsigned long long)want[i][3]);
        assert_int_equal(sr->n, nw);
        sim_destroy(&m);
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
             cmocka_unit_test(test_ring_rounds),
             cmocka_unit_test(test_ring_round_script),
             cmocka_unit_test(test_ring_switching))
