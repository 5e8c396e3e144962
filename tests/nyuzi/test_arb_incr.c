/* tests/nyuzi/test_arb_incr.c: the L2 arbiter's incremental settle (isa/nyuzi/bus_log.c
 * nyz_arb_run) gives what settling every grant not final again from arb_y gives. A new
 * request only changes grants from the cycle it reaches the L2 on (a store: from the cycle
 * its core's queue may send it), so while the log holds only stores to lines the L2 holds
 * (their reads use no bus) the settle starts there, from arb_y's state and the changes kept
 * since (arb_mv), and the state at the final cycle comes from the same changes. Two
 * machines take the same requests, one with nm->arb_full (every settle from arb_y, as
 * before the incremental one); after each request their answers and every piece of state
 * the arbiter leaves must be the same: the threads' suspensions and store-queue
 * acknowledgements, the log's grants and data cycles, the arbiter's pointers at arb_y, the
 * L2's grant slots and the bus. The requests: four cores' threads storing to lines the L2
 * holds at random cycles in lock step (as the cores run, core 0 first each cycle), with
 * loads that hit the L2 (a log entry that reads: the settle from arb_y), whole-line stores
 * to lines it lacks (a store that restarts the fill FIFO), partial stores to such lines
 * (read in the order made: every grant final) and bursts of load misses that fill the FIFO
 * (the L2 stalls: stores wait, the kept changes pile up and may overflow their ring). */
#include "l2_rig.h"

enum { HOT = 0x10000, COLD = 0x40000, FRESH = 0x80000 };

static uint32_t rnd_state;
static uint32_t rnd(uint32_t n)
{
    rnd_state = rnd_state * 1103515245u + 12345u;
    return (rnd_state >> 8) % n;
}

static void make(rig *r, int full)
{
    static const char *const opts[] = {"cores=4", NULL};
    rig_open(r, opts);
    r->nm->arb_full = (uint8_t)full;
    /* sixteen lines into the L2 (and core 0's L1D), long before the test's requests */
    for (uint32_t k = 0; k < 16; k++)
        rig_access(r, 0, (int)(k & 3), K_LOAD, 1, HOT + 64 * k, 10 + 40 * (uint64_t)k);
    for (uint32_t k = 0; k < 16; k++)
        rig_access(r, 1, (int)(k & 3), K_LOAD, 1, COLD + 64 * k, 700 + 40 * (uint64_t)k);
}

static unsigned most_moves; /* the most changes a kept (NYZ_ARB_MOVES: its ring was full) */

/* Every piece of state the arbiter's settle leaves, a and b the same. */
static void same(const rig *a, const rig *b, const char *what, uint64_t at)
{
    const nyz_machine *x = a->nm, *y = b->nm;
    if (x->arb_nmv > most_moves)
        most_moves = x->arb_nmv;
    char where[96];
    snprintf(where, sizeof where, "%s at %llu", what, (unsigned long long)at);
    for (int c = 0; c < x->ncores; c++)
        for (int t = 0; t < x->nthreads; t++) {
            const nyz_thread *p = &x->cores[c].t[t], *q = &y->cores[c].t[t];
            if (p->blocked != q->blocked || p->store_done != q->store_done || p->block_why != q->block_why)
                fail_msg("%s: core %d thread %d blocked %llu / %llu, store_done %llu / %llu", where, c, t,
                         (unsigned long long)p->blocked, (unsigned long long)q->blocked,
                         (unsigned long long)p->store_done, (unsigned long long)q->store_done);
        }
    if (x->bus_n != y->bus_n)
        fail_msg("%s: bus_n %u / %u", where, x->bus_n, y->bus_n);
    for (unsigned k = 0; k < x->bus_n; k++)
        if (x->bus_log[k].b != y->bus_log[k].b || x->bus_log[k].done != y->bus_log[k].done ||
            x->bus_log[k].core != y->bus_log[k].core || x->bus_log[k].tid != y->bus_log[k].tid)
            fail_msg("%s: entry %u b %llu / %llu done %llu / %llu", where, k,
                     (unsigned long long)x->bus_log[k].b, (unsigned long long)y->bus_log[k].b,
                     (unsigned long long)x->bus_log[k].done, (unsigned long long)y->bus_log[k].done);
    if (x->arb_y != y->arb_y || x->arb_core != y->arb_core)
        fail_msg("%s: arb_y %llu / %llu, arb_core %u / %u", where, (unsigned long long)x->arb_y,
                 (unsigned long long)y->arb_y, x->arb_core, y->arb_core);
    for (int c = 0; c < x->ncores; c++)
        if (x->arb_lq[c] != y->arb_lq[c] || x->arb_sq[c] != y->arb_sq[c] || x->sq_free[c] != y->sq_free[c])
            fail_msg("%s: core %d arb_lq %u / %u arb_sq %u / %u sq_free %llu / %llu", where, c, x->arb_lq[c],
                     y->arb_lq[c], x->arb_sq[c], y->arb_sq[c], (unsigned long long)x->sq_free[c],
                     (unsigned long long)y->sq_free[c]);
    if (memcmp(x->l2_slot, y->l2_slot, sizeof x->l2_slot))
        fail_msg("%s: the L2's grant slots differ", where);
    if (x->mem_free != y->mem_free || x->fq_rst != y->fq_rst || x->fq_n != y->fq_n ||
        memcmp(x->fq_r, y->fq_r, sizeof x->fq_r) || memcmp(x->fq_e, y->fq_e, sizeof x->fq_e) ||
        x->bi_free != y->bi_free || x->wr_free != y->wr_free || x->wb_n != y->wb_n ||
        memcmp(x->wb_at, y->wb_at, x->wb_n * sizeof x->wb_at[0]) ||
        memcmp(x->wb_line, y->wb_line, x->wb_n * sizeof x->wb_line[0]) ||
        memcmp(&x->arb_before, &y->arb_before, sizeof x->arb_before))
        fail_msg("%s: the bus differs", where);
}

/* One request of thread tid of core k at cycle at on machine r; returns its answer. */
static uint64_t request(rig *r, int op, int k, int tid, uint32_t pa, uint64_t at)
{
    nyz_core *c = &r->nm->cores[k];
    nyz_thread *t = &c->t[tid];
    switch (op) {
    case 0: /* a store (a line the L2 holds, or a fresh one: partial, read first) */
    case 1: /* a whole-line store */
        r->nm->cur_cycle = at;
        nyz_store_timing(r->nm, c, t, pa, op, at);
        return t->store_done;
    default: /* a load */
        return rig_access(r, k, tid, K_LOAD, 1, pa, at);
    }
}

/* The same random requests on a (incremental) and b (arb_full): each core in each cycle of
 * [from, to) makes one with probability rate / 8, other / 8 of them not a store to a line
 * the L2 holds. Returns how many of a's settles could continue (arb_tok set before). */
static unsigned drive(rig *a, rig *b, uint32_t seed, uint64_t from, uint64_t to, unsigned rate,
                      unsigned other)
{
    unsigned cont = 0;
    uint32_t fresh = FRESH + (seed & 0xff) * 0x10000;
    rnd_state = seed;
    for (uint64_t at = from; at < to; at++)
        for (int k = 0; k < 4; k++) { /* (the cores run in lock step, core 0 first) */
            if (rnd(8) >= rate)
                continue;
            int tid = (int)rnd(4), op = 0;
            uint32_t pa = HOT + 64 * rnd(16) + 4 * rnd(16);
            if (rnd(8) < other) {
                switch (rnd(4)) {
                case 0: op = 2; pa = COLD + 64 * rnd(16); break; /* a load the L2 holds */
                case 1: op = 1; pa = fresh += 64; break;          /* whole line, not in the L2 */
                case 2: op = 0; pa = fresh += 64; break;          /* partial, not in the L2 */
                default: op = 2; pa = fresh += 64; break;         /* a load miss */
                }
            }
            cont += a->nm->arb_tok;
            uint64_t x = request(a, op, k, tid, pa, at), y = request(b, op, k, tid, pa, at);
            if (x != y)
                fail_msg("op %d core %d thread %d a%08x at %llu: %llu / %llu", op, k, tid, pa,
                         (unsigned long long)at, (unsigned long long)x, (unsigned long long)y);
            same(a, b, "request", at);
        }
    return cont;
}

/* Stores only, to lines the L2 holds, about one a cycle over the four cores (the L2's
 * store queues are busy: four cycles per store and core). */
static void test_stores(void **state)
{
    (void)state;
    static rig a, b;
    make(&a, 0);
    make(&b, 1);
    unsigned cont = drive(&a, &b, 1, 2000, 4000, 2, 0);
    /* (the settles did continue: the test is not of the full settle alone) */
    assert_true(cont > 1000);
    sim_destroy(&a.m);
    sim_destroy(&b.m);
}

/* Stores with the other requests among them (a fifth of the requests), seeds 2..6. */
static void test_mixed(void **state)
{
    (void)state;
    static rig a, b;
    for (uint32_t seed = 2; seed <= 6; seed++) {
        make(&a, 0);
        make(&b, 1);
        assert_true(drive(&a, &b, seed, 2000, 3500, 2, 2) > 100);
        sim_destroy(&a.m);
        sim_destroy(&b.m);
    }
}

/* Both on one request; the answers the same. */
static void both(rig *a, rig *b, int op, int k, int tid, uint32_t pa, uint64_t at)
{
    uint64_t x = request(a, op, k, tid, pa, at), y = request(b, op, k, tid, pa, at);
    if (x != y)
        fail_msg("op %d core %d thread %d a%08x at %llu: %llu / %llu", op, k, tid, pa, (unsigned long long)at,
                 (unsigned long long)x, (unsigned long long)y);
    same(a, b, "request", at);
}

/* Four load misses of core 3 fill the FIFO (the L2 takes nothing for about 30 cycles):
 * stores of three threads of cores 0, 1 and 2 made meanwhile (when the misses' grants are
 * final) wait, their queues' pointers
 * moving every cycle, more changes than the ring keeps (NYZ_ARB_MOVES), and core 3's
 * stores reach the L2 among their grants (the state there from the kept changes: wrong
 * if a settle that lost some were continued from); then, after all of
 * them are taken, stores of core 2 every 5 cycles make them final (the state at arb_y
 * from the kept changes: wrong if the settle that lost some were continued from). Then every core stores every
 * cycle through such stalls (the log fills up: every grant final). */
static void test_stall(void **state)
{
    (void)state;
    static rig a, b;
    make(&a, 0);
    make(&b, 1);
    most_moves = 0;
    for (uint64_t at = 2000; at < 2600; at += 150) {
        for (int t = 0; t < 4; t++)
            both(&a, &b, 2, 3, t, FRESH + 0x100000 + (uint32_t)at * 64 + 64 * (uint32_t)t, at + (uint64_t)t);
        for (int k = 0; k < 3; k++)
            for (int t = 0; t < 3; t++)
                both(&a, &b, 0, k, t, HOT + 64 * (uint32_t)(4 * k + t), at + 10);
        for (uint64_t y = at + 33; y < at + 45; y += 2) /* (reaching the L2 among them) */
            both(&a, &b, 0, 3, (int)(y & 3), HOT + 64 * 15, y);
        for (uint64_t y = at + 70; y < at + 120; y += 5)
            both(&a, &b, 0, 2, (int)(y & 3), HOT + 64 * 12 + 4 * (uint32_t)(y & 15), y);
    }
    assert_int_equal(most_moves, NYZ_ARB_MOVES);
    for (uint64_t at = 2600; at < 3200; at += 150) {
        for (int t = 0; t < 4; t++)
            both(&a, &b, 2, 3, t, FRESH + 0x200000 + (uint32_t)at * 64 + 64 * (uint32_t)t, at + (uint64_t)t);
        drive(&a, &b, 100 + (uint32_t)at, at + 4, at + 150, 8, 0);
    }
    sim_destroy(&a.m);
    sim_destroy(&b.m);
}

XPUSIM_TESTS(arb_incr, cmocka_unit_test(test_stores), cmocka_unit_test(test_mixed),
             cmocka_unit_test(test_stall))
