/* tests/unit/test_task.c: tasks bound to thread slots (core/task.h, issue 11 pt 5) on the fake
 * ISA (fake_isa.h), whose unit_run is wrapped here to run one cycle per call and to bind
 * each thread's instructions to tasks of `task_every` instructions: before a call, a live
 * thread without a task gets one from that cycle; after it, a thread that retired its
 * task's `task_every` instructions (or halted) ends it at the cycle after its last issue.
 * The fake books every count (instruction, issue cycle, "wait" stall) at an issue, so a
 * thread's tasks cover all its counts and must add up to its totals.
 * Base timeline (1 unit, 2 threads, lat 1, 10 instructions each): thread 0 issues its k-th
 * instruction at cycle 2k, thread 1 at 2k + 1; each waits one cycle per issue after its
 * first (ready at c + 1, picked at c + 2), and thread 1 also before its first (ready at 0,
 * picked at 1): "wait" totals 9 and 10; thread 0 halts at 19, thread 1 at 20. */
#include "../testlib.h"
#include "fake_isa.h"
#include <unistd.h>
#include "../../core/task.h"

#define KV(...) ((const char *const[]){__VA_ARGS__, NULL})

static uint64_t task_every(sim_machine *m)
{
    uint64_t v;
    char err[64];
    return opt_get_u64(&m->opts, "task_every", 4, 1, 1000000, &v, err, sizeof err) ? 4 : v;
}

static uint64_t task_unit_run(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon)
{
    const uint64_t every = task_every(m);
    for (int t = 0; t < u->nthreads; t++)
        if (sim_thread_active(&u->threads[t]) && !sim_task_bound(m, u->index, t)) {
            char name[32];
            snprintf(name, sizeof name, "t%d.%llu", t, (unsigned long long)(u->threads[t].instructions / every));
            assert_int_equal(sim_task_begin(m, u->index, t, name, u->threads[t].instructions / every, now), 0);
        }
    uint64_t r = fake_unit_run(m, u, now, horizon < now + 1 ? horizon : now + 1);
    for (int t = 0; t < u->nthreads; t++) {
        const sim_task *k = sim_task_bound(m, u->index, t);
        const sim_thread *th = &u->threads[t];
        if (k && th->state == SIM_T_HALTED)
            sim_task_end(m, u->index, t, th->halted_at);
        else if (k && th->instructions - k->instructions == every)
            sim_task_end(m, u->index, t, now + 1);
    }
    return r;
}

static const isa_ops task_isa = {
    .name = "fake-task",
    .description = "unit-test ISA with tasks",
    .stall_names = fake_stalls,
    .create = fake_create,
    .destroy = fake_destroy,
    .unit_run = task_unit_run,
    .pc_get = fake_pc_get,
    .code_space = "code",
    .disasm = fake_disasm,
};

/* the kept ended tasks of unit 0, thread t, in end order */
static int tasks_of(const sim_machine *m, int t, const sim_task **out, int max)
{
    const sim_task_list *l = m->units[0].tasks;
    int n = 0;
    for (size_t k = 0; l && k < l->ndone && n < max; k++)
        if (l->done[k].thread == t)
            out[n++] = &l->done[k];
    return n;
}

static void test_tasks_add_up(void **state)
{
    (void)state;
    sim_machine m;
    fake_make(&m, &task_isa, KV("threads=2", "insns=10", "task_every=4"));
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    /* thread 0: instructions 0-3 at 0,2,4,6 (task 0 ends at 7), 4-7 at 8..14 (task 1 from
     * 7 to 15), 8-9 at 16,18 (task 2 from 15 to the halt at 19); waits 3 (k=1..3), 4, 2 */
    const sim_task *t0[4];
    assert_int_equal(tasks_of(&m, 0, t0, 4), 3);
    const uint64_t b0[] = {0, 7, 15}, e0[] = {7, 15, 19}, i0[] = {4, 4, 2}, w0[] = {3, 4, 2};
    for (int k = 0; k < 3; k++) {
        assert_int_equal(t0[k]->begin, b0[k]);
        assert_int_equal(t0[k]->end, e0[k]);
        assert_int_equal(t0[k]->instructions, i0[k]);
        assert_int_equal(t0[k]->issue_cycles, i0[k]);
        assert_int_equal(t0[k]->stalls[0], w0[k]);
        assert_int_equal(t0[k]->id, (uint64_t)k);
    }
    /* thread 1: issues at 1,3,5,7 (task 0 from 0 to 8, waits 4 with the first), 9..15 (8 to
     * 16, 4), 17,19 (16 to the halt at 20, 2) */
    const sim_task *t1[4];
    assert_int_equal(tasks_of(&m, 1, t1, 4), 3);
    const uint64_t b1[] = {0, 8, 16}, e1[] = {8, 16, 20}, w1[] = {4, 4, 2};
    for (int k = 0; k < 3; k++) {
        assert_int_equal(t1[k]->begin, b1[k]);
        assert_int_equal(t1[k]->end, e1[k]);
        assert_int_equal(t1[k]->instructions, i0[k]);
        assert_int_equal(t1[k]->stalls[0], w1[k]);
    }
    /* each thread's tasks add up to its totals, and cover its cycles from 0 to its halt */
    for (int t = 0; t < 2; t++) {
        const sim_task **v = t ? t1 : t0;
        const sim_thread *th = &m.units[0].threads[t];
        uint64_t ins = 0, iss = 0, st = 0, cyc = 0;
        for (int k = 0; k < 3; k++) {
            ins += v[k]->instructions;
            iss += v[k]->issue_cycles;
            st += v[k]->stalls[0];
            cyc += v[k]->end - v[k]->begin;
        }
        assert_int_equal(ins, th->instructions);
        assert_int_equal(iss, th->issue_cycles);
        assert_int_equal(st, th->stalls[0]);
        assert_int_equal(cyc, th->halted_at);
    }
    assert_int_equal(m.units[0].tasks->begun, 6);
    /* the reports: a "tasks" JSON member with the six, a text line per task */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    stats_write_json(&m, f);
    fclose(f);
    const char *js = strstr(buf, "\"tasks\": [");
    assert_non_null(js);
    int n = 0;
    for (const char *p = js; (p = strstr(p, "\"state\": \"ended\"")); p++)
        n++;
    assert_int_equal(n, 6);
    assert_non_null(strstr(js, "\"name\": \"t1.2\", \"id\": 2, \"state\": \"ended\", \"begin\": 16, \"end\": 20, "
                               "\"cycles\": 4, \"instructions\": 2, \"issue_cycles\": 2, \"stalls\": {\"wait\": 2, "
                               "\"other\": 0}}"));
    free(buf);
    buf = NULL;
    f = open_memstream(&buf, &len);
    stats_write_text(&m, f);
    fclose(f);
    assert_non_null(strstr(buf, "tasks:\n  fake0: 6 tasks (0 running)\n"));
    assert_non_null(
        strstr(buf, "task 1 t1.0 (id 0) thread 1: cycles 8 (0-8), instructions 4, issue cycles 4, stall wait 4\n"));
    free(buf);
    sim_destroy(&m);
}

/* A run that stops at a limit leaves tasks bound: they report the counts so far; a begin on
 * a bound thread ends its task first; an end without a task and bad slots do nothing. */
static void test_tasks_running(void **state)
{
    (void)state;
    sim_machine m;
    fake_make(&m, &task_isa, KV("threads=2", "insns=10", "task_every=4"));
    /* to cycle 10 (inclusive): thread 0 issued at 0..10 even (6 instructions: task 1 from 7
     * has k=4,5 at 8 and 10, waits 2) */
    assert_int_equal(sim_run(&m, 10), SIM_STOP_LIMIT);
    const sim_task *b = sim_task_bound(&m, 0, 0);
    assert_non_null(b);
    assert_int_equal(b->state, SIM_TASK_RUNNING);
    sim_task v = sim_task_view(&m, b);
    assert_int_equal(v.begin, 7);
    assert_int_equal(v.instructions, 2);
    assert_int_equal(v.stalls[0], 2);
    assert_true(v.end >= 10);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(sim_tasks_write_list(&m, f, -1, 0), 4); /* two bound, two ended */
    fclose(f);
    assert_non_null(strstr(buf, "thread 0  task 2    t0.1"));
    assert_non_null(strstr(buf, "running since 7: 2 instructions"));
    free(buf);
    /* a begin on the bound thread ends the task at its cycle */
    assert_int_equal(sim_task_begin(&m, 0, 0, "next", 99, 11), 0);
    const sim_task *last[4];
    assert_int_equal(tasks_of(&m, 0, last, 4), 2);
    assert_int_equal(last[1]->end, 11);
    assert_int_equal(last[1]->instructions, 2);
    assert_string_equal(sim_task_bound(&m, 0, 0)->name, "next");
    sim_task_end(&m, 0, 0, 12);
    assert_null(sim_task_bound(&m, 0, 0));
    sim_task_end(&m, 0, 0, 13); /* nothing bound: nothing happens */
    assert_int_equal(tasks_of(&m, 0, last, 4), 3);
    assert_int_equal(sim_task_begin(&m, 0, 2, "x", 0, 0), -1);
    assert_int_equal(sim_task_begin(&m, 1, 0, "x", 0, 0), -1);
    sim_task_end(&m, 5, 0, 0);
    sim_destroy(&m);
}

/* Past SIM_TASKS_KEEP ended tasks a unit sums the rest: one task per instruction on one
 * thread of 3000 (lat 1: issues at 0..2999, no wait) keeps 1024 and sums 1976, and kept plus
 * summed still add up to the thread's totals. */
static void test_tasks_summed(void **state)
{
    (void)state;
    sim_machine m;
    fake_make(&m, &task_isa, KV("threads=1", "insns=3000", "task_every=1"));
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    const sim_task_list *l = m.units[0].tasks;
    assert_int_equal(l->begun, 3000);
    assert_int_equal(l->ndone, SIM_TASKS_KEEP);
    assert_int_equal(l->more.state, SIM_TASK_DONE);
    assert_int_equal(l->more.id, 3000 - SIM_TASKS_KEEP);
    assert_int_equal(l->more.begin, SIM_TASKS_KEEP); /* task k runs [k, k + 1) */
    assert_int_equal(l->more.end, 3000);
    uint64_t ins = l->more.instructions;
    for (size_t k = 0; k < l->ndone; k++)
        ins += l->done[k].instructions;
    assert_int_equal(ins, 3000);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    stats_write_text(&m, f); /* 64 shown, the other 960 kept ones with the 1976 summed */
    fclose(f);
    assert_non_null(strstr(buf, "    2936 more tasks: cycles 2936 (64-3000), instructions 2936, issue cycles 2936\n"));
    free(buf);
    /* the JSON: the 1,024 kept one by one, then one summary object of the 1,976 others */
    buf = NULL;
    f = open_memstream(&buf, &len);
    stats_write_json(&m, f);
    fclose(f);
    int n = 0;
    for (const char *p = buf; (p = strstr(p, "\"state\": \"ended\"")); p++)
        n++;
    assert_int_equal(n, SIM_TASKS_KEEP);
    assert_non_null(strstr(buf,
                           "{\"unit\": 0, \"summed\": 1976, \"begin\": 1024, \"end\": 3000, \"cycles\": 1976, "
                           "\"instructions\": 1976, \"issue_cycles\": 1976, \"stalls\": {\"wait\": 0, \"other\": 0}}"));
    free(buf);
    sim_destroy(&m);
}

/* The per-unit budget: 1,024 up to 64 units (65,536 / 64), then 65,536 shared (1,472 tiles:
 * 65,536 / 1,472 = 44.5 -> 44), never fewer than 16 (4,097 units and more). */
static void test_tasks_keep(void **state)
{
    (void)state;
    assert_int_equal(sim_tasks_keep(1), 1024);
    assert_int_equal(sim_tasks_keep(64), 1024);
    assert_int_equal(sim_tasks_keep(65), 1008);
    assert_int_equal(sim_tasks_keep(1472), 44);
    assert_int_equal(sim_tasks_keep(4096), 16);
    assert_int_equal(sim_tasks_keep(5000), 16);
    assert_int_equal(sim_tasks_keep(0), 1024);
}

/* The trace marks each begin and end of a task between the instruction lines. */
static void test_tasks_trace(void **state)
{
    (void)state;
    sim_machine m;
    fake_make(&m, &task_isa, KV("threads=1", "insns=4", "task_every=2"));
    char path[] = "/tmp/xpusim-task-trace-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(dbg_trace_open(&m, path), 0);
    dbg_update_slow(&m);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    assert_int_equal(dbg_trace_end(&m), 0);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char text[2048] = "";
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = 0;
    fclose(f);
    unlink(path);
    /* instructions at 0..3 (lat 1); task 0 holds 0,1 and ends at 2, task 1 from 2 to 4 */
    const char *b0 = strstr(text, "         0 fake0 t0  -- task 0 begins: t0.0\n");
    const char *e0 = strstr(text, "         2 fake0 t0  -- task 0 ends: t0.0 (2 instructions, 2 cycles)\n");
    const char *b1 = strstr(text, "         2 fake0 t0  -- task 1 begins: t0.1\n");
    const char *e1 = strstr(text, "         4 fake0 t0  -- task 1 ends: t0.1 (2 instructions, 2 cycles)\n");
    assert_non_null(b0);
    assert_non_null(e0);
    assert_non_null(b1);
    assert_non_null(e1);
    assert_true(b0 < e0 && e0 < b1 && b1 < e1);
    sim_destroy(&m);
}

XPUSIM_TESTS(task,
    cmocka_unit_test(test_tasks_add_up),
    cmocka_unit_test(test_tasks_running),
    cmocka_unit_test(test_tasks_summed),
    cmocka_unit_test(test_tasks_keep),
    cmocka_unit_test(test_tasks_trace),
)
