/* tests/unit/test_group.c: groups > units > threads (issue 11 pt 1) on the fake ISA.
 * A machine built as the IPU and CERT build theirs: group "chip" holding group "big" (two
 * units of four threads at 1 GHz) and group "little" (one unit of two threads at 500 MHz,
 * added by a second sim_add_units_in call, which moves the units array), plus units of
 * their own memories beyond the old limit of 16 spaces. The tests check the topology (paths,
 * lookups, refusals), that each group's units run with their own thread counts and that
 * the statistics' group subtotals add up to the units' counts, each group's time at its
 * own clock. Every expected count is derived by hand from the fake ISA's rules
 * (tests/unit/fake_isa.h: one issue per unit per cycle, round robin, lat 1). */
#include "../testlib.h"
#include "fake_isa.h"
#include "../../core/runctl.h"

#define GRP_INSNS 10

/* The fake ISA's create, with the topology above instead of one flat set of units. */
static int grp_create(sim_machine *m, char *err, size_t errlen)
{
    fake_machine *fm = calloc(1, sizeof *fm);
    if (!fm)
        return -1;
    m->isa_state = fm;
    fm->m = m;
    fm->lat = 1;
    fm->long_at = fm->fault_unit = fm->kill_unit = UINT64_MAX;
    fm->long_lat = 1;
    sim_group *chip = sim_add_group(m, "chip", NULL);
    int chip_i = chip ? chip->index : -1;
    sim_group *big = chip ? sim_add_group(m, "big", chip) : NULL;
    if (!big || sim_add_units_in(m, big, 2, 4, "core%d", 1e9))
        return snprintf(err, errlen, "big group"), -1;
    /* chip may have moved with the second sim_add_group: found again by index */
    sim_group *little = sim_add_group(m, "little", &m->groups[chip_i]);
    if (!little || sim_add_units_in(m, little, 1, 2, "core%d", 500e6))
        return snprintf(err, errlen, "little group"), -1;
    mem_space *code = sim_add_space(m, "code", 1, 4, 0);
    fm->data = sim_add_space(m, "data", 1, 4, 0);
    if (!code || !fm->data || !mem_add_ram(code, "rom", FAKE_CODE_BASE, 4 * FAKE_CODE_WORDS, MEM_R | MEM_X) ||
        !mem_add_ram(fm->data, "ram", 0x100, 0x100, MEM_RW))
        return snprintf(err, errlen, "spaces"), -1;
    for (uint32_t k = 0; k < FAKE_CODE_WORDS; k++)
        mem_host_write(code, FAKE_CODE_BASE + 4 * k, &k, 4);
    fm->units = calloc((size_t)m->nunits, sizeof *fm->units);
    if (!fm->units)
        return -1;
    for (int i = 0; i < m->nunits; i++) { /* pointers into m->units after the last add */
        sim_unit *u = &m->units[i];
        fake_unit *fu = &fm->units[i];
        fu->u = u;
        fu->ninsn = GRP_INSNS;
        u->isa = fu;
        if (sim_register_event(m, &fu->wake, "fake-wake", fake_wake_fn, fu, 1))
            return -1;
        for (int t = 0; t < u->nthreads; t++)
            sched_start(u, t, 0);
        /* eight local memories per unit, 24 in all: more than the old SIM_MAX_SPACES */
        for (int k = 0; k < 8; k++) {
            char name[16], label[40];
            snprintf(name, sizeof name, "lm%d", k);
            snprintf(label, sizeof label, "lm%d.%d", k, i);
            mem_space *s = sim_unit_add_space(m, u, name, label, 1, 4, 0);
            if (!s || !mem_add_ram(s, "lm", 0, 64, MEM_RW))
                return snprintf(err, errlen, "unit space"), -1;
        }
    }
    return 0;
}

static const isa_ops grp_isa = {
    .name = "fake-groups",
    .description = "unit-test ISA with groups",
    .stall_names = fake_stalls,
    .create = grp_create,
    .destroy = fake_destroy,
    .unit_run = fake_unit_run,
    .pc_get = fake_pc_get,
    .code_space = "code",
    .disasm = fake_disasm,
};

static void grp_make(sim_machine *m)
{
    char err[256] = "";
    if (sim_create(m, &grp_isa, NULL, err, sizeof err))
        fail_msg("sim_create: %s", err);
}

static void test_group_topology(void **state)
{
    (void)state;
    sim_machine m;
    grp_make(&m);
    assert_int_equal(m.ngroups, 3);
    assert_int_equal(m.nunits, 3);
    char buf[128];
    assert_string_equal(sim_group_path(&m, 1, buf, sizeof buf), "chip.big");
    assert_string_equal(sim_group_path(&m, 2, buf, sizeof buf), "chip.little");
    assert_string_equal(sim_unit_path(&m, 1, buf, sizeof buf), "chip.big.core1");
    assert_string_equal(sim_unit_path(&m, 2, buf, sizeof buf), "chip.little.core0");
    assert_int_equal(m.groups[1].depth, 1);
    assert_int_equal(m.groups[2].parent, 0);
    /* thread counts and clocks per group */
    assert_int_equal(m.units[0].nthreads, 4);
    assert_int_equal(m.units[2].nthreads, 2);
    assert_true(m.units[2].clock_hz == 500e6 && m.groups[2].clock_hz == 500e6 && m.groups[1].threads == 4);
    /* lookups: a path, an index, a bare name only when unique (core0 is in both groups) */
    assert_int_equal(sim_find_unit(&m, "chip.little.core0"), 2);
    assert_int_equal(sim_find_unit(&m, "chip.big.core1"), 1);
    assert_int_equal(sim_find_unit(&m, "core1"), 1);
    assert_int_equal(sim_find_unit(&m, "core0"), -1);
    assert_int_equal(sim_find_unit(&m, "2"), 2);
    assert_int_equal(sim_find_unit(&m, "3"), -1);
    assert_int_equal(sim_find_unit(&m, "chip.big"), -1);
    assert_ptr_equal(sim_find_group(&m, "chip.little"), &m.groups[2]);
    assert_null(sim_find_group(&m, "little"));
    assert_true(sim_unit_in_group(&m, 2, 0) && sim_unit_in_group(&m, 2, 2) && !sim_unit_in_group(&m, 2, 1));
    /* refused: a sibling of the same name, names a path could not carry, a taken unit */
    assert_null(sim_add_group(&m, "big", &m.groups[0]));
    assert_null(sim_add_group(&m, "a.b", NULL));
    assert_null(sim_add_group(&m, "a:b", NULL));
    assert_null(sim_add_group(&m, "", NULL));
    sim_group *g = sim_add_group(&m, "big", NULL); /* the same name elsewhere is another path */
    assert_non_null(g);
    assert_int_equal(sim_group_take_units(&m, g, 0, 1), -1);
    assert_int_equal(sim_group_take_units(&m, g, 2, 5), -1);
    /* the units' run events point at the units where they are now (the array moved) */
    for (int i = 0; i < m.nunits; i++)
        assert_ptr_equal(m.units[i].ev.ctx, &m.units[i]);
    sim_destroy(&m);
}

static void test_group_spaces(void **state)
{
    (void)state;
    sim_machine m;
    grp_make(&m);
    /* 2 shared + 24 of the units' own: no fixed limit, each found by every name it has */
    mem_space *s = sim_unit_space(&m, 2, "lm7");
    assert_non_null(s);
    assert_string_equal(s->name, "lm7.2");
    assert_ptr_equal(sim_space(&m, "lm7.2"), s);
    assert_ptr_equal(sim_space(&m, "lm7@chip.little.core0"), s);
    assert_ptr_equal(sim_space(&m, "lm7@2"), s);
    assert_ptr_not_equal(sim_unit_space(&m, 1, "lm7"), s);
    assert_null(sim_space(&m, "lm8.2"));
    assert_null(sim_space(&m, "lm7@core0")); /* ambiguous unit */
    /* shared spaces still win for names they have; a unit falls back to them */
    assert_ptr_equal(sim_unit_space(&m, 2, "data"), sim_space(&m, "data"));
    /* a unit's space name is unique within the unit; a label must begin with the name */
    assert_null(sim_unit_add_space(&m, &m.units[0], "lm0", NULL, 1, 4, 0));
    assert_null(sim_unit_add_space(&m, &m.units[0], "x", "y.0", 1, 4, 0));
    /* written and read back through the space found by path (freed by sim_destroy: ASan) */
    uint32_t v = 0x1234, r = 0;
    assert_int_equal(mem_write(sim_space(&m, "lm3@chip.big.core1"), 8, 4, v), 0);
    assert_int_equal(mem_host_read(sim_unit_space(&m, 1, "lm3"), 8, &r, 4), 0);
    assert_int_equal(r, v);
    sim_destroy(&m);
}

/* Each group at its thread count; subtotals add up; time at the group's clock. */
static void test_group_run_stats(void **state)
{
    (void)state;
    sim_machine m;
    grp_make(&m);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    /* a unit of T threads of N = 10 instructions, one issue per cycle from cycle 0, round
     * robin: T*N issues at cycles 0..T*N-1, the last thread halts at T*N. big: T = 4, 40;
     * little: T = 2, 20. */
    assert_int_equal(m.units[0].halted_at, 40);
    assert_int_equal(m.units[1].halted_at, 40);
    assert_int_equal(m.units[2].halted_at, 20);
    /* wait stalls of thread t: t before its first issue, then T-1 before each of the other
     * N-1 (ready at c+1, issues at c+T): sum T(T-1)/2 + T(N-1)(T-1); big 6 + 108 = 114 per
     * unit, 228 for the group; little 1 + 18 = 19; chip 247 */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    stats_write_json(&m, f);
    fclose(f);
    const char *g = strstr(buf, "  \"groups\": [");
    assert_non_null(g);
    assert_non_null(strchr(g, '\n'));
    /* the chip: three units, the last ends at 40, 80 + 20 instructions */
    assert_non_null(strstr(g, "{\"name\": \"chip\", \"path\": \"chip\", \"index\": 0, \"threads_per_unit\": 0, "
                              "\"clock_hz\": 0, \"units\": [], \"enabled_units\": 3, \"cycles\": 40, \"seconds\": 0, "
                              "\"instructions\": 100, \"issue_cycles\": 100, \"stalls\": {\"wait\": 247, \"other\": 0}"));
    /* big at 1 GHz: 40 cycles = 4e-08 s; little at 500 MHz: 20 cycles = 4e-08 s too */
    assert_non_null(strstr(g, "{\"name\": \"big\", \"path\": \"chip.big\", \"index\": 1, \"threads_per_unit\": 4, "
                              "\"clock_hz\": 1000000000, \"units\": [0, 1], \"enabled_units\": 2, \"cycles\": 40, "
                              "\"seconds\": 4e-08, \"instructions\": 80, \"issue_cycles\": 80, "
                              "\"stalls\": {\"wait\": 228, \"other\": 0}"));
    assert_non_null(strstr(g, "{\"name\": \"little\", \"path\": \"chip.little\", \"index\": 2, \"threads_per_unit\": 2, "
                              "\"clock_hz\": 500000000, \"units\": [2], \"enabled_units\": 1, \"cycles\": 20, "
                              "\"seconds\": 4e-08, \"instructions\": 20, \"issue_cycles\": 20, "
                              "\"stalls\": {\"wait\": 19, \"other\": 0}"));
    /* the tree: little is inside chip's "groups" */
    assert_true(strstr(g, "\"path\": \"chip.little\"") > strstr(g, "\"path\": \"chip\""));
    free(buf);
    buf = NULL;
    f = open_memstream(&buf, &len);
    stats_write_text(&m, f);
    fclose(f);
    assert_non_null(strstr(buf, "\ngroup chip: units 3, cycles 40, instructions 100, issue cycles 100, "
                                "stall wait 247\n"));
    assert_non_null(strstr(buf, "\n  group chip.little: units 1 (2 threads each, 500 MHz), cycles 20 (0.000000 s), "
                                "instructions 20, issue cycles 20, stall wait 19\n"));
    free(buf);
    sim_destroy(&m);
}

/* Images per group or unit: a unit's own, else its nearest group's, else the machine's. */
static void test_group_images(void **state)
{
    (void)state;
    sim_machine m;
    grp_make(&m);
    ld_image prog, chip, big, tile;
    memset(&prog, 0, sizeof prog);
    assert_null(sim_unit_image(&m, 0));
    assert_int_equal(sim_set_image(&m, "", &prog), 0);
    assert_ptr_equal(m.image, &prog);
    assert_ptr_equal(sim_unit_image(&m, 2), &prog);
    assert_int_equal(sim_set_image(&m, "chip", &chip), 0);
    assert_ptr_equal(sim_unit_image(&m, 0), &chip);
    assert_ptr_equal(sim_unit_image(&m, 2), &chip);
    assert_int_equal(sim_set_image(&m, "chip.big", &big), 0);
    assert_int_equal(sim_set_image(&m, "chip.little.core0", &tile), 0);
    assert_ptr_equal(sim_unit_image(&m, 0), &big);
    assert_ptr_equal(sim_unit_image(&m, 1), &big);
    assert_ptr_equal(sim_unit_image(&m, 2), &tile);
    assert_ptr_equal(sim_unit_image(&m, -1), &prog);
    assert_int_equal(sim_set_image(&m, "chip.nosuch", &tile), -1);
    assert_int_equal(sim_set_image(&m, "core0", &tile), -1); /* two units have that name */
    sim_destroy(&m);
}

/* A flat machine (no groups) writes no "groups" member and no group lines: its output is
 * what it was before groups. */
static void test_group_flat_unchanged(void **state)
{
    (void)state;
    sim_machine m;
    fake_make(&m, &fake_isa, (const char *const[]){"units=2", "threads=2", NULL});
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    stats_write_json(&m, f);
    stats_write_text(&m, f);
    fclose(f);
    assert_null(strstr(buf, "groups"));
    assert_null(strstr(buf, "group "));
    char path[64];
    assert_string_equal(sim_unit_path(&m, 1, path, sizeof path), "fake1");
    assert_int_equal(sim_find_unit(&m, "fake1"), 1);
    free(buf);
    sim_destroy(&m);
}

/* Breakpoints and watchpoints narrowed to a group (dbg_break_group, dbg_watch_group): a unit
 * of T threads issues thread t's instruction k at cycle t + T k (one issue per cycle, round
 * robin from cycle 0), so instruction 3 of thread 0 (FAKE_CODE_BASE + 12) comes at cycle 6
 * on chip.little (T = 2) and at 12 on chip.big's units (T = 4): a breakpoint there for
 * group big lets little pass at 6 and stops unit 0 (the first of big's two at 12) at 12.
 * With stores (instruction k of thread t writes k to data:0x100 + 4t), every unit's thread
 * 0 writes data:0x100 at cycle 0, big's first: a watch on it for group little stops on
 * unit 2's write, the hits of units 0 and 1 passed over by the run control. */
static void test_group_break_watch(void **state)
{
    (void)state;
    sim_machine m;
    grp_make(&m);
    const sim_group *big = sim_find_group(&m, "chip.big"), *little = sim_find_group(&m, "chip.little");
    assert_non_null(big);
    assert_non_null(little);
    int id = dbg_break_add(&m, FAKE_CODE_BASE + 12, -1, 0, "k3");
    assert_true(id > 0);
    assert_int_equal(dbg_break_group(&m, id, big->index), 0);
    assert_int_equal(dbg_break_group(&m, id + 100, big->index), -1);
    assert_int_equal(m.dbg->brk[0].group, 1);
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_BREAK);
    assert_int_equal(m.stop.unit, 0);
    assert_int_equal(m.stop.thread, 0);
    assert_int_equal(m.stop.pc, FAKE_CODE_BASE + 12);
    assert_int_equal(m.units[0].last_issue, 12);
    assert_true(m.units[2].threads[0].instructions > 3); /* little went past it */
    assert_int_equal(m.dbg->brk[0].hits, 1);
    sim_destroy(&m);

    grp_make(&m);
    ((fake_machine *)m.isa_state)->store = 1;
    runctl rc;
    runctl_init(&rc, &m, 0);
    mem_space *d = sim_space(&m, "data");
    int w = dbg_watch_add(&m, d, 0x100, 4, MEM_W, -1, -1, NULL);
    assert_true(w > 0);
    assert_int_equal(dbg_watch_group(&m, d, w, sim_find_group(&m, "chip.little")->index), 0);
    assert_int_equal(dbg_watch_group(&m, d, w + 100, 0), -1);
    assert_int_equal(dbg_watch_find(&m, d, w)->group, 2);
    assert_int_equal(runctl_continue(&rc), SIM_STOP_WATCH);
    assert_int_equal(m.stop.unit, 2);
    assert_int_equal(m.stop.thread, 0);
    assert_int_equal(m.units[2].last_issue, 0);
    assert_int_equal(m.units[0].threads[0].instructions, 1); /* its write passed over */
    sim_destroy(&m);
}

XPUSIM_TESTS(group, cmocka_unit_test(test_group_topology), cmocka_unit_test(test_group_spaces),
             cmocka_unit_test(test_group_run_stats), cmocka_unit_test(test_group_images),
             cmocka_unit_test(test_group_flat_unchanged), cmocka_unit_test(test_group_break_watch))
