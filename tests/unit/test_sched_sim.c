/* tests/unit/test_sched_sim.c: the shared run loop (core/sim.c) and thread scheduler
 * (core/sched.c) driven by the fake ISA of fake_isa.h, whose timing is simple enough to
 * derive every expected cycle by hand (derivations are in the comments). Covers skip-ahead,
 * revolver and barrel issue rules, sleep/wake through an ISA-owned event, halting, deadlock
 * detection, cycle limits and resuming, two machines in one process, determinism, parallel
 * independent units (-o jobs=N) and instruction counters (statistics: test_stats.c). */
#include "../testlib.h"
#include "fake_isa.h"

#define KV(...) ((const char *const[]){__VA_ARGS__, NULL})

/* ---- snapshot of everything a run produces, to compare runs ---- */
typedef struct snap_thread {
    uint8_t state;
    uint64_t instructions, issue_cycles, halted_at, wait;
} snap_thread;
typedef struct snap {
    sim_stop_kind kind;
    int nunits, nthreads;
    uint64_t end, total;
    uint8_t halted[64];
    uint64_t uhalted_at[64];
    snap_thread th[64][FAKE_MAX_THREADS];
} snap;

static void take(const sim_machine *m, snap *s)
{
    memset(s, 0, sizeof *s);
    s->kind = m->stop.kind;
    s->nunits = m->nunits;
    s->nthreads = m->units[0].nthreads;
    s->end = sim_end_cycle(m);
    s->total = sim_total_instructions(m);
    for (int i = 0; i < m->nunits; i++) {
        s->halted[i] = m->units[i].halted;
        s->uhalted_at[i] = m->units[i].halted_at;
        for (int t = 0; t < m->units[i].nthreads; t++) {
            const sim_thread *th = &m->units[i].threads[t];
            s->th[i][t] = (snap_thread){th->state, th->instructions, th->issue_cycles,
                                        th->state == SIM_T_HALTED ? th->halted_at : 0, th->stalls[0]};
        }
    }
}

static void same(const snap *a, const snap *b)
{
    assert_int_equal(a->kind, b->kind);
    assert_int_equal(a->nunits, b->nunits);
    assert_int_equal(a->end, b->end);
    assert_int_equal(a->total, b->total);
    for (int i = 0; i < a->nunits; i++) {
        assert_int_equal(a->halted[i], b->halted[i]);
        assert_int_equal(a->uhalted_at[i], b->uhalted_at[i]);
        for (int t = 0; t < a->nthreads; t++) {
            assert_int_equal(a->th[i][t].state, b->th[i][t].state);
            assert_int_equal(a->th[i][t].instructions, b->th[i][t].instructions);
            assert_int_equal(a->th[i][t].issue_cycles, b->th[i][t].issue_cycles);
            assert_int_equal(a->th[i][t].halted_at, b->th[i][t].halted_at);
            assert_int_equal(a->th[i][t].wait, b->th[i][t].wait);
        }
    }
}

static void run_fresh(const isa_ops *isa, const char *const *kv, snap *s)
{
    sim_machine m;
    fake_make(&m, isa, kv);
    sim_run(&m, SIM_NEVER);
    take(&m, s);
    sim_destroy(&m);
}

/* ---- skip-ahead ---- */

static void test_skip_ahead_start(void **state)
{
    (void)state;
    sim_machine m;
    /* one thread, first ready at cycle 1,000,000, three instructions of latency 1:
     * issues at 1e6, 1e6+1, 1e6+2; halts at 1e6+3. A loop that visited every idle cycle
     * would call unit_run about a million times; skip-ahead needs one call (allow two). */
    fake_make(&m, &fake_isa, KV("threads=1", "insns=3", "start=1000000"));
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    assert_true(fake_calls(&m, 0) <= 2);
    assert_int_equal(m.units[0].halted_at, 1000003);
    assert_int_equal(m.units[0].threads[0].halted_at, 1000003);
    assert_int_equal(m.units[0].threads[0].instructions, 3);
    assert_int_equal(m.units[0].threads[0].stalls[0], 0); /* never ready without issuing */
    assert_int_equal(sim_end_cycle(&m), 1000003);
    sim_destroy(&m);
}

static void test_skip_ahead_long_latency(void **state)
{
    (void)state;
    sim_machine m;
    /* instruction 1 (issued at cycle 1) has a 1,000,000-cycle latency: instruction 2 issues
     * at 1,000,001, instruction 3 at 1,000,002, halt at 1,000,003. Two units so the other
     * unit's events also have to be skipped over (unit 1 is identical). */
    fake_make(&m, &fake_isa, KV("units=2", "insns=4", "long_at=1", "long_lat=1000000"));
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    for (int u = 0; u < 2; u++) {
        assert_true(fake_calls(&m, u) <= 8);
        assert_int_equal(m.units[u].halted_at, 1000003);
    }
    sim_destroy(&m);
}

/* ---- issue rules ---- */

/* n threads of N instructions each, latency L, one issue per cycle, round robin.
 * If n >= L: thread i is picked at cycles i, i+n, i+2n, ... (when its turn comes again n
 * cycles later it has been ready since L <= n cycles), so the unit issues every cycle:
 *   last issue of thread i = i + (N-1)n, halted_at = i + (N-1)n + 1, unit end = N*n;
 *   wait stalls of thread i = i (first issue) + (N-1)(n - L).
 * If n < L: each thread issues as soon as it is ready, thread i at cycles i + kL:
 *   halted_at = i + (N-1)L + 1, unit end = (N-1)L + n, wait stalls = i.
 * For n >= L this is the unit's N*n instructions in N*n*max(1, L/n) = N*n cycles; for
 * n < L the unit needs about N*L = N*n*(L/n) cycles (exactly (N-1)L + n). */
static void check_rule(const isa_ops *isa, int n, int N, int L)
{
    sim_machine m;
    char a[32], b[32], c[32];
    snprintf(a, sizeof a, "threads=%d", n);
    snprintf(b, sizeof b, "insns=%d", N);
    snprintf(c, sizeof c, "lat=%d", L);
    fake_make(&m, isa, KV(a, b, c));
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    uint64_t end = n >= L ? (uint64_t)N * n : (uint64_t)(N - 1) * L + n;
    assert_int_equal(m.units[0].halted_at, end);
    assert_int_equal(sim_end_cycle(&m), end);
    assert_int_equal(sim_total_instructions(&m), (uint64_t)N * n);
    assert_int_equal(m.nhalted, 1);
    for (int i = 0; i < n; i++) {
        const sim_thread *t = &m.units[0].threads[i];
        uint64_t h = n >= L ? (uint64_t)i + (uint64_t)(N - 1) * n + 1 : (uint64_t)i + (uint64_t)(N - 1) * L + 1;
        uint64_t w = n >= L ? (uint64_t)i + (uint64_t)(N - 1) * (n - L) : (uint64_t)i;
        assert_int_equal(t->state, SIM_T_HALTED);
        assert_int_equal(t->halted_at, h);
        assert_int_equal(t->instructions, N);
        assert_int_equal(t->issue_cycles, N);
        assert_int_equal(t->stalls[0], w);
    }
    sim_destroy(&m);
}

static void test_revolver_11(void **state)
{
    (void)state;
    const int ns[] = {1, 2, 4, 10, 11, 12, 16, 24};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        check_rule(&fake_isa, ns[i], 50, 11);
    /* the same with units that may run alone (the horizon is then the run limit) */
    check_rule(&fake_isa_indep, 4, 50, 11);
    check_rule(&fake_isa_indep, 16, 50, 11);
}

static void test_barrel_6(void **state)
{
    (void)state;
    /* 6 slots = latency 6: 6 threads fill every cycle, fewer leave empty slots */
    const int ns[] = {1, 3, 5, 6, 8};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        check_rule(&fake_isa, ns[i], 40, 6);
}

static void test_lockstep_units(void **state)
{
    (void)state;
    sim_machine m;
    /* three interacting (not independent) units run in lock step, each exactly like a lone
     * unit: n=2 < L=3, so thread i halts at i + 19*3 + 1 and every unit at 59 */
    fake_make(&m, &fake_isa, KV("units=3", "threads=2", "insns=20", "lat=3"));
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    assert_int_equal(m.nhalted, 3);
    for (int u = 0; u < 3; u++) {
        assert_int_equal(m.units[u].halted_at, 59);
        assert_int_equal(m.units[u].threads[0].halted_at, 58);
        assert_int_equal(m.units[u].threads[1].halted_at, 59);
    }
    assert_int_equal(sim_total_instructions(&m), 3 * 2 * 20);
    assert_int_equal(sim_stop_exit_code(m.stop.kind), 0);
    sim_destroy(&m);
}

/* ---- sleep / wake / deadlock ---- */

/* Two threads, latency 1, thread 0 sleeps after its 3rd instruction:
 *   c0 t0k0, c1 t1k0, c2 t0k1, c3 t1k1, c4 t0k2 -> t0 sleeps, wake event at 4 + D;
 *   t1 runs alone: k2..k9 at c5..c12, halts at 13.
 * With D = 100: the event at 104 wakes t0 (ready at 104): k3..k9 at 104..110, halt 111.
 * Wait stalls: t0 = 1 (k1 ready 1 issued 2) + 1 (k2 ready 3 issued 4) = 2;
 *              t1 = 1 + 1 + 1 (k0, k1, k2 each one cycle late) = 3. */
static void test_sleep_wake_by_event(void **state)
{
    (void)state;
    sim_machine m;
    fake_make(&m, &fake_isa, KV("threads=2", "insns=10", "sleep_at=3", "wake_delay=100"));
    /* stop in the middle of the sleep: t0 asleep, t1 done */
    assert_int_equal(sim_run(&m, 50), SIM_STOP_LIMIT);
    assert_int_equal(m.units[0].threads[0].state, SIM_T_SLEEP);
    assert_int_equal(m.units[0].threads[0].instructions, 3);
    assert_int_equal(m.units[0].threads[1].state, SIM_T_HALTED);
    assert_int_equal(m.units[0].threads[1].halted_at, 13);
    assert_int_equal(sched_live(&m.units[0]), 1);
    assert_false(m.units[0].halted);
    /* the wake event is what is left in the queue */
    assert_true(ev_next_time(&m.q) == 104);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    assert_int_equal(m.units[0].threads[0].halted_at, 111);
    assert_int_equal(m.units[0].halted_at, 111);
    assert_int_equal(m.units[0].threads[0].stalls[0], 2);
    assert_int_equal(m.units[0].threads[1].stalls[0], 3);
    assert_int_equal(sim_total_instructions(&m), 20);
    sim_destroy(&m);
}

static void test_deadlock(void **state)
{
    (void)state;
    sim_machine m;
    /* as above but nothing ever wakes t0: after t1 halts at 13 the queue is empty while a
     * thread still sleeps */
    fake_make(&m, &fake_isa, KV("threads=2", "insns=10", "sleep_at=3"));
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_DEADLOCK);
    assert_non_null(strstr(m.stop.msg, "deadlock"));
    assert_int_equal(sim_stop_exit_code(m.stop.kind), 3);
    assert_int_equal(m.units[0].threads[0].state, SIM_T_SLEEP);
    assert_int_equal(m.units[0].threads[1].halted_at, 13);
    assert_false(m.units[0].halted);
    /* running again reports the deadlock again rather than hanging */
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_DEADLOCK);
    sim_destroy(&m);
    /* independent units on host threads: every unit's only thread sleeps after 3
     * instructions, nothing wakes them; the parallel section must end in a deadlock too */
    fake_make(&m, &fake_isa_indep, KV("units=4", "threads=1", "insns=10", "sleep_at=3", "jobs=4"));
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_DEADLOCK);
    for (int u = 0; u < 4; u++)
        assert_int_equal(m.units[u].threads[0].instructions, 3);
    sim_destroy(&m);
}

/* The watchdog (-o watchdog=N): a run in which no thread retires for N cycles stops as a
 * livelock. One thread, 10 instructions, after instruction 3 (issued at cycle 3: one per
 * cycle from 0) it is ready only 5000 cycles later. With a 1000-cycle watchdog the run
 * stops there with 4 instructions retired; with the watchdog off, or longer than the wait,
 * it runs to its end: instruction 4 issues at 3 + 5000 = 5003, instructions 5-9 at
 * 5004-5008, and the thread halts the cycle after its last issue: 10 instructions, 5009. */
static void test_watchdog_livelock(void **state)
{
    (void)state;
    sim_machine m;
    fake_make(&m, &fake_isa, KV("threads=1", "insns=10", "long_at=3", "long_lat=5000", "watchdog=1000"));
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_DEADLOCK);
    assert_non_null(strstr(m.stop.msg, "livelock: no instruction retired"));
    assert_int_equal(m.units[0].threads[0].instructions, 4);
    sim_destroy(&m);
    /* independent units (DPUs) are watched one by one at the same boundaries whatever
     * -o jobs= says. Two units: unit 0 has 4 instructions and halts after its 4th (cycle 4),
     * unit 1 (jitter 10: 14 instructions) waits 5000 cycles after its 4th (issued at 3), so
     * it retired nothing in cycles 1000-2000: the same livelock for jobs=1 and jobs=2. (Only
     * one unit stops: when several stop in one parallel section, the first raised wins, and
     * how far the other units got when a unit stops depends on the host threads: see
     * docs/user-guide.md on -o jobs.) */
    const char *const jobs[] = {"jobs=1", "jobs=2"};
    char msg[2][256];
    for (int j = 0; j < 2; j++) {
        fake_make(&m, &fake_isa_indep, KV("units=2", "threads=1", "insns=4", "jitter=10", "long_at=3",
                                          "long_lat=5000", "watchdog=1000", jobs[j]));
        assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_DEADLOCK);
        assert_non_null(strstr(m.stop.msg, "livelock: fake1 retired no instruction in cycles 1000-2000"));
        assert_int_equal(m.stop.cycle, 2000);
        assert_int_equal(m.units[1].threads[0].instructions, 4);
        snprintf(msg[j], sizeof msg[j], "%s", m.stop.msg);
        sim_destroy(&m);
    }
    assert_string_equal(msg[0], msg[1]);
    const char *const offs[] = {"watchdog=0", "watchdog=10000"};
    for (int i = 0; i < 2; i++) {
        fake_make(&m, &fake_isa, KV("threads=1", "insns=10", "long_at=3", "long_lat=5000", offs[i]));
        assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
        assert_int_equal(m.units[0].threads[0].instructions, 10);
        assert_int_equal(m.units[0].halted_at, 5009);
        sim_destroy(&m);
    }
}

static void test_halted_machine_run_again(void **state)
{
    (void)state;
    sim_machine m;
    fake_make(&m, &fake_isa, KV("threads=1", "insns=5"));
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    assert_int_equal(m.units[0].halted_at, 5);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    assert_int_equal(sim_total_instructions(&m), 5);
    assert_int_equal(m.units[0].halted_at, 5);
    sim_destroy(&m);
}

/* sim_restart: the second run of the same program, after the fake ISA boots its threads
 * again, is the first run cycle for cycle (same snapshot), with time, statistics and the
 * stop reset; a unit left out counts as halted and keeps its last statistics. 2 units x 3
 * threads, 4 instructions each, lat 1: 24 instructions. */
static void boot_again(sim_machine *m, int unit)
{
    fake_unit *fu = m->units[unit].isa;
    memset(fu->pc, 0, sizeof fu->pc);
    for (int t = 0; t < m->units[unit].nthreads; t++)
        sched_start(&m->units[unit], t, 0);
}

static void test_restart_runs_again(void **state)
{
    (void)state;
    sim_machine m;
    snap a, b;
    fake_make(&m, &fake_isa, KV("units=2", "threads=3", "insns=4", "lat=1"));
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    take(&m, &a);
    assert_int_equal(a.total, 24);
    sim_restart(&m, NULL);
    assert_int_equal(m.now, 0);
    assert_int_equal(m.stop.kind, SIM_STOP_NONE);
    assert_int_equal(sim_total_instructions(&m), 0);
    boot_again(&m, 0);
    boot_again(&m, 1);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    take(&m, &b);
    same(&a, &b);
    /* only unit 1 runs: unit 0 counts as halted and keeps nothing of a run it was not in */
    const uint8_t sel[2] = {0, 1};
    sim_restart(&m, sel);
    boot_again(&m, 1);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    assert_int_equal(sim_total_instructions(&m), 24); /* unit 0's 12 kept from the last run + unit 1's 12 */
    assert_int_equal(m.units[1].halted_at, a.uhalted_at[1]);
    sim_destroy(&m);
}

static void test_disabled_unit_not_waited_for(void **state)
{
    (void)state;
    sim_machine m;
    /* unit 1 disabled before the run: only unit 0 (halts at 5) counts for the HALT stop */
    fake_make(&m, &fake_isa, KV("units=2", "insns=5"));
    sim_unit_disable(&m, &m.units[1]);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    assert_int_equal(m.units[0].halted_at, 5);
    assert_int_equal(m.units[1].threads[0].instructions, 0);
    assert_int_equal(sim_end_cycle(&m), 5);
    sim_destroy(&m);
}

/* ---- cycle limit and resume ---- */

static void check_limit_resume(const isa_ops *isa, const char *const *kv)
{
    snap full, part;
    run_fresh(isa, kv, &full);
    assert_int_equal(full.kind, SIM_STOP_HALT);
    sim_machine m;
    fake_make(&m, isa, kv);
    /* increasing limits, all before the end of the run */
    uint64_t e = full.end;
    assert_true(e > 10);
    uint64_t limits[] = {0, 1, e / 3, e / 2, e / 2 + 1, e - 2};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        assert_int_equal(sim_run(&m, limits[i]), SIM_STOP_LIMIT);
        assert_int_equal(m.now, limits[i]);
        assert_int_equal(sim_stop_exit_code(m.stop.kind), 3);
    }
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    take(&m, &part);
    same(&full, &part);
    sim_destroy(&m);
}

static void test_limit_counts(void **state)
{
    (void)state;
    sim_machine m;
    /* 4 threads, latency 11 (n < L): thread i issues at i + 11k. The limit is inclusive:
     * cycles 0..500 run, so thread i retires floor((500 - i)/11) + 1 = 46 instructions for
     * i = 0..3 (500/11 = 45.45, 497/11 = 45.18): 184 per unit, 552 on three units. */
    fake_make(&m, &fake_isa, KV("units=3", "threads=4", "insns=100", "lat=11"));
    assert_int_equal(sim_run(&m, 500), SIM_STOP_LIMIT);
    assert_int_equal(sim_total_instructions(&m), 552);
    for (int u = 0; u < 3; u++)
        for (int t = 0; t < 4; t++)
            assert_int_equal(m.units[u].threads[t].instructions, 46);
    /* end of a full run: (N-1)L + n = 99*11 + 4 = 1093 */
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    assert_int_equal(sim_end_cycle(&m), 1093);
    sim_destroy(&m);
}

static void test_limit_resume_same_result(void **state)
{
    (void)state;
    check_limit_resume(&fake_isa, KV("units=3", "threads=4", "insns=100", "lat=11"));
    check_limit_resume(&fake_isa, KV("threads=2", "insns=10", "sleep_at=3", "wake_delay=100"));
    check_limit_resume(&fake_isa_indep, KV("units=5", "threads=3", "insns=100", "lat=7", "jitter=9"));
    check_limit_resume(&fake_isa_indep, KV("units=5", "threads=3", "insns=100", "lat=7", "jitter=9", "jobs=4"));
}

static void test_instruction_limit(void **state)
{
    (void)state;
    sim_machine m;
    /* the instruction limit is documented as a LIMIT stop; it must stop well before the
     * 3 * 4 * 2000 = 24000 instructions of the whole program */
    fake_make(&m, &fake_isa, KV("units=3", "threads=4", "insns=2000", "lat=11"));
    m.max_instructions = 1000;
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_LIMIT);
    assert_true(sim_total_instructions(&m) >= 1000);
    assert_true(sim_total_instructions(&m) < 24000);
    sim_destroy(&m);
}

static void test_instruction_limit_one_burst(void **state)
{
    (void)state;
    sim_machine m;
    /* a single unit runs its whole program in one unit_run burst (nothing else is queued),
     * so a check made only between events never sees the limit: the limit of 100 must still
     * stop the 5000-instruction program before its end */
    fake_make(&m, &fake_isa, KV("threads=1", "insns=5000"));
    m.max_instructions = 100;
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_LIMIT);
    assert_true(sim_total_instructions(&m) >= 100);
    assert_true(sim_total_instructions(&m) < 5000);
    sim_destroy(&m);
}

static void check_kill(const char *jobs)
{
    sim_machine m;
    /* two lock-step units of 100 instructions (latency 1, one thread). An ISA event at
     * cycle 50 (priority 1, so after both units have run cycle 50) halts unit 1 with
     * sim_unit_halt: unit 1 has then retired instructions 0..50 = 51 and must run no more;
     * unit 0 finishes at 100, which ends the run. The -o jobs value must not matter for an
     * ISA whose units interact (it only applies to independent units). */
    fake_make(&m, &fake_isa, KV("units=2", "insns=100", "kill_unit=1", "kill_at=50", jobs));
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    assert_true(m.units[1].halted);
    assert_int_equal(m.units[1].halted_at, 50);
    if (m.units[1].threads[0].instructions != 51)
        fail_msg("%s: the halted unit retired %llu instructions, expected 51", jobs,
                 (unsigned long long)m.units[1].threads[0].instructions);
    assert_int_equal(m.units[0].halted_at, 100);
    assert_int_equal(m.units[0].threads[0].instructions, 100);
    sim_destroy(&m);
}

static void test_unit_halted_by_event(void **state)
{
    (void)state;
    check_kill("jobs=1");
    check_kill("jobs=4");
}

static void check_fault(const isa_ops *isa, const char *jobs)
{
    sim_machine m;
    /* unit 2's thread 0 faults instead of issuing its instruction 10, at cycle 10 (one
     * thread, latency 1: instruction k at cycle k); the other units are long (5000). The
     * stop names unit 2, thread 0, pc 0x1000 + 40 and cycle 10, whatever the host threads. */
    fake_make(&m, isa, KV("units=4", "insns=5000", "fault_unit=2", "fault_k=10", jobs));
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_FAULT);
    assert_int_equal(sim_stop_exit_code(m.stop.kind), 2);
    assert_int_equal(m.stop.unit, 2);
    assert_int_equal(m.stop.thread, 0);
    assert_int_equal(m.stop.pc, FAKE_CODE_BASE + 40);
    if (m.stop.cycle != 10)
        fail_msg("%s %s: fault stop at cycle %llu, expected 10", isa->name, jobs, (unsigned long long)m.stop.cycle);
    assert_non_null(strstr(m.stop.msg, "fake fault"));
    assert_int_equal(m.units[2].threads[0].instructions, 10);
    sim_destroy(&m);
}

static void test_fault_stop(void **state)
{
    (void)state;
    check_fault(&fake_isa, "jobs=1");
    check_fault(&fake_isa_indep, "jobs=1");
    check_fault(&fake_isa_indep, "jobs=4");
}

/* ---- machines, determinism, parallel units ---- */

static void test_two_machines(void **state)
{
    (void)state;
    const char *const *ka = KV("units=2", "threads=3", "insns=30", "lat=5");
    const char *const *kb = KV("units=1", "threads=12", "insns=40", "lat=11", "sleep_at=5", "wake_delay=33");
    snap fa, fb, sa, sb;
    run_fresh(&fake_isa, ka, &fa);
    run_fresh(&fake_isa, kb, &fb);
    /* A: n=3 < L=5, halted at (N-1)L + n = 29*5 + 3 = 148 */
    assert_int_equal(fa.end, 148);
    sim_machine a, b;
    fake_make(&a, &fake_isa, ka);
    fake_make(&b, &fake_isa, kb);
    assert_int_equal(sim_run(&a, 37), SIM_STOP_LIMIT);
    assert_int_equal(sim_run(&b, 50), SIM_STOP_LIMIT);
    assert_int_equal(sim_run(&a, 90), SIM_STOP_LIMIT);
    assert_int_equal(sim_run(&b, SIM_NEVER), SIM_STOP_HALT);
    assert_int_equal(sim_run(&a, SIM_NEVER), SIM_STOP_HALT);
    take(&a, &sa);
    take(&b, &sb);
    same(&fa, &sa);
    same(&fb, &sb);
    sim_destroy(&a);
    sim_destroy(&b);
}

static char *text_stats(const sim_machine *m)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    stats_write_text(m, f);
    fclose(f);
    return buf;
}

static void test_determinism(void **state)
{
    (void)state;
    const char *const *kv = KV("units=4", "threads=5", "insns=300", "lat=7", "jitter=3", "sleep_at=20", "wake_delay=250");
    char *text[2];
    snap s[2];
    for (int r = 0; r < 2; r++) {
        sim_machine m;
        fake_make(&m, &fake_isa, kv);
        assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
        take(&m, &s[r]);
        text[r] = text_stats(&m);
        sim_destroy(&m);
    }
    same(&s[0], &s[1]);
    assert_string_equal(text[0], text[1]);
    assert_non_null(strstr(text[0], "stop: halted"));
    free(text[0]);
    free(text[1]);
}

/* The halt's stop cycle is the end of the run (the last unit's halt), not the cycle the
 * event loop had reached: independent units run ahead of m->now. 8 units as below: the
 * last, u = 7, runs N = 200 + 13 x 7 = 291 instructions per thread and halts at
 * 7 x (291 - 1) + 3 = 2033, with one host thread or four. */
static void test_halt_stop_cycle_is_end(void **state)
{
    (void)state;
    for (int j = 0; j < 2; j++) {
        sim_machine m;
        fake_make(&m, &fake_isa_indep,
                  j ? KV("units=8", "threads=3", "insns=200", "lat=7", "jitter=13", "jobs=4")
                    : KV("units=8", "threads=3", "insns=200", "lat=7", "jitter=13"));
        assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
        assert_int_equal(m.stop.cycle, 2033);
        assert_int_equal(sim_end_cycle(&m), 2033);
        sim_destroy(&m);
    }
}

static void test_jobs_parallel_same_as_sequential(void **state)
{
    (void)state;
    /* 8 independent units, unit u runs N_u = 200 + 13u instructions per thread on 3 threads
     * with latency 7 (n < L): thread i halts at i + 7(N_u - 1) + 1, the unit at
     * 7(N_u - 1) + 3. jobs=1 and jobs=4 must agree with this and with each other. */
    snap s1, s4;
    run_fresh(&fake_isa_indep, KV("units=8", "threads=3", "insns=200", "lat=7", "jitter=13"), &s1);
    run_fresh(&fake_isa_indep, KV("units=8", "threads=3", "insns=200", "lat=7", "jitter=13", "jobs=4"), &s4);
    same(&s1, &s4);
    assert_int_equal(s4.kind, SIM_STOP_HALT);
    uint64_t total = 0;
    for (int u = 0; u < 8; u++) {
        uint64_t N = 200 + 13 * (uint64_t)u;
        assert_int_equal(s4.uhalted_at[u], 7 * (N - 1) + 3);
        for (int i = 0; i < 3; i++) {
            assert_int_equal(s4.th[u][i].halted_at, i + 7 * (N - 1) + 1);
            assert_int_equal(s4.th[u][i].instructions, N);
        }
        total += 3 * N;
    }
    assert_int_equal(s4.total, total);
    assert_int_equal(s4.end, 7 * (200 + 13 * 7 - 1) + 3);
    /* more jobs than units */
    snap s16;
    run_fresh(&fake_isa_indep, KV("units=8", "threads=3", "insns=200", "lat=7", "jitter=13", "jobs=16"), &s16);
    same(&s1, &s16);
}

static void test_bad_jobs_option(void **state)
{
    (void)state;
    sim_machine m;
    sim_opts o;
    char err[256] = "";
    opt_init(&o);
    opt_parse(&o, "jobs=0");
    assert_int_equal(sim_create(&m, &fake_isa, &o, err, sizeof err), -1);
    assert_non_null(strstr(err, "jobs"));
    opt_parse(&o, "jobs=many");
    assert_int_equal(sim_create(&m, &fake_isa, &o, err, sizeof err), -1);
    assert_non_null(strstr(err, "jobs"));
}

static void test_limit_below_now(void **state)
{
    (void)state;
    sim_machine m;
    /* after running to 500, a run "until 100" has nothing to do: it stops at once (LIMIT)
     * and must not move the machine's time back to 100 (statistics would shrink) */
    fake_make(&m, &fake_isa, KV("threads=1", "insns=1000"));
    assert_int_equal(sim_run(&m, 500), SIM_STOP_LIMIT);
    assert_int_equal(sim_total_instructions(&m), 501);
    assert_int_equal(sim_end_cycle(&m), 500);
    assert_int_equal(sim_run(&m, 100), SIM_STOP_LIMIT);
    assert_int_equal(sim_total_instructions(&m), 501);
    assert_int_equal(sim_end_cycle(&m), 500);
    assert_true(m.now >= 500);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    assert_int_equal(m.units[0].halted_at, 1000);
    sim_destroy(&m);
}

static void test_space_names(void **state)
{
    (void)state;
    sim_machine m;
    fake_make(&m, &fake_isa, KV("threads=1"));
    /* the fake made "code" and "data"; the same name again is refused */
    assert_null(sim_add_space(&m, "data", 1, 4, 0));
    /* per-unit spaces: "NAME.UNIT" wins for that unit, others fall back to "NAME" */
    mem_space *d1 = sim_add_space(&m, "data.1", 1, 4, 0);
    assert_non_null(d1);
    assert_ptr_equal(sim_unit_space(&m, 1, "data"), d1);
    assert_ptr_equal(sim_unit_space(&m, 0, "data"), sim_space(&m, "data"));
    assert_ptr_equal(sim_unit_space(&m, 2, "data"), sim_space(&m, "data"));
    assert_null(sim_space(&m, "nosuch"));
    /* a space is found by the name it was added under, or it is refused; a name too long
     * for the space's name field must not be silently cut (then lookups fail and two
     * different long names collide) */
    const char *longname = "scratchpad-memory-bank";
    mem_space *l = sim_add_space(&m, longname, 1, 4, 0);
    if (l)
        assert_ptr_equal(sim_space(&m, longname), l);
    mem_space *l2 = sim_add_space(&m, "scratchpad-memory-bank-2", 1, 4, 0);
    if (l && l2)
        assert_ptr_not_equal(sim_space(&m, longname), sim_space(&m, "scratchpad-memory-bank-2"));
    /* the table grows without a fixed limit (issue 11 pt 1: it was 16), each found again */
    char nm[16];
    int added = m.nspaces;
    for (int i = 0; i < 40; i++) {
        snprintf(nm, sizeof nm, "s%d", i);
        if (sim_add_space(&m, nm, 1, 4, 0))
            added++;
    }
    assert_int_equal(m.nspaces, added);
    assert_int_equal(added, 3 + (int)(l != NULL) + (int)(l2 != NULL) + 40); /* code, data, data.1 */
    for (int i = 0; i < 40; i++) {
        snprintf(nm, sizeof nm, "s%d", i);
        assert_non_null(sim_space(&m, nm));
        assert_string_equal(sim_space(&m, nm)->name, nm);
    }
    sim_destroy(&m);
}

static void test_sched_pick_direct(void **state)
{
    (void)state;
    sim_machine m;
    /* 4 threads; the test sets states by hand: t0 ready at 0, t1 asleep, t2 ready at 5,
     * t3 ready at 0. Round robin from the cursor over threads with ready_at <= now. */
    fake_make(&m, &fake_isa, KV("threads=4"));
    sim_unit *u = &m.units[0];
    sim_thread *t = u->threads;
    t[0].ready_at = 0;
    sched_sleep(u, 1);
    t[2].ready_at = 5;
    t[3].ready_at = 0;
    u->rr = 0;
    assert_int_equal(sched_pick(u, 0), 0);   /* cursor 0 -> t0, cursor moves to 1 */
    assert_int_equal(u->rr, 1);
    assert_int_equal(sched_pick(u, 0), 3);   /* t1 asleep, t2 not until 5 -> t3, cursor 0 */
    assert_int_equal(u->rr, 0);
    assert_int_equal(sched_pick(u, 0), 0);
    t[0].ready_at = 9;
    t[3].ready_at = 9;
    assert_int_equal(sched_pick(u, 4), -1);  /* nobody before 5 */
    assert_int_equal(sched_next_ready(u), 5);
    assert_int_equal(sched_pick(u, 5), 2);   /* cursor was 1: t1 asleep, t2 ready */
    assert_int_equal(u->rr, 3);
    t[2].ready_at = 100;
    assert_int_equal(sched_next_ready(u), 9); /* t1 asleep does not count */
    assert_int_equal(sched_live(u), 4);
    /* waking: t1 ready at 7 and the unit's event no later than 7 */
    sched_wake(u, 1, 7);
    assert_int_equal(t[1].state, SIM_T_READY);
    assert_int_equal(t[1].ready_at, 7);
    assert_true(ev_pending(&u->ev) && u->ev.when <= 7);
    assert_int_equal(sched_next_ready(u), 7);
    /* halting: threads one by one; the unit halts with the last, at that cycle */
    sched_halt(u, 0, 11);
    sched_halt(u, 1, 12);
    sched_halt(u, 1, 99); /* twice: ignored */
    assert_int_equal(t[1].halted_at, 12);
    assert_int_equal(sched_live(u), 2);
    assert_false(u->halted);
    sched_wake(u, 0, 50); /* a halted thread is not woken */
    assert_int_equal(t[0].state, SIM_T_HALTED);
    sched_halt(u, 2, 13);
    sched_halt(u, 3, 14);
    assert_true(u->halted);
    assert_int_equal(u->halted_at, 14);
    assert_int_equal(sched_live(u), 0);
    assert_true(sched_next_ready(u) == SIM_NEVER);
    assert_false(ev_pending(&u->ev)); /* nothing left to run */
    assert_int_equal(m.stop.kind, SIM_STOP_HALT); /* the only unit: the machine is done */
    sim_destroy(&m);
}

static void test_stop_names_and_codes(void **state)
{
    (void)state;
    /* exit status documented in sim.h: 0 halt, 2 fault/illegal, 3 limit/deadlock, 1 others */
    assert_int_equal(sim_stop_exit_code(SIM_STOP_HALT), 0);
    assert_int_equal(sim_stop_exit_code(SIM_STOP_FAULT), 2);
    assert_int_equal(sim_stop_exit_code(SIM_STOP_ILLEGAL), 2);
    assert_int_equal(sim_stop_exit_code(SIM_STOP_LIMIT), 3);
    assert_int_equal(sim_stop_exit_code(SIM_STOP_DEADLOCK), 3);
    const sim_stop_kind other[] = {SIM_STOP_BREAK, SIM_STOP_WATCH, SIM_STOP_STEP, SIM_STOP_USER, SIM_STOP_ERROR};
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++)
        assert_int_equal(sim_stop_exit_code(other[i]), 1);
    /* every kind has its own name */
    for (int a = SIM_STOP_NONE; a <= SIM_STOP_ERROR; a++) {
        assert_string_not_equal(sim_stop_name((sim_stop_kind)a), "?");
        for (int b = a + 1; b <= SIM_STOP_ERROR; b++)
            assert_string_not_equal(sim_stop_name((sim_stop_kind)a), sim_stop_name((sim_stop_kind)b));
    }
    assert_string_equal(sim_stop_name((sim_stop_kind)99), "?");
}

static void test_first_stop_reason_wins(void **state)
{
    (void)state;
    sim_machine m;
    fake_make(&m, &fake_isa, KV("threads=1"));
    sim_set_stop(&m, SIM_STOP_FAULT, 0, 0, 0x40, "first %d", 1);
    sim_set_stop(&m, SIM_STOP_HALT, -1, -1, 0, "second");
    assert_int_equal(m.stop.kind, SIM_STOP_FAULT);
    assert_string_equal(m.stop.msg, "first 1");
    assert_int_equal(m.stop.pc, 0x40);
    sim_destroy(&m);
}

static void test_create_failure_cleans_up(void **state)
{
    (void)state;
    sim_machine m;
    sim_opts o;
    char err[256] = "";
    /* the fake ISA rejects threads=0 after allocating its state: sim_create must fail with
     * the ISA's message and free everything (the ASan build checks for leaks) */
    opt_init(&o);
    opt_parse(&o, "threads=0");
    assert_int_equal(sim_create(&m, &fake_isa, &o, err, sizeof err), -1);
    assert_non_null(strstr(err, "threads"));
    /* failing after units and spaces exist */
    opt_init(&o);
    opt_parse(&o, "units=3");
    opt_parse(&o, "store=2");
    assert_int_equal(sim_create(&m, &fake_isa, &o, err, sizeof err), -1);
    assert_non_null(strstr(err, "store"));
}

static void test_disable_halted_unit(void **state)
{
    (void)state;
    sim_machine m;
    /* unit 0 runs 10 instructions (halts at 10), unit 1 runs 110 (jitter 100). After a
     * limit at 50, unit 0 (already halted) is disabled: unit 1 must still run to its end at
     * 110; the machine must not count unit 0 both as halted and as not enabled. */
    fake_make(&m, &fake_isa, KV("units=2", "insns=10", "jitter=100"));
    assert_int_equal(sim_run(&m, 50), SIM_STOP_LIMIT);
    assert_true(m.units[0].halted);
    sim_unit_disable(&m, &m.units[0]);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    assert_true(m.units[1].halted);
    assert_int_equal(m.units[1].halted_at, 110);
    assert_int_equal(m.units[1].threads[0].instructions, 110);
    sim_destroy(&m);
}

XPUSIM_TESTS(sched_sim,
             cmocka_unit_test(test_restart_runs_again),
             cmocka_unit_test(test_halt_stop_cycle_is_end),
             cmocka_unit_test(test_skip_ahead_start),
             cmocka_unit_test(test_watchdog_livelock),
             cmocka_unit_test(test_skip_ahead_long_latency),
             cmocka_unit_test(test_revolver_11),
             cmocka_unit_test(test_barrel_6),
             cmocka_unit_test(test_lockstep_units),
             cmocka_unit_test(test_sleep_wake_by_event),
             cmocka_unit_test(test_deadlock),
             cmocka_unit_test(test_halted_machine_run_again),
             cmocka_unit_test(test_disabled_unit_not_waited_for),
             cmocka_unit_test(test_limit_counts),
             cmocka_unit_test(test_limit_resume_same_result),
             cmocka_unit_test(test_instruction_limit),
             cmocka_unit_test(test_instruction_limit_one_burst),
             cmocka_unit_test(test_unit_halted_by_event),
             cmocka_unit_test(test_fault_stop),
             cmocka_unit_test(test_two_machines),
             cmocka_unit_test(test_determinism),
             cmocka_unit_test(test_jobs_parallel_same_as_sequential),
             cmocka_unit_test(test_bad_jobs_option),
             cmocka_unit_test(test_limit_below_now),
             cmocka_unit_test(test_space_names),
             cmocka_unit_test(test_sched_pick_direct),
             cmocka_unit_test(test_stop_names_and_codes),
             cmocka_unit_test(test_first_stop_reason_wins),
             cmocka_unit_test(test_create_failure_cleans_up),
             cmocka_unit_test(test_disable_halted_unit))
