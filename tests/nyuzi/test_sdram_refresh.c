/* tests/nyuzi/test_sdram_refresh.c: the SDRAM controller's bursts and its auto refresh
 * (isa/nyuzi/mem_bus.c sdram_extra, sd_burst, sd_wr_second, nyz_bus_write). From the RTL source
 * (sdram_controller.sv, as soc_tb.sv instantiates it: T_REFRESH 750, 4 banks, 1 KiB rows)
 * and its traced states
 * (docs/validation/nyuzi.md 5b "Session 35 (nyuzi-sd)"):
 * - a line is two bursts, each started from IDLE; a read burst from IDLE at c is in IDLE
 *   again at c + 11 from an open row, + 2 more opening a closed bank's row (OPEN_ROW), + 4
 *   for another row of an open bank (CLOSE_ROW first); a write burst at c + 9 (+ 2, + 4);
 * - a read whose address phase is at A is pending from A + 1; its second burst starts the
 *   cycle after the first ends; the line restarts the cycle after the second ends, so an
 *   open row in an idle controller gives A + 25 (mem_latency's case: no extra);
 * - a write with address phase W has its store FIFO full at W + 9, and again the cycle
 *   after its first burst ends; the bus is held as long as its first burst is late;
 * - at every IDLE the refresh comes first once its timer has run out: due at 750 after
 *   reset, PRECHARGE-all (2 cycles, if a row is open) then AUTO_REFRESH (IDLE again 7
 *   cycles after it started, 5 with no row open), due again 754 (752) after it started;
 *   every row is closed after it;
 * - at IDLE a pending read goes before a pending write: a write's second burst a refresh
 *   delayed waits behind a read pending by the IDLE after the refresh; a read's address
 *   phase after a write comes 3 cycles after the write's first burst has ended.
 * In the model's time (one core, default options): a data load issued at s has bus time
 * t = s + 6 (once the bus is free, mem_free), address phase A = t + 3; its data comes
 * t - 6 + extra + 42 and the thread replays a cycle before, i.e. s + extra + 41 for
 * t = s + 6; the bus is busy until t + extra + 28. A dflush of a dirty line issued at s
 * (the L2 takes it at s: sq_free, nothing else in flight) writes it from bus time s + 6:
 * W = s + 9, its start s + 6 + extra, acknowledged at start - 6 + 10 + 24 (store_latency,
 * DFLUSH_EXTRA; store_done is that less NYZ_SQ_AHEAD), the bus busy until start + 30. Lines A, C, D in banks 0, 1, 2 (address
 * bits 11:10), every bank closed at first. */
#include "l2_rig.h"

enum { A = 0x10000, C = 0x10400, D = 0x10800 };

/* Threads 0, 1, 2 load A, C, D at a, c, d: their replays (a_want, c_want, d_want) and the
 * bus's free cycle after A's read (bus_free). */
static void three_loads(uint64_t a, uint64_t a_want, uint64_t bus_free, uint64_t c,
                        uint64_t c_want, uint64_t d, uint64_t d_want)
{
    rig r;
    rig_open(&r, NULL);
    assert_int_equal(rig_access(&r, 0, 0, K_LOAD, 1, A, a), a_want);
    assert_int_equal(r.nm->mem_free, bus_free);
    assert_int_equal(rig_access(&r, 0, 1, K_LOAD, 1, C, c), c_want);
    assert_int_equal(rig_access(&r, 0, 2, K_LOAD, 1, D, d), d_want);
    sim_destroy(&r.m);
}

/* A refresh due while a read's second burst runs starts when it ends (RTL trace of
 * gather_miss: a read at AR 732, IDLE at 756 with the timer run out, the refresh then).
 * A's load issued at 725: t 731, A 734, pending from 735; burst 1 opens bank 0: 735 + 13 =
 * 748; burst 2 from 749 (< 750: no refresh yet), row open: 760; extra 760 - (735 + 23) =
 * 2, replay 725 + 2 + 41 = 768; the bus free at 731 + 2 + 28 = 761. The refresh due at 750
 * starts in IDLE at 760, a row open: IDLE again 767, due again 760 + 754 = 1514. C's load
 * issued at 755: t 761, pending from 765, waits for the refresh until 767; burst 1 opens
 * bank 1: 780, burst 2 781 -> 792; extra 792 - (765 + 23) = 4, replay 755 + 4 + 41 = 800
 * (with the refresh at its due time, 750..757, there would be no wait: 798). D's load
 * issued at 1504: t 1510, pending from 1514, when the refresh is due: it goes first, rows
 * open: 1521; burst 1 opens bank 2: 1534, burst 2 1535 -> 1546; extra 1546 - (1514 + 23)
 * = 9, replay 1504 + 9 + 41 = 1554 (due 752 after the refresh instead: 1512, done by 1519,
 * extra 7: 1552). */
static void test_refresh_after_read(void **state)
{
    (void)state;
    three_loads(725, 768, 761, 755, 800, 1504, 1554);
}

/* A refresh due between a read's two bursts comes between them (RTL trace of dfdi: a read
 * at AR 743, its first burst 744..759, the refresh 759..766, the second burst opening the
 * row again, restart 780). A's load issued at 726: t 732, pending from 736; burst 1 opens
 * bank 0: 749; burst 2 would start at 750, when the refresh is due: it goes first (bank 0
 * open): 750..757, due again 750 + 754 = 1504; burst 2 opens bank 0 again: 757 + 13 = 770;
 * extra 770 - (736 + 23) = 11, replay 726 + 11 + 41 = 778 (bus free 732 + 11 + 28 = 771).
 * C's load issued at 790: t 796, pending from 800; bank 1 closed: 813, then 814 -> 825:
 * extra 2, replay 833. D's load issued at 1481: t 1487, pending from 1491; burst 1 opens
 * bank 2: 1504; burst 2 from 1505, the refresh due at 1504 first (rows open): 1504..1511,
 * then bank 2 again: 1524; extra 1524 - (1491 + 23) = 10, replay 1481 + 10 + 41 = 1532. */
static void test_refresh_between_bursts(void **state)
{
    (void)state;
    three_loads(726, 778, 771, 790, 833, 1481, 1532);
}

/* The write of test_write_bursts: A (and D if d) dirty in the L2, A flushed by thread 0 at
 * 727 (acknowledged 763, the bus free for a read at 756). */
static void a_flushed(rig *r, int d)
{
    rig_open(r, NULL);
    nyz_cache_access(&r->nm->l2, A, 1, 1);
    if (d)
        nyz_cache_access(&r->nm->l2, D, 1, 1);
    assert_int_equal(rig_access(r, 0, 0, K_DFLUSH, 5, A, 727), 0);
    assert_int_equal(r->nm->cores[0].t[0].store_done + NYZ_SQ_AHEAD, 763);
    assert_int_equal(r->nm->mem_free, 756);
}

/* After a_flushed, thread 1 loads C at c: its replay (c_want) and the next write's earliest
 * start then (wr_free). */
static void flush_then_load(uint64_t c, uint64_t c_want, uint64_t wr_free)
{
    rig r;
    a_flushed(&r, 0);
    assert_int_equal(rig_access(&r, 0, 1, K_LOAD, 1, C, c), c_want);
    assert_int_equal(r.nm->wr_free, wr_free);
    sim_destroy(&r.m);
}

/* A write's bursts hold the controller, and a refresh due between them makes it busy
 * beyond the bus's time. A dirty in the L2, flushed at 727: bus time 733, W = 736, its store
 * FIFO full at 745; burst 1 opens bank 0: 745 + 11 = 756 (2 late: start 735, acknowledged
 * 735 - 6 + 10 + 24 = 763; the bus free for the next write at 735 + 28 = 763, for a read
 * at 735 + 21 = 756, whose address phase 759 is burst 1's end + 3: mem_bus.c
 * READ_AFTER_WRITE; 762 with the old fit); the refresh due at 750 goes before burst 2 (bank
 * 0 open): 756..763, where burst 2 waits for the next access. C's load issued at 759: t
 * 765, pending from 769, after IDLE 763: burst 2 goes first, opening bank 0 again: 763 + 11
 * = 774, from when the controller takes the next write's address: wr_free 774 - 3 = 771
 * (763 without the rule that a write's address waits for the previous write's last
 * burst). C waits until 774; burst 1 opens bank 1: 787, burst 2 788 -> 799; extra 799 -
 * (769 + 23) = 7, replay 759 + 7 + 41 = 807 (with a write's burst not holding the
 * controller: no wait, 802). */
static void test_write_bursts(void **state)
{
    (void)state;
    flush_then_load(759, 807, 771);
}

/* A read pending at the IDLE after a refresh that split a write goes before the write's
 * second burst (sdram_controller.sv IDLE: a pending read first, and a write only with no
 * read pending; RTL trace of memcpy.c2t1 with the controller's states: AW 20406, burst 1
 * to 20428, the refresh to IDLE 20435, AR 20433, the read's bursts 20435..20460, its
 * restart 20461, the write's burst 2 from 20460 to 20473). A flushed at 727 as in
 * test_write_bursts: burst 1 ends 756, the refresh to 763, the bus free for a read at 756.
 * C's load issued at 750: t 756, A 759 (burst 1's end + 3, as the RTL's 20428 + 3 + 2 for
 * the store restart between), pending from 760, by IDLE 763: C first, opening bank 1: 763 +
 * 13 = 776, burst 2 777 -> 788; extra 788 - (760 + 23) = 5, replay 750 + 5 + 41 = 796. The
 * write's burst 2 from IDLE 788, opening bank 0 again (the refresh closed it): 799, the
 * next write's address from then: wr_free 796. Without the held burst the write's burst 2
 * runs 763..774 and C waits for it: 787, 799, extra 16, replay 807 (wr_free 771); with the
 * held burst but the old READ_AFTER_WRITE 1, C's bus time is 762, pending from 766, too
 * late for IDLE 763: the same 807. */
static void test_read_before_held_burst(void **state)
{
    (void)state;
    flush_then_load(750, 796, 796);
}

/* A write whose bursts a refresh separates holds the next write's address phase until its
 * second burst has ended (sdram_controller.sv: s_awready = !write_pending, cleared as the
 * last burst leaves WRITE_BURST; RTL trace of dflush_dirty.c2t1 with the controller's
 * states: AW 2239, burst 1 to 2261, the refresh 2262..2268, burst 2 2269..2278, the next AW
 * 2279, 40 after the first, not 28 + 4). A dirty, flushed at 727 as in test_write_bursts:
 * W = 736, burst 2 ends at 774 (the refresh between). D dirty (bank 2), flushed by thread 1
 * at 740: bus time 746, but the controller takes its address at 774 at the earliest: start
 * 771, W = 774, its store FIFO full at 783; the refresh closed every row, so burst 1 opens
 * bank 2: 783 + 11 = 794, 2 late: start 773, acknowledged 773 - 6 + 10 + 24 = 801. Without
 * the rule its address goes at 735 + 28 + 3 = 766 (wr_free 763), FIFO full at 775, burst 1
 * (the controller in IDLE from 774) 775 + 11 = 786, 2 late: start 765, acknowledged 793. */
static void test_write_after_split_write(void **state)
{
    (void)state;
    rig r;
    a_flushed(&r, 1);
    assert_int_equal(rig_access(&r, 0, 1, K_DFLUSH, 5, D, 740), 0);
    assert_int_equal(r.nm->cores[0].t[1].store_done + NYZ_SQ_AHEAD, 801);
    sim_destroy(&r.m);
}

XPUSIM_TESTS(nyuzi_sdram_refresh,
             cmocka_unit_test(test_refresh_after_read),
             cmocka_unit_test(test_refresh_between_bursts),
             cmocka_unit_test(test_write_bursts),
             cmocka_unit_test(test_read_before_held_burst),
             cmocka_unit_test(test_write_after_split_write))
