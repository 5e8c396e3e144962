/* tests/nyuzi/test_store_combine.c: the store queue's write combining on several cores
 * (isa/nyuzi/timing.c nyz_store_combine, called by pipeline.c when a plain store finds its
 * thread's entry busy). l1_store_queue.sv merges a store into the thread's pending entry
 * when both are to one line and the entry is not sent yet (can_write_combine: valid,
 * !request_sent, !send_this_cycle), in the store's data stage, 2 cycles after its issue;
 * the entry is sent in the cycle the L2's arbiter grants it (l1_l2_interface.sv
 * storebuf_dequeue_ack = l2_ready). So a store is merged only when the one before it is
 * granted after the store's data stage. RTL trace of wcomb.c4t1 (sixteen store_32 to one
 * line, back to back; session 39): core 0's store issued at 834 is granted at 838, a cycle
 * late (core 3's at 837); its store issued at 835 is merged (no rollback, no grant of its
 * own), the one at 836 rolls back at 839. Uncontended, a store issued at i is granted at
 * i + 3, the data stage of the store at i + 1: that one rolls back (core 0 at 812 / 813,
 * rollback at 816). Without the merge the model took 276 250 221 197 for the RTL's 251 197
 * 220 275 (every store of a core one request: 16 a pass instead of 15 for cores 0 and 3).
 * Derived by hand (2 cores; the set-up of test_store_rate.c test_wait_moves_with_ack): core
 * 1 brings H and H + 64 into the L2 (loads at 10 and 11, granted at 13 and 14: the
 * arbiter's pointer between cores then at core 0). Core 1's thread 0 stores to H at 200: it
 * reaches the L2 at 203; core 0's load of H + 64 at 200 reaches it at 203 too and the
 * pointer gives core 0 the cycle, so the store is granted at 204. A store of the thread to
 * H + 4 issued at 201 reaches its data stage at 203, before the grant: merged. One issued at
 * 202 reaches it at 204, the grant's cycle: not merged (it rolls back). One to another line
 * (H + 64) at 201: not merged. Without core 0's load the store is granted at 203 and the
 * store at 201 is not merged either. */
#include "l2_rig.h"

enum { H = 0x10400 };

/* The set-up above; core 0's load of H + 64 at 200 if `contended`. Returns core 1. */
static nyz_core *stored(rig *r, int contended)
{
    static const char *const opts[] = {"cores=2", NULL};
    rig_open(r, opts);
    rig_access(r, 1, 0, K_LOAD, 1, H, 10);
    rig_access(r, 1, 1, K_LOAD, 1, H + 64, 11);
    nyz_core *c = &r->nm->cores[1];
    r->nm->cur_cycle = 200;
    nyz_store_timing(r->nm, c, &c->t[0], H, 0, 200);
    if (contended)
        rig_access(r, 0, 0, K_LOAD, 1, H + 64, 200);
    return c;
}

static void test_merged_before_grant(void **state)
{
    (void)state;
    static rig r;
    nyz_core *c = stored(&r, 1);
    nyz_thread *t = &c->t[0];
    assert_int_equal(t->store_done, 207); /* granted at 204, acknowledged at 211 */
    r.nm->cur_cycle = 201;
    assert_int_equal(nyz_store_combine(r.nm, c, t, H + 64, 201), 0); /* another line */
    assert_int_equal(nyz_store_combine(r.nm, c, t, H + 4, 201), 1);
    r.nm->cur_cycle = 202;
    assert_int_equal(nyz_store_combine(r.nm, c, t, H + 8, 202), 0);
    sim_destroy(&r.m);
}

static void test_not_merged_when_sent(void **state)
{
    (void)state;
    static rig r;
    nyz_core *c = stored(&r, 0);
    nyz_thread *t = &c->t[0];
    assert_int_equal(t->store_done, 206); /* granted at 203 */
    r.nm->cur_cycle = 201;
    assert_int_equal(nyz_store_combine(r.nm, c, t, H + 4, 201), 0);
    sim_destroy(&r.m);
}

XPUSIM_TESTS(nyuzi_store_combine, cmocka_unit_test(test_merged_before_grant),
             cmocka_unit_test(test_not_merged_when_sent))
