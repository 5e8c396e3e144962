/* tests/nyuzi/test_memo_key.c: the key of the memoized periods (isa/nyuzi/memo_key.c).
 * - The structures the key walks have the sizes it was written for: a field added to
 *   nyuzi.h (or sim_thread) fails here until nyz_memo_walk names it or says why a period
 *   does not read it (then nyz_memo_key_sizes is updated).
 * - Relative cycles: the state saved at cycle b, restored at b + d and saved again at b + d
 *   gives the same key (what a replayed period does to the timing state), and the restored
 *   cycles are the saved ones moved by d.
 * - The key sees the fields it names: changing one of them (a thread's last issue, its
 *   FIFO's next pc, the core's round-robin pointer, a store record's visibility) changes
 *   the key; a cycle at or before b in a field read only as a bound (a register's ready
 *   cycle) does not. */
#include <string.h>
#include "../testlib.h"
#include "../../isa/isa.h"
#include "../../isa/nyuzi/memo.h"

extern const isa_ops isa_nyuzi;

static void test_sizes(void **state)
{
    (void)state;
    assert_int_equal(sizeof(nyz_thread), nyz_memo_key_sizes[0]);
    assert_int_equal(sizeof(nyz_core), nyz_memo_key_sizes[1]);
    assert_int_equal(sizeof(nyz_cache), nyz_memo_key_sizes[2]);
    assert_int_equal(sizeof(nyz_machine), nyz_memo_key_sizes[3]);
    assert_int_equal(sizeof(sim_thread), nyz_memo_key_sizes[4]);
}

typedef struct rig {
    sim_machine m;
    nyz_machine *nm;
    sim_unit *u;
    nyz_core *c;
    uint64_t a[NYZ_MEMO_KEY_CAP], b[NYZ_MEMO_KEY_CAP];
} rig;

static void rig_make(rig *r)
{
    char err[256];
    sim_opts o;
    opt_init(&o);
    opt_parse(&o, "mem=0x100000");
    if (sim_create(&r->m, &isa_nyuzi, &o, err, sizeof err))
        fail_msg("create: %s", err);
    r->nm = r->m.isa_state;
    r->u = &r->m.units[0];
    r->c = r->u->isa;
    /* a running state: every thread ready, a FIFO entry, a rollback due, a store record */
    for (int i = 0; i < r->c->nthreads; i++) {
        nyz_thread *t = &r->c->t[i];
        r->u->threads[i].state = SIM_T_READY;
        r->u->threads[i].ready_at = 1000 + (uint64_t)i;
        t->fe_sync = 0;
        t->pc = t->fe_pc = 0x1000;
        t->npc = 0x1004;
        t->fe_n = 1;
        t->fe_vis[t->fe_h] = 1003;
        t->last_issue = 998;
        t->reg_ready[3] = 1005;
        t->reg_ready[4] = 10; /* long past */
        t->waste_at = UINT64_MAX;
    }
    r->c->t[1].rb_at = 1002;
    r->c->t[1].rb_pc = 0x1040;
    r->c->due = 1002;
    r->nm->undo_on = 1;
    r->nm->nundo = 1;
    r->nm->undo[0].line = 0x2000;
    r->nm->undo[0].gid = 2;
    r->nm->undo[0].vis = 1007;
    r->nm->undo[0].l2vis = 1007;
    r->nm->undo[0].serial = r->nm->undo_serial = 5;
}

static size_t key(rig *r, uint64_t base, uint64_t *buf)
{
    nyz_memo_walker w = {NYZ_MEMO_SAVE, 0, base, buf, 0};
    nyz_memo_walk(&w, r->nm, r->u, r->c);
    assert_int_equal(w.bad, 0);
    return w.n;
}

static void test_relative(void **state)
{
    (void)state;
    static rig r;
    rig_make(&r);
    size_t n = key(&r, 999, r.a);
    nyz_memo_walker w = {NYZ_MEMO_RESTORE, 0, 999 + 52, r.a, 0};
    nyz_memo_walk(&w, r.nm, r.u, r.c);
    assert_int_equal(w.n, n);
    /* moved by 52: ready 1000 -> 1052, FIFO head visible 1003 -> 1055, rollback 1002 ->
     * 1054, last issue 998 -> 1050, register 3 ready 1005 -> 1057, the record's visibility
     * 1007 -> 1059; register 4's cycle 10 is past at both and stays */
    assert_int_equal(r.u->threads[0].ready_at, 1052);
    assert_int_equal(r.c->t[0].fe_vis[r.c->t[0].fe_h], 1055);
    assert_int_equal(r.c->t[1].rb_at, 1054);
    assert_int_equal(r.c->t[2].last_issue, 1050);
    assert_int_equal(r.c->t[3].reg_ready[3], 1057);
    assert_int_equal(r.c->t[3].reg_ready[4], 10);
    assert_int_equal(r.nm->undo[0].vis, 1059);
    assert_int_equal(key(&r, 999 + 52, r.b), n);
    assert_memory_equal(r.a, r.b, n * sizeof r.a[0]);
    sim_destroy(&r.m);
}

/* Change one field, compare the key with the unchanged one's, put the field back. */
#define CHANGES(lv, v, expect)                                                            \
    do {                                                                                  \
        __typeof__(lv) old_ = (lv);                                                       \
        (lv) = (v);                                                                       \
        size_t m_ = key(&r, 999, r.b);                                                    \
        int differs_ = m_ != n || memcmp(r.a, r.b, n * sizeof r.a[0]) != 0;               \
        assert_int_equal(differs_, (expect));                                             \
        (lv) = old_;                                                                      \
    } while (0)

static void test_fields(void **state)
{
    (void)state;
    static rig r;
    rig_make(&r);
    size_t n = key(&r, 999, r.a);
    CHANGES(r.c->t[2].last_issue, 997, 1);
    CHANGES(r.c->t[0].npc, 0x1008, 1);
    CHANGES(r.c->t[1].rb_pc, 0x1044, 1);
    CHANGES(r.c->t[3].fe_vis[r.c->t[3].fe_h], 1004, 1);
    CHANGES(r.u->rr, 2, 1);
    CHANGES(r.nm->undo[0].vis, 1008, 1);
    CHANGES(r.nm->undo[0].bytes, 0xf0, 1);
    CHANGES(r.c->t[0].reg_ready[3], 1006, 1);
    CHANGES(r.c->t[0].reg_ready[4], 998, 0);  /* past either way: the same key */
    CHANGES(r.c->t[0].store_done, 999, 0);    /* (0 and 999: both at or before b) */
    CHANGES(r.c->t[0].s[7], 12345, 0);        /* architectural: not in the key */
    sim_destroy(&r.m);
}

XPUSIM_TESTS(nyuzi_memo_key, cmocka_unit_test(test_sizes), cmocka_unit_test(test_relative),
             cmocka_unit_test(test_fields))
