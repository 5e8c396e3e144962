/* tests/mccp/test_timing.c: MCCP cycle timing against hand derivations from the rules.
 * Rules (reference §2.3-2.4): cycle 1 is the dummy save, the k-th non-memory instruction
 * saves at 1 + 4k. A load/store saving at E requests from E+1; the arbiter pointer
 * increments at every idle edge (pointer after edge t = (phase + t) mod 4 while idle since
 * configuration; after a transaction answered at R by core p it is p and increments from
 * R+1), an idle edge whose new pointer names a requesting core is its grant G, the answer
 * is at R = G+3 (G+4 for the very first transaction), the core's next save is R+5. Stack
 * faults write 9 words, each continuing write requested from R+1. Every expected number
 * below is derived by hand in the comment above it. */
#include "mccp_test.h"

/* stalls: [0] memory, [1] arbiter_wait, [2] exception_dump */
static uint64_t stall(tmach *t, int core, int k) { return t->m.units[core].threads[0].stalls[k]; }

/* One store then int, core 0 only. Phase 2: E=5, request visible at 6, pointer after edge
 * 6 = (2+6)%4 = 0 -> G=6; first transaction R=G+4=10; int saves at R+5=15.
 * Formula: 1 + 4*2 + (4 + (G-E)) + 1 = 15. Phase 3: pointer (3+t)%4 = 0 at t=9 -> G=9,
 * R=13, int at 18 = 1 + 8 + (4+4) + 1. */
static void test_single_store_phases(void **state)
{
    (void)state;
    static const char *const p2[] = {"cores=0", "arbiter_phase=2", NULL};
    static const char *const p3[] = {"cores=0", "arbiter_phase=3", NULL};
    static const char *const p0[] = {"cores=0", "arbiter_phase=0", NULL};
    uint32_t w[] = {t_pair(t_store(T_AL, 1, 0), T_INT1)};
    struct { const char *const *o; uint64_t halt, wait; } c[] = {
        {p2, 15, 0}, {p3, 18, 3},
        /* phase 0: pointer t%4 = 0 at t=8 -> G=8, R=12, int 17 */
        {p0, 17, 2}};
    for (int i = 0; i < 3; i++) {
        tmach t;
        tm_create(&t, c[i].o);
        tm_load(&t, w, 1);
        tm_open_stack(&t);
        tm_set(&t, 0, "reg1", 0x1234);
        tm_set(&t, 0, "reg0", 77);
        tm_run_halt(&t, 1000);
        assert_int_equal(tm_halted_at(&t, 0), c[i].halt);
        assert_int_equal(tm_ram(&t, 77), 0x1234);
        assert_int_equal(stall(&t, 0, 1), c[i].wait);    /* G - E - 1 */
        assert_int_equal(stall(&t, 0, 0), 6);            /* R - G + 2, first transaction */
        tm_destroy(&t);
    }
}

/* load, add, store, int (phase 2, core 0). load: E=5, G=6, R=10 (first), next save 15 =
 * add; store saves at 19, visible 20; after R=10 the pointer is 0 and increments from 11:
 * pointer(t) = (t-10)%4 = 0 at t=22 -> G=22, R=25, int at 30.
 * Formula: 1 + 4*4 + (4+1) + 1 + (4+3) = 30. Stalls: arbiter 0 + 2, memory 6 + 5. */
static void test_load_use_store(void **state)
{
    (void)state;
    static const char *const o[] = {"cores=0", NULL};
    uint32_t w[] = {t_pair(t_load(T_AL, 2, 1), t_alu(T_ADD, T_AL, 2, 2)), t_pair(t_store(T_AL, 2, 3), T_INT1)};
    tmach t;
    tm_create(&t, o);
    tm_load(&t, w, 2);
    tm_open_stack(&t);
    tm_set(&t, 0, "reg1", 40);
    tm_set(&t, 0, "reg3", 41);
    tm_ram_set(&t, 40, 21);
    tm_run_halt(&t, 1000);
    assert_int_equal(tm_ram(&t, 41), 42);
    assert_int_equal(tm_halted_at(&t, 0), 30);
    assert_int_equal(stall(&t, 0, 1), 2);
    assert_int_equal(stall(&t, 0, 0), 11);
    assert_int_equal(t.m.units[0].threads[0].instructions, 4);
    assert_int_equal(t.m.units[0].threads[0].issue_cycles, 16);
    tm_destroy(&t);
}

/* 4 cores, each "store reg1,[reg0]; int" with reg0 = core. Phase 2: all request from 6.
 * t=6: pointer 0 -> core0 G=6, R=10 (first) -> core0 int at 15. Idle from 11: pointer 1 at
 * 11 -> core1 G=11, R=14 -> int 19. 15: pointer 2 -> core2 G=15, R=18 -> int 23. 19:
 * pointer 3 -> core3 G=19, R=22 -> int 27. (core1: 1 + 8 + (4 + 6) = 19.)
 * Phase 0: pointer t%4; t=6 -> 2: core2 G=6 R=10 -> 15; core3 G=11 R=14 -> 19; core0 G=15
 * R=18 -> 23; core1 G=19 R=22 -> 27. */
static void test_four_core_contention(void **state)
{
    (void)state;
    static const char *const p2[] = {"arbiter_phase=2", NULL};
    static const char *const p0[] = {"arbiter_phase=0", NULL};
    uint32_t w[] = {t_pair(t_store(T_AL, 1, 0), T_INT1)};
    static const uint64_t want2[4] = {15, 19, 23, 27}, want0[4] = {23, 27, 15, 19};
    for (int ph = 0; ph < 2; ph++) {
        tmach t;
        tm_create(&t, ph ? p0 : p2);
        tm_load(&t, w, 1);
        tm_open_stack(&t);
        for (int c = 0; c < 4; c++) {
            tm_set(&t, c, "reg0", (uint32_t)(100 + c));
            tm_set(&t, c, "reg1", (uint32_t)(1000 + c));
        }
        tm_run_halt(&t, 1000);
        for (int c = 0; c < 4; c++) {
            assert_int_equal(tm_halted_at(&t, c), ph ? want0[c] : want2[c]);
            assert_int_equal(tm_ram(&t, (uint32_t)(100 + c)), 1000u + (uint32_t)c);
        }
        assert_int_equal(sim_end_cycle(&t.m), 27);
        tm_destroy(&t);
    }
}

/* Cores 0 and 2 only, phase 2: both visible at 6; t=6 pointer 0 -> core0 G=6, R=10, int
 * 15. After R=10 pointer 0; 11 -> 1 (core1 disabled, no request), 12 -> 2 -> core2 G=12,
 * R=15, int 20 = 1 + 8 + (4 + 7). */
static void test_two_cores_pointer_passes(void **state)
{
    (void)state;
    static const char *const o[] = {"cores=0,2", NULL};
    uint32_t w[] = {t_pair(t_store(T_AL, 1, 0), T_INT1)};
    tmach t;
    tm_create(&t, o);
    tm_load(&t, w, 1);
    tm_open_stack(&t);
    tm_run_halt(&t, 1000);
    assert_int_equal(tm_halted_at(&t, 0), 15);
    assert_int_equal(tm_halted_at(&t, 2), 20);
    assert_false(t.m.units[1].enabled);
    assert_false(t.m.units[3].enabled);
    tm_destroy(&t);
}

/* Stack fault dump, core 0, phase 2. stack_begin 0x8000, own stack empty, sp 0x9000:
 * "store reg1,[reg0]" with reg0 = 0x8100 faults at E=5. Write 1 (stale data, 0): visible 6,
 * G1=6, R1=10 (first). Each next write is requested from R+1 with the pointer at 0 after R:
 * G = R+4, R' = G+3, so a period of 7: G2=14 R2=17, G3=21 R3=24, ... G9=63 R9=66. The core
 * continues at stack_exc_addr (word 2) with its next save at R9+5 = 71: "load reg1,[reg2]"
 * which, wren_exception being stuck, stores reg1 (RTL). E=71, visible 72, pointer 0 after
 * 66: (t-66)%4 = 0 at t=74 -> G=74, R=77; int (low half) at 82.
 * Check: 1 + 4*3 + [arbiter 0 + memory 6] + exception 56 + [arbiter 2 + memory 5] = 82. */
static void run_fault(tmach *t, const char *const *o)
{
    uint32_t w[] = {t_pair(t_store(T_AL, 1, 0), T_NOP), 0, t_pair(t_load(T_AL, 1, 2), T_INT1)};
    tm_create(t, o);
    tm_load(t, w, 3);
    tm_set(t, 0, "stack_begin", 0x8000);
    tm_set(t, 0, "sp", 0x9000);
    tm_set(t, 0, "stack_exc_addr", 2);
    tm_set(t, 0, "reg0", 0x8100);
    tm_set(t, 0, "reg1", 0xAAAA);
    tm_set(t, 0, "reg2", 0x10);
    tm_set(t, 0, "reg3", 3);
    tm_set(t, 0, "reg4", 4);
    tm_set(t, 0, "reg5", 5);
    tm_ram_set(t, 0x10, 0x5555);
}

static void test_stack_fault_dump_and_sticky_store(void **state)
{
    (void)state;
    static const char *const nostop[] = {"cores=0", "fault_stop=0", NULL};
    tmach t;
    run_fault(&t, nostop);
    tm_run_halt(&t, 1000);
    assert_int_equal(tm_halted_at(&t, 0), 82);
    static const uint32_t dump[9] = {0 /* stale */, 0x9001, 5, 4, 3, 0x10, 0xAAAA, 0x8100, 0x8100};
    for (int i = 0; i < 9; i++)
        assert_int_equal(tm_ram(&t, 0x9000u + (uint32_t)i), dump[i]);
    assert_int_equal(tm_ram(&t, 0x8100), 0); /* the faulting store was not performed */
    assert_int_equal(tm_ram(&t, 0x10), 0xAAAA); /* sticky wren: the load stored reg1 */
    assert_int_equal(stall(&t, 0, 2), 56);
    assert_int_equal(stall(&t, 0, 1), 2);
    assert_int_equal(stall(&t, 0, 0), 11);
    assert_int_equal(t.m.units[0].counters[2].value, 1); /* stack_faults */
    tm_destroy(&t);

    /* doc mode: the same dump and timing, but afterwards a load is a load */
    static const char *const doc[] = {"cores=0", "fault_stop=0", "semantics=doc", NULL};
    run_fault(&t, doc);
    tm_run_halt(&t, 1000);
    assert_int_equal(tm_halted_at(&t, 0), 82);
    assert_int_equal(tm_ram(&t, 0x10), 0x5555);
    assert_int_equal(tm_ram(&t, 0x9001), 0x9001);
    tm_destroy(&t);

    /* fault_stop (default): the run stops at the fault (cycle 5, slot 0) and resumes */
    static const char *const stop[] = {"cores=0", NULL};
    run_fault(&t, stop);
    assert_int_equal(tm_run(&t, 1000), SIM_STOP_FAULT);
    assert_int_equal(t.m.stop.cycle, 5);
    assert_int_equal(t.m.stop.pc, 0);
    assert_int_equal(t.m.stop.unit, 0);
    assert_non_null(strstr(t.m.stop.msg, "stack protection fault"));
    tm_run_halt(&t, 1000);
    assert_int_equal(tm_halted_at(&t, 0), 82);
    tm_destroy(&t);
}

/* Warm restart, core 0, phase 2: "int 1 | nop" with stack_begin = 0xFFFFFFFF (stack
 * registers survive int). Run 1: int at 5, in a high half, so ip = -1 with the low half
 * next. The restart pulse is seen at 6, the core stopped in state 0 (no dummy save): fetch
 * at 7, first save at 10: the low half of ROM word 8191, 0x0000 = load reg0,[reg0]. It is
 * the first transaction: visible 11, pointer (2+t)%4 = 0 at t=14 -> G=14, R=18, next save
 * 23: word 0 high, int -> halted at 23; 3 instructions in all. */
static void test_warm_restart(void **state)
{
    (void)state;
    static const char *const o[] = {"cores=0", "warm_restart=1", NULL};
    uint32_t w[] = {t_pair(T_INT1, T_NOP)};
    tmach t;
    tm_create(&t, o);
    tm_load(&t, w, 1);
    tm_open_stack(&t);
    tm_run_halt(&t, 1000);
    assert_int_equal(tm_halted_at(&t, 0), 23);
    assert_int_equal(t.m.units[0].threads[0].instructions, 3);
    assert_int_equal(t.m.units[0].counters[0].value, 1);
    tm_destroy(&t);
}

/* An assembled program with the default prologue, 4 cores, phase 2:
 *   coreidx reg1; load reg0 reg1; mul reg0 reg0; mul reg0 reg0; store reg0 reg1; int 1
 * The default stack_size prologue executes 55 instructions (47 + 8 alignment NOPs), so the
 * load is instruction 57 and saves at 1 + 4*57 = 229 on every core (visible 230).
 * 230: pointer (2+230)%4 = 0 -> core0 G=230, R=234 (first) -> core0 next save 239.
 * 235: pointer 1 -> core1 G=235 R=238 -> 243; 239: core2 G=239 R=242 -> 247; 243: core3
 * G=243 R=246 -> 251. Stores (two muls later): core0 E=247 visible 248; after R=246 the
 * pointer is 3: 247->0, 248->1, 249->2, 250->3, 251->0 -> G=251 R=254 -> int 259.
 * core1 E=251: idle from 255, pointer 0 after 254: 255->1 -> G=255 R=258 -> int 263.
 * core2 E=255: 259->2 -> G=259 R=262 -> int 267. core3 E=259: 263->3 -> G=263 R=266 -> 271. */
static void test_assembled_power4(void **state)
{
    (void)state;
    static const char src[] = "coreidx reg1\nload reg0 reg1\nmul reg0 reg0\nmul reg0 reg0\nstore reg0 reg1\nint 1\n";
    tmach t;
    uint32_t *w;
    size_t n;
    tm_create(&t, NULL);
    tm_asm(&t, src, &w, &n);
    for (uint32_t i = 0; i < 4; i++)
        tm_ram_set(&t, i, i + 2);
    tm_run_halt(&t, 100000);
    static const uint64_t want[4] = {259, 263, 267, 271};
    for (int c = 0; c < 4; c++) {
        uint32_t x = (uint32_t)c + 2;
        assert_int_equal(tm_ram(&t, (uint32_t)c), x * x * x * x);
        assert_int_equal(tm_halted_at(&t, c), want[c]);
        assert_int_equal(t.m.units[c].threads[0].instructions, 61);
    }
    free(w);
    tm_destroy(&t);
}

/* A run limit stops inside a stall, and continuing gives the same result as one run. */
static void test_limit_and_resume(void **state)
{
    (void)state;
    static const char src[] = "coreidx reg1\nload reg0 reg1\nmul reg0 reg0\nmul reg0 reg0\nstore reg0 reg1\nint 1\n";
    tmach t;
    uint32_t *w;
    size_t n;
    tm_create(&t, NULL);
    tm_asm(&t, src, &w, &n);
    for (uint64_t c = 50; c < 300; c += 37)
        assert_true(tm_run(&t, c) == SIM_STOP_LIMIT || t.m.stop.kind == SIM_STOP_HALT);
    tm_run_halt(&t, 100000);
    assert_int_equal(tm_halted_at(&t, 3), 271);
    free(w);
    tm_destroy(&t);
}

XPUSIM_TESTS(mccp_timing,
             cmocka_unit_test(test_single_store_phases),
             cmocka_unit_test(test_load_use_store),
             cmocka_unit_test(test_four_core_contention),
             cmocka_unit_test(test_two_cores_pointer_passes),
             cmocka_unit_test(test_stack_fault_dump_and_sticky_store),
             cmocka_unit_test(test_warm_restart),
             cmocka_unit_test(test_assembled_power4),
             cmocka_unit_test(test_limit_and_resume))
