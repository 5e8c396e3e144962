/* tests/nyuzi/test_l2_writeback.c: the L2's write-backs of dirty victims on the memory bus
 * (isa/nyuzi/l2_wb.c nyz_wb_push, nyz_wb_drain, nyz_bi_restart; timing.c nyz_bus_write).
 * The rules, from l2_axi_bus_interface.sv and RTL traces (docs/validation/nyuzi.md 5b, "Session 35
 * (nyuzi-wb)"):
 * - a fill's dirty victim enters the write-back FIFO when the fill's restart passes the
 *   L2's read stage; the bus interface's state machine takes it in an IDLE state, before
 *   any fill request, from an IDLE 4 cycles after the restart on (not 3: vstream.c2t4's
 *   restarts at R + 2 and R + 4 before the write-back, AW R + 7): in the model's time (a
 *   transfer starts at its address phase - 3) a write-back may start at the restart + 3, and
 *   a read the bus starts before that goes first (l2evict.c2t1: restart 2793, the other
 *   core's read AR 2796, the write-backs AW 2824 and 2856 after its restart);
 * - a write's address and data hold the state machine: a restart of a request from the
 *   fill FIFO (a whole-line store, a collided miss) comes no sooner than the write's start
 *   + 23 + its row's cycles (vstream.c2t4: AW 722, restart 742; AW 602 opening a row, 626);
 * - a read after a write starts 21 cycles after the write's start (mem_interval - 7: its
 *   address phase 2 cycles after the IDLE that follows the write's last data beat, whose
 *   lateness the write's start has; l2evict on 2 cores AW 2856 AR 2877, vstream.c4t4's
 *   below), a write after a write 28 (mem_interval: the next address when the write's
 *   response comes; the write's start already has its row's cycles).
 * The SDRAM (timing.c sdram_extra): bank = address bits 11:10, row = bits above 12; a read
 * of a closed bank opens its row (2 cycles), of another row of an open bank 4 (close and
 * open); a line read restarts 28 cycles after its start plus those (mem_latency 45 less
 * RST_LEAD 17). The first refresh (cycle 750) is far from the cycles used here. */
#include "l2_rig.h"

/* reads in banks 0, 1, 2 (row 0x10 each); the victims in bank 0, another row (0x30) */
enum { A = 0x10000, B = 0x10400, C = 0x10800, V1 = 0x30000, V2 = 0x30040 };

static uint64_t rd(rig *r, uint32_t pa, uint32_t victim, uint64_t b)
{
    uint64_t rst = 0;
    uint32_t v = victim == 0 ? 0xffffffffu : victim >> r->nm->l2.line_shift;
    nyz_bus_read(r->nm, pa, v, b, 0, 0, &rst);
    return rst;
}

/* A read at 100 (bank 0 closed: +2) restarts at 100 + 2 + 28 = 130; its victim V1 may go
 * at 132. A read at 120 starts when the bus is free, 130, before 132: it goes first (bank 1
 * closed: restart 130 + 2 + 28 = 160). A read at 150 would start at 160, after 132: V1's
 * write goes first, at 160, closing bank 0's row 0x10 and opening 0x30 (+4): 164; the read
 * follows at 164 + 27 = 191 (bank 2 closed: restart 191 + 2 + 28 = 221). (With the
 * write-back right after the first read, as before this rule: the write at 130 + 4 = 134,
 * the second read at 164 + 2, restart 194.) */
static void test_next_read_goes_first(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, (const char *const[]){"cores=1", NULL});
    assert_int_equal(rd(&r, A, V1, 100), 130);
    assert_int_equal(rd(&r, B, 0, 120), 160);
    assert_int_equal(r.nm->wb_n, 1);
    assert_int_equal(rd(&r, C, 0, 150), 221);
    assert_int_equal(r.nm->wb_n, 0);
    assert_int_equal(r.nm->bi_free, 164 + 23);
    sim_destroy(&r.m);
}

/* Two reads with dirty victims in the same row, then a third read: AR AR AW AW AR. The
 * writes: V1 at 160 + 4 = 164 (as above), V2 (may go at 160 + 2) 28 after it (its address
 * when V1's response comes: V1's start already has its row's cycles; RTL trace of
 * dflush_dirty.c4t1, AW 913 -> 945 with V1's row closed and opened: 28 + 4), 192, its row
 * open (+0); the third read 27 after that, 219, bank 2 closed: restart 219 + 2 + 28 = 249. */
static void test_two_writebacks_in_a_row(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, (const char *const[]){"cores=1", NULL});
    assert_int_equal(rd(&r, A, V1, 100), 130);
    assert_int_equal(rd(&r, B, V2, 120), 160);
    assert_int_equal(r.nm->wb_n, 2);
    assert_int_equal(rd(&r, C, 0, 150), 249);
    assert_int_equal(r.nm->bi_free, 192 + 23);
    sim_destroy(&r.m);
}

/* A whole-line store restarted from the fill FIFO, due at 140 (taken at acc = 132: its
 * acknowledgement acc + store_latency 10 + RESTART_PASS 5 = 147, the restart 7 before it),
 * after a read at 100 with a dirty victim (restart 130, the victim may go at 133): in its
 * IDLE state at 139 the state machine takes the write-back first, at 133 (the bus is free
 * since 130) + 4 (bank 0's row) = 137; the restart waits for it: 137 + 23 = 160,
 * acknowledged 160 + 7 = 167. The write's address phase is 136, its store FIFO full at 145,
 * its bursts (bank 0's row 0x10 closed, 0x30 opened: + 4) to 158 and 159..168. */
static void test_restart_waits_for_writeback(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, (const char *const[]){"cores=1", NULL});
    assert_int_equal(rd(&r, A, V1, 100), 130);
    assert_int_equal(nyz_store_restart(r.nm, 132, 0, 0, 0xffffffffu), 167);
    assert_int_equal(r.nm->wb_n, 0);
    /* a read after them: the bus is free at the restart 160 (21 after the write's start,
     * 158, before it), address phase 163, pending from 164, the controller in the write's
     * bursts to 168; bank 2 opened: 168 + 13 = 181, 182 -> 193, restart 194 */
    assert_int_equal(rd(&r, C, 0, 140), 194);
    sim_destroy(&r.m);
}

/* The read waiting in the fill FIFO goes before a write-back that the restart ending a
 * write-back's hold queued (RTL trace of vstream.c4t4 with the controller's states: AW 4314
 * opening a row, a whole-line store restarted at 4338 = AW + 24 evicting a dirty line, the
 * code line's read waiting since 4279 at AR 4341, its restart 4374, the write-back at AW
 * 4377). As test_restart_waits_for_writeback, the store evicting V2: V1's write from 137
 * (AW 136), the restart at 160 (AW + 24), V2 may go at 163 (seen by an IDLE from 164 on).
 * C's read, waiting since 140, starts at 160 (21 after the write's start is 158): from the
 * IDLE after the restart, AR 163, before V2; its restart 194 (as above) and V2 still queued.
 * With a read 27 after the write's start (164) V2 went first: its start max(163, 164,
 * 137 + 28) = 165 (its row open), the read 27 after it, 192, restart 192 + 2 + 28 =
 * 222. */
static void test_read_before_queued_writeback(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, (const char *const[]){"cores=1", NULL});
    assert_int_equal(rd(&r, A, V1, 100), 130);
    assert_int_equal(nyz_store_restart(r.nm, 132, 0, 0, V2 >> r.nm->l2.line_shift), 167);
    assert_int_equal(r.nm->wb_n, 1);
    assert_int_equal(rd(&r, C, 0, 140), 194);
    assert_int_equal(r.nm->wb_n, 1);
    sim_destroy(&r.m);
}

/* A read at 100 with a dirty victim (restart 130), then a whole-line store's restart taken at
 * acc: acknowledged at ack, the write-back still queued (the restart not held). */
static void restart_not_held(uint64_t acc, uint64_t ack)
{
    rig r;
    rig_open(&r, (const char *const[]){"cores=1", NULL});
    assert_int_equal(rd(&r, A, V1, 100), 130);
    assert_int_equal(nyz_store_restart(r.nm, acc, 0, 0, 0xffffffffu), ack);
    assert_int_equal(r.nm->wb_n, 1);
    sim_destroy(&r.m);
}

/* The same restart due before the write-back may go (taken at acc = 120: due at 128, the
 * read's restart 130 + 2 = 132 first as the fill FIFO's order says): the write-back is not
 * in the FIFO by its IDLE state at 131, so the restart is not held (ack 132 + 7 = 139); the
 * write-back stays queued. */
static void test_restart_before_writeback(void **state)
{
    (void)state;
    restart_not_held(120, 139);
}

/* The same restart due 4 cycles after the read's (taken at acc = 126: due at 134, its IDLE
 * at 133, 3 after the read's restart 130): the write-back is not seen by that IDLE (may go at
 * 133, seen from the IDLE at 134 on), so the restart is not held (ack 134 + 7 = 141; as
 * vstream.c2t4's restarts at R + 4 before the write-back). Seen from the IDLE at R + 3 (a
 * write-back at R + 2), it was held: write 132 + 4 = 136, restart 159, ack 166. */
static void test_restart_four_after(void **state)
{
    (void)state;
    restart_not_held(126, 141);
}

XPUSIM_TESTS(nyuzi_l2_writeback,
             cmocka_unit_test(test_next_read_goes_first),
             cmocka_unit_test(test_two_writebacks_in_a_row),
             cmocka_unit_test(test_restart_waits_for_writeback),
             cmocka_unit_test(test_read_before_queued_writeback),
             cmocka_unit_test(test_restart_before_writeback),
             cmocka_unit_test(test_restart_four_after))
