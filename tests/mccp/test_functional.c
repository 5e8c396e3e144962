/* tests/mccp/test_functional.c: the fast loop's records follow the ROM, the fast-forward
 * marker (the half 0x3FFF), the functional mode (-o timing=none), and the fast loop's
 * fused movl/movh record (split by a limit, remade after a ROM write, split by a breakpoint)
 * and the no-op fused with one (split by limits, remade after a ROM write).
 * Program (core 0, stack opened so every access is ordinary, phase 2):
 *   word 0: coreidx reg1 | marker     slots 0, 1
 *   word 1: load reg0 reg1 | mul reg0 reg0   slots 2, 3
 *   word 2: store reg0 reg1 | int 1          slots 4, 5
 * Cycle model, derived from the rules (docs/isa/mccp.md "Timing"): saves at 5 (coreidx),
 * 9 (marker), 13 (load: visible 14, pointer after edge t = (2 + t) % 4 = 0 at t = 14, so
 * G1 = 14, first transaction R1 = 18), 23 = R1 + 5 (mul), 27 (store: visible 28; after R1
 * the pointer is 0 and counts from 19: (t - 18) % 4 = 0 at 22, 26, 30, and 30 >= 28, so
 * G2 = 30, R2 = 33), int at 38. Check: 1 + 4*6 + (4 + 1) + 1 + (4 + 3) = 38.
 * Functional: every instruction one issue of 4 cycles from 5: the int saves at 25. */
#include "mccp_test.h"
#include "../../core/debug.h"

static void setup(tmach *t, const char *const *opts)
{
    uint32_t w[3] = {t_pair(t_spec(T_COREIDX, T_AL, 1), 0x3FFF), t_pair(t_load(T_AL, 0, 1), t_alu(T_MUL, T_AL, 0, 0)),
                     t_pair(t_store(T_AL, 0, 1), T_INT1)};
    tm_create(t, opts);
    tm_load(t, w, 3);
    tm_open_stack(t);
    tm_ram_set(t, 0, 7);
}

static const char *const cycle_opts[] = {"cores=0", NULL};
static const char *const func_opts[] = {"cores=0", "timing=none", NULL};
static const char *const func_wr_opts[] = {"cores=0", "timing=none", "warm_restart=1", NULL};
static const char *const cycle_wr_opts[] = {"cores=0", "warm_restart=1", NULL};

/* Without a fast-forward the marker is a no-op: 6 instructions, halt at 38, 7*7 stored. */
static void test_marker_is_a_noop(void **state)
{
    (void)state;
    tmach t;
    setup(&t, cycle_opts);
    tm_run_halt(&t, 1000);
    assert_int_equal(tm_halted_at(&t, 0), 38);
    assert_int_equal(t.m.units[0].threads[0].instructions, 6);
    assert_int_equal(tm_ram(&t, 0), 49);
    tm_destroy(&t);
}

/* Armed, the marker stops the run after it retires (cycle 9, slot 1, 2 instructions); the
 * run goes on from the next instruction with the same result and timing. */
static void test_marker_stops(void **state)
{
    (void)state;
    for (int func = 0; func < 2; func++) {
        tmach t;
        setup(&t, func ? func_opts : cycle_opts);
        t.m.ff_magic = 1;
        assert_int_equal(tm_run(&t, 1000), SIM_STOP_MARKER);
        assert_int_equal(t.m.stop.unit, 0);
        assert_int_equal(t.m.stop.pc, 1);
        assert_int_equal(t.m.stop.cycle, 9);
        assert_int_equal(t.m.units[0].threads[0].instructions, 2);
        assert_int_equal(tm_reg(&t, 0, "pc"), 2);
        tm_run_halt(&t, 1000);
        assert_int_equal(tm_halted_at(&t, 0), func ? 25 : 38);
        assert_int_equal(tm_ram(&t, 0), 49);
        tm_destroy(&t);
    }
}

/* Fast-forward: functional up to the marker, then the cycle model from the core's next
 * save edge (13), with the arbiter as after configuration: the same 38 as the plain run. */
static void test_fast_forward_switch(void **state)
{
    (void)state;
    tmach t;
    setup(&t, func_opts);
    t.m.ff_magic = 1;
    assert_int_equal(tm_run(&t, 1000), SIM_STOP_MARKER);
    assert_int_equal(sim_ff_switch(&t.m, "magic", 1), 0);
    assert_int_equal(t.m.functional, 0);
    tm_run_halt(&t, 1000);
    assert_int_equal(tm_halted_at(&t, 0), 38);
    assert_int_equal(t.m.units[0].threads[0].stalls[1], 0 + 2); /* arbiter_wait: G-E-1 = 14-13-1, 30-27-1 */
    assert_int_equal(tm_ram(&t, 0), 49);
    tm_destroy(&t);
}

/* The records follow the ROM: after the first pass every word has its record; word 1's
 * low half then becomes `add reg0 reg0` between two runs, and the warm restart's second
 * pass executes it: RAM[0] = 49 + 49, not 49 * 49. Both timing modes, fast loop and (with a
 * trace's hooks) the reference loop. The cycle model's first pass halts at 38 and restarts
 * at 43; the functional one halts at 25 and restarts at 30. */
static void test_rom_write_between_runs(void **state)
{
    (void)state;
    for (int k = 0; k < 4; k++) {
        tmach t;
        int func = k & 1, hooks = k >> 1;
        setup(&t, func ? func_wr_opts : cycle_wr_opts);
        if (hooks) {
            assert_int_equal(dbg_attach(&t.m), 0);
            t.m.dbg->history_on = 1;
            dbg_update_slow(&t.m);
        }
        assert_int_equal(tm_run(&t, func ? 27 : 40), SIM_STOP_LIMIT);
        assert_int_equal(tm_ram(&t, 0), 49);
        uint8_t b[4];
        uint32_t w1 = t_pair(t_load(T_AL, 0, 1), t_alu(T_ADD, T_AL, 0, 0));
        b[0] = (uint8_t)(w1 >> 24), b[1] = (uint8_t)(w1 >> 16), b[2] = (uint8_t)(w1 >> 8), b[3] = (uint8_t)w1;
        assert_int_equal(mem_host_write(sim_space(&t.m, "rom"), 2, b, 4), 0); /* slots 2, 3 */
        tm_run_halt(&t, 1000);
        assert_int_equal(tm_ram(&t, 0), 98);
        assert_int_equal(t.m.units[0].threads[0].instructions, 12);
        tm_destroy(&t);
    }
}

/* timing=none: RAM accesses at once, no stalls, 4 cycles an instruction. */
static void test_functional_counts(void **state)
{
    (void)state;
    tmach t;
    setup(&t, func_opts);
    tm_run_halt(&t, 1000);
    assert_int_equal(tm_halted_at(&t, 0), 25);
    const sim_thread *th = &t.m.units[0].threads[0];
    assert_int_equal(th->instructions, 6);
    assert_int_equal(th->issue_cycles, 24);
    assert_int_equal(th->stalls[0] + th->stalls[1] + th->stalls[2], 0);
    assert_int_equal(t.m.units[0].counters[4].value, 2); /* ram_transactions: the load and the store */
    assert_int_equal(tm_ram(&t, 0), 49);
    tm_destroy(&t);
}

/* A movl and a movh of one register in consecutive words run as one record in the fast loop
 * (isa/mccp/fast.c build_word); each is still one instruction of 4 cycles. Program (core 0,
 * stack opened): word 0 movl reg2 0xBEEF (saves at 5), word 1 movh reg2 0xCAFE (9), word 2
 * store reg2 reg1 (13; reg1 = 0) | int 1 (int clears the registers: the store keeps reg2).
 * A run through cycle 5 ends between the two: the movl alone, the movh at slot 2 next. */
static void setup_movi(tmach *t, const char *const *opts)
{
    uint32_t w[3] = {t_movl(T_AL, 2, 0xBEEF), t_movh(T_AL, 2, 0xCAFE), t_pair(t_store(T_AL, 2, 1), T_INT1)};
    tm_create(t, opts);
    tm_load(t, w, 3);
    tm_open_stack(t);
}

static void test_movl_movh_pair_split(void **state)
{
    (void)state;
    for (int func = 0; func < 2; func++) {
        tmach t;
        setup_movi(&t, func ? func_opts : cycle_opts);
        assert_int_equal(tm_run(&t, 5), SIM_STOP_LIMIT);
        assert_int_equal(tm_reg(&t, 0, "reg2"), 0xBEEFu);
        assert_int_equal(isa_mccp.pc_get(&t.m, 0, 0), 2);
        assert_int_equal(t.m.units[0].threads[0].instructions, 1);
        assert_int_equal(tm_run(&t, 9), SIM_STOP_LIMIT);
        assert_int_equal(tm_reg(&t, 0, "reg2"), 0xCAFEBEEFu);
        assert_int_equal(t.m.units[0].threads[0].instructions, 2);
        tm_run_halt(&t, 1000);
        assert_int_equal(tm_ram(&t, 0), 0xCAFEBEEFu);
        assert_int_equal(t.m.units[0].threads[0].instructions, 4);
        tm_destroy(&t);
    }
}

/* The pair's record holds the movh's immediate: a host write of word 1 alone between two
 * runs must remake it. With warm_restart=1: the first pass's int saves at 17 functionally
 * (4 instructions: 5 + 4 x 3) and at 23 in the cycle model (the store at 13 is visible at
 * 14, granted at 14 where the pointer (2 + t) mod 4 is 0, R1 = 18, the int at R1 + 5, as in
 * the header's program); the second pass starts 5 cycles after the halt (as in
 * test_rom_write_between_runs), so a run through halt + 2 ends between the passes. Word 1
 * becomes movh reg2 0x1234 there: the second pass stores 0x1234BEEF. */
static void test_movl_movh_pair_rom_write(void **state)
{
    (void)state;
    for (int func = 0; func < 2; func++) {
        tmach t;
        setup_movi(&t, func ? func_wr_opts : cycle_wr_opts);
        assert_int_equal(tm_run(&t, func ? 19 : 25), SIM_STOP_LIMIT);
        assert_int_equal(tm_ram(&t, 0), 0xCAFEBEEFu);
        assert_int_equal(t.m.units[0].threads[0].instructions, 4);
        uint32_t w1 = t_movh(T_AL, 2, 0x1234);
        uint8_t b[4] = {(uint8_t)(w1 >> 24), (uint8_t)(w1 >> 16), (uint8_t)(w1 >> 8), (uint8_t)w1};
        assert_int_equal(mem_host_write(sim_space(&t.m, "rom"), 2, b, 4), 0); /* word 1: slots 2, 3 */
        tm_run_halt(&t, 1000);
        assert_int_equal(tm_ram(&t, 0), 0x1234BEEFu);
        assert_int_equal(t.m.units[0].threads[0].instructions, 8);
        tm_destroy(&t);
    }
}

/* A breakpoint on the movh (slot 2) stops between the two: the movl has run (cycle 5), the
 * movh has not; the stop is at the movh's own save edge, 9. */
static void test_movl_movh_pair_breakpoint(void **state)
{
    (void)state;
    for (int func = 0; func < 2; func++) {
        tmach t;
        setup_movi(&t, func ? func_opts : cycle_opts);
        assert_int_equal(dbg_attach(&t.m), 0);
        assert_true(dbg_break_add(&t.m, 2, -1, 0, "movh") > 0);
        dbg_update_slow(&t.m);
        assert_int_equal(tm_run(&t, 1000), SIM_STOP_BREAK);
        assert_int_equal(t.m.stop.pc, 2);
        assert_int_equal(t.m.stop.cycle, 9);
        assert_int_equal(tm_reg(&t, 0, "reg2"), 0xBEEFu);
        assert_int_equal(t.m.units[0].threads[0].instructions, 1);
        dbg_break_delete(&t.m, -1);
        dbg_update_slow(&t.m);
        tm_run_halt(&t, 1000);
        assert_int_equal(tm_ram(&t, 0), 0xCAFEBEEFu);
        assert_int_equal(t.m.units[0].threads[0].instructions, 4);
        tm_destroy(&t);
    }
}

/* timing=none does a plain load or store inside the fast loop, but watched RAM goes through
 * the executor, whose access reports the watchpoint: a write watchpoint on ram:0 stops at
 * the store (slot 4, the fifth instruction: cycle 5 + 4 x 4 = 21) with RAM[0] written. */
static void test_functional_watchpoint(void **state)
{
    (void)state;
    tmach t;
    setup(&t, func_opts);
    assert_int_equal(dbg_attach(&t.m), 0);
    assert_true(mem_watch_add(sim_space(&t.m, "ram"), 0, 1, MEM_W) > 0);
    dbg_update_slow(&t.m);
    assert_int_equal(tm_run(&t, 1000), SIM_STOP_WATCH);
    assert_int_equal(t.m.stop.unit, 0);
    assert_int_equal(t.m.stop.pc, 4);
    assert_int_equal(t.m.stop.cycle, 21);
    assert_int_equal(tm_ram(&t, 0), 49);
    tm_run_halt(&t, 1000);
    assert_int_equal(tm_halted_at(&t, 0), 25);
    tm_destroy(&t);
}

/* The no-op that pads a high-half instruction before a 32-bit word, and a fused movl/movh
 * after it, are one record too (three issues). Program (core 0, stack opened): word 0 inc
 * reg3 (5) | addnv reg0 reg0 (9), word 1 movl reg2 0xBEEF (13), word 2 movh reg2 0xCAFE
 * (17), word 3 store reg2 reg1 (21) | int 1. Runs through 9 (one issue left at the
 * no-op), then 17; and through 13 (two left at the no-op, then one at the movl). */
static void setup_nopmovi(tmach *t, const char *const *opts)
{
    uint32_t w[4] = {t_pair(t_alu(T_INC, T_AL, 3, 0), T_NOP), t_movl(T_AL, 2, 0xBEEF), t_movh(T_AL, 2, 0xCAFE),
                     t_pair(t_store(T_AL, 2, 1), T_INT1)};
    tm_create(t, opts);
    tm_load(t, w, 4);
    tm_open_stack(t);
}

static void test_nop_movl_movh_split(void **state)
{
    (void)state;
    for (int k = 0; k < 4; k++) {
        tmach t;
        int func = k & 1;
        setup_nopmovi(&t, func ? func_opts : cycle_opts);
        if (k < 2) {
            assert_int_equal(tm_run(&t, 9), SIM_STOP_LIMIT);
            assert_int_equal(t.m.units[0].threads[0].instructions, 2);
            assert_int_equal(isa_mccp.pc_get(&t.m, 0, 0), 2);
            assert_int_equal(tm_reg(&t, 0, "reg2"), 0);
            assert_int_equal(tm_run(&t, 17), SIM_STOP_LIMIT);
            assert_int_equal(t.m.units[0].threads[0].instructions, 4);
            assert_int_equal(tm_reg(&t, 0, "reg2"), 0xCAFEBEEFu);
        } else {
            assert_int_equal(tm_run(&t, 13), SIM_STOP_LIMIT);
            assert_int_equal(t.m.units[0].threads[0].instructions, 3);
            assert_int_equal(isa_mccp.pc_get(&t.m, 0, 0), 4);
            assert_int_equal(tm_reg(&t, 0, "reg2"), 0xBEEFu);
        }
        tm_run_halt(&t, 1000);
        assert_int_equal(tm_ram(&t, 0), 0xCAFEBEEFu);
        assert_int_equal(tm_reg(&t, 0, "reg3"), 0); /* int cleared it */
        assert_int_equal(t.m.units[0].threads[0].instructions, 6);
        tm_destroy(&t);
    }
}

/* A host write of word 2 (the movh, two words after the no-op's record) between two runs
 * remakes the record of word 0. warm_restart=1: functionally the int saves at 25 (6
 * instructions); in the cycle model the store (21) is visible at 22, granted at 22 (the
 * pointer (2 + 22) mod 4 = 0), R1 = 26 (the first transaction), the int at R1 + 5 = 31; the
 * second pass starts 5 cycles after the halt, so runs through 27 and 33 end between the
 * passes. The second pass stores 0x1234BEEF. */
static void test_nop_movl_movh_rom_write(void **state)
{
    (void)state;
    for (int func = 0; func < 2; func++) {
        tmach t;
        setup_nopmovi(&t, func ? func_wr_opts : cycle_wr_opts);
        assert_int_equal(tm_run(&t, func ? 27 : 33), SIM_STOP_LIMIT);
        assert_int_equal(tm_ram(&t, 0), 0xCAFEBEEFu);
        assert_int_equal(t.m.units[0].threads[0].instructions, 6);
        uint32_t w2 = t_movh(T_AL, 2, 0x1234);
        uint8_t b[4] = {(uint8_t)(w2 >> 24), (uint8_t)(w2 >> 16), (uint8_t)(w2 >> 8), (uint8_t)w2};
        assert_int_equal(mem_host_write(sim_space(&t.m, "rom"), 4, b, 4), 0); /* word 2: slots 4, 5 */
        tm_run_halt(&t, 1000);
        assert_int_equal(tm_ram(&t, 0), 0x1234BEEFu);
        assert_int_equal(t.m.units[0].threads[0].instructions, 12);
        tm_destroy(&t);
    }
}

XPUSIM_TESTS(mccp_functional,
             cmocka_unit_test(test_marker_is_a_noop),
             cmocka_unit_test(test_marker_stops),
             cmocka_unit_test(test_fast_forward_switch),
             cmocka_unit_test(test_rom_write_between_runs),
             cmocka_unit_test(test_functional_counts),
             cmocka_unit_test(test_functional_watchpoint),
             cmocka_unit_test(test_movl_movh_pair_split),
             cmocka_unit_test(test_movl_movh_pair_rom_write),
             cmocka_unit_test(test_movl_movh_pair_breakpoint),
             cmocka_unit_test(test_nop_movl_movh_split),
             cmocka_unit_test(test_nop_movl_movh_rom_write))
