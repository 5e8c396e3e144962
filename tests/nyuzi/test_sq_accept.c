/* tests/nyuzi/test_sq_accept.c: a thread's next store-queue operation is taken from
 * NYZ_SQ_AHEAD (4) cycles before its pending one's acknowledgement, however late that is
 * (isa/nyuzi/timing.c sq_done, pipeline.c). From the RTL: l1_store_queue.sv takes an
 * operation of a thread whose entry is pending when the response comes in the cycle the
 * operation is in the data stage (got_response_this_entry), 3 cycles after its issue; the
 * L1 sees the L2's response 3 cycles before the model's acknowledgement (store + membar
 * probes, docs/isa/nyuzi.md). RTL trace of dflush_clean.c4t1 (docs/validation/nyuzi.md 5b
 * "Session 35 (nyuzi-sd)"): core 0's seventh flush granted a cycle late (a restart in
 * 2683: granted 2684, response 2688), the eighth issued at 2687 and taken (no rollback);
 * the model before took only operations issued at or after a late acknowledgement (2691),
 * rolled the eighth back and issued it again at 2696 (80 cycles for the pass, RTL 71).
 * Here: a whole-line store to a line the L2 lacks, issued at 100 on one core, is restarted
 * from the fill FIFO and acknowledged at 115 (test_bus_order.c test_whole_line_restarts:
 * issue + 15, beyond store_latency 10); the thread's next operation is taken from 115 - 4
 * = 111 (before: 115). A store to a line the L2 holds, issued at 200 (L2 at 203, its
 * acknowledgement 203 - 3 + 10 = 210, within store_latency): taken from 206, as before. */
#include "l2_rig.h"

enum { DATA = 0x10000 };

static void test_late_ack_taken_ahead(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, NULL);
    nyz_core *c = &r.nm->cores[0];
    r.nm->cur_cycle = 100;
    nyz_store_timing(r.nm, c, &c->t[0], DATA, 1, 100);
    assert_int_equal(c->t[0].store_done, 111);
    r.nm->cur_cycle = 200;
    nyz_store_timing(r.nm, c, &c->t[0], DATA, 0, 200);
    assert_int_equal(c->t[0].store_done, 206);
    sim_destroy(&r.m);
}

XPUSIM_TESTS(nyuzi_sq_accept,
             cmocka_unit_test(test_late_ack_taken_ahead))
