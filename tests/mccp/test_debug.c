/* tests/mccp/test_debug.c: MCCP under the debugger hooks (m->slow).
 * With any debugger feature on, cores run only up to the horizon and call the hooks; the
 * cycle counts must not change. Breakpoints (16-bit slot addresses), single steps, RAM
 * watchpoints (hit at the arbiter's grant) and the thread-state/info views are checked on
 * the power-4 program of test_timing.c, whose cycles are derived there:
 * core c stores at save edge 247 + 4c and halts at 259 + 4c. */
#include "mccp_test.h"
#include "../../core/debug.h"

static const char src[] = "coreidx reg1\nload reg0 reg1\nmul reg0 reg0\nmul reg0 reg0\nstore reg0 reg1\nint 1\n";

static void setup(tmach *t)
{
    uint32_t *w;
    size_t n;
    tm_create(t, NULL);
    tm_asm(t, src, &w, &n);
    free(w);
    for (uint32_t i = 0; i < 4; i++)
        tm_ram_set(t, i, i + 2);
}

static void test_slow_path_same_cycles(void **state)
{
    (void)state;
    tmach t;
    setup(&t);
    assert_int_equal(dbg_attach(&t.m), 0);
    t.m.dbg->history_on = 1;
    dbg_update_slow(&t.m);
    assert_true(t.m.slow);
    tm_run_halt(&t, 100000);
    for (int c = 0; c < 4; c++)
        assert_int_equal(tm_halted_at(&t, c), 259u + 4u * (unsigned)c);
    assert_int_equal(tm_ram(&t, 3), 625);
    tm_destroy(&t);
}

/* The default prologue is 77 slots; the body follows: coreidx 77, load 78, mul 79, mul 80,
 * store 81, int 82. */
static void test_breakpoints_and_steps(void **state)
{
    (void)state;
    tmach t;
    setup(&t);
    int id = dbg_break_add(&t.m, 81, -1, 0, "store");
    assert_true(id > 0);
    for (int c = 0; c < 4; c++) {
        assert_int_equal(tm_run(&t, 100000), SIM_STOP_BREAK);
        assert_int_equal(t.m.stop.unit, c);
        assert_int_equal(t.m.stop.pc, 81);
        assert_int_equal(isa_mccp.pc_get(&t.m, c, 0), 81);
        assert_int_equal(t.m.stop.cycle, 247u + 4u * (unsigned)c);
        char buf[160];
        isa_mccp.thread_state(&t.m, c, 0, buf, sizeof buf);
        assert_non_null(strstr(buf, "running"));
    }
    dbg_break_delete(&t.m, -1);
    dbg_update_slow(&t.m);
    /* core 3 now executes its store and sleeps until the arbiter answers */
    dbg_step(&t.m, 3, 0, 1);
    assert_int_equal(tm_run(&t, 100000), SIM_STOP_STEP);
    char buf[160];
    isa_mccp.thread_state(&t.m, 3, 0, buf, sizeof buf);
    assert_non_null(strstr(buf, "storing to ram:0x3"));
    char *info = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&info, &len);
    assert_int_equal(isa_view_find(&isa_mccp, "arbiter")->show(&t.m, -1, f), 0);
    assert_int_equal(isa_view_find(&isa_mccp, "stack")->show(&t.m, -1, f), 0);
    assert_null(isa_view_find(&isa_mccp, "nonsense"));
    fclose(f);
    assert_non_null(strstr(info, "pointer"));
    assert_non_null(strstr(info, "own stack [0xfc17, 0xffff)")); /* core 3: 64535..65535 */
    free(info);
    tm_run_halt(&t, 100000);
    for (int c = 0; c < 4; c++)
        assert_int_equal(tm_halted_at(&t, c), 259u + 4u * (unsigned)c);
    tm_destroy(&t);
}

/* A write watchpoint on ram:2 fires when core 2's store is granted (cycle 259). */
static void test_ram_watchpoint(void **state)
{
    (void)state;
    tmach t;
    setup(&t);
    assert_int_equal(dbg_attach(&t.m), 0);
    assert_true(mem_watch_add(sim_space(&t.m, "ram"), 2, 1, MEM_W) > 0);
    dbg_update_slow(&t.m);
    assert_int_equal(tm_run(&t, 100000), SIM_STOP_WATCH);
    assert_int_equal(t.m.stop.unit, 2);
    assert_int_equal(t.m.stop.cycle, 259);
    assert_int_equal(tm_ram(&t, 2), 256);
    tm_run_halt(&t, 100000);
    assert_int_equal(tm_halted_at(&t, 3), 271);
    tm_destroy(&t);
}

/* Registers through the debugger interface: pc is the slot, writable. */
static void test_registers(void **state)
{
    (void)state;
    tmach t;
    setup(&t);
    assert_int_equal(tm_reg(&t, 0, "pc"), 0);
    tm_set(&t, 1, "pc", 7);
    assert_int_equal(tm_reg(&t, 1, "ip"), 3);
    assert_int_equal(tm_reg(&t, 1, "half"), 1);
    tm_set(&t, 1, "pc", 0);
    tm_set(&t, 0, "flags", 0xFF);
    assert_int_equal(tm_reg(&t, 0, "flags"), 15);
    assert_true(isa_reg_find(&isa_mccp, "stack_exc_addr") >= 0);
    assert_int_equal(isa_reg_find(&isa_mccp, "reg9"), -1);
    tm_destroy(&t);
}

XPUSIM_TESTS(mccp_debug,
             cmocka_unit_test(test_slow_path_same_cycles),
             cmocka_unit_test(test_breakpoints_and_steps),
             cmocka_unit_test(test_ram_watchpoint),
             cmocka_unit_test(test_registers))
