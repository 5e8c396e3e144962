/* tests/unit/test_couple_fault.c: a fault inside a batch of event-coupled units gives the
 * same results for every -o jobs= (issue 11 pt 2, core/run.c batch_finish). On several host
 * threads the other units' bursts would end wherever they saw the stop, and on one host
 * thread the units after the faulting one would not run; the batch is finished instead
 * (every burst to its end) and the stop is the earliest fault by (cycle, unit). The synthetic
 * tile model of couple_model.h with fault_unit / fault_k; expected counts derived by hand. */
#include "../testlib.h"
#include "couple_model.h"

typedef struct result {
    sim_stop_kind kind;
    int unit;
    uint64_t cycle, total, hash, end;
    uint64_t insns[8][7], reached[8];
} result;

static void run(const char *jobs, const char *f1, const char *f2, const char *f3, const char *f4, result *r)
{
    const char *kv[] = {"units=8", "insns=100", "phases=2", "sync=10", "coupling=event", jobs, f1, f2, f3, f4, NULL};
    sim_machine m;
    char err[200] = "";
    if (cm_make(&m, &cm_isa, kv, err, sizeof err))
        fail_msg("cm_make: %s", err);
    memset(r, 0, sizeof *r);
    r->kind = sim_run(&m, SIM_NEVER);
    r->unit = m.stop.unit;
    r->cycle = m.stop.cycle;
    r->total = sim_total_instructions(&m);
    r->hash = ((cm_machine *)m.isa_state)->hash;
    r->end = sim_end_cycle(&m);
    for (int i = 0; i < 8; i++) {
        r->reached[i] = m.units[i].reached;
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
    assert_int_equal(a->hash, b->hash);
    assert_int_equal(a->end, b->end);
    for (int i = 0; i < 8; i++) {
        assert_int_equal(a->reached[i], b->reached[i]);
        for (int t = 0; t < 7; t++)
            assert_int_equal(a->insns[i][t], b->insns[i][t]);
    }
}

/* Eight units of seven threads, 100 instructions per thread in the first phase: all due at
 * cycle 0, one batch in unit order. Thread t issues at t + 7j, so a unit's last first-phase
 * issue is thread 6's at 6 + 7 * 99 = 699, where it blocks at the barrier (100 instructions
 * per thread, 700 per unit). Unit 2 faults instead of thread 0's instruction 60, at
 * 7 * 60 = 420, having issued 60 per thread (thread t's 60th at t + 7 * 59 < 420): 420.
 * Every other unit runs its whole burst: 7 x 700 + 420 = 5320, stop (420, unit 2). */
static void test_fault_one_unit(void **state)
{
    (void)state;
    result ref, r;
    run("jobs=1", "fault_unit=2", "fault_k=60", "jitter=0", "lat=6", &ref);
    assert_int_equal(ref.kind, SIM_STOP_FAULT);
    assert_int_equal(ref.unit, 2);
    assert_int_equal(ref.cycle, 420);
    assert_int_equal(ref.total, 7 * 700 + 420);
    for (int t = 0; t < 7; t++) {
        assert_int_equal(ref.insns[2][t], 60);
        assert_int_equal(ref.insns[7][t], 100); /* after the faulting unit: run all the same */
    }
    static const char *const jobs[] = {"jobs=2", "jobs=3", "jobs=1", "jobs=3"};
    for (int k = 0; k < 4; k++) {
        run(jobs[k], "fault_unit=2", "fault_k=60", "jitter=0", "lat=6", &r);
        same(&ref, &r);
    }
}

/* Two faults: unit 2 at 420 (as above) and unit 5 at instruction 40 of thread 0, cycle
 * 7 * 40 = 280, with 40 per thread (280). Unit 2 comes first in the batch, unit 5 faults
 * first in time: the stop is (280, unit 5) for every jobs=; total 6 x 700 + 420 + 280. */
static void test_fault_earliest_of_two(void **state)
{
    (void)state;
    result ref, r;
    run("jobs=1", "fault_unit=2", "fault_k=60", "fault_unit2=5", "fault_k2=40", &ref);
    assert_int_equal(ref.kind, SIM_STOP_FAULT);
    assert_int_equal(ref.unit, 5);
    assert_int_equal(ref.cycle, 280);
    assert_int_equal(ref.total, 6 * 700 + 420 + 280);
    assert_int_equal(ref.insns[5][6], 40);
    static const char *const jobs[] = {"jobs=2", "jobs=3", "jobs=4", "jobs=2"};
    for (int k = 0; k < 4; k++) {
        run(jobs[k], "fault_unit=2", "fault_k=60", "fault_unit2=5", "fault_k2=40", &r);
        same(&ref, &r);
    }
}

XPUSIM_TESTS(couple_fault,
             cmocka_unit_test(test_fault_one_unit),
             cmocka_unit_test(test_fault_earliest_of_two))
