/* tests/unit/test_run_clock.c: each group at its own clock (issue 11 pt 1; core/clock.h).
 * A machine of two groups, "a" at 1 GHz and "b" at 1.25 GHz, one unit of one thread each.
 * The common time base is their lcm, 5 GHz: one cycle of a is 5 ticks, one of b 4 ticks,
 * and the units meet on the one queue at the ticks their cycles start. Each thread issues
 * one instruction per cycle of its own unit (ready again the next cycle). Two modes:
 *   - free running (rounds=1, mail=0): both threads issue N instructions from cycle 0; every
 *     issue is logged with its tick, and the log must be in time order (the run loop runs
 *     cycle-coupled units of different clocks in time order, exactly);
 *   - ping-pong (mail=1): a thread issues N instructions, then mails the other unit (an ISA
 *     event at the tick its last cycle ends) and sleeps; the mail wakes the other thread at
 *     its own first cycle at or after that tick. After `rounds` rounds a thread halts.
 * Every expected count is derived by hand in the tests from these rules. */
#include "../testlib.h"
#include "../../core/clock.h"
#include "../../core/sched.h"
#include "../../core/stats.h"
#include "../../isa/isa.h"

#define CK_LOG 256

typedef struct ck_unit {
    uint64_t n, rounds, done, round;
    ev_event mail; /* wakes this unit's thread */
    sim_unit *u;
} ck_unit;

typedef struct ck_machine {
    uint64_t mail;
    ck_unit units[2];
    uint64_t log_tick[CK_LOG], log_cycle[CK_LOG];
    int log_unit[CK_LOG], nlog;
    sim_machine *m;
} ck_machine;

static void ck_mail_fn(ev_event *e, void *ctx)
{
    (void)e;
    ck_unit *cu = ctx;
    sched_wake(cu->u, 0, sim_unit_now(cu->u->m, cu->u)); /* its first cycle at or after now */
}

static int ck_create(sim_machine *m, char *err, size_t errlen)
{
    uint64_t n, rounds, a_hz, b_hz;
    ck_machine *cm = calloc(1, sizeof *cm);
    if (!cm)
        return -1;
    m->isa_state = cm;
    cm->m = m;
    if (opt_get_u64(&m->opts, "n", 3, 1, 100, &n, err, errlen) ||
        opt_get_u64(&m->opts, "rounds", 1, 1, 10, &rounds, err, errlen) ||
        opt_get_u64(&m->opts, "mail", 0, 0, 1, &cm->mail, err, errlen) ||
        opt_get_u64(&m->opts, "a_hz", 1000000000, 1, UINT64_MAX, &a_hz, err, errlen) ||
        opt_get_u64(&m->opts, "b_hz", 1250000000, 1, UINT64_MAX, &b_hz, err, errlen))
        return -1;
    sim_group *a = sim_add_group(m, "a", NULL);
    if (!a || sim_add_units_in(m, a, 1, 1, "core%d", (double)a_hz))
        return snprintf(err, errlen, "group a"), -1;
    sim_group *b = sim_add_group(m, "b", NULL);
    if (!b || sim_add_units_in(m, b, 1, 1, "core%d", (double)b_hz))
        return snprintf(err, errlen, "group b"), -1;
    for (int i = 0; i < 2; i++) {
        ck_unit *cu = &cm->units[i];
        cu->u = &m->units[i];
        cu->n = n;
        cu->rounds = rounds;
        m->units[i].isa = cu;
        if (sim_register_event(m, &cu->mail, "mail", ck_mail_fn, cu, 1))
            return -1;
    }
    sched_start(&m->units[0], 0, 0);
    if (!cm->mail) /* free running: b starts at once too; ping-pong: a's mail starts it */
        sched_start(&m->units[1], 0, 0);
    return 0;
}

static void ck_destroy(sim_machine *m)
{
    free(m->isa_state);
    m->isa_state = NULL;
}

static uint64_t ck_unit_run(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon)
{
    ck_machine *cm = m->isa_state;
    ck_unit *cu = u->isa, *other = &cm->units[1 - u->index];
    uint64_t c = now;
    while (c < horizon && !sim_stopped(m)) {
        if (sched_pick(u, c) < 0) {
            uint64_t nr = sched_next_ready(u);
            if (nr == SIM_NEVER || nr >= horizon)
                return nr;
            c = nr;
            continue;
        }
        sim_thread *th = &u->threads[0];
        u->last_issue = c;
        th->instructions++;
        th->issue_cycles++;
        th->ready_at = c + 1;
        if (cm->nlog < CK_LOG) {
            cm->log_tick[cm->nlog] = sim_unit_tick(u, c);
            cm->log_cycle[cm->nlog] = c;
            cm->log_unit[cm->nlog++] = u->index;
        }
        if (++cu->done == cu->n) {
            cu->done = 0;
            cu->round++;
            /* the mail leaves when this cycle ends: at the tick the unit's next cycle starts */
            if (cm->mail && other->round < other->rounds)
                sim_schedule(m, &other->mail, sim_unit_tick(u, c + 1));
            if (cu->round == cu->rounds)
                sched_halt(u, 0, c + 1);
            else if (cm->mail)
                sched_sleep(u, 0);
        }
        c++;
    }
    return c;
}

static uint64_t ck_pc_get(sim_machine *m, int unit, int thread)
{
    (void)thread;
    const ck_machine *cm = m->isa_state;
    return cm->units[unit].done;
}

static const char *const ck_stalls[] = {"wait", NULL};

static const isa_ops ck_isa = {
    .name = "clock-model",
    .description = "two units of different clocks",
    .stall_names = ck_stalls,
    .create = ck_create,
    .destroy = ck_destroy,
    .unit_run = ck_unit_run,
    .pc_get = ck_pc_get,
};

static int ck_make(sim_machine *m, const char *const *args, char *err, size_t n)
{
    sim_opts o;
    opt_init(&o);
    for (int i = 0; args[i]; i++)
        assert_int_equal(opt_parse(&o, args[i]), 0);
    return sim_create(m, &ck_isa, &o, err, n);
}

/* The time base: lcm(1 GHz, 1.25 GHz) = 5 GHz; a's cycle 5 ticks, b's 4. */
static void test_clock_base(void **state)
{
    (void)state;
    sim_machine m;
    char err[256] = "";
    assert_int_equal(ck_make(&m, (const char *const[]){"n=3", NULL}, err, sizeof err), 0);
    assert_true(m.tick_hz == 5e9);
    assert_int_equal(m.units[0].period, 5);
    assert_int_equal(m.units[1].period, 4);
    assert_int_equal(m.max_period, 5);
    assert_int_equal(sim_unit_tick(&m.units[1], 7), 28);
    assert_int_equal(sim_unit_cycle_at(&m.units[1], 45), 12); /* ceil(45 / 4) */
    assert_int_equal(sim_unit_cycle_at(&m.units[0], 45), 9);
    sim_destroy(&m);
}

/* Free running, N = 20: a issues at its cycles 0..19 (ticks 0, 5, .., 95) and halts at 20
 * (tick 100); b at its cycles 0..19 (ticks 0, 4, .., 76), halting at 20 (tick 80). First a
 * run to tick 49: a has issued the cycles that start at ticks <= 49, 0..9 (10
 * instructions), b 0..12 (ticks 0..48, 13 instructions). Then to the end: the machine's
 * time is the later end, tick 100 = 20 ns (a's 20 cycles at 1 GHz); b's 20 cycles are 16 ns
 * at 1.25 GHz. Every issue comes in time order. */
static void test_clock_free_running(void **state)
{
    (void)state;
    sim_machine m;
    char err[256] = "";
    assert_int_equal(ck_make(&m, (const char *const[]){"n=20", NULL}, err, sizeof err), 0);
    const ck_machine *cm = m.isa_state;
    assert_int_equal(sim_run(&m, 49), SIM_STOP_LIMIT);
    assert_int_equal(m.units[0].threads[0].instructions, 10);
    assert_int_equal(m.units[1].threads[0].instructions, 13);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    assert_int_equal(m.units[0].halted_at, 20);
    assert_int_equal(m.units[1].halted_at, 20);
    assert_int_equal(sim_end_cycle(&m), 100);
    assert_int_equal(cm->nlog, 40);
    for (int k = 1; k < cm->nlog; k++)
        assert_true(cm->log_tick[k - 1] <= cm->log_tick[k]);
    for (int k = 0; k < cm->nlog; k++) /* each issue at the tick its own cycle starts */
        assert_int_equal(cm->log_tick[k], cm->log_cycle[k] * (cm->log_unit[k] ? 4 : 5));
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    stats_write_json(&m, f);
    stats_write_text(&m, f);
    fclose(f);
    /* the machine in ticks of the 5 GHz base, each unit and group in its own cycles */
    assert_non_null(strstr(buf, "  \"clock_hz\": 5000000000,\n  \"seconds\": 2e-08,\n"));
    assert_non_null(strstr(buf, "\"path\": \"a\", \"index\": 0, \"threads_per_unit\": 1, \"clock_hz\": 1000000000, "
                                "\"units\": [0], \"enabled_units\": 1, \"cycles\": 20, \"seconds\": 2e-08"));
    assert_non_null(strstr(buf, "\"path\": \"b\", \"index\": 1, \"threads_per_unit\": 1, \"clock_hz\": 1250000000, "
                                "\"units\": [1], \"enabled_units\": 1, \"cycles\": 20, \"seconds\": 1.6e-08"));
    assert_non_null(strstr(buf, "\ncycles: 100 (0.000000 s in ticks of 5000 MHz"));
    assert_non_null(strstr(buf, "\ncore0: cycles 20, instructions 20, IPC 1.000, halted at 20\n"));
    free(buf);
    sim_destroy(&m);
}

/* Ping-pong, N = 3, 3 rounds. a issues at 0, 1, 2; its cycle 2 ends at tick 5 x 3 = 15,
 * where the mail wakes b at its cycle ceil(15 / 4) = 4 (tick 16): b issues at 4, 5, 6,
 * ending at tick 4 x 7 = 28: a at ceil(28 / 5) = 6 (tick 30): 6, 7, 8, ending at tick 45:
 * b at ceil(45 / 4) = 12: 12, 13, 14, ending at tick 60: a at 12: 12, 13, 14, a's third
 * round: it halts at 15 (tick 75) and mails b, at ceil(75 / 4) = 19: 19, 20, 21, b's third
 * round: it halts at 22 (tick 88), the machine's end: 17.6 ns. */
static void test_clock_ping_pong(void **state)
{
    (void)state;
    sim_machine m;
    char err[256] = "";
    assert_int_equal(ck_make(&m, (const char *const[]){"n=3", "rounds=3", "mail=1", NULL}, err, sizeof err), 0);
    const ck_machine *cm = m.isa_state;
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    static const uint64_t a[] = {0, 1, 2, 6, 7, 8, 12, 13, 14}, b[] = {4, 5, 6, 12, 13, 14, 19, 20, 21};
    int na = 0, nb = 0;
    assert_int_equal(cm->nlog, 18);
    for (int k = 0; k < cm->nlog; k++) {
        if (k)
            assert_true(cm->log_tick[k - 1] <= cm->log_tick[k]);
        if (cm->log_unit[k] == 0)
            assert_int_equal(cm->log_cycle[k], a[na++]);
        else
            assert_int_equal(cm->log_cycle[k], b[nb++]);
    }
    assert_int_equal(na, 9);
    assert_int_equal(nb, 9);
    assert_int_equal(m.units[0].halted_at, 15);
    assert_int_equal(m.units[1].halted_at, 22);
    assert_int_equal(sim_end_cycle(&m), 88);
    sim_destroy(&m);
}

/* A fast-forward's switch on units of two clocks (core/sim.c sim_ff_switch; core/clock.h):
 * free running, N = 20, to tick 49 as above: a has simulated its cycles 0..9 (its next, 10,
 * starts at tick 50), b its cycles 0..12 (its next, 13, at tick 52). The switch is the first
 * tick no unit has simulated, in ticks: max(50, 52) = 52. Each unit's timed part starts at
 * its cycle in progress at that tick: a's floor(52 / 5) = 10, b's 52 / 4 = 13. To the end
 * (a halts at its cycle 20, b at 20, tick 100): the timed part is 100 - 52 = 48 ticks; a
 * 20 - 10 = 10 cycles and the 10 instructions of its cycles 10..19, b 20 - 13 = 7 cycles
 * and 7 instructions (13..19). Before the fix the switch mixed cycles of both clocks
 * (max(10, 13) = 13 "ticks"). */
static void test_clock_fast_forward(void **state)
{
    (void)state;
    sim_machine m;
    char err[256] = "";
    assert_int_equal(ck_make(&m, (const char *const[]){"n=20", NULL}, err, sizeof err), 0);
    assert_int_equal(sim_run(&m, 49), SIM_STOP_LIMIT);
    assert_int_equal(sim_ff_switch(&m, "test", 1), 0);
    assert_int_equal(m.ff->cycle, 52);
    assert_int_equal(sim_ff_unit_cycle(&m, &m.units[0]), 10);
    assert_int_equal(sim_ff_unit_cycle(&m, &m.units[1]), 13);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    stats_write_json(&m, f);
    stats_write_text(&m, f);
    fclose(f);
    assert_non_null(strstr(buf, "\"switch_cycle\": 52,"));
    assert_non_null(strstr(buf, "\n  \"cycles\": 48,\n"));
    assert_non_null(strstr(buf, "\ncore0: cycles 10, instructions 10, IPC 1.000, halted at 10\n"));
    assert_non_null(strstr(buf, "\ncore0: cycles 7, instructions 7, IPC 1.000, halted at 7\n"));
    free(buf);
    sim_destroy(&m);
}

/* Clocks without a common base in range are refused at create with a clear error: 1 GHz
 * and 1 GHz + 1 Hz (lcm about 1e18 Hz: about 1e9 ticks per cycle, over SIM_MAX_PERIOD), and
 * 1 EHz next to 1.25 GHz (lcm 1e18: 8e8 ticks per cycle of b). One clock needs no base:
 * any value is taken, and ticks are its cycles. */
static void test_clock_refused(void **state)
{
    (void)state;
    sim_machine m;
    char err[256] = "";
    assert_int_equal(ck_make(&m, (const char *const[]){"a_hz=1000000000", "b_hz=1000000001", NULL}, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "no common time base in range"));
    assert_int_equal(ck_make(&m, (const char *const[]){"a_hz=3", "b_hz=3", NULL}, err, sizeof err), 0);
    assert_int_equal(m.units[0].period, 1);
    assert_int_equal(m.units[1].period, 1);
    assert_true(m.tick_hz == 3);
    sim_destroy(&m);
    assert_int_equal(ck_make(&m, (const char *const[]){"a_hz=1000000000000000000", NULL}, err, sizeof err), -1);
    assert_non_null(strstr(err, "unit core0: clock 1250000000 Hz: the units' clocks have no common time base in range"));
}

XPUSIM_TESTS(run_clock, cmocka_unit_test(test_clock_base), cmocka_unit_test(test_clock_free_running),
             cmocka_unit_test(test_clock_ping_pong), cmocka_unit_test(test_clock_fast_forward),
             cmocka_unit_test(test_clock_refused))
