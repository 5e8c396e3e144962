/* tests/nyuzi/test_l2_stall.c: the L2 takes no request while its fill FIFO is almost full
 * or while the bus interface restarts a request (isa/nyuzi/timing.c l2_accept). The rules,
 * from the RTL source: l2_cache_arb_stage.sv grants a core's request only when
 * can_accept_request = !l2bi_request_valid && !l2bi_stall; l2bi_request_valid is the cycle
 * l2_axi_bus_interface.sv restarts a request (READ_COMPLETE, which also dequeues the fill
 * FIFO's head), l2bi_stall the fill FIFO's almost_full: 8 entries, threshold 8 - 4 = 4, and
 * sync_fifo.sv counts an entry from the cycle after its enqueue up to its dequeue. In the
 * model's time a data request issued at t reaches the L2 at t + 3 and, if it misses, is
 * enqueued at t + 6, its bus time; an uncontended read restarts 28 cycles after its bus
 * time plus the SDRAM's extra (2 to open a closed bank's row, 0 in the open row), the next
 * read starts when the bus is free (28 cycles a line), and a data line arrives bus start -
 * 6 + 42 (the thread replays the cycle before); an L2 hit answers 11 cycles after the
 * issue (the thread replays at t + 10), a request the L2 takes d cycles late d later.
 * Every request here is a load of a line the issuing core's L1D lacks; rows and banks are
 * chosen so the SDRAM's extra is as stated; its refresh (743) and start-up (17) are far. */
#include "l2_rig.h"

/* bank = address bits 11:10, row = bits 23:12: the L lines in bank 0, the H lines in bank 1,
 * both in row 16 */
enum { L0 = 0x10000, H0 = 0x10400 };

static void rig_make(rig *r) { rig_open(r, (const char *const[]){"cores=2", NULL}); }

/* Thread tid of core k issues a load of pa at cycle at: the cycle it is suspended until. */
static uint64_t load(rig *r, int k, int tid, uint32_t pa, uint64_t at)
{
    return rig_access(r, k, tid, K_LOAD, 1, pa, at);
}

/* Core k's code line seen by ifetch_data at D (request time D + 3, bus time D + 3: it
 * reaches the L2 at D in the model's time): its latency from the request time. */
static unsigned code(rig *r, int k, uint32_t pa, uint64_t d)
{
    return nyz_fill_latency(r->nm, pa, 0, d + 3, 0, k);
}

/* Core 0 brings H0 and H0 + 64 into the L2 early (reads at 16 and 46, restarts 46 and 74,
 * long before the rest). Then its four threads miss on L0..L0 + 192 at 100..103: bus times
 * 106..109, enqueued at 106..109; reads at 106 (+2, bank 0 closed: restart 136, data 144,
 * replay 143), 136 (restart 164, replay 136 - 6 + 42 - 1 = 171), 164 (192, 199) and 192
 * (220, 227). At cycle 110 the FIFO holds those four (each counted from the cycle after its
 * enqueue): core 1's load of H0 issued at 107 reaches the L2 at 110 and waits; at 137 the
 * first entry has left (restarted at 136), three remain, and no restart falls on 137: it is
 * taken at 137, 27 cycles late, and answered as an L2 hit: replay 107 + 10 + 27 = 144
 * (without the rule 117). */
/* The reads above, the fourth by core `last`'s thread 3 (core 0's in the derivation). */
static void fill_fifo(rig *r, int last)
{
    rig_make(r);
    load(r, 0, 0, H0, 10);
    load(r, 0, 1, H0 + 64, 11);
    assert_int_equal(load(r, 0, 0, L0, 100), 143);
    assert_int_equal(load(r, 0, 1, L0 + 64, 101), 171);
    assert_int_equal(load(r, 0, 2, L0 + 128, 102), 199);
    assert_int_equal(load(r, last, 3, L0 + 192, 103), 227);
}

static void test_fifo_almost_full(void **state)
{
    (void)state;
    rig r;
    fill_fifo(&r, 0);
    assert_int_equal(load(&r, 1, 0, H0, 107), 144);
    sim_destroy(&r.m);
}

/* The same four reads; core 1's load of H0 + 64 issued at 161 reaches the L2 at 164, when
 * three entries are queued (not almost full) but the second read restarts (164): it is
 * taken at 165, one cycle late: replay 161 + 10 + 1 = 172. One issued at 170 (L2 at 173,
 * three queued, no restart) is taken at once: replay 180. */
static void test_restart_cycle(void **state)
{
    (void)state;
    rig r;
    fill_fifo(&r, 0);
    assert_int_equal(load(&r, 1, 1, H0 + 64, 161), 172);
    assert_int_equal(load(&r, 1, 2, H0, 170), 180);
    sim_destroy(&r.m);
}

/* Requests the stall held are taken round robin between the cores when it ends
 * (l2_cache_arb_stage.sv: rr_arbiter, its pointer moving only when the L2 takes a request,
 * so at the release it favours the core after the last one taken before the stall), not in
 * the order the model makes them. Four reads fill the FIFO as above, the fourth by `last`
 * (core 0's threads 0..2 at 100..102, then core `last`'s at 103; reads at 106, 136, 164,
 * 192, the bus free at 220; bank 0's row 16 open, and bank 1's row 16, which the early
 * reads of H0 and H0 + 64 opened): the L2 takes nothing from 110 to 137. Core 1's load of
 * H1 (bank 1, row 16), issued at 107, reaches the L2 at 110; core 0's code line CODE1
 * (bank 1, row 32), seen at D = 110, reaches it at 110 too (the model makes the load's
 * request first). At 137:
 * - last = core 1: the pointer favours core 0, whose code line is taken at 137 (bus time
 *   140) and the load at 138 (bus time 141). The code line reads at 220 in another row of
 *   bank 1 (+2 precharge, +2 activate): it arrives 220 + 4 + 45 = 269, 156 cycles after
 *   its request time 113, and restarts at 220 + 4 + 28 = 252; the load reads at 252, row
 *   16 again (+4): its data 252 - 6 + 4 + 42 = 292, the thread replays at 291 (255 while it
 *   was first: its data 220 - 6 + 0 + 42 = 256 in the open row).
 * - last = core 0: the pointer favours core 1, whose load is taken at 137: it reads at 220
 *   (open row): replay 255; the bus is free at 248, the code line reads then (+4): it
 *   arrives 248 + 4 + 45 = 297, 184 after 113. */
enum { H1 = 0x10480, CODE1 = 0x20400 };

static void held_order(int last, unsigned want_code, uint64_t want_replay)
{
    rig r;
    fill_fifo(&r, last);
    uint64_t first = load(&r, 1, 1, H1, 107);
    assert_int_equal(first, 255); /* provisional: made first, taken first */
    assert_int_equal(code(&r, 0, CODE1, 110), want_code);
    assert_int_equal(r.nm->cores[1].t[1].blocked, want_replay);
    sim_destroy(&r.m);
}

/* Within a core the load-miss queue offers one waiting load a cycle, round robin over its
 * threads with a pointer that moves every cycle (l1_load_miss_queue.sv update_lru = 1),
 * whether the L2 takes the offer or not; between the cores the L2 takes one a cycle, round
 * robin from the core after the last one taken. All loads here miss, each line in a closed
 * bank (+2), read 28 cycles apart: a read starting at s answers s - 6 + 2 + 42, the thread
 * replays a cycle before. Core 0's thread 0 load of LD issued at 99 reaches the L2 at 102
 * and is taken (the pointer moves to core 1): read at 105, replay 142. Core 1's load of LB
 * and core 0's thread 2 load of LA, both issued at 100, reach it at 103: core 1's is taken
 * (read at 135, replay 172), core 0's queue offered thread 2 (its pointer moves to 3);
 * core 0's thread 3 load of LC issued at `c3` reaches it at c3 + 3.
 * - c3 = 101: at 104 the queue offers thread 3 (taken: read at 165, replay 202), thread 2
 *   at 105 (read at 195, replay 232; 202 while it was the only one).
 * - c3 = 102: thread 2's is taken at 104 (replay 202), thread 3's at 105 (232). */
enum { LA = 0x10400, LB = 0x10000, LC = 0x10800, LD = 0x10c00 };

static void queue_order(uint64_t c3, uint64_t want2, uint64_t want3)
{
    rig r;
    rig_make(&r);
    assert_int_equal(load(&r, 0, 0, LD, 99), 142);
    assert_int_equal(load(&r, 1, 0, LB, 100), 172);
    assert_int_equal(load(&r, 0, 2, LA, 100), 202);
    assert_int_equal(load(&r, 0, 3, LC, c3), want3);
    assert_int_equal(r.nm->cores[0].t[2].blocked, want2);
    sim_destroy(&r.m);
}

/* The two orders above, each case on a fresh machine. */
static void test_held_order(void **state)
{
    (void)state;
    held_order(1, 156, 291);
    held_order(0, 184, 255);
    queue_order(101, 232, 202);
    queue_order(102, 202, 232);
}

/* The order does not depend on the order in which the model makes the requests (the cores
 * run back to back): every request that reaches the L2 is kept until the cycles before its
 * core's are final, and the grants are settled by the rule above. Lines in closed banks as
 * above (a code line's data comes start + 2 + 45, its latency counted from D + 3).
 * - Core 1's load of LB issued at 100 is made first (alone: taken at 103, read at 106,
 *   replay 106 - 6 + 2 + 42 - 1 = 143); core 0's load of LA issued at 100 reaches the L2 at
 *   103 too, and the pointer is at core 0 (nothing taken yet): LA is taken at 103 (read at
 *   106, replay 143), LB at 104 (read at 136, replay 173).
 * - A core offers its loads before its code line: core 0's code line CODE1 seen at D = 103
 *   (it reaches the L2 at 103), made first (alone: read at 106, 106 + 2 + 45 - 106 = 47),
 *   and its thread 1 load of LA issued at 100 (at the L2 at 103): the load is taken at 103
 *   (read at 106, replay 143; 175 if the code line had gone first: read at 136 with bank
 *   1's row 32 to close, +4).
 * - A code line the L2 holds is answered CODE_HIT = 3 cycles later than a data line
 *   (l2_latency 11): 14 from D + 3, so that its thread's first issue comes 11 cycles after
 *   the grant, as on every RTL trace (kernel on 2 cores: core 1's first code line, an L2
 *   hit, ifetch_data's miss at 109, grant 110, first issue 121; llsc on 4 cores: cores
 *   1..3's first lines granted 115, 116, 117, first issues 126, 127, 128; cycles.S's
 *   0x1168 of a running thread: grant 741, issue 752). */
static void test_arbiter_order(void **state)
{
    (void)state;
    rig r;
    rig_make(&r);
    assert_int_equal(load(&r, 1, 0, LB, 100), 143);
    assert_int_equal(load(&r, 0, 2, LA, 100), 143);
    assert_int_equal(r.nm->cores[1].t[0].blocked, 173);
    sim_destroy(&r.m);
    rig_make(&r);
    assert_int_equal(code(&r, 0, CODE1, 103), 47);
    assert_int_equal(load(&r, 0, 1, LA, 100), 143);
    assert_int_equal(code(&r, 1, LA, 300), 14);
    sim_destroy(&r.m);
}

XPUSIM_TESTS(nyuzi_l2_stall,
             cmocka_unit_test(test_fifo_almost_full),
             cmocka_unit_test(test_restart_cycle),
             cmocka_unit_test(test_held_order),
             cmocka_unit_test(test_arbiter_order))
