/* tests/nyuzi/test_sdram_refresh.c: the SDRAM's auto refresh starts in its controller's IDLE
 * state (isa/nyuzi/timing.c sdram_extra, SD_BURST). From the RTL source: sdram_controller.sv
 * refreshes only from IDLE when its refresh timer has run out, before a read waiting then
 * (IDLE 1 + AUTO_REFRESH0 2 + AUTO_REFRESH1 4 + IDLE 1 + OPEN_ROW 2 against a plain read's
 * IDLE 1: SD_PRE 2 + SD_AREF 5 + SD_ACT 2), and the timer restarts then; a read keeps the
 * controller out of IDLE for its burst, SD_BURST = 12 cycles from its address phase (RTL
 * trace of gather_miss: a read at AR 732, the next at AR 774 paid only its row's opening).
 * In the model's time (one core, default options): a data load issued at s misses to the
 * bus at s + 6; a read starting at t reaches the controller at t + 8 (SD_PATH), opens a
 * closed bank's row (+2), its address phase is then, the data comes t - 6 + extra + 42 and
 * the thread replays a cycle before; the first refresh is due at 741 (750 - 9, in the
 * controller's time t + 8), the next 750 after the previous one started (+2 if it closed a
 * row). Lines A, C, D in banks 0, 1, 2 (address bits 11:10), all closed at first. */
#include "l2_rig.h"

enum { A = 0x10000, C = 0x10400, D = 0x10800 };

/* A's load issued at 726 is read at 732 (at the controller 740, before the refresh is due;
 * +2: its address phase 734, data 770, replay 769): the controller is busy with its burst
 * until 746. C's load issued at 790 is read at 796 (the bus is free from 762): the refresh
 * due at 741 came during the burst, so it started at 746 (precharging A's row: done by 753,
 * before C's read reaches the controller at 804, which pays only its row: replay 796 - 6 +
 * 2 + 42 - 1 = 833), and the next is due 746 + 2 + 750 = 1498. D's load issued at 1481 is
 * read at 1487, at the controller at 1495, before that: it pays only its row (replay 1487 -
 * 6 + 2 + 42 - 1 = 1524). Had the refresh started when due (741), the next would be due at
 * 1493 and D's read would wait for it: 1493 + 2 + 5 = 1500, 5 cycles more (1529). */
static void test_refresh_after_burst(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, NULL);
    assert_int_equal(rig_access(&r, 0, 0, K_LOAD, 1, A, 726), 769);
    assert_int_equal(rig_access(&r, 0, 1, K_LOAD, 1, C, 790), 833);
    assert_int_equal(rig_access(&r, 0, 2, K_LOAD, 1, D, 1481), 1524);
    sim_destroy(&r.m);
}

XPUSIM_TESTS(nyuzi_sdram_refresh,
             cmocka_unit_test(test_refresh_after_burst))
