/* tests/nyuzi/test_bus_order.c: the memory model serves line reads in the order the
 * requests reach the L2 (isa/nyuzi/timing.c bus_log), not in the order the model executes
 * them, and a request for a line whose read is in flight is a collided miss restarted after
 * it. The requests are made as the pipeline makes them (nyz_mem_timing at a load's issue,
 * nyz_fill_latency when ifetch_data sees a code-line miss at D, with the request time
 * D + 3 that pipeline.c's icache_fill passes); the expected cycles are derived by hand from
 * the RTL's rules, in each test:
 * - a data miss issued at t reaches the L2 at t + 3 (the data stage's miss goes into
 *   l1_load_miss_queue.sv, whose entry is valid the next cycle), a code line seen by
 *   ifetch_data at D at D + 2 in the model's time (the model's ifetch_data runs one cycle
 *   later than the RTL's relative to issue: RTL trace of llsc.c1t2, ifetch miss at 363,
 *   L2 request at 364, the model's at 366 with the loads issued 2 cycles later than the
 *   RTL's); so a data request's bus time is t + 6 and a code line's D + 3, and the L2's fill
 *   FIFO (l2_axi_bus_interface.sv) takes them in that order;
 * - an uncontended line read: bus time b, the SDRAM opens the closed bank's row (2 cycles,
 *   timing.c SD_ACT), the bus is busy 28 cycles (mem_interval), a code line arrives
 *   b + 2 + 45 (mem_latency), a data line 3 cycles sooner for the bus time t + 6, so at
 *   t + 2 + 42 (DMEM_LEAD); the load's thread replays the cycle before its data;
 * - a line read restarts its request 28 cycles after its bus time plus the SDRAM's extra
 *   (RTL trace: address phase at bus time + 3, restart 25 later); a collided miss restarts
 *   2 cycles after the restart before it in the FIFO and its data comes as a read's would:
 *   17 cycles after the restart for a code line, 17 - 3 - 6 for data (lead and bus).
 * The SDRAM's first refresh (cycle 743) and its start-up (cycle 17) are far from the
 * cycles used here. */
#include "l2_rig.h"

/* bank = address bits 11:10: the data line in bank 0, the code line in bank 1 */
enum { DATA = 0x10000, CODE = 0x20400 };

static void rig_make(rig *r, const char *cores) { rig_open(r, (const char *const[]){cores, NULL}); }

/* Thread tid of core k issues a load of pa at cycle at, as the pipeline does: returns the
 * cycle it is suspended until (blocked). */
static uint64_t load(rig *r, int k, int tid, uint32_t pa, uint64_t at)
{
    return rig_access(r, k, tid, K_LOAD, 1, pa, at);
}

/* A code line seen by ifetch_data at D: its latency from the request time D + 3. */
static unsigned code(rig *r, uint32_t pa, uint64_t d)
{
    return nyz_fill_latency(r->nm, pa, 0, d + 3, 0, 0);
}

/* A load issued at 100 (bus time 106) alone: the data at 100 + 2 + 42 = 144, the thread
 * replays at 143. */
static void test_load_alone(void **state)
{
    (void)state;
    rig r;
    rig_make(&r, "cores=1");
    assert_int_equal(load(&r, 0, 0, DATA, 100), 143);
    sim_destroy(&r.m);
}

/* The load at 100 (bus time 106), then a code line seen at D = 102 (bus time 105): the code
 * line reached the L2 first, so it is read first: bus 105..135 (105 + 2 + 28), arriving at
 * 105 + 2 + 45 = 152 (47 after its request time 105). The load's read follows at 135: its
 * data at 135 - 6 + 2 + 42 = 173, the thread replays at 172 (it was 143 when it issued),
 * and its L1D fill moves with it. In execution order the code line would have waited for
 * the load's read (bus free at 136: 136 + 2 + 45 - 105 = 78). */
static void test_code_line_goes_first(void **state)
{
    (void)state;
    rig r;
    rig_make(&r, "cores=1");
    assert_int_equal(load(&r, 0, 0, DATA, 100), 143);
    assert_int_equal(code(&r, CODE, 102), 47);
    assert_int_equal(r.nm->cores[0].t[0].blocked, 172);
    uint64_t at = 0;
    assert_int_equal(nyz_l1_fill_pending(&r.nm->cores[0].l1d, DATA, &at), 1);
    assert_int_equal(at, 173);
    sim_destroy(&r.m);
}

/* The same with the code line seen at D = 103: bus time 106, the load's; at one cycle the
 * L1-L2 interface sends the data cache's request before the instruction cache's
 * (l1_l2_interface.sv), so the load keeps the bus (106..136) and its replay 143, and the
 * code line reads at 136: 136 + 2 + 45 - 106 = 77. */
static void test_tie_keeps_data_first(void **state)
{
    (void)state;
    rig r;
    rig_make(&r, "cores=1");
    assert_int_equal(load(&r, 0, 0, DATA, 100), 143);
    assert_int_equal(code(&r, CODE, 103), 77);
    assert_int_equal(r.nm->cores[0].t[0].blocked, 143);
    sim_destroy(&r.m);
}

/* Core 0's thread 0 loads DATA at 100 (read at bus time 106, restart 106 + 2 + 28 = 136,
 * data 144) and core 1's thread 0 loads it at `at`:
 * - at 101 (bus time 107: before the restart + 4, a collided miss): restarted 2 cycles after
 *   136, at 138, its data 138 + 17 - 9 = 146 (a code line's 17 after the restart, a data
 *   line's 3 + 6 sooner), its replay 145. Had it been an L2 hit, 101 + 11 = 112.
 * - at 131 (bus time 137, still before 136 + 4): no sooner than 2 cycles after its own entry
 *   into the fill FIFO at its bus time either (the bus interface sees the entry the cycle
 *   after and restarts it the next; RTL trace, kernel on 2 cores: core 1's code line taken
 *   at 591, enqueued at 594 as a collided miss of core 0's line, whose read restarted at
 *   592, restarted at 596, not 594): max(136 + 2, 137 + 2) = 139, data 147, replay 146. */
static void collided(uint64_t at, uint64_t want)
{
    rig r;
    rig_make(&r, "cores=2");
    assert_int_equal(load(&r, 0, 0, DATA, 100), 143);
    assert_int_equal(load(&r, 1, 0, DATA, at), want);
    sim_destroy(&r.m);
}

static void test_collided_miss(void **state)
{
    (void)state;
    collided(101, 145);
    collided(131, 146);
}

/* Whole-line stores to lines the L2 lacks read nothing: each is restarted from the fill FIFO
 * (RTL trace: request, FILLQ + 1, restart + 5, response + 9, acknowledgement + 12 = the
 * model's store issue + 15), one restart per 2 cycles in FIFO order (trace of vstream.c1t4:
 * FILLQ at X and X + 1, restarts at X + 2 and X + 4, responses at X + 6 and X + 8). The
 * L1-L2 interface sends one request a cycle, so thread 1's store issued a cycle after
 * thread 0's reaches the L2 a cycle later. Thread 0 at 100: restart 108, acknowledged 115;
 * thread 1 at 101: restart max(109, 108 + 2) = 110, acknowledged 117 (with the 4-cycle
 * spacing of L2 hits it would be 104 + 15 = 119). store_done is the acknowledgement less
 * NYZ_SQ_AHEAD (the first cycle the thread's next store-queue operation is taken). */
static void test_whole_line_restarts(void **state)
{
    (void)state;
    rig r;
    rig_make(&r, "cores=1");
    nyz_core *c = &r.nm->cores[0];
    nyz_store_timing(r.nm, c, &c->t[0], DATA, 1, 100);
    nyz_store_timing(r.nm, c, &c->t[1], DATA + 64, 1, 101);
    assert_int_equal(c->t[0].store_done + NYZ_SQ_AHEAD, 115);
    assert_int_equal(c->t[1].store_done + NYZ_SQ_AHEAD, 117);
    sim_destroy(&r.m);
}

XPUSIM_TESTS(nyuzi_bus_order,
             cmocka_unit_test(test_load_alone),
             cmocka_unit_test(test_code_line_goes_first),
             cmocka_unit_test(test_tie_keeps_data_first),
             cmocka_unit_test(test_collided_miss),
             cmocka_unit_test(test_whole_line_restarts))
