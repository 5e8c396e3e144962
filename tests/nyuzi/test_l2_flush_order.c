/* tests/nyuzi/test_l2_flush_order.c: on several cores the L2's memory reads go in the
 * order of the L2 arbiter's grants and the bus interface's state machine, not in the order
 * the model makes the requests (isa/nyuzi/timing.c nyz_store_timing, bus_log.c
 * nyz_flush_write). The rules, from the RTL (docs/validation/nyuzi.md 5b, "Session 37
 * (fl2)"):
 * - a store (not a whole line) to a line the L2 lacks is a miss like a load's: it enters the
 *   fill FIFO in grant order (l2_cache_read_stage.sv -> l2_axi_bus_interface.sv), so its
 *   read waits for the grants before it (RTL trace of dfdi.c4t1: four cores' first stores,
 *   granted 423 425 427 429, read AR 429, 493, 527, 618 in that order);
 * - a flush's write-back, pending when the bus interface's state machine is next in IDLE,
 *   goes before the fill FIFO's next entry (l2_axi_bus_interface.sv: writeback_pending
 *   first), also before a read or restart the model placed before the flush was made (RTL
 *   trace of dflush_dirty.c4t1: core 2's collided code-line restart, due at 583, after two
 *   flushes' writes, AW 559 and 591, restart 615);
 * - a request of a line whose read's grant is not final yet is timed from that read's
 *   restart (tc's rule, cb14cda; here from the collided-hit side).
 * Defaults: store_latency 10, mem_latency 45 (a line's restart 28 cycles after its start
 * plus its row's cycles: a closed bank 2), a data load's line mem_latency - 3 after its bus
 * time, which is its issue + 6. */
#include "l2_rig.h"
#include "../../isa/nyuzi/mem_priv.h"

/* bank 0 row 0x10, bank 1 row 0x10, bank 2 row 0x10 (L2 sets 0x000, 0x010, 0x020) */
enum { Y = 0x10000, D = 0x10400, X = 0x10800 };

/* Stores of a word to lines the L2 lacks, both issued at 100: core 1's to X made first,
 * then core 0's to Y (the model runs one core after the other). Both reach the L2 at 103;
 * the arbiter's pointer between cores is at core 0 after reset: Y granted at 103, X at 104,
 * read in that order. Y's bus time 106, bank 0 closed: its line there 106 - 6 + 2 + 42 =
 * 144, acknowledged 100 + 10 + (144 - 100 - 11) = 143; X after it, from 136 (Y's start + 2
 * + 28), bank 2 closed: line 136 - 6 + 2 + 42 = 174, acknowledged 100 + 10 + (174 - 100 -
 * 11) = 173. (Read when made, the other way round: X 143, Y 173.) The thread's store_done
 * is its acknowledgement - NYZ_SQ_AHEAD. */
static void test_store_misses_in_grant_order(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, (const char *const[]){"cores=2", NULL});
    nyz_machine *nm = r.nm;
    nm->cur_cycle = 100;
    nyz_store_timing(nm, &nm->cores[1], &nm->cores[1].t[0], X, 0, 100);
    nyz_store_timing(nm, &nm->cores[0], &nm->cores[0].t[0], Y, 0, 100);
    nyz_bus_fix(nm);
    assert_int_equal(nm->cores[0].t[0].store_done + NYZ_SQ_AHEAD, 143);
    assert_int_equal(nm->cores[1].t[0].store_done + NYZ_SQ_AHEAD, 173);
    sim_destroy(&r.m);
}

/* Core 0 loads Y at 100: read at 106 (bank 0 closed), restart 106 + 2 + 28 = 136. Core 1
 * loads Y at 104, a collided miss: restarted 2 after the read's, 138 (its IDLE at 136),
 * its data 138 + 17 - 9 = 146, the thread woken at 145. Core 0 flushes D (dirty in the
 * L2) at 125: bus time 131, pending before that IDLE, so its write goes first: from 136
 * (the bus after the read), its store FIFO full 139 + 9 = 148, bank 1 closed: burst to 159,
 * 2 late: start 138; the restart waits for the write (138 + 23 = 161), its data 161 + 17 - 9
 * = 169, the thread woken at 168; the flush acknowledged 138 - 6 + 10 + 24 = 166. (Restart
 * placed first: it stays at 138, the thread at 145, the write from 138: start 140,
 * acknowledged 168.) On several cores the flush is placed so at its final grant (128): until
 * then its acknowledgement is the least it can be, 128 - 3 + 10 + 24 = 159 (timing.c
 * sq_op_timing, nyz_flush_final; the run makes the grant final the cycle after it,
 * bus_log.c nyz_flush_event). */
static void test_flush_before_restart(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, (const char *const[]){"cores=2", NULL});
    nyz_machine *nm = r.nm;
    nyz_cache_access(&nm->l2, D, 1, 1); /* D in the L2, dirty */
    assert_int_equal(rig_access(&r, 0, 0, K_LOAD, 1, Y, 100), 143);
    assert_int_equal(rig_access(&r, 1, 0, K_LOAD, 1, Y, 104), 145);
    assert_int_equal(rig_access(&r, 0, 1, K_DFLUSH, 5, D, 125), 0);
    assert_int_equal(nm->cores[0].t[1].store_done + NYZ_SQ_AHEAD, 159);
    nm->cur_cycle = 129;
    nyz_arb_run(nm, 129); /* (the grant final) */
    assert_int_equal(nm->cores[0].t[1].store_done + NYZ_SQ_AHEAD, 166);
    assert_int_equal(nm->cores[1].t[0].blocked, 168);
    sim_destroy(&r.m);
}

/* A request of a line whose read is granted before it but not final yet (its fill not in
 * the L2's tags: it takes its way when its grant is final; timing.c nyz_l2_ready takes the
 * restart bus_log read for it, nyz_bus_ent.rst) is a hit if its bus time is at or
 * after that read's restart + 4, as on the RTL (l2evict.c4t4: core 0's code line 0x1080
 * granted 495, restarted 606; core 1's request of it, waiting in the stall, granted 607 and
 * answered 611 as a hit), not a collided miss restarted after everything queued. The fill
 * FIFO holds four entries queued at 90 (restarts 111, 200, 200, 300) and one queued at 113
 * (restart 140): the L2 takes nothing while four are between their queueing and their
 * restart. Core 0 loads Y at 100: it reaches the L2 at 103, stalled until 112 (the first
 * restart, 111, + 1), granted 112, bus time 115, bank 0 closed: restart 115 + 2 + 28 = 145,
 * its data 153 (thread woken 152). Core 1 loads Y at 112: reaches the L2 at 115 (every grant
 * from 112 on still open: 112 is not final), stalled (the entry of 113 counts from 114, core
 * 0's from 116) until 140 + 1, then by core 0's entry until 145 + 1: granted 146, bus time
 * 149 = 145 + 4: a hit, data 149 - 6 + l2_latency 11 = 154, woken 153. (Taken for a
 * collided miss: restarted after the FIFO's last, 145 + 2, and no sooner than its own entry
 * + 2, 151; data 151 + 17 - 9 = 159, woken 158.) */
static void test_hit_behind_open_grant(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, (const char *const[]){"cores=2", NULL});
    static const uint64_t queued[][2] = {{90, 111}, {90, 200}, {90, 200}, {90, 300}, {113, 140}};
    for (unsigned i = 0; i < sizeof queued / sizeof queued[0]; i++)
        nyz_fq_push(r.nm, queued[i][0], queued[i][1]);
    r.nm->fq_rst = 300; /* (the last restart) */
    uint64_t woken[2];
    woken[0] = rig_access(&r, 0, 0, K_LOAD, 1, Y, 100); /* (core 0 first: the running core) */
    woken[1] = rig_access(&r, 1, 0, K_LOAD, 1, Y, 112);
    sim_destroy(&r.m);
    assert_int_equal(woken[0], 152);
    assert_int_equal(woken[1], 153);
}

XPUSIM_TESTS(nyuzi_l2_flush_order,
             cmocka_unit_test(test_store_misses_in_grant_order),
             cmocka_unit_test(test_flush_before_restart),
             cmocka_unit_test(test_hit_behind_open_grant))
