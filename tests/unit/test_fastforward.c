/* tests/unit/test_fastforward.c: the core's fast-forward pieces (core/sim.c, core/stats.c)
 * on the fake ISA of fake_isa.h, whose timing is trivial to derive: one thread with latency
 * 1 issues its instruction k at cycle k and halts at the cycle after its last. Checked:
 * sim_marker (nothing unless armed; armed: one SIM_STOP_MARKER at the caller's thread and
 * pc, then disarmed), an instruction-count marker (m->ff_insns: the switch at exactly N),
 * sim_ff_switch's split of the statistics (the timed part counted from the switch; the
 * functional part in "fast_forward"), a marker never reached (no timed part), sim_restart
 * dropping the split, independent units advancing in step while armed, and the frontend's
 * checks before a machine is built (cli_ff_prepare). */
#include "../testlib.h"
#include "fake_isa.h"
#include "../../frontends/cli.h"

#define KV(...) ((const char *const[]){__VA_ARGS__, NULL})

static char *stats_of(const sim_machine *m, int json)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    if (json)
        stats_write_json(m, f);
    else
        stats_write_text(m, f);
    fclose(f);
    return buf;
}

static void test_marker_call(void **state)
{
    (void)state;
    sim_machine m;
    fake_make(&m, &fake_isa, KV("threads=2", "insns=10"));
    /* unarmed: nothing happens */
    assert_int_equal(sim_marker(&m, 0, 1, 0x1010), 0);
    assert_int_equal(m.stop.kind, SIM_STOP_NONE);
    /* armed: one stop at the caller's unit, thread and pc, and the marker is disarmed */
    m.ff_magic = 1;
    assert_int_equal(sim_marker(&m, 0, 1, 0x1010), 1);
    assert_int_equal(m.stop.kind, SIM_STOP_MARKER);
    assert_int_equal(m.stop.unit, 0);
    assert_int_equal(m.stop.thread, 1);
    assert_int_equal(m.stop.pc, 0x1010);
    assert_int_equal(m.ff_magic, 0);
    assert_int_equal(sim_marker(&m, 0, 0, 0x1000), 0);
    assert_string_equal(sim_stop_name(SIM_STOP_MARKER), "marker");
    assert_int_equal(sim_stop_exit_code(SIM_STOP_MARKER), 3);
    sim_destroy(&m);
}

static void test_insns_marker_and_split(void **state)
{
    (void)state;
    sim_machine m;
    /* 1 thread, 100 instructions, latency 1: instruction k at cycle k, halt at 100 */
    fake_make(&m, &fake_isa, KV("threads=1", "insns=100"));
    m.ff_insns = 40;
    m.ff_armed = 1;
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_MARKER);
    /* the bursts shrink to one cycle (one instruction) near the count: exactly 40 */
    assert_int_equal(sim_total_instructions(&m), 40);
    assert_int_equal(sim_ff_switch(&m, "insns:40", 1), 0);
    assert_int_equal(m.stop.kind, SIM_STOP_NONE);
    assert_int_equal(m.ff_armed, 0);
    assert_non_null(m.ff);
    /* the switch: instructions 0..39 ran at cycles 0..39, so the first cycle not simulated
     * is 40 */
    assert_int_equal(m.ff->cycle, 40);
    assert_int_equal(m.ff->instructions, 40);
    assert_int_equal(m.ff->units[0].threads[0].instructions, 40);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    /* the timed part: instructions 40..99, halt at 100: 60 instructions, 100 - 40 = 60
     * cycles, halted at 60 from the switch */
    char *j = stats_of(&m, 1);
    assert_non_null(strstr(j, "\"schema\": 3"));
    assert_non_null(strstr(j, "\"fast_forward\": {\"marker\": \"insns:40\", \"reached\": true, \"switch_cycle\": 40, "
                              "\"instructions\": 40,"));
    assert_non_null(strstr(j, "\n  \"cycles\": 60,\n  \"instructions\": 60,\n"));
    assert_non_null(strstr(j, "\"cycles\": 60, \"instructions\": 60, \"issue_cycles\": 60, \"halted_at\": 60"));
    free(j);
    char *t = stats_of(&m, 0);
    assert_non_null(strstr(t, "fast-forward to insns:40: reached"));
    assert_non_null(strstr(t, "  functional fake0: instructions 40\n"));
    assert_non_null(strstr(t, "\ncycles: 60 "));
    assert_non_null(strstr(t, "\ninstructions: 60\n"));
    free(t);
    /* a new run (a relaunch) has no functional part to report apart */
    sim_restart(&m, NULL);
    assert_null(m.ff);
    sim_destroy(&m);
}

static void test_never_reached(void **state)
{
    (void)state;
    sim_machine m;
    fake_make(&m, &fake_isa, KV("threads=1", "insns=100"));
    m.ff_magic = 1;
    m.ff_armed = 1;
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT); /* the fake ISA has no marker */
    assert_int_equal(sim_ff_switch(&m, "magic", 0), 0);
    assert_int_equal(m.stop.kind, SIM_STOP_HALT); /* the stop stays: the run is over */
    char *j = stats_of(&m, 1);
    assert_non_null(strstr(j, "\"marker\": \"magic\", \"reached\": false, \"switch_cycle\": 100, \"instructions\": 100,"));
    assert_non_null(strstr(j, "\n  \"cycles\": 0,\n  \"instructions\": 0,\n"));
    free(j);
    char *t = stats_of(&m, 0);
    assert_non_null(strstr(t, "NOT reached, the whole run was functional"));
    free(t);
    sim_destroy(&m);
}

static void test_independent_units_in_step(void **state)
{
    (void)state;
    sim_machine m;
    /* Two independent units, one thread each, instruction k at cycle k; unit 0 faults at its
     * instruction 5000 (cycle 5000). Unarmed, unit 0 runs to its end first (one burst to
     * the limit) and faults; unit 1 then runs to its own end all the same (a fault among
     * independent units, core/run.c indep_finish: the same for every -o jobs=): 8000.
     * Armed, the units take turns of SIM_FF_QUANTUM = 4096 cycles (stops in time order: no
     * finish): unit 0 [0, 4096), unit 1 [0, 4096), unit 0 again, which faults at 5000: unit
     * 1 has retired 4096. */
    fake_make(&m, &fake_isa_indep, KV("units=2", "threads=1", "insns=8000", "fault_unit=0", "fault_k=5000"));
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_FAULT);
    assert_int_equal(m.units[0].threads[0].instructions, 5000);
    assert_int_equal(m.units[1].threads[0].instructions, 8000);
    sim_destroy(&m);
    fake_make(&m, &fake_isa_indep, KV("units=2", "threads=1", "insns=8000", "fault_unit=0", "fault_k=5000"));
    m.ff_armed = 1;
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_FAULT);
    assert_int_equal(m.units[0].threads[0].instructions, 5000);
    assert_int_equal(m.units[1].threads[0].instructions, SIM_FF_QUANTUM);
    sim_destroy(&m);
}

static void test_prepare(void **state)
{
    (void)state;
    cli_args a;
    memset(&a, 0, sizeof a);
    opt_init(&a.opts);
    isa_ops without = fake_isa, with = fake_isa;
    with.functional = 1;
    assert_int_equal(cli_ff_prepare(&a, &without), 0); /* no --fast-forward: nothing to check */
    a.fast_forward = "main";
    assert_int_equal(cli_ff_prepare(&a, &without), -1); /* no functional mode */
    assert_int_equal(cli_ff_prepare(&a, &with), 0);
    assert_string_equal(opt_get(&a.opts, "timing", ""), "none");
    /* -o timing= given with it: refused */
    cli_args b;
    memset(&b, 0, sizeof b);
    opt_init(&b.opts);
    b.fast_forward = "insns:5";
    assert_int_equal(opt_parse(&b.opts, "timing=cycle"), 0);
    assert_int_equal(cli_ff_prepare(&b, &with), -1);
}

XPUSIM_TESTS(fastforward,
             cmocka_unit_test(test_marker_call),
             cmocka_unit_test(test_insns_marker_and_split),
             cmocka_unit_test(test_never_reached),
             cmocka_unit_test(test_independent_units_in_step),
             cmocka_unit_test(test_prepare))
