/* tests/unit/test_debug.c: breakpoints, stepping, until, the history ring, the trace sink,
 * watchpoint stops and the m->slow flag (core/debug.c), driven through the fake ISA of
 * fake_isa.h which calls dbg_before_insn/dbg_after_insn exactly as isa/isa.h asks.
 * Base timeline used below (1 unit, 2 threads, latency 1, 10 instructions each):
 * thread 0 issues instruction k at cycle 2k, thread 1 at cycle 2k + 1; instruction k is at
 * address 0x1000 + 4k; thread 0 halts at 19, thread 1 at 20. */
#include "../testlib.h"
#include "fake_isa.h"
#include <unistd.h>

#define KV(...) ((const char *const[]){__VA_ARGS__, NULL})
#define BASE KV("threads=2", "insns=10")
#define ADDR(k) (FAKE_CODE_BASE + 4u * (k))

static void check_plain_end(sim_machine *m)
{
    assert_int_equal(m->stop.kind, SIM_STOP_HALT);
    assert_int_equal(m->units[0].threads[0].halted_at, 19);
    assert_int_equal(m->units[0].threads[1].halted_at, 20);
    assert_int_equal(m->units[0].threads[0].instructions, 10);
    assert_int_equal(m->units[0].threads[1].instructions, 10);
}

static void test_plain_run_reference(void **state)
{
    (void)state;
    sim_machine m;
    fake_make(&m, &fake_isa, BASE);
    assert_int_equal(m.slow, 0);
    assert_null(m.dbg);
    sim_run(&m, SIM_NEVER);
    check_plain_end(&m);
    sim_destroy(&m);
}

static void test_breakpoint_and_skip_once(void **state)
{
    (void)state;
    sim_machine m;
    fake_make(&m, &fake_isa, BASE);
    int id = dbg_break_add(&m, ADDR(3), -1, 0, "k3");
    assert_true(id > 0);
    assert_int_equal(m.slow, 1);
    /* thread 0 reaches k3 first (cycle 6), before executing it: t0 retired 3, t1 retired 3
     * (k0..k2 at cycles 1, 3, 5) */
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_BREAK);
    assert_int_equal(m.stop.unit, 0);
    assert_int_equal(m.stop.thread, 0);
    assert_int_equal(m.stop.pc, ADDR(3));
    assert_non_null(strstr(m.stop.msg, "breakpoint"));
    assert_non_null(strstr(m.stop.msg, "k3"));
    assert_int_equal(m.units[0].threads[0].instructions, 3);
    assert_int_equal(m.units[0].threads[1].instructions, 3);
    assert_int_equal(m.dbg->brk[0].hits, 1);
    /* resume: thread 0 executes k3 once (no second stop for it), thread 1 then reaches k3
     * at cycle 7 and stops */
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_BREAK);
    assert_int_equal(m.stop.thread, 1);
    assert_int_equal(m.stop.pc, ADDR(3));
    assert_int_equal(m.units[0].threads[0].instructions, 4);
    assert_int_equal(m.units[0].threads[1].instructions, 3);
    assert_int_equal(m.dbg->brk[0].hits, 2);
    /* resume again: nothing else stops; the stops did not change the timing */
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    check_plain_end(&m);
    assert_int_equal(m.dbg->brk[0].hits, 2);
    sim_destroy(&m);
}

static void test_breakpoint_stop_cycle(void **state)
{
    (void)state;
    sim_machine m;
    /* thread 0 is about to issue k3 at cycle 6 when it stops: the stop's cycle is 6, and
     * the statistics' end cycle of the still-running machine must not be before it */
    fake_make(&m, &fake_isa, BASE);
    dbg_break_add(&m, ADDR(3), -1, 0, NULL);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_BREAK);
    assert_int_equal(m.units[0].last_issue, 6);
    assert_int_equal(m.stop.cycle, 6);
    assert_true(sim_end_cycle(&m) >= 6);
    sim_destroy(&m);
}

static void test_breakpoint_unit_filter(void **state)
{
    (void)state;
    sim_machine m;
    /* two identical units in lock step; the breakpoint is for unit 1 only */
    fake_make(&m, &fake_isa, KV("units=2", "threads=2", "insns=10"));
    dbg_break_add(&m, ADDR(3), 1, 0, NULL);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_BREAK);
    assert_int_equal(m.stop.unit, 1);
    assert_int_equal(m.stop.thread, 0);
    assert_int_equal(m.units[1].threads[0].instructions, 3);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_BREAK);
    assert_int_equal(m.stop.unit, 1);
    assert_int_equal(m.stop.thread, 1);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    for (int u = 0; u < 2; u++)
        assert_int_equal(m.units[u].halted_at, 20);
    sim_destroy(&m);
}

static void test_breakpoint_same_cycle_two_units(void **state)
{
    (void)state;
    sim_machine m;
    /* two lock-step units running the same code (SPMD): a breakpoint for any unit at k3 is
     * reached by thread 0 of both units at cycle 6 and by thread 1 of both at cycle 7.
     * Each resume must get past the stop it resumes from, so the stops are exactly
     * (u0 t0 @6), (u1 t0 @6), (u0 t1 @7), (u1 t1 @7), then the end at 20. */
    fake_make(&m, &fake_isa, KV("units=2", "threads=2", "insns=10"));
    dbg_break_add(&m, ADDR(3), -1, 0, NULL);
    const int want[4][3] = {{0, 0, 6}, {1, 0, 6}, {0, 1, 7}, {1, 1, 7}};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(sim_run(&m, 1000), SIM_STOP_BREAK);
        int u = m.stop.unit, t = m.stop.thread;
        if (u != want[i][0] || t != want[i][1] || m.stop.cycle != (uint64_t)want[i][2])
            fail_msg("stop %d: unit %d thread %d cycle %llu, expected unit %d thread %d cycle %d", i + 1, u, t,
                     (unsigned long long)m.stop.cycle, want[i][0], want[i][1], want[i][2]);
    }
    assert_int_equal(sim_run(&m, 1000), SIM_STOP_HALT);
    for (int u = 0; u < 2; u++)
        assert_int_equal(m.units[u].halted_at, 20);
    assert_int_equal(m.dbg->brk[0].hits, 4);
    sim_destroy(&m);
}

static void test_skip_once_api(void **state)
{
    (void)state;
    sim_machine m;
    /* a breakpoint at the very first instruction, and the user resumes thread 0 past it
     * (dbg_skip_once): thread 0 runs k0 at cycle 0, thread 1 stops at k0 at cycle 1 */
    fake_make(&m, &fake_isa, BASE);
    dbg_break_add(&m, ADDR(0), -1, 0, NULL);
    dbg_skip_once(&m, 0, 0, ADDR(0));
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_BREAK);
    assert_int_equal(m.stop.thread, 1);
    assert_int_equal(m.stop.pc, ADDR(0));
    assert_int_equal(m.stop.cycle, 1);
    assert_int_equal(m.units[0].threads[0].instructions, 1);
    dbg_break_delete(&m, -1);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    check_plain_end(&m);
    assert_int_equal(m.slow, 0); /* the mark was used: nothing left on */
    sim_destroy(&m);
    /* a mark for another address does not hide a breakpoint elsewhere */
    fake_make(&m, &fake_isa, BASE);
    dbg_break_add(&m, ADDR(5), 0, 0, NULL);
    dbg_skip_once(&m, 0, 0, ADDR(2));
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_BREAK);
    assert_int_equal(m.stop.thread, 0);
    assert_int_equal(m.stop.pc, ADDR(5));
    assert_int_equal(m.stop.cycle, 10);
    sim_destroy(&m);
    /* a mark alone turns the hooks on, and off again once it is used */
    fake_make(&m, &fake_isa, KV("threads=1", "insns=3"));
    dbg_skip_once(&m, 0, 0, ADDR(0));
    assert_int_equal(m.slow, 1);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    assert_int_equal(m.slow, 0);
    sim_destroy(&m);
}

static void test_temporary_breakpoint(void **state)
{
    (void)state;
    sim_machine m;
    fake_make(&m, &fake_isa, BASE);
    int id = dbg_break_add(&m, ADDR(3), -1, 1, NULL);
    assert_true(id > 0);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_BREAK);
    assert_int_equal(m.stop.thread, 0);
    assert_non_null(strstr(m.stop.msg, "temporary"));
    assert_int_equal(m.dbg->nbrk, 0);            /* gone after its first hit */
    assert_int_equal(dbg_break_delete(&m, id), -1);
    /* thread 1 passes k3 without stopping */
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    check_plain_end(&m);
    /* nothing is enabled any more: after the skip was used, the hooks should be off */
    assert_int_equal(m.slow, 0);
    sim_destroy(&m);
}

static void test_break_ids_and_limits(void **state)
{
    (void)state;
    sim_machine m;
    fake_make(&m, &fake_isa, BASE);
    assert_int_equal(dbg_break_delete(&m, 1), -1); /* no debugger state yet */
    int a = dbg_break_add(&m, ADDR(1), -1, 0, NULL);
    int b = dbg_break_add(&m, ADDR(2), -1, 0, NULL);
    int c = dbg_break_add(&m, ADDR(3), -1, 0, NULL);
    assert_true(a > 0 && b > a && c > b);
    assert_int_equal(dbg_break_delete(&m, b), 0);
    assert_int_equal(m.dbg->nbrk, 2);
    assert_int_equal(m.dbg->brk[0].id, a);
    assert_int_equal(m.dbg->brk[1].id, c);
    assert_int_equal(dbg_break_delete(&m, b), -1);  /* already gone */
    assert_int_equal(dbg_break_delete(&m, 999), -1);
    assert_int_equal(dbg_break_delete(&m, -1), 0);  /* all */
    assert_int_equal(m.dbg->nbrk, 0);
    assert_int_equal(m.slow, 0);
    /* the table holds DBG_MAX_BREAK entries; one more is refused */
    for (int i = 0; i < DBG_MAX_BREAK; i++)
        assert_true(dbg_break_add(&m, ADDR(i), -1, 0, NULL) > 0);
    assert_int_equal(dbg_break_add(&m, ADDR(0), -1, 0, NULL), -1);
    /* deleted breakpoints do not stop the run */
    dbg_break_delete(&m, -1);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    check_plain_end(&m);
    sim_destroy(&m);
}

static void test_step_one_thread(void **state)
{
    (void)state;
    sim_machine m;
    fake_make(&m, &fake_isa, BASE);
    /* step thread 1 by 4: it retires k3 at cycle 7; thread 0 has retired k0..k3 (0,2,4,6) */
    dbg_step(&m, 0, 1, 4);
    assert_int_equal(m.slow, 1);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_STEP);
    assert_int_equal(m.stop.thread, 1);
    assert_int_equal(m.stop.pc, ADDR(3));
    assert_int_equal(m.units[0].threads[1].instructions, 4);
    assert_int_equal(m.units[0].threads[0].instructions, 4);
    assert_int_equal(m.slow, 0); /* the step is used up and nothing else is on */
    /* one more single step of thread 0: its k4 at cycle 8 */
    dbg_step(&m, 0, 0, 1);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_STEP);
    assert_int_equal(m.stop.thread, 0);
    assert_int_equal(m.stop.pc, ADDR(4));
    assert_int_equal(m.units[0].threads[0].instructions, 5);
    assert_int_equal(m.units[0].threads[1].instructions, 4);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    check_plain_end(&m);
    sim_destroy(&m);
}

static void test_step_any_thread(void **state)
{
    (void)state;
    sim_machine m;
    fake_make(&m, &fake_isa, BASE);
    /* 5 instructions of any thread: t0k0 t1k0 t0k1 t1k1 t0k2 -> stops after t0's k2 */
    dbg_step(&m, -1, -1, 5);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_STEP);
    assert_int_equal(m.stop.thread, 0);
    assert_int_equal(m.stop.pc, ADDR(2));
    assert_int_equal(sim_total_instructions(&m), 5);
    /* a step target can be cancelled */
    dbg_step(&m, -1, -1, 3);
    dbg_clear_run_targets(&m);
    assert_int_equal(m.slow, 0);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    check_plain_end(&m);
    sim_destroy(&m);
}

static void test_until(void **state)
{
    (void)state;
    sim_machine m;
    fake_make(&m, &fake_isa, BASE);
    /* until k5: thread 0 gets there first (cycle 10) and stops before executing it; by then
     * thread 1 has retired k0..k4 (cycles 1..9) */
    dbg_until(&m, ADDR(5));
    assert_int_equal(m.slow, 1);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_STEP);
    assert_int_equal(m.stop.thread, 0);
    assert_int_equal(m.stop.pc, ADDR(5));
    assert_int_equal(m.units[0].threads[0].instructions, 5);
    assert_int_equal(m.units[0].threads[1].instructions, 5);
    /* the target is one-shot: thread 1 passes k5 on resume */
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    check_plain_end(&m);
    sim_destroy(&m);
}

static void test_history_ring_wraps(void **state)
{
    (void)state;
    sim_machine m;
    /* one thread, 5000 instructions, latency 1: instruction k at cycle k, address
     * 0x1000 + 4k. The ring keeps the last DBG_HISTORY = 4096: instructions 904..4999, the
     * one numbered k in slot k % 4096. */
    fake_make(&m, &fake_isa, KV("threads=1", "insns=5000"));
    assert_int_equal(dbg_attach(&m), 0);
    assert_int_equal(m.slow, 0);
    m.dbg->history_on = 1;
    dbg_update_slow(&m);
    assert_int_equal(m.slow, 1);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    assert_int_equal(m.dbg->nhist, 5000);
    for (uint64_t k = 5000 - DBG_HISTORY; k < 5000; k++) {
        const dbg_hist *h = &m.dbg->hist[k % DBG_HISTORY];
        assert_int_equal(h->cycle, k);
        assert_int_equal(h->pc, ADDR(k));
        assert_int_equal(h->unit, 0);
        assert_int_equal(h->thread, 0);
    }
    m.dbg->history_on = 0;
    dbg_update_slow(&m);
    assert_int_equal(m.slow, 0);
    sim_destroy(&m);
}

static void test_watchpoint_stop(void **state)
{
    (void)state;
    sim_machine m;
    /* store=1: instruction k of thread t writes k to data:0x100 + 4t. A write watch on
     * thread 1's word stops after thread 1's first instruction (cycle 1). */
    fake_make(&m, &fake_isa, KV("threads=2", "insns=10", "store=1"));
    mem_space *d = sim_space(&m, "data");
    assert_non_null(d);
    assert_int_equal(dbg_attach(&m), 0);
    int rid = mem_watch_add(d, 0x104, 4, MEM_R); /* the fake never reads: never triggers */
    assert_true(rid > 0);
    dbg_update_slow(&m);
    assert_int_equal(m.slow, 1);
    int wid = mem_watch_add(d, 0x104, 4, MEM_W);
    assert_true(wid > 0 && wid != rid);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_WATCH);
    assert_int_equal(m.stop.thread, 1);
    assert_int_equal(m.stop.pc, ADDR(0));
    char want[32];
    snprintf(want, sizeof want, "watchpoint %d", wid);
    assert_non_null(strstr(m.stop.msg, want));
    assert_non_null(strstr(m.stop.msg, "write"));
    assert_int_equal(m.units[0].threads[1].instructions, 1);
    assert_int_equal(d->watch_hit_id, 0); /* reported and cleared */
    /* remove the write watch: the rest runs to the end with the same timing */
    assert_int_equal(mem_watch_remove(d, wid), 0);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    check_plain_end(&m);
    uint64_t v = 0;
    assert_int_equal(mem_read(d, 0x104, 4, &v), MEM_OK);
    assert_int_equal(v, 9);
    assert_int_equal(mem_watch_remove(d, rid), 0);
    dbg_update_slow(&m);
    assert_int_equal(m.slow, 0);
    sim_destroy(&m);
}

static void test_slow_flag_toggles(void **state)
{
    (void)state;
    sim_machine m;
    fake_make(&m, &fake_isa, BASE);
    assert_int_equal(dbg_attach(&m), 0);
    assert_int_equal(m.slow, 0);
    int id = dbg_break_add(&m, ADDR(9), -1, 0, NULL);
    assert_int_equal(m.slow, 1);
    dbg_break_delete(&m, id);
    assert_int_equal(m.slow, 0);
    dbg_until(&m, ADDR(2));
    assert_int_equal(m.slow, 1);
    dbg_clear_run_targets(&m);
    assert_int_equal(m.slow, 0);
    char path[] = "/tmp/xpusim-trace-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(dbg_trace_open(&m, path), 0);
    assert_int_equal(m.slow, 1);
    /* the trace: one line per instruction with cycle, unit name, thread, address, text */
    sim_destroy(&m); /* closes the trace */
    unlink(path);
    /* detaching turns everything off */
    fake_make(&m, &fake_isa, BASE);
    dbg_break_add(&m, ADDR(1), -1, 0, NULL);
    dbg_detach(&m);
    assert_int_equal(m.slow, 0);
    assert_null(m.dbg);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    check_plain_end(&m);
    sim_destroy(&m);
}

static void test_trace_lines(void **state)
{
    (void)state;
    sim_machine m;
    char path[] = "/tmp/xpusim-trace-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    /* 1 thread, 3 instructions at cycles 0, 1, 2; code word k holds k, which the fake
     * disassembles as "op k" */
    fake_make(&m, &fake_isa, KV("threads=1", "insns=3"));
    assert_int_equal(dbg_trace_open(&m, path), 0);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    sim_destroy(&m);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[256];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long long cyc, pc;
        char unit[32], thr[8], op[8];
        unsigned arg;
        assert_int_equal(sscanf(line, "%llu %31s %7s %llx %7s %u", &cyc, unit, thr, &pc, op, &arg), 6);
        assert_int_equal(cyc, (unsigned long long)n);
        assert_string_equal(unit, "fake0");
        assert_string_equal(thr, "t0");
        assert_int_equal(pc, ADDR(n));
        assert_string_equal(op, "op");
        assert_int_equal(arg, (unsigned)n);
        n++;
    }
    fclose(f);
    unlink(path);
    assert_int_equal(n, 3);
}

static int count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int n = 0, c;
    while ((c = fgetc(f)) != EOF)
        n += c == '\n';
    fclose(f);
    return n;
}

static void test_trace_reopen(void **state)
{
    (void)state;
    sim_machine m;
    char a[] = "/tmp/xpusim-trace-a-XXXXXX", b[] = "/tmp/xpusim-trace-b-XXXXXX";
    int fa = mkstemp(a), fb = mkstemp(b);
    assert_true(fa >= 0 && fb >= 0);
    close(fa);
    close(fb);
    /* 1 thread, latency 1: cycles 0..2 traced to a (3 lines), then the trace moves to b
     * for the remaining 7; a must be complete (closed or flushed) once b takes over */
    fake_make(&m, &fake_isa, KV("threads=1", "insns=10"));
    assert_int_equal(dbg_trace_open(&m, a), 0);
    assert_int_equal(sim_run(&m, 2), SIM_STOP_LIMIT);
    assert_int_equal(dbg_trace_open(&m, b), 0);
    assert_int_equal(count_lines(a), 3);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    sim_destroy(&m);
    assert_int_equal(count_lines(a), 3);
    assert_int_equal(count_lines(b), 7);
    unlink(a);
    unlink(b);
}

static void test_trace_open_fails(void **state)
{
    (void)state;
    sim_machine m;
    fake_make(&m, &fake_isa, BASE);
    assert_int_equal(dbg_trace_open(&m, "/nonexistent-dir/x/trace.txt"), -1);
    assert_int_equal(m.slow, 0);
    sim_destroy(&m);
}

XPUSIM_TESTS(debug,
             cmocka_unit_test(test_plain_run_reference),
             cmocka_unit_test(test_breakpoint_and_skip_once),
             cmocka_unit_test(test_breakpoint_stop_cycle),
             cmocka_unit_test(test_breakpoint_unit_filter),
             cmocka_unit_test(test_breakpoint_same_cycle_two_units),
             cmocka_unit_test(test_skip_once_api),
             cmocka_unit_test(test_temporary_breakpoint),
             cmocka_unit_test(test_break_ids_and_limits),
             cmocka_unit_test(test_step_one_thread),
             cmocka_unit_test(test_step_any_thread),
             cmocka_unit_test(test_until),
             cmocka_unit_test(test_history_ring_wraps),
             cmocka_unit_test(test_watchpoint_stop),
             cmocka_unit_test(test_slow_flag_toggles),
             cmocka_unit_test(test_trace_lines),
             cmocka_unit_test(test_trace_reopen),
             cmocka_unit_test(test_trace_open_fails))
