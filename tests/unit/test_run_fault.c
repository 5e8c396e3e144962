/* tests/unit/test_run_fault.c: a fault among independent units (the DPUs' contract,
 * isa_ops.independent_units) gives the same stop and the same counts for every -o jobs=
 * (issue 11 pt 2; session 24's rule, core/run.c indep_finish). On one host thread the units
 * after the faulting one would not run, and on several the others would end wherever they
 * saw the stop; instead every unit runs to its own end (halt, limit or its own fault) and
 * the stop reported is the earliest fault by (cycle, unit). The synthetic tile model of
 * couple_model.h as independent units (cm_isa_indep); counts derived by hand. */
#include "../testlib.h"
#include "couple_model.h"

typedef struct result {
    sim_stop_kind kind;
    int unit;
    uint64_t cycle, total, end;
    uint64_t insns[4][7], reached[4];
    uint8_t halted[4];
} result;

static void run(const char *jobs, const char *const *faults, result *r)
{
    const char *kv[12] = {"units=4", "insns=100", jobs};
    int n = 3;
    for (int k = 0; faults[k]; k++)
        kv[n++] = faults[k];
    kv[n] = NULL;
    sim_machine m;
    char err[200] = "";
    if (cm_make(&m, &cm_isa_indep, kv, err, sizeof err))
        fail_msg("cm_make: %s", err);
    memset(r, 0, sizeof *r);
    r->kind = sim_run(&m, SIM_NEVER);
    r->unit = m.stop.unit;
    r->cycle = m.stop.cycle;
    r->total = sim_total_instructions(&m);
    r->end = sim_end_cycle(&m);
    for (int i = 0; i < 4; i++) {
        r->reached[i] = m.units[i].reached;
        r->halted[i] = m.units[i].halted;
        for (int t = 0; t < 7; t++)
            r->insns[i][t] = m.units[i].threads[t].instructions;
    }
    sim_destroy(&m);
}

static void same(const result *a, const result *b)
{
    assert_int_equal(a->kind, b->kind);
    assert_int_equal(a->unit, b->unit);
    assert_int_equal(a->cycle, b->cycle);
    assert_int_equal(a->total, b->total);
    assert_int_equal(a->end, b->end);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(a->halted[i], b->halted[i]);
        /* reached is how far a unit has simulated while it runs; a halted unit's end is its
         * halted_at, and its reached (the last burst boundary before the halt) depends on how
         * the host threads sliced the run, so nothing reads it (sim_ff_switch skips halted
         * units): compared for the units that did not halt */
        if (!a->halted[i])
            assert_int_equal(a->reached[i], b->reached[i]);
        for (int t = 0; t < 7; t++)
            assert_int_equal(a->insns[i][t], b->insns[i][t]);
    }
}

/* Four units of seven threads, 100 instructions per thread, one issue per unit per cycle,
 * round robin: thread t issues at t + 7j, a unit's last issue is thread 6's at 6 + 7 x 99 =
 * 699 and it halts at 700 with 700 instructions. Unit 1 faults instead of thread 0's
 * instruction 60, at 7 x 60 = 420, with 60 per thread (thread t's 60th at t + 7 x 59 <
 * 420); unit 3 instead of instruction 40, at 280, with 40 per thread. With one host thread
 * unit 0 runs first (to its halt), then unit 1 faults at 420: units 2 and 3 run on all the
 * same, and unit 3's fault at 280 is the earlier one. The stop is (280, unit 3) and the
 * total 2 x 700 + 420 + 280 = 2100, for every jobs=. */
static void test_indep_earliest_fault(void **state)
{
    (void)state;
    static const char *const faults[] = {"fault_unit=1", "fault_k=60", "fault_unit2=3", "fault_k2=40", NULL};
    result ref, r;
    run("jobs=1", faults, &ref);
    assert_int_equal(ref.kind, SIM_STOP_FAULT);
    assert_int_equal(ref.unit, 3);
    assert_int_equal(ref.cycle, 280);
    assert_int_equal(ref.total, 2 * 700 + 420 + 280);
    for (int t = 0; t < 7; t++) {
        assert_int_equal(ref.insns[0][t], 100);
        assert_int_equal(ref.insns[1][t], 60);
        assert_int_equal(ref.insns[2][t], 100);
        assert_int_equal(ref.insns[3][t], 40);
    }
    assert_true(ref.halted[0] && !ref.halted[1] && ref.halted[2] && !ref.halted[3]);
    /* each faulting unit has simulated up to its own fault's cycle, reported or not */
    assert_int_equal(ref.reached[1], 420);
    assert_int_equal(ref.reached[3], 280);
    assert_int_equal(ref.end, 700);
    static const char *const jobs[] = {"jobs=2", "jobs=3", "jobs=4", "jobs=2", "jobs=1"};
    for (int k = 0; k < 5; k++) {
        run(jobs[k], faults, &r);
        same(&ref, &r);
    }
}

/* One fault, in the last unit: unit 3 at 420 (60 per thread); every other unit halts at
 * 700, also those a host thread would have stopped when it saw the fault. */
static void test_indep_one_fault(void **state)
{
    (void)state;
    static const char *const faults[] = {"fault_unit=3", "fault_k=60", NULL};
    result ref, r;
    run("jobs=1", faults, &ref);
    assert_int_equal(ref.kind, SIM_STOP_FAULT);
    assert_int_equal(ref.unit, 3);
    assert_int_equal(ref.cycle, 420);
    assert_int_equal(ref.total, 3 * 700 + 420);
    static const char *const jobs[] = {"jobs=2", "jobs=4", "jobs=3"};
    for (int k = 0; k < 3; k++) {
        run(jobs[k], faults, &r);
        same(&ref, &r);
    }
}

XPUSIM_TESTS(run_fault, cmocka_unit_test(test_indep_earliest_fault), cmocka_unit_test(test_indep_one_fault))
