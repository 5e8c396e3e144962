/* tests/nyuzi/test_squash_mem.c: the issues behind a rolled-back memory access, and the
 * loads that hit a line still being filled (isa/nyuzi/pipeline.c, timing.c l1_access).
 * The RTL suspends a thread whose access rolls back only from the writeback stage
 * (thread_select_stage.sv: thread_blocked is set from wb_suspend_thread_oh), so until the
 * rollback, issue + 4, the thread issues the instructions behind it, squashed, which take
 * issue and writeback slots; each issue marks its destination on the scoreboard, and the
 * rollback clears the marks of the squashed ones and of the access itself (scoreboard.sv
 * rollback_bitmap), so an instruction that reads one of them does not issue before the
 * flush. RTL trace of dinv_pend.c4t1 (session 37): a dinvalidate issued at 840 rolls back
 * at 843; `add_i s3, s3, 64` behind it issues squashed at 842 (not at 841: the writeback
 * port, a memory op at 840 and an integer op at 841 write back in the same cycle); the
 * store behind it reads s3 and does not issue at 843.
 * Derived by hand for one thread (the other disabled), its FIFO holding, all issuable from
 * R = 1000, `load_32 s1, (s2)` to a line in neither cache (rolls back at R + 4), then:
 * - `add_i s3, s3, 64; store_32 s20, (s3)`: R + 1 the add cannot go (its writeback in the
 *   load's slot, R + 2), R + 2 it issues squashed, R + 3 the store waits for s3: two issues
 *   by R + 3, the last at R + 2 (the old model held the thread from the load's issue: one);
 * - `add_i s4, s1, 1`: it reads the load's destination, pending until the rollback: one.
 * An access that traps (a DTLB miss) leaves its destination marked as well: the mark is set
 * at the issue and, with no writeback, cleared only by its rollback (session 38, RTL trace
 * of tlb_inval_all.c1t4: a load_sync that misses the DTLB issues at 833, rolls back at 836,
 * `add_i s13, s13, 1` behind it is not issued at 835 or 836). The same load with the MMU
 * on and the DTLB empty traps, rolls back at R + 4: `add_i s4, s1, 1` does not issue by
 * R + 3 (one issue; without the rule the add issued squashed at R + 2: two).
 * Fill visibility: l1_l2_interface.sv writes a fill's tag in its second stage (the
 * response + 1), which a load issued at the response reads in its tag stage (issue + 1);
 * the model's fill arrives 4 cycles after the response (RTL trace of l2hit_evict.4: load
 * at 842, response 849, the model's arrival 853; thread 2's load to the line issued at 849
 * hits, thread 0's at 846 missed). So with a fill of the line arriving at A, a load issued
 * at A - 4 hits (no rollback), one at A - 5 rolls back. */
#include "core_rig.h"

enum { R = 1000, LINE = 0x2000 };

/* Thread 0's FIFO at R: the words at 0x1000.., all visible; thread 1 disabled. */
static void rig_make(core_rig *r, const uint32_t *words, unsigned n)
{
    core_rig_open(r, R);
    nyz_machine *nm = r->m.isa_state;
    nyz_thread *t = &r->c->t[0];
    for (unsigned k = 0; k < n; k++) {
        mem_st32le(nm->ram + 0x1000 + 4 * k, words[k]);
        t->fe_ent[k] = nyz_decode_at(nm, 0x1000 + 4 * k);
        t->fe_pa[k] = 0x1000 + 4 * k;
        t->fe_vis[k] = R - 1;
    }
    t->pc = t->fe_pc = 0x1000;
    t->npc = 0x1000 + 4 * n;
    t->fe_n = (uint8_t)n;
    t->s[2] = LINE;
    t->s[3] = LINE;
    r->u->threads[0].ready_at = R;
    r->u->threads[1].state = SIM_T_DISABLED;
}

enum {
    LOAD_S1_S2 = 0xa8000022,   /* load_32 s1, (s2) */
    ADD_S3 = 0x05010063,       /* add_i s3, s3, 64 */
    STORE_S20_S3 = 0x88000283, /* store_32 s20, (s3) */
    ADD_S4_S1 = 0x05000481,    /* add_i s4, s1, 1 */
};

static void test_squashed_issue_marks(void **state)
{
    (void)state;
    static core_rig r;
    const uint32_t w[] = {LOAD_S1_S2, ADD_S3, STORE_S20_S3, 0, 0};
    rig_make(&r, w, 5);
    core_rig_run(&r, R, R + 3);
    assert_int_equal(r.u->threads[0].issue_cycles, 2);
    assert_int_equal(r.c->t[0].last_issue, R + 2);
    assert_int_equal(r.c->t[0].rb_at, R + 4);
    sim_destroy(&r.m);
}

static void test_access_destination_pending(void **state)
{
    (void)state;
    static core_rig r;
    const uint32_t w[] = {LOAD_S1_S2, ADD_S4_S1, 0, 0, 0};
    rig_make(&r, w, 5);
    core_rig_run(&r, R, R + 3);
    assert_int_equal(r.u->threads[0].issue_cycles, 1);
    assert_int_equal(r.c->t[0].last_issue, R);
    sim_destroy(&r.m);
}

static void test_trap_destination_pending(void **state)
{
    (void)state;
    static core_rig r;
    const uint32_t w[] = {LOAD_S1_S2, ADD_S4_S1, 0, 0, 0};
    rig_make(&r, w, 5);
    r.c->t[0].flags = NYZ_F_S | NYZ_F_M;
    r.c->tlb_miss_handler = 0x1180;
    core_rig_run(&r, R, R + 3);
    assert_int_equal(r.c->t[0].rb_pc, 0x1180);
    assert_int_equal(r.c->t[0].rb_at, R + 4);
    assert_int_equal(r.u->threads[0].issue_cycles, 1);
    sim_destroy(&r.m);
}

/* A load issued at R with a fill of its line arriving at R + ahead: 1 if it rolled back. */
static int load_rolls_back(unsigned ahead)
{
    static core_rig r;
    const uint32_t w[] = {LOAD_S1_S2, 0, 0, 0, 0};
    rig_make(&r, w, 5);
    nyz_l1_fill_add(&r.c->l1d, LINE, R + ahead);
    core_rig_cycle(&r, R);
    int rb = r.c->t[0].rb_at != 0;
    assert_int_equal(r.u->threads[0].issue_cycles, 1);
    sim_destroy(&r.m);
    return rb;
}

static void test_fill_visible_from_response(void **state)
{
    (void)state;
    assert_int_equal(load_rolls_back(4), 0);
    assert_int_equal(load_rolls_back(5), 1);
}

XPUSIM_TESTS(nyuzi_squash_mem, cmocka_unit_test(test_squashed_issue_marks),
             cmocka_unit_test(test_access_destination_pending),
             cmocka_unit_test(test_trap_destination_pending),
             cmocka_unit_test(test_fill_visible_from_response))
