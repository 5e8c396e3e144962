/* tests/nyuzi/test_fetch_rollback.c: which thread the fetch stage chooses in the cycle a
 * thread is rolled back (isa/nyuzi/pipeline.c due_events, fetch_cycle). The RTL
 * (ifetch_tag_stage.sv) chooses round robin among the threads whose fetch is enabled,
 * ts_fetch_en = !almost_full of the thread's instruction FIFO (thread_select_stage.sv: 8
 * entries, almost full at 5), and does not leave out a thread being rolled back in that
 * cycle: if it chooses one, the fetch is dropped (ift_instruction_requested deasserted).
 * The FIFO is flushed at the end of that cycle, so a thread whose FIFO was almost full
 * before the rollback is not enabled then: the other thread is chosen. RTL trace of
 * llsc.c1t2 (session 34): thread 0's store_sync rolls back at 444 with 5 instructions in
 * its FIFO; thread 1 is fetched at 444 and 445 (ifetch_data 445, 446 in the trace's
 * cycles), thread 0 from 446; the model chose thread 0 at 444, dropped the fetch, and
 * ran one cycle behind from there (pingpong.c1t2 +2.3%: one cycle per poll).
 * Derived by hand for a core of two threads, both ready, the fetch pointer at thread 0
 * (thread 1 was chosen last), thread 1's FIFO empty (its next fetch 0x1100), thread 0
 * rolled back to 0x1040 at cycle R = 1000:
 * - FIFO almost full before the flush (6 entries there): at R thread 0 is not enabled,
 *   thread 1 is fetched (one entry, issuable at R + 4, FE_DEPTH) and the pointer is at
 *   thread 0 again; at R + 1 thread 0 fetches 0x1040, issuable at R + 5;
 * - 4 entries (not almost full): thread 0 is chosen at R and the fetch dropped (its FIFO
 *   stays empty; the pointer moves to thread 1), thread 1 is fetched at R + 1. */
#include <string.h>
#include "../testlib.h"
#include "../../isa/isa.h"
#include "../../isa/nyuzi/nyuzi.h"

extern const isa_ops isa_nyuzi;

enum { R = 1000 };

typedef struct rig {
    sim_machine m;
    sim_unit *u;
    nyz_core *c;
} rig;

/* The state at the start of cycle R; `entries` in thread 0's FIFO before its rollback. */
static void rig_make(rig *r, unsigned entries)
{
    char err[256];
    sim_opts o;
    memset(r, 0, sizeof *r);
    opt_init(&o);
    opt_parse(&o, "mem=0x100000");
    opt_parse(&o, "threads=2");
    opt_parse(&o, "nyuzi_memo=off");
    if (sim_create(&r->m, &isa_nyuzi, &o, err, sizeof err))
        fail_msg("create: %s", err);
    nyz_machine *nm = r->m.isa_state;
    r->u = &r->m.units[0];
    r->c = r->u->isa;
    for (uint32_t a = 0x1000; a < 0x1200; a += 4) /* nop (or s0, s0, s0) everywhere */
        mem_st32le(nm->ram + a, 0);
    for (uint32_t a = 0x1000; a < 0x1200; a += 64) /* the lines in the L1I: fetches hit */
        nyz_cache_access(&r->c->l1i, a, 1, 0);
    for (int i = 0; i < 2; i++) {
        nyz_thread *t = &r->c->t[i];
        sim_thread *st = &r->u->threads[i];
        st->state = SIM_T_READY;
        st->ready_at = SIM_NEVER; /* nothing to issue at R */
        t->fe_sync = 0;
        t->fe_h = 0;
        t->fe_n = 0;
        t->iwait = 0;
        t->waste_at = 0;
        t->last_issue = R - 1;
    }
    nyz_thread *t0 = &r->c->t[0], *t1 = &r->c->t[1];
    t0->pc = t0->fe_pc = 0x1000;
    t0->npc = 0x1000 + 4 * entries;
    t0->fe_n = (uint8_t)entries;
    for (unsigned k = 0; k < entries; k++)
        t0->fe_vis[k] = R - 1; /* all in the FIFO already */
    t0->rb_at = R;
    t0->rb_pc = 0x1040;
    t0->rb_flags = t0->flags;
    t1->pc = t1->fe_pc = t1->npc = 0x1100;
    r->c->frr = 0;
    r->c->due = R;
}

/* One cycle of the core. */
static void cycle(rig *r, uint64_t now)
{
    isa_nyuzi.unit_run(&r->m, r->u, now, now + 1);
}

static void test_almost_full_not_chosen(void **state)
{
    (void)state;
    static rig r;
    rig_make(&r, 6);
    nyz_thread *t0 = &r.c->t[0], *t1 = &r.c->t[1];
    cycle(&r, R);
    assert_int_equal(t0->fe_n, 0);
    assert_int_equal(t1->fe_n, 1);
    assert_int_equal(t1->fe_vis[t1->fe_h], R + 4);
    assert_int_equal(r.c->frr, 0);
    cycle(&r, R + 1);
    assert_int_equal(t0->fe_n, 1);
    assert_int_equal(t0->fe_vis[t0->fe_h], R + 5);
    assert_int_equal(t0->npc, 0x1044);
    assert_int_equal(t1->fe_n, 1);
    sim_destroy(&r.m);
}

static void test_not_full_chosen_and_dropped(void **state)
{
    (void)state;
    static rig r;
    rig_make(&r, 4);
    nyz_thread *t0 = &r.c->t[0], *t1 = &r.c->t[1];
    cycle(&r, R);
    assert_int_equal(t0->fe_n, 0);
    assert_int_equal(t1->fe_n, 0);
    assert_int_equal(r.c->frr, 1);
    cycle(&r, R + 1);
    assert_int_equal(t1->fe_n, 1);
    assert_int_equal(t1->fe_vis[t1->fe_h], R + 5);
    assert_int_equal(t0->fe_n, 0);
    sim_destroy(&r.m);
}

XPUSIM_TESTS(nyuzi_fetch_rollback, cmocka_unit_test(test_almost_full_not_chosen),
             cmocka_unit_test(test_not_full_chosen_and_dropped))
