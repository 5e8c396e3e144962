/* tests/unit/test_couple.c: the coupling contract (issue 11 pt 2) in the run loop, on the
 * synthetic tile model of couple_model.h (units of 7 threads, phases between barriers).
 * Event-coupled units must give the results of cycle-coupled ones (the model keeps the
 * promise: units meet only at the barrier, and its release wakes blocked units), the same
 * for every -o jobs= (also the order in which their events reach the queue, seen through
 * the barrier's arrival hash), across a run stopped at a cycle limit and resumed, with an
 * instruction limit, and when units switch between event and cycle coupling at run time.
 * Expected cycles are derived by hand in the comments. */
#include "../testlib.h"
#include "couple_model.h"
#include "../../core/debug.h"

#define KV(...) ((const char *const[]){__VA_ARGS__, NULL})

typedef struct snap {
    sim_stop_kind kind;
    uint64_t end, total, hash, releases, stop_cycle;
    int nunits, nthreads;
    uint8_t halted[64];
    uint64_t uhalted_at[64], reached[64];
    uint64_t insns[64][7], issues[64][7], wait[64][7], halted_at[64][7];
} snap;

static void take(const sim_machine *m, snap *s, int with_reached)
{
    memset(s, 0, sizeof *s);
    const cm_machine *cm = m->isa_state;
    s->kind = m->stop.kind;
    s->stop_cycle = m->stop.cycle;
    s->end = sim_end_cycle(m);
    s->total = sim_total_instructions(m);
    s->hash = cm->hash;
    s->releases = cm->releases;
    s->nunits = m->nunits;
    s->nthreads = m->units[0].nthreads;
    assert_true(s->nunits <= 64 && s->nthreads <= 7);
    for (int i = 0; i < m->nunits; i++) {
        const sim_unit *u = &m->units[i];
        s->halted[i] = u->halted;
        s->uhalted_at[i] = u->halted ? u->halted_at : 0;
        s->reached[i] = with_reached ? u->reached : 0;
        for (int t = 0; t < u->nthreads; t++) {
            const sim_thread *th = &u->threads[t];
            s->insns[i][t] = th->instructions;
            s->issues[i][t] = th->issue_cycles;
            s->wait[i][t] = th->stalls[0];
            s->halted_at[i][t] = th->state == SIM_T_HALTED ? th->halted_at : 0;
        }
    }
}

static void same(const snap *a, const snap *b)
{
    assert_int_equal(a->kind, b->kind);
    assert_int_equal(a->end, b->end);
    assert_int_equal(a->total, b->total);
    assert_int_equal(a->releases, b->releases);
    assert_int_equal(a->stop_cycle, b->stop_cycle);
    assert_int_equal(a->nunits, b->nunits);
    for (int i = 0; i < a->nunits; i++) {
        assert_int_equal(a->halted[i], b->halted[i]);
        assert_int_equal(a->uhalted_at[i], b->uhalted_at[i]);
        assert_int_equal(a->reached[i], b->reached[i]);
        for (int t = 0; t < a->nthreads; t++) {
            assert_int_equal(a->insns[i][t], b->insns[i][t]);
            assert_int_equal(a->issues[i][t], b->issues[i][t]);
            assert_int_equal(a->wait[i][t], b->wait[i][t]);
            assert_int_equal(a->halted_at[i][t], b->halted_at[i][t]);
        }
    }
}

static void make(sim_machine *m, const isa_ops *isa, const char *const *kv)
{
    char err[256] = "";
    if (cm_make(m, isa, kv, err, sizeof err))
        fail_msg("cm_make: %s", err);
}

/* A run to the end (or to `until`) with the options kv plus jobs=J. */
static void run_snap(const char *const *kv, int jobs, uint64_t until, snap *s)
{
    const char *list[24];
    char j[32];
    int n = 0;
    for (; kv[n]; n++)
        list[n] = kv[n];
    snprintf(j, sizeof j, "jobs=%d", jobs);
    list[n++] = j;
    list[n] = NULL;
    sim_machine m;
    make(&m, &cm_isa, list);
    sim_run(&m, until);
    take(&m, s, 1);
    sim_destroy(&m);
}

/* Two units, 10 instructions per thread per phase (unit 1: 11, jitter 1), two phases,
 * sync 10. A unit issues one instruction per cycle: seven threads ready every 6 cycles
 * always leave one ready, round robin from thread 0, so thread t issues at t, t+7, ...
 * Phase 1: unit 0's last issue is thread 6's 10th at 6 + 7*9 = 69, so it arrives at 70;
 * unit 1's at 6 + 7*10 = 76, arriving at 77. Release at 77 + 10 = 87: every thread is
 * ready at 87 and the cursor is back at thread 0 (thread 6 issued last). Phase 2: unit 0
 * ends at 87 + 69 = 156 (its last thread halts at 157), unit 1 at 87 + 76 = 163 (halt 164).
 * Waits: thread 0 of unit 0 waits 0 for its first issue and 1 for each later one (ready 6
 * after, issuing 7 after): 9 per phase, 18 in all; thread 6 waits 6 for the first issue of
 * each phase (ready at 0 / 87, issuing at 6 / 93) and 1 for the other 9: 30. */
static void test_event_cycles_by_hand(void **state)
{
    (void)state;
    for (int kind = 0; kind < 2; kind++) {
        sim_machine m;
        make(&m, &cm_isa, kind ? KV("units=2", "insns=10", "jitter=1", "phases=2", "sync=10", "coupling=event")
                                : KV("units=2", "insns=10", "jitter=1", "phases=2", "sync=10", "coupling=cycle"));
        assert_int_equal(m.units[0].coupling, kind ? SIM_COUPLE_EVENT : SIM_COUPLE_CYCLE);
        assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
        assert_int_equal(m.units[0].halted_at, 157);
        assert_int_equal(m.units[1].halted_at, 164);
        assert_int_equal(sim_end_cycle(&m), 164);
        assert_int_equal(m.stop.cycle, 164);
        assert_int_equal(sim_total_instructions(&m), 7 * 10 * 2 + 7 * 11 * 2);
        assert_int_equal(m.units[0].threads[0].stalls[0], 18);
        assert_int_equal(m.units[0].threads[6].stalls[0], 30);
        assert_int_equal(((cm_machine *)m.isa_state)->releases, 1);
        sim_destroy(&m);
    }
}

/* The independent peer (no barrier): the same instructions, no waits at a barrier: unit
 * 1's 22 instructions per thread end at 6 + 7*21 = 153, its last thread halting at 154. */
static void test_independent_peer(void **state)
{
    (void)state;
    sim_machine m;
    make(&m, &cm_isa_indep, KV("units=2", "insns=10", "jitter=1", "phases=2"));
    assert_int_equal(m.units[1].coupling, SIM_COUPLE_INDEPENDENT);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    assert_int_equal(m.units[1].halted_at, 154);
    assert_int_equal(sim_total_instructions(&m), 7 * 10 * 2 + 7 * 11 * 2);
    sim_destroy(&m);
}

/* Event coupling changes how the loop runs the units, not what they simulate. */
static void test_event_same_as_cycle(void **state)
{
    (void)state;
    snap a, b;
    run_snap(KV("units=23", "insns=37", "jitter=3", "phases=6", "sync=5", "coupling=cycle"), 1, SIM_NEVER, &a);
    run_snap(KV("units=23", "insns=37", "jitter=3", "phases=6", "sync=5", "coupling=event"), 1, SIM_NEVER, &b);
    assert_int_equal(a.kind, SIM_STOP_HALT);
    assert_int_equal(a.releases, 5);
    a.reached[0] = b.reached[0] = 0; /* bursts differ: how far a unit ran before halting */
    for (int i = 0; i < 23; i++)
        a.reached[i] = b.reached[i] = 0;
    same(&a, &b);
}

/* The same for every -o jobs= (and every repetition), the arrival order included. */
static void test_event_jobs_identical(void **state)
{
    (void)state;
    static const int jobs[] = {2, 4, 3, 1, 7};
    snap ref, s;
    const char *const *kv = KV("units=41", "insns=23", "jitter=5", "phases=7", "sync=3", "coupling=event");
    run_snap(kv, 1, SIM_NEVER, &ref);
    assert_int_equal(ref.kind, SIM_STOP_HALT);
    assert_int_equal(ref.releases, 6);
    for (size_t k = 0; k < sizeof jobs / sizeof jobs[0]; k++) {
        run_snap(kv, jobs[k], SIM_NEVER, &s);
        same(&ref, &s);
        assert_int_equal(ref.hash, s.hash);
    }
}

/* A cycle limit in the middle of a phase: each event-coupled unit has run to the limit
 * (reached = the limit), the same for every jobs=; resumed, the run ends as one that never
 * stopped. */
static void test_event_limit_and_resume(void **state)
{
    (void)state;
    const char *const *kv = KV("units=9", "insns=50", "jitter=7", "phases=3", "sync=20", "coupling=event");
    snap whole, a, b;
    run_snap(kv, 1, SIM_NEVER, &whole);
    for (int jobs = 1; jobs <= 3; jobs++) {
        sim_machine m;
        const char *list[] = {kv[0], kv[1], kv[2], kv[3], kv[4], kv[5], jobs == 1 ? "jobs=1" : jobs == 2 ? "jobs=2" : "jobs=3", NULL};
        make(&m, &cm_isa, list);
        /* unit 0's first phase ends at 6 + 7*49 = 349: at 200 every unit is mid-phase */
        assert_int_equal(sim_run(&m, 200), SIM_STOP_LIMIT);
        for (int i = 0; i < 9; i++)
            assert_int_equal(m.units[i].reached, 200);
        take(&m, jobs == 1 ? &a : &b, 1);
        if (jobs > 1)
            same(&a, &b);
        assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
        take(&m, &b, 0);
        whole.reached[0] = 0;
        snap w = whole;
        memset(w.reached, 0, sizeof w.reached);
        same(&w, &b);
        assert_int_equal(whole.hash, b.hash);
        sim_destroy(&m);
    }
}

/* An instruction limit counts in the order of the batch (its bursts then run on one host
 * thread): the stop is the same for every jobs=. */
static void test_event_instruction_limit(void **state)
{
    (void)state;
    snap a, b;
    for (int jobs = 1; jobs <= 4; jobs++) {
        sim_machine m;
        const char *list[] = {"units=11", "insns=40", "jitter=2", "phases=4", "coupling=event",
                              jobs == 1 ? "jobs=1" : jobs == 2 ? "jobs=2" : jobs == 3 ? "jobs=3" : "jobs=4", NULL};
        make(&m, &cm_isa, list);
        m.max_instructions = 5000;
        assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_LIMIT);
        assert_true(sim_total_instructions(&m) >= 5000);
        take(&m, jobs == 1 ? &a : &b, 1);
        if (jobs > 1)
            same(&a, &b);
        sim_destroy(&m);
    }
}

/* Switching at run time: units event-coupled in a phase, cycle-coupled from their arrival
 * to the release (as an IPU tile in exchange): the results of either fixed contract. */
static void test_switch_at_run_time(void **state)
{
    (void)state;
    snap a, b, c;
    run_snap(KV("units=17", "insns=29", "jitter=4", "phases=5", "coupling=cycle"), 1, SIM_NEVER, &a);
    run_snap(KV("units=17", "insns=29", "jitter=4", "phases=5", "coupling=event", "switch=1"), 1, SIM_NEVER, &b);
    run_snap(KV("units=17", "insns=29", "jitter=4", "phases=5", "coupling=event", "switch=1"), 3, SIM_NEVER, &c);
    same(&b, &c);
    assert_int_equal(b.hash, c.hash);
    memset(a.reached, 0, sizeof a.reached);
    memset(b.reached, 0, sizeof b.reached);
    same(&a, &b);
    sim_machine m;
    make(&m, &cm_isa, KV("units=2", "coupling=event", "switch=1"));
    sim_unit_set_coupling(&m, &m.units[1], SIM_COUPLE_CYCLE);
    assert_int_equal(m.units[1].coupling, SIM_COUPLE_CYCLE);
    assert_int_equal(m.units[0].coupling, SIM_COUPLE_EVENT);
    sim_destroy(&m);
}

/* Blocked units wait for a release that never comes (one unit is disabled, so the barrier
 * never fills): a deadlock, found when nothing but the watchdog is left, for every jobs=. */
static void test_event_deadlock(void **state)
{
    (void)state;
    for (int jobs = 1; jobs <= 2; jobs++) {
        sim_machine m;
        make(&m, &cm_isa, jobs == 1 ? KV("units=3", "insns=5", "phases=2", "coupling=event")
                                    : KV("units=3", "insns=5", "phases=2", "coupling=event", "jobs=2"));
        sim_unit_disable(&m, &m.units[2]);
        assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_DEADLOCK);
        /* both live units blocked after their 35th issue (cycle 34), arriving at 35 */
        assert_int_equal(sim_total_instructions(&m), 2 * 7 * 5);
        assert_int_equal(((cm_machine *)m.isa_state)->arrived, 2);
        sim_destroy(&m);
    }
}

/* A blocked event-coupled unit may wait for another unit longer than the watchdog's window:
 * that is no livelock (sync=500 against watchdog=100: the release comes 500 cycles after
 * the last arrival at 35, at 535; the run halts at 535 + 35 = 570). */
static void test_event_blocked_not_livelock(void **state)
{
    (void)state;
    sim_machine m;
    make(&m, &cm_isa, KV("units=2", "insns=5", "phases=2", "sync=500", "coupling=event", "watchdog=100"));
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    assert_int_equal(sim_end_cycle(&m), 570);
    sim_destroy(&m);
}

/* The debugger's hooks (a breakpoint that is never hit sets m->slow) change no burst of an
 * event-coupled unit, so no result, not even how far each unit ran; jobs=4 then runs the
 * batches on one host thread. */
static void test_event_debugger_same(void **state)
{
    (void)state;
    snap plain, dbg;
    const char *const *kv = KV("units=13", "insns=31", "jitter=2", "phases=4", "coupling=event", "jobs=4");
    run_snap(kv, 1, 900, &plain);
    sim_machine m;
    make(&m, &cm_isa, kv);
    assert_true(dbg_break_add(&m, 0xffffffffull, -1, 0, "never") >= 0);
    assert_true(m.slow);
    assert_int_equal(sim_run(&m, 900), SIM_STOP_LIMIT);
    take(&m, &dbg, 1);
    same(&plain, &dbg);
    assert_int_equal(plain.hash, dbg.hash);
    sim_destroy(&m);
}

XPUSIM_TESTS(couple,
             cmocka_unit_test(test_event_cycles_by_hand),
             cmocka_unit_test(test_independent_peer),
             cmocka_unit_test(test_event_same_as_cycle),
             cmocka_unit_test(test_event_jobs_identical),
             cmocka_unit_test(test_event_limit_and_resume),
             cmocka_unit_test(test_event_instruction_limit),
             cmocka_unit_test(test_switch_at_run_time),
             cmocka_unit_test(test_event_debugger_same),
             cmocka_unit_test(test_event_deadlock),
             cmocka_unit_test(test_event_blocked_not_livelock))
