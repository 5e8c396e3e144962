/* tests/unit/test_couple_halt.c: a unit halts when its ISA says so (issue 11 pt 5; sim.h
 * sim_unit.halt_by_isa). A fake ISA whose one unit has two threads that another part of the
 * machine may restart (as a Nyuzi core's threads by another core, or a CERT uC's by its next
 * job): by default the unit halts with its last thread and a later restart finds it halted;
 * with halt_by_isa it stays live with every thread halted, the restart runs, and the unit
 * halts when the ISA calls sim_unit_halt (or, if the ISA never does, the run ends on a
 * deadlock: nothing is left that could wake it). Cycles derived by hand in the comments. */
#include "../testlib.h"
#include "../../core/sim.h"
#include "../../core/sched.h"
#include "../../isa/isa.h"

/* Two threads, one issue per cycle round robin, each ready again the next cycle: thread 0
 * issues at 0, 2, 4 and thread 1 at 1, 3, 5 (three instructions each); a thread halts the
 * cycle after its last issue (thread 0 at 5, thread 1 at 6). An ISA event at cycle 10
 * (priority 1) restarts thread 0 for two more instructions (at 10 and 11: it halts at 12);
 * with `isa_halts` the ISA then halts the unit at 12. */
typedef struct hm_machine {
    int by_isa, isa_halts, restarts;
    uint64_t left[2];
    ev_event restart;
    sim_machine *m;
} hm_machine;

static void hm_restart(ev_event *e, void *ctx)
{
    (void)e;
    hm_machine *hm = ctx;
    hm->restarts++;
    hm->left[0] = 2;
    sched_start(&hm->m->units[0], 0, hm->m->now);
}

static int hm_create(sim_machine *m, char *err, size_t errlen)
{
    uint64_t by_isa, isa_halts;
    hm_machine *hm = calloc(1, sizeof *hm);
    if (!hm)
        return -1;
    m->isa_state = hm;
    hm->m = m;
    if (opt_get_u64(&m->opts, "by_isa", 0, 0, 1, &by_isa, err, errlen) ||
        opt_get_u64(&m->opts, "isa_halts", 0, 0, 1, &isa_halts, err, errlen))
        return -1;
    hm->by_isa = (int)by_isa;
    hm->isa_halts = (int)isa_halts;
    if (sim_add_units(m, 1, 2, "core%d", 1e9) || sim_register_event(m, &hm->restart, "restart", hm_restart, hm, 1))
        return snprintf(err, errlen, "out of memory"), -1;
    m->units[0].halt_by_isa = (uint8_t)by_isa;
    hm->left[0] = hm->left[1] = 3;
    sched_start(&m->units[0], 0, 0);
    sched_start(&m->units[0], 1, 0);
    sim_schedule(m, &hm->restart, 10);
    return 0;
}

static void hm_destroy(sim_machine *m)
{
    free(m->isa_state);
    m->isa_state = NULL;
}

static uint64_t hm_unit_run(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon)
{
    hm_machine *hm = m->isa_state;
    uint64_t c = now;
    while (c < horizon && !sim_stopped(m)) {
        int t = sched_pick(u, c);
        if (t < 0) {
            uint64_t nr = sched_next_ready(u);
            if (nr == SIM_NEVER || nr >= horizon)
                return nr;
            c = nr;
            continue;
        }
        u->last_issue = c;
        u->threads[t].instructions++;
        u->threads[t].issue_cycles++;
        u->threads[t].ready_at = c + 1;
        if (--hm->left[t] == 0) {
            sched_halt(u, t, c + 1);
            /* the ISA's rule here: after the restart's work the core is done */
            if (hm->isa_halts && hm->restarts && sched_live(u) == 0)
                sim_unit_halt(m, u, c + 1);
        }
        c++;
    }
    return c;
}

static uint64_t hm_pc_get(sim_machine *m, int unit, int thread)
{
    (void)unit;
    const hm_machine *hm = m->isa_state;
    return hm->left[thread];
}

static const char *const hm_stalls[] = {"wait", NULL};

static const isa_ops hm_isa = {
    .name = "halt-model",
    .description = "a unit whose threads can be restarted",
    .stall_names = hm_stalls,
    .create = hm_create,
    .destroy = hm_destroy,
    .unit_run = hm_unit_run,
    .pc_get = hm_pc_get,
};

static void hm_make(sim_machine *m, const char *a, const char *b)
{
    sim_opts o;
    char err[200] = "";
    opt_init(&o);
    assert_int_equal(opt_parse(&o, a), 0);
    assert_int_equal(opt_parse(&o, b), 0);
    if (sim_create(m, &hm_isa, &o, err, sizeof err))
        fail_msg("sim_create: %s", err);
}

/* The default: the unit halts with thread 1 at 6; the machine's only unit halted, the run
 * ends there (6 instructions) and the restart at 10 never comes. */
static void test_halts_with_last_thread(void **state)
{
    (void)state;
    sim_machine m;
    hm_make(&m, "by_isa=0", "isa_halts=0");
    assert_int_equal(m.units[0].halt_by_isa, 0);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    assert_int_equal(m.units[0].halted, 1);
    assert_int_equal(m.units[0].halted_at, 6);
    assert_int_equal(sim_end_cycle(&m), 6);
    assert_int_equal(sim_total_instructions(&m), 6);
    assert_int_equal(((hm_machine *)m.isa_state)->restarts, 0);
    sim_destroy(&m);
}

/* The ISA says: both threads halted at 6, the unit is still live; the restart at 10 runs
 * thread 0 at 10 and 11 (halting at 12) and the ISA halts the unit at 12: 8 instructions. */
static void test_halts_when_isa_says(void **state)
{
    (void)state;
    sim_machine m;
    hm_make(&m, "by_isa=1", "isa_halts=1");
    assert_int_equal(sim_run(&m, 8), SIM_STOP_LIMIT); /* at 8: every thread halted, the unit not */
    assert_int_equal(m.units[0].halted, 0);
    assert_int_equal(sched_live(&m.units[0]), 0);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    assert_int_equal(m.units[0].halted, 1);
    assert_int_equal(m.units[0].halted_at, 12);
    assert_int_equal(m.units[0].threads[0].halted_at, 12);
    assert_int_equal(m.units[0].threads[1].halted_at, 6);
    assert_int_equal(sim_end_cycle(&m), 12);
    assert_int_equal(sim_total_instructions(&m), 8);
    sim_destroy(&m);
}

/* The ISA takes the say and never halts the unit: after the restart's work (cycle 12)
 * nothing is left that could wake it, and the run ends on a deadlock, not a halt. */
static void test_isa_never_halts(void **state)
{
    (void)state;
    sim_machine m;
    hm_make(&m, "by_isa=1", "isa_halts=0");
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_DEADLOCK);
    assert_int_equal(m.units[0].halted, 0);
    assert_int_equal(sim_total_instructions(&m), 8);
    assert_int_equal(m.units[0].threads[0].halted_at, 12);
    sim_destroy(&m);
}

XPUSIM_TESTS(couple_halt,
             cmocka_unit_test(test_halts_with_last_thread),
             cmocka_unit_test(test_halts_when_isa_says),
             cmocka_unit_test(test_isa_never_halts))
