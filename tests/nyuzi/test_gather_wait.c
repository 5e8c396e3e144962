/* tests/nyuzi/test_gather_wait.c: a thread whose gather lane missed waits for its own line:
 * when another line's read moves (isa/nyuzi/bus_retime.c nyz_bus_retime: its request is granted
 * later once a request that reaches the L2 before it is made), the threads waiting for that
 * line move with it, not a gather lane waiting for another line that happened to be due in
 * the same cycle. The RTL wakes the threads of a load-miss queue entry when its response
 * comes (l1_load_miss_queue.sv wake_bitmap = the entry's waiting_threads: the thread that
 * missed and those that missed on the same line). Found on gather_miss.c4t4 (session 36):
 * core 1's thread 0, its lane's line (a00110000) read at AR 946 as on the RTL (RSP 979,
 * lane replayed at 982), was moved with another core's line whose data was due in the same
 * cycle and replayed at 1239; the model's grants then left the RTL's at 1042.
 * Derived by hand on the machine of test_sync_decided.c (one core, DATA in bank 0, CODE in
 * bank 1): thread 0's load of DATA at 100 is suspended until its data (the cycle before);
 * thread 1 waits as a gather lane (rp_kind none) until the same cycle for a line L; a code
 * line seen by ifetch_data at 102 reaches the L2 before DATA's request and is read first,
 * so DATA's read, and thread 0, move later (test_sync_decided.c: by 29 cycles). Thread 1
 * stays where it was if L is another line, and moves with thread 0 if L is DATA's line
 * (another word of it: a lane merged on the fill).
 * A gather whose lane misses stays in its thread's instruction FIFO until the rollback
 * flushes it (isa/nyuzi/pipeline.c: a multi-subcycle instruction is dequeued at its last
 * subcycle only, thread_select_stage.sv issue_last_subcycle), so a FIFO almost full (5
 * entries) stays so and fetches nothing meanwhile. Found on the same body: core 1's thread
 * 2 replayed its gather at 854 with 5 entries; on the RTL it fetched nothing until its lane
 * rolled back (858), then 10a8 .. 10c0 (IFD 860-866); the model dequeued it at the lane's
 * issue, fetched 10bc and 10c0 (a code-line miss) before the rollback and, the rollback
 * not cancelling that wait, refetched only when the code line came (1404 against 860).
 * Derived by hand (core_rig.h, two threads, R = 1000): thread 0's FIFO holds 5
 * instructions, visible, the head `load_gath v1, (v2)` whose lane 0's line is not in the
 * L1D, the next fetch 0x1014; thread 1's FIFO empty. At R thread 0 issues lane 0, which
 * misses (rollback in the writeback stage, R + 4); until then lanes 1-3 issue, squashed, at
 * R + 1 .. R + 3 (the thread is suspended from the writeback stage only; the scoreboard is
 * checked on the first subcycle only; memory ops one a cycle share no writeback slot): 4
 * issues, none the last subcycle, so its FIFO holds 5 until the rollback, the fetch stage
 * takes thread 1 at R .. R + 3 and thread 0's next fetch is still 0x1014.
 * The squashed lanes count towards the last subcycle, which dequeues the gather
 * (thread_select_stage.sv: the subcycle counts on at every issue, squashed or not). RTL
 * trace of gath_l2.c1t4 (session 37): thread 0's lane 13 issued at 2079 and rolled back
 * at 2082; lanes 14 and 15 issue squashed at 2080 and 2081 and nothing at 2082 (the add
 * behind the gather reads its result, pending until the rollback); the model issued lane
 * 15 again at 2082 (gath_l2.c1t4 +0.85%, exact with the rule). Derived by hand on the same
 * rig, the gather at lane 14 (subcycle 14), `add_i s3, s3, 64` behind it: R lane 14 misses
 * (rollback R + 4), R + 1 lane 15 issues squashed and the gather leaves the FIFO (its pc
 * 0x1004), R + 2 the add cannot issue (an integer op behind a memory op of the cycle before
 * writes back in the same slot: test_squash_mem.c), R + 3 it issues squashed: 3 issues,
 * the last at R + 3 (without the rule lane 15 issues at R + 1 .. R + 3 and stays). */
#include "core_rig.h"
#include "l2_rig.h"

enum { DATA = 0x10000, OTHER = 0x30000, CODE = 0x20400 };

/* Thread 1 a gather lane waiting for the line of pa until thread 0's load of DATA (at 100)
 * is due; then the code line at 102. Returns thread 0's cycle before the code line. */
static uint64_t run(rig *r, uint32_t pa)
{
    rig_open(r, (const char *const[]){"cores=1", NULL});
    nyz_core *c = &r->nm->cores[0];
    uint64_t due = rig_access(r, 0, 0, K_LOAD, 1, DATA, 100);
    nyz_thread *t1 = &c->t[1];
    t1->blocked = due;
    t1->block_why = NYZ_ST_DCACHE;
    t1->rp_kind = NYZ_RP_NONE;
    t1->rp_pa = pa;
    r->nm->cur_cycle = 102;
    nyz_fill_latency(r->nm, CODE, 0, 102 + 3, 0, 0);
    assert_true(c->t[0].blocked > due); /* (DATA read after the code line) */
    return due;
}

static void test_other_line_stays(void **state)
{
    (void)state;
    rig r;
    uint64_t due = run(&r, OTHER);
    assert_int_equal(r.nm->cores[0].t[1].blocked, due);
    sim_destroy(&r.m);
}

static void test_same_line_moves(void **state)
{
    (void)state;
    rig r;
    run(&r, DATA + 8);
    assert_int_equal(r.nm->cores[0].t[1].blocked, r.nm->cores[0].t[0].blocked);
    sim_destroy(&r.m);
}

enum { R = 1000, LOAD_GATH = 0xBA000022u /* load_gath v1, (v2) */ };

/* Thread 0's FIFO at R: the gather at lane `lane`, then `next` four times, all visible. */
static nyz_thread *lane_rig(core_rig *cr, unsigned lane, uint32_t next)
{
    core_rig_open(cr, R);
    nyz_machine *nm = cr->m.isa_state;
    nyz_thread *t0 = &cr->c->t[0];
    mem_st32le(nm->ram + 0x1000, LOAD_GATH);
    for (unsigned k = 1; k < 5; k++)
        mem_st32le(nm->ram + 0x1000 + 4 * k, next);
    t0->subcycle = lane;
    t0->pc = t0->fe_pc = 0x1000;
    t0->npc = 0x1014;
    t0->fe_n = 5;
    for (unsigned k = 0; k < 5; k++) {
        t0->fe_vis[k] = R - 1;
        t0->fe_pa[k] = 0x1000 + 4 * k;
        t0->fe_ent[k] = nyz_decode_at(nm, 0x1000 + 4 * k); /* (as the fetch decodes them) */
    }
    for (unsigned l = 0; l < NYZ_LANES; l++)
        t0->v[2][l] = DATA + 64 * l;
    cr->u->threads[0].ready_at = R;
    return t0;
}

static void test_lane_miss_keeps_fifo(void **state)
{
    (void)state;
    static core_rig cr;
    nyz_thread *t0 = lane_rig(&cr, 0, 0);
    for (uint64_t now = R; now <= R + 3; now++) {
        core_rig_cycle(&cr, now);
        assert_int_equal(t0->npc, 0x1014);
        assert_int_equal(t0->fe_n, 5);
    }
    assert_int_equal(cr.u->threads[0].issue_cycles, 4);
    assert_int_equal(t0->rb_at, R + 4);
    sim_destroy(&cr.m);
}

static void test_squashed_lanes_to_last(void **state)
{
    (void)state;
    static core_rig cr;
    nyz_thread *t0 = lane_rig(&cr, 14, 0x05010063u /* add_i s3, s3, 64 */);
    core_rig_cycle(&cr, R);
    core_rig_cycle(&cr, R + 1);
    assert_int_equal(t0->fe_pc, 0x1004);
    core_rig_cycle(&cr, R + 2);
    assert_int_equal(cr.u->threads[0].issue_cycles, 2);
    core_rig_cycle(&cr, R + 3);
    assert_int_equal(cr.u->threads[0].issue_cycles, 3);
    assert_int_equal(t0->last_issue, R + 3);
    assert_int_equal(t0->rb_at, R + 4);
    sim_destroy(&cr.m);
}

XPUSIM_TESTS(nyuzi_gather_wait, cmocka_unit_test(test_lane_miss_keeps_fifo),
             cmocka_unit_test(test_squashed_lanes_to_last), cmocka_unit_test(test_other_line_stays),
             cmocka_unit_test(test_same_line_moves))
