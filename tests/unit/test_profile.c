/* tests/unit/test_profile.c: the profile's two feeds (core/profile.h). The hook path
 * (prof_before before an instruction executes, prof_record after) and the fast path
 * (prof_issue once per issue with the counters as at the issue, absolute or reported with
 * prof_stall) must give the same rows and call edges, cycle for cycle. A small case is
 * derived by hand; a long generated one (several threads, calls taken and not, returns,
 * a longjmp-like return past a frame, rolled-back issues that retire nothing, stalls
 * counted between issues and while an instruction executes, PCs outside the thread's
 * window that take the hash) is run through all three feeds and compared; the batch
 * counters (prof_bat) against prof_issue likewise. The machine is fake_isa.h's, only for its
 * units and code space: nothing runs, the test plays the issues. */
#include "test_profile.h" /* (the machine, two profiles of it, check_same, rnd) */

/* One issue to play: thread, pc, cycle; stalls counted before it (gap) and while it executes
 * (own); whether it retires. */
typedef struct issue {
    int g;
    uint64_t pc, cycle;
    uint64_t gap[NCAUSE], own[NCAUSE];
    int retires;
} issue;

/* FEED_STALL: cause 0's gap with prof_issue_stall (flows mapped, prof_thread.fm), the rest
 * as FEED_DELTA; FEED_MIX: prof_issue_stall or prof_issue by turns (a DPU thread fed by the
 * burst and by the generic executor) */
enum { FEED_HOOK, FEED_ABS, FEED_DELTA, FEED_STALL, FEED_MIX, NFEED };

/* Play the issues into a new profile of m by one feed; then the threads halt at end (with
 * tail stalls after their last issue) and prof_finish charges the rest. */
static prof_state *play(sim_machine *m, int feed, const issue *v, int n, uint64_t end, const uint64_t *tail)
{
    prof_state *p = prof_new(m);
    assert_non_null(p);
    for (int i = 0; i < n; i++) {
        const issue *x = &v[i];
        sim_thread *th = &m->units[0].threads[x->g];
        th->started = 1;
        const int by_stall = feed == FEED_STALL || (feed == FEED_MIX && (i / 3 + x->g) % 4 != 0);
        for (int c = 0; c < NCAUSE; c++) {
            th->stalls[c] += x->gap[c];
            if (feed >= FEED_DELTA && x->gap[c] && !(by_stall && c == 0))
                prof_stall(p, x->g, c, x->gap[c]);
        }
        if (feed == FEED_HOOK)
            prof_before(p, 0, x->g, th);
        else if (by_stall)
            prof_issue_stall(p, x->g, x->pc, x->cycle, th->instructions, 0, x->gap[0]);
        else
            prof_issue(p, x->g, x->pc, x->cycle, th->instructions, feed == FEED_ABS ? th->stalls : NULL);
        for (int c = 0; c < NCAUSE; c++) {
            th->stalls[c] += x->own[c];
            if (feed >= FEED_DELTA && x->own[c])
                prof_stall(p, x->g, c, x->own[c]);
        }
        th->instructions += (uint64_t)x->retires;
        if (feed == FEED_HOOK)
            prof_record(p, 0, x->g, x->pc, x->cycle, th);
        assert_false(sim_stopped(m));
    }
    for (int g = 0; g < m->units[0].nthreads; g++) {
        sim_thread *th = &m->units[0].threads[g];
        for (int c = 0; c < NCAUSE && th->started; c++)
            th->stalls[c] += tail[c];
        th->state = SIM_T_HALTED;
        th->halted_at = end;
    }
    prof_finish(p, m);
    return p;
}

/* The call edges of a profile of walk()'s program (below) on nt threads, by what they must be
 * on their own (not against another feed, which a fault in the edges' store or their copy
 * out would share): sorted by site, target, thread and each triple once, a call at 0x14 of
 * a function to a function's entry (or to itself: a call rolled back issues again, which is
 * not its fall-through), on a thread of the run, called at least once. Returns the calls in
 * all. */
static uint64_t check_edges(const prof_state *p, int nt)
{
    prof_edge *e;
    const int ne = prof_edges(p, -1, &e);
    assert_true(ne > 64); /* (the edges' store grew: prof_edge_get) */
    uint64_t calls = 0;
    for (int i = 0; i < ne; i++) {
        assert_int_equal(e[i].site & 0xff, 0x14);
        assert_true((e[i].target & 0xff) == 0 || e[i].target == e[i].site);
        assert_true(e[i].thread >= 0 && e[i].thread < nt);
        assert_true(e[i].calls >= 1);
        calls += e[i].calls;
        if (i > 0) {
            const prof_edge *a = &e[i - 1], *b = &e[i];
            assert_true(a->site < b->site || (a->site == b->site && (a->target < b->target ||
                                                                     (a->target == b->target && a->thread < b->thread))));
        }
    }
    free(e);
    return calls;
}

#define A (FAKE_CODE_BASE + 0x00)
#define B (FAKE_CODE_BASE + 0x04)
#define CALL (FAKE_CODE_BASE + 0x14)
#define F (FAKE_CODE_BASE + 0x200)
#define RET (FAKE_CODE_BASE + 0x228)

/* One thread: A@0 (2 cause-a stalls counted before it, 1 cause-b while it executes), B@3
 * (3 cause-a stalls counted between A's issue and B's), CALL@4, F@9 (the call taken),
 * RET@10, A@12 (not the call's return address CALL+4: the frame stays open), halt at 20 with
 * 1 cause-c stall after the last issue. By the rule (everything from an issue to the
 * thread's next issue is the first one's; before the first issue: the first's; after the
 * last: the last's up to the halt):
 *   A    insns 2, cycles (3-0) + (20-12) = 11, a 2 + 3 = 5, b 1, c 1
 *   B    insns 1, cycles 4-3 = 1;  CALL 1, 9-4 = 5;  F 1, 10-9 = 1;  RET 1, 12-10 = 2
 *   edge CALL->F: 1 call, still open at the end: F, RET and A's second issue = 3
 *   instructions, cycles 20 - 9 = 11, c 1 (the tail) */
static void test_by_hand(void **state)
{
    (void)state;
    const issue v[] = {
        {0, A, 0, {2}, {0, 1}, 1}, {0, B, 3, {3}, {0}, 1},   {0, CALL, 4, {0}, {0}, 1},
        {0, F, 9, {0}, {0}, 1},    {0, RET, 10, {0}, {0}, 1}, {0, A, 12, {0}, {0}, 1},
    };
    const uint64_t tail[NCAUSE] = {0, 0, 1};
    for (int feed = FEED_HOOK; feed < NFEED; feed++) {
        sim_machine m;
        make(&m, 1);
        prof_state *p = play(&m, feed, v, 6, 20, tail);
        prof_entry *e;
        assert_int_equal(prof_sorted(p, -1, &e), 5);
        /* sorted by pc: A, B, CALL, F, RET */
        const uint64_t want[5][5] = {{A, 2, 11, 5, 1}, {B, 1, 1, 0, 0}, {CALL, 1, 5, 0, 0}, {F, 1, 1, 0, 0}, {RET, 1, 2, 0, 0}};
        for (int i = 0; i < 5; i++) {
            assert_int_equal(e[i].pc, want[i][0]);
            assert_int_equal(e[i].insns, want[i][1]);
            assert_int_equal(e[i].cycles, want[i][2]);
            assert_int_equal(e[i].stalls[0], want[i][3]);
            assert_int_equal(e[i].stalls[1], want[i][4]);
            assert_int_equal(e[i].stalls[2], i == 0 ? 1 : 0);
        }
        free(e);
        prof_edge *x;
        assert_int_equal(prof_edges(p, -1, &x), 1);
        assert_int_equal(x[0].site, CALL);
        assert_int_equal(x[0].target, F);
        assert_int_equal(x[0].calls, 1);
        assert_int_equal(x[0].insns, 3);
        assert_int_equal(x[0].cycles, 11);
        assert_int_equal(x[0].stalls[2], 1);
        free(x);
        prof_free(p);
        sim_destroy(&m);
    }
}

/* A call left by a jump, twice: CALL@1 falls through (not taken) to CALL+4@2, so the return
 * address has its row before the calls; A@3, CALL@4 calls F@6, F+4@7 jumps straight to the
 * return address CALL+4@9 (no return instruction), CALL+8@10; the same again from A@11 (F@14,
 * CALL+4@17, CALL+8@18), halt at 21. The first issue at an open call's return address closes
 * the call however it gets there (the rule above), so each call closes at CALL+4 in every
 * feed (the flows-mapped one too, where that issue follows a plain row: the push must take
 * the address's row out of the map; the second call is the one pushed by the short path, with
 * the edge its call row remembers): 2 calls, instructions F and F+4 twice = 4 (the retired
 * count 7 - 5 and 13 - 11), cycles (9 - 6) + (17 - 14) = 6. (The second left open would count
 * to the halt: 2 + 4 and 3 + 7.) */
static void test_return_by_jump(void **state)
{
    (void)state;
    const issue v[] = {
        {0, A, 0, {0}, {0}, 1},         {0, CALL, 1, {0}, {0}, 1},       {0, CALL + 4, 2, {0}, {0}, 1},
        {0, A, 3, {0}, {0}, 1},         {0, CALL, 4, {0}, {0}, 1},       {0, F, 6, {0}, {0}, 1},
        {0, F + 4, 7, {0}, {0}, 1},     {0, CALL + 4, 9, {0}, {0}, 1},   {0, CALL + 8, 10, {0}, {0}, 1},
        {0, A, 11, {0}, {0}, 1},        {0, CALL, 12, {0}, {0}, 1},      {0, F, 14, {0}, {0}, 1},
        {0, F + 4, 15, {0}, {0}, 1},    {0, CALL + 4, 17, {0}, {0}, 1},  {0, CALL + 8, 18, {0}, {0}, 1},
    };
    const uint64_t tail[NCAUSE] = {0};
    for (int feed = FEED_HOOK; feed < NFEED; feed++) {
        sim_machine m;
        make(&m, 1);
        prof_state *p = play(&m, feed, v, 15, 21, tail);
        prof_edge *x;
        assert_int_equal(prof_edges(p, -1, &x), 1);
        assert_int_equal(x[0].site, CALL);
        assert_int_equal(x[0].target, F);
        assert_int_equal(x[0].calls, 2);
        assert_int_equal(x[0].insns, 4);
        assert_int_equal(x[0].cycles, 6);
        free(x);
        prof_free(p);
        sim_destroy(&m);
    }
}

/* The tests' program: the pc after an issue at pc that retired. An address ending in 0x14
 * calls (3 times in 4) a function at a multiple of 0x100, 1 in far_in of them in the far
 * copy at 0x900000 (outside the window); one ending in 0x28 returns (1 in 8 past a frame, as
 * a longjmp does); at 0x3c and on a loop back, with to_ret 1 in 4 of them a branch to 0x18
 * (the call's return address: an open call's, in a recursion, which pops the frame). */
static int direct_calls; /* (walk: most calls from a site to one function, as direct calls do) */
static uint64_t walk(uint64_t *s, uint64_t pc, uint64_t *stk, int *depth, uint64_t far_in, int to_ret)
{
    uint64_t base = pc >= 0x900000 ? 0x900000 : FAKE_CODE_BASE;
    const uint64_t off = (pc - base) & 0xff;
    if (off == 0x14 && rnd(s) % 4 && *depth < 64) {
        stk[(*depth)++] = pc + 4;
        /* direct: function k calls k + 1, or (k % 4 == 0, 1 in 4) itself (recursion) */
        const uint64_t k = ((pc - base) >> 8) & 15;
        if (direct_calls && rnd(s) % 8)
            return base + 0x100 * (k % 4 || rnd(s) % 4 ? (k + 1) % 16 : k);
        base = rnd(s) % far_in == 0 ? 0x900000 : FAKE_CODE_BASE;
        return base + 0x100 * (rnd(s) % 16);
    }
    if (off == 0x28 && *depth) {
        if (*depth > 1 && rnd(s) % 8 == 0)
            (*depth)--; /* past a frame */
        return stk[--*depth];
    }
    if (off >= 0x3c)
        return (pc & ~(uint64_t)0xff) + (!to_ret || rnd(s) % 4 ? 0x40 * (rnd(s) % 3) : 0x18);
    return pc + 4;
}

/* A long run of 4 threads over 16 functions of 64 bytes (at FAKE_CODE_BASE, and one copy
 * far outside the code region, in the hash): each thread walks its code, calls (0x14: taken
 * 3 times in 4 to a function entry, else falls through), returns at 0x28 to the caller's
 * return address (sometimes to the one below it, a longjmp), rolls back one issue in 16. */
static void test_feeds_agree(void **state)
{
    (void)state;
    enum { NT = 4, N = 40000 };
    issue *v = calloc(N, sizeof *v);
    assert_non_null(v);
    uint64_t s = 0x9e3779b97f4a7c15ull, pc[NT], cyc[NT] = {0}, stk[NT][64], calls = 0;
    int depth[NT] = {0}, called[NT] = {0};
    for (int g = 0; g < NT; g++)
        pc[g] = FAKE_CODE_BASE + 0x40 * (uint64_t)g;
    for (int i = 0; i < N; i++) {
        int g = (int)(rnd(&s) % NT);
        issue *x = &v[i];
        x->g = g;
        x->pc = pc[g];
        calls += (uint64_t)called[g]; /* (a call's edge is charged at its callee's first issue) */
        called[g] = 0;
        cyc[g] += 1 + rnd(&s) % 4;
        x->cycle = cyc[g];
        for (int c = 0; c < NCAUSE; c++) {
            x->gap[c] = rnd(&s) % 8 == 0 ? rnd(&s) % 5 : 0;
            x->own[c] = rnd(&s) % 16 == 0 ? rnd(&s) % 3 : 0;
        }
        x->retires = rnd(&s) % 16 != 0;
        called[g] = !x->retires && (x->pc & 0xff) == 0x14; /* (a call's issue again: its edge) */
        if (!x->retires)
            continue; /* rolled back: the same pc issues again */
        const int d0 = depth[g];
        pc[g] = walk(&s, pc[g], stk[g], &depth[g], 8, 0);
        called[g] = depth[g] > d0; /* (only a call makes the stack deeper) */
    }
    uint64_t end = 0;
    for (int g = 0; g < NT; g++)
        end = cyc[g] > end ? cyc[g] : end;
    const uint64_t tail[NCAUSE] = {1, 2, 3, 4, 5};
    sim_machine m[NFEED];
    prof_state *p[NFEED];
    for (int f = 0; f < NFEED; f++) {
        make(&m[f], NT);
        p[f] = play(&m[f], f, v, N, end + 7, tail);
    }
    /* the stall feed mapped its threads' flows (their first issue came through it) */
    for (int g = 0; g < NT; g++)
        assert_int_equal(p[FEED_STALL]->th[g].fm, 1);
    assert_int_equal(check_edges(p[0], NT), calls); /* the case has call edges */
    assert_true(p[0]->hn > 0); /* and rows in the hash (the far copy, calls, returns) */
    for (int f = 1; f < NFEED; f++)
        check_same(p[0], p[f]);
    /* the totals are the threads' counters */
    prof_entry *r;
    int nr = prof_sorted(p[1], -1, &r);
    uint64_t ins = 0, st[NCAUSE] = {0}, want_st[NCAUSE] = {0}, want_ins = 0;
    for (int i = 0; i < nr; i++) {
        ins += r[i].insns;
        for (int c = 0; c < NCAUSE; c++)
            st[c] += r[i].stalls[c];
    }
    for (int g = 0; g < NT; g++) {
        want_ins += m[1].units[0].threads[g].instructions;
        for (int c = 0; c < NCAUSE; c++)
            want_st[c] += m[1].units[0].threads[g].stalls[c];
    }
    assert_int_equal(ins, want_ins);
    for (int c = 0; c < NCAUSE; c++)
        assert_int_equal(st[c], want_st[c]);
    free(r);
    for (int f = 0; f < NFEED; f++) {
        prof_free(p[f]);
        sim_destroy(&m[f]);
    }
    free(v);
}

/* The batch counters (prof_bat), driven as a functional loop drives them (isa/dpu/func_rec.c:
 * runs of issues a fixed step apart, each counted with one subtraction; a pc that does not
 * count ends the thread's batch, goes to prof_issue, and a batch begins again after it when
 * the thread's open row is a plain one), against prof_issue for every issue. */
typedef struct bat_drv {
    prof_thread *pt;
    int64_t *bat;    /* pt->bat in a batch, else the poison */
    int64_t *poison;
    int64_t lip;     /* the window offset of the batch's last issue, -1: none (row0 open) */
    uint64_t *row0;
    uint32_t n;      /* the words (the window's size) */
} bat_drv;

/* A batch from the next issue (numbered ins, at cycle cyc) if the open row is a plain one */
static void bat_begin(bat_drv *s, uint64_t ins, uint64_t cyc)
{
    prof_thread *pt = s->pt;
    int64_t *b;
    if (!pt->lim || pt->lim < s->n || (b = prof_bat(pt, s->n)) == NULL)
        return;
    s->bat = b;
    s->lip = -1;
    s->row0 = pt->row;
    s->row0[PROF_INSNS] += ins;
    s->row0[PROF_CYCLES] += cyc;
}

/* The batch ends before an issue numbered ins at cycle cyc: its last row opens. */
static void bat_end(bat_drv *s, uint64_t ins, uint64_t cyc)
{
    prof_thread *pt = s->pt;
    if (s->bat != pt->bat)
        return;
    uint64_t *last = s->lip >= 0 ? pt->map[s->lip] : s->row0;
    last[PROF_INSNS] -= ins;
    last[PROF_CYCLES] -= cyc;
    pt->row = last;
    s->bat = s->poison;
}

/* One issue; returns 1 if the batch words counted it. */
static int bat_issue(bat_drv *s, uint64_t pc, uint64_t cyc, uint64_t ins, uint64_t step)
{
    prof_thread *pt = s->pt;
    const uint64_t off = pc - pt->base;
    const int64_t one = PROF_BAT_ONE(step);
    if (off < s->n) {
        int64_t *b = s->bat + off;
        if ((*b -= one) >= 0) {
            s->lip = (int64_t)off;
            return 1;
        }
        *b += one;
        if (s->bat == pt->bat && prof_bat_touch(pt, (uint32_t)off, one)) {
            s->lip = (int64_t)off;
            return 1;
        }
    }
    bat_end(s, ins, cyc);
    prof_issue_th(pt, pc, cyc, ins, NULL);
    if (off < s->n && pt->map[off] == pt->row) {
        bat_begin(s, ins + 1, cyc + step);
        s->lip = (int64_t)off;
    }
    return 0;
}

static void test_batch(void **state)
{
    (void)state;
    enum { NT = 2, RUNS = 3000 };
    uint64_t s = 0x2545f4914f6cdd1dull, pc[NT], cyc[NT], stk[NT][64], ins[NT] = {0};
    int depth[NT] = {0};
    sim_machine m[2];
    prof_state *p[2];
    make_pair(m, p, NT);
    bat_drv d[NT];
    uint64_t counted = 0, issues = 0, folds = 0;
    for (int g = 0; g < NT; g++) {
        pc[g] = FAKE_CODE_BASE + 0x40 * (uint64_t)g;
        cyc[g] = 5 + (uint64_t)g;
        d[g] = (bat_drv){prof_th(p[1], g), NULL, prof_bat_poison(p[1], 4 * FAKE_CODE_WORDS), -1, NULL,
                         4 * FAKE_CODE_WORDS};
        assert_non_null(d[g].poison);
        d[g].bat = d[g].poison;
    }
    for (int r = 0; r < RUNS; r++) {
        const int g = r % NT;
        const uint64_t step = 1 + rnd(&s) % 24, k = rnd(&s) % 40;
        cyc[g] += rnd(&s) % 3 == 0 ? rnd(&s) % 50 : 0; /* a wait between runs: the last issue's */
        bat_begin(&d[g], ins[g], cyc[g]);
        for (uint64_t j = 0; j < k; j++, cyc[g] += step, ins[g]++, issues++) {
            sim_thread *th = &m[0].units[0].threads[g];
            th->started = m[1].units[0].threads[g].started = 1;
            prof_issue(p[0], g, pc[g], cyc[g], ins[g], NULL);
            counted += (uint64_t)bat_issue(&d[g], pc[g], cyc[g], ins[g], step);
            th->instructions = m[1].units[0].threads[g].instructions = ins[g] + 1;
            pc[g] = walk(&s, pc[g], stk[g], &depth[g], 16, 1); /* (no roll-backs: a batch issue retires) */
        }
        bat_end(&d[g], ins[g], cyc[g]);
        /* the span: now and then as if 2^29 cycles had gone by, which folds the counts */
        if (rnd(&s) % 64 == 0) {
            prof_bat_span(d[g].pt, PROF_BAT_SPAN);
            folds++;
        } else
            prof_bat_span(d[g].pt, k * step);
    }
    for (int f = 0; f < 2; f++) {
        for (int g = 0; g < NT; g++) {
            sim_thread *th = &m[f].units[0].threads[g];
            th->state = SIM_T_HALTED;
            th->halted_at = cyc[g] + 3;
        }
        prof_finish(p[f], &m[f]);
    }
    /* the case: most issues counted by the words, calls and returns and the far code not */
    assert_true(counted > issues / 2 && counted < issues);
    assert_true(folds > 10);
    assert_true(p[0]->hn > 0);
    check_edges(p[1], NT);
    check_same(p[0], p[1]);
    free_pair(m, p);
}

/* Derived stalls (prof_bat_derive), driven as the DPU's round replay drives them
 * (isa/dpu/func_rec.c with a ring's der): threads that map their flows (their first issue
 * through prof_issue_stall), each issue's cause-0 stall its wait since the thread's previous
 * issue (the cycles between them but one), runs of issues a fixed step apart counted by the
 * words, which derive the stall; against prof_issue_stall for every issue. The batch's
 * bookkeeping (fn_batch, fn_feed_slow, fn_prof_close): the wait before its first issue
 * charged to the row it closes; the waits of its issues added to the thread's counter at its
 * end, but for the last's (its next issue charges it); a slow issue inside a batch charges
 * none (the last's word derived it). */
typedef struct der_drv {
    bat_drv b;
    uint64_t bf;    /* the cycle of the batch's first issue */
    uint64_t first; /* the run's first issue's cycle, and its wait */
    uint64_t gap0;
} der_drv;

static void der_begin(der_drv *s, uint64_t ins, uint64_t cyc, uint64_t gap)
{
    prof_thread *pt = s->b.pt;
    int64_t *b;
    const uint64_t lim = pt->fm ? pt->row[PROF_LIM] : pt->lim;
    if (!lim || lim < s->b.n || (b = prof_bat(pt, s->b.n)) == NULL)
        return;
    s->b.bat = b;
    s->b.lip = -1;
    s->b.row0 = pt->row;
    prof_stall_th(pt, 0, gap);
    s->bf = cyc;
    s->b.row0[PROF_INSNS] += ins;
    s->b.row0[PROF_CYCLES] += cyc;
}

static int der_issue(der_drv *s, uint64_t pc, uint64_t cyc, uint64_t ins, uint64_t step)
{
    prof_thread *pt = s->b.pt;
    const uint64_t off = pc - pt->base;
    const int64_t one = PROF_BAT_ONE(step);
    const int pb = s->b.bat == pt->bat;
    if (off < s->b.n) {
        int64_t *b = s->b.bat + off;
        if ((*b -= one) >= 0 || (*b += one, pb && prof_bat_touch(pt, (uint32_t)off, one))) {
            s->b.lip = (int64_t)off;
            return 1;
        }
    }
    uint64_t gap = cyc == s->first ? s->gap0 : step - 1;
    if (pb) {
        bat_end(&s->b, ins, cyc);
        prof_stall_total(pt, 0, (cyc - s->bf) / step * (step - 1));
        gap = 0;
    }
    prof_issue_stall_th(pt, pc, cyc, ins, 0, gap);
    if (off < s->b.n && pt->map[off] == pt->row) {
        der_begin(s, ins + 1, cyc + step, step - 1);
        s->b.lip = (int64_t)off;
    }
    return 0;
}

/* the run ends before the issue numbered ins at cycle cyc (which has not come) */
static void der_end(der_drv *s, uint64_t ins, uint64_t cyc, uint64_t step)
{
    prof_thread *pt = s->b.pt;
    if (s->b.bat != pt->bat)
        return;
    const int any = s->b.lip >= 0 && cyc > s->bf;
    bat_end(&s->b, ins, cyc);
    prof_stall_total(pt, 0, (cyc - s->bf) / step * (step - 1));
    prof_stall_th(pt, 0, (uint64_t)0 - (any ? step - 1 : s->bf == s->first ? s->gap0 : step - 1));
}

static void test_batch_derive(void **state)
{
    (void)state;
    enum { NT = 2, RUNS = 3000 };
    uint64_t s = 0x853c49e6748fea9bull, pc[NT], cyc[NT], last[NT], stk[NT][64], ins[NT] = {0};
    int depth[NT] = {0};
    sim_machine m[2];
    prof_state *p[2];
    make_pair(m, p, NT);
    der_drv d[NT];
    uint64_t counted = 0, issues = 0;
    for (int g = 0; g < NT; g++) {
        pc[g] = FAKE_CODE_BASE + 0x40 * (uint64_t)g;
        cyc[g] = 5 + (uint64_t)g;
        last[g] = cyc[g] - 1;
        d[g] = (der_drv){{prof_th(p[1], g), NULL, prof_bat_poison(p[1], 4 * FAKE_CODE_WORDS), -1, NULL,
                          4 * FAKE_CODE_WORDS},
                         0, 0, 0};
        assert_non_null(d[g].b.poison);
        d[g].b.bat = d[g].b.poison;
        prof_bat_derive(d[g].b.pt, 0);
    }
    for (int r = 0; r < RUNS; r++) {
        const int g = r % NT;
        const uint64_t step = 2 + rnd(&s) % 24, k = rnd(&s) % 40;
        cyc[g] += rnd(&s) % 3 == 0 ? rnd(&s) % 50 : 0;
        d[g].first = cyc[g];
        d[g].gap0 = cyc[g] - last[g] - 1;
        /* (the first run's first issue is slow: the flows are mapped there) */
        if (r >= NT)
            der_begin(&d[g], ins[g], cyc[g], d[g].gap0);
        for (uint64_t j = 0; j < k; j++, cyc[g] += step, ins[g]++, issues++) {
            sim_thread *th = &m[0].units[0].threads[g];
            th->started = m[1].units[0].threads[g].started = 1;
            prof_issue_stall(p[0], g, pc[g], cyc[g], ins[g], 0, cyc[g] - last[g] - 1);
            counted += (uint64_t)der_issue(&d[g], pc[g], cyc[g], ins[g], step);
            for (int f = 0; f < 2; f++) { /* the threads' counters, as the statistics have them */
                m[f].units[0].threads[g].stalls[0] += cyc[g] - last[g] - 1;
                m[f].units[0].threads[g].instructions = ins[g] + 1;
            }
            last[g] = cyc[g];
            pc[g] = walk(&s, pc[g], stk[g], &depth[g], 16, 1);
        }
        der_end(&d[g], ins[g], cyc[g], step);
        prof_bat_span(d[g].b.pt, rnd(&s) % 64 == 0 ? PROF_BAT_SPAN : k * step);
    }
    for (int f = 0; f < 2; f++) {
        for (int g = 0; g < NT; g++) {
            sim_thread *th = &m[f].units[0].threads[g];
            th->state = SIM_T_HALTED;
            th->halted_at = cyc[g] + 3;
        }
        prof_finish(p[f], &m[f]);
    }
    for (int g = 0; g < NT; g++) /* flows mapped: calls and returns in the map, never counted */
        assert_int_equal(p[1]->th[g].fm, 1);
    assert_true(counted > issues / 2 && counted < issues);
    assert_true(p[0]->hn > 0);
    check_same(p[0], p[1]);
    free_pair(m, p);
}

/* The word feed (prof_issue_word_th) against prof_issue_stall for every issue, driven as the
 * DPU's burst drives it, by its contract: each issue's cause-0 stall the cycles since the
 * thread's previous issue beyond one, but after a new stretch (the DPU's resume: counted from
 * the stretch's start, told with prof_word_resume); the thread's last issue and count told
 * (prof_word_at) only before something else reads the thread, as the DPU does where a burst
 * ends; a transfer's own wait moved from cause 0 to cause 1 after its issue
 * (prof_word_stall_th, as fast.c's prof_dma); issues that retire nothing (fed by the row
 * form's prof_issue_stall_th, which ends word mode: the contract wants one retired per word
 * issue); calls, returns (the push and the pop in words: the batch goes on across them), a
 * return past a frame and code outside the window (the far copy); now and then an issue
 * through prof_issue (the generic executor's feed) and a stretch of waits of 2^27 cycles,
 * whose words carry into bit 62 and 63 (folded at their next issue, or where a push drops
 * them). The words index pcs directly (prof_word_span): the code is played at 0 (the same
 * addresses less FAKE_CODE_BASE in both profiles), the far copy (past the span) through the
 * row form's feed, one thread gets the words that never count (the maps' budget spent:
 * every issue the row form's way) and one a wider span midway (its words fold and start
 * again). */
/* Between word stretches, thread pt (the word feed's, p[1]'s) runs as the DPU's round replay
 * does (the words derive cause 0, der_drv): 4 to 43 issues a fixed step apart from *cyc on,
 * fed to p[0] issue by issue (prof_issue_stall); the batch words it leaves counting (a
 * return address among them: the word feed's next push there must fold them first,
 * prof_word_push). Returns the issues the batch words counted; *cyc the last issue's. */
static uint64_t replay(prof_state **p, prof_thread *pt, uint64_t *s, uint64_t *pc, uint64_t *cyc, uint64_t *last,
                       uint64_t *ins, uint64_t *st0, uint64_t *stk, int *depth)
{
    const int g = (int)(pt - p[1]->th);
    const uint64_t step = 2 + rnd(s) % 14, k = 4 + rnd(s) % 40;
    der_drv d = {{pt, NULL, prof_bat_poison(p[1], 4 * FAKE_CODE_WORDS), -1, NULL, 4 * FAKE_CODE_WORDS}, 0, 0, 0};
    assert_non_null(d.b.poison);
    d.b.bat = d.b.poison;
    prof_bat_derive(pt, 0);
    *cyc += 1 + rnd(s) % 12;
    d.first = *cyc;
    d.gap0 = *cyc - *last - 1;
    der_begin(&d, *ins, *cyc, d.gap0);
    uint64_t counted = 0;
    for (uint64_t j = 0; j < k; j++, *cyc += step) {
        const uint64_t fpc = *pc - FAKE_CODE_BASE, n = *cyc - *last - 1;
        prof_issue_stall(p[0], g, fpc, *cyc, *ins, 0, n);
        counted += (uint64_t)der_issue(&d, fpc, *cyc, *ins, step);
        *st0 += n;
        *last = *cyc;
        ++*ins;
        *pc = walk(s, *pc, stk, depth, 16, 1);
    }
    der_end(&d, *ins, *cyc, step);
    *cyc = *last;
    return counted;
}

/* The word feed against prof_issue_stall per issue, on make_isa's machine. */
static void word_feed(void)
{
    enum { NT = 4, N = 60000, SPAN = 1 << 16 };
    uint64_t s = 0x2545f4914f6cdd1dull, pc[NT], cyc[NT], last[NT], stk[NT][64], ins[NT] = {0}, st[NT][NCAUSE] = {{0}};
    int depth[NT] = {0};
    sim_machine m[2];
    prof_state *p[2];
    make_pair(m, p, NT);
    for (int g = 0; g < NT; g++) {
        pc[g] = FAKE_CODE_BASE + 0x40 * (uint64_t)g;
        cyc[g] = 3 + (uint64_t)g;
        last[g] = (uint64_t)-1; /* (the DPU's tasklet 0 at boot) */
    }
    uint64_t wide = 0, stretch = 0, wait = 0, told = 0, pushes = 0, pops = 0, replays = 0, bats = 0;
    int at[NT] = {0}; /* p[1]'s thread had word issues since it was last told (prof_word_at) */
    prof_thread *const pt = prof_th(p[1], 0);
    for (int g = 0; g < NT; g++) {
        const uint64_t mb = p[1]->map_bytes;
        if (g == NT - 1) /* (the budget spent) */
            p[1]->map_bytes = PROF_MAP_BUDGET;
        prof_word_span(pt + g, SPAN);
        p[1]->map_bytes = mb;
    }
    assert_true(pt[NT - 1].wd == p[1]->wzero && pt[0].wd != p[1]->wzero);
#define TELL(g)                                                                                    \
    do {                                                                                           \
        if (at[g])                                                                                 \
            prof_word_at(pt + (g), last[g], ins[g]);                                               \
        at[g] = 0;                                                                                 \
        told++;                                                                                    \
    } while (0)
    for (int i = 0; i < N; i++) {
        const int g = (int)(rnd(&s) % NT);
        const int big = g == 0 && i > N / 2 && i < N / 2 + 4000;
        if (i == N / 4) { /* a wider span: thread 1's counts into the rows, new words */
            TELL(1);
            prof_word_span(pt + 1, 2 * SPAN);
            assert_true(pt[1].nwd == 2 * SPAN && !prof_word_mode(pt + 1));
        }
        cyc[g] += big ? (uint64_t)1 << 27 : 1 + rnd(&s) % 12;
        wide += (uint64_t)big;
        if (rnd(&s) % 64 == 0 && cyc[g] > last[g] + 2) { /* a new stretch from the cycle before */
            const uint64_t r = cyc[g] - 1 - rnd(&s) % 2;
            TELL(g);
            prof_word_resume(pt + g, last[g], r);
            last[g] = r;
            stretch++;
        }
        if ((g == 1 || g == 2) && rnd(&s) % 32 == 0) { /* the DPU's round replay between bursts */
            TELL(g);
            bats += replay(p, pt + g, &s, &pc[g], &cyc[g], &last[g], &ins[g], &st[g][0], stk[g], &depth[g]);
            replays++;
            cyc[g] += 1 + rnd(&s) % 12;
        }
        const uint64_t n = cyc[g] - last[g] - 1, fpc = pc[g] - FAKE_CODE_BASE;
        const int retires = rnd(&s) % 24 != 0;
        st[g][0] += n;
        if (rnd(&s) % 32 == 0) { /* the generic executor's feed */
            TELL(g);
            for (int f = 0; f < 2; f++) {
                prof_stall(p[f], g, 0, n); /* (the row form's: prof_issue ends word mode first) */
                prof_issue(p[f], g, fpc, cyc[g], ins[g], NULL);
            }
        } else {
            prof_issue_stall(p[0], g, fpc, cyc[g], ins[g], 0, n);
            if (retires && fpc < SPAN) { /* (a push or a pop in words keeps the batch) */
                const uint32_t d0 = pt[g].depth;
                prof_issue_word_th(pt + g, fpc, cyc[g], ins[g], 0, n);
                pushes += prof_word_mode(pt + g) && pt[g].depth > d0;
                pops += prof_word_mode(pt + g) && pt[g].depth < d0;
                at[g] = 1;
            } else { /* (the row form's feed ends word mode) */
                TELL(g);
                prof_issue_stall_th(pt + g, fpc, cyc[g], ins[g], 0, n);
            }
        }
        last[g] = cyc[g];
        for (int f = 0; f < 2; f++)
            assert_false(sim_stopped(&m[f]));
        if (rnd(&s) % 20 == 0) { /* a transfer: its own wait, the next issue's gap has it */
            /* (with five causes now and then the last one's, which a word-mode push or pop
             * could not charge: prof_issue_word_slow sends them the general way) */
            const int dc = p[1]->nstalls > PROF_FRAME_STALLS && rnd(&s) % 2 ? PROF_FRAME_STALLS : 1;
            const uint64_t w = 1 + rnd(&s) % 40;
            prof_stall(p[0], g, dc, w);
            prof_stall(p[0], g, 0, (uint64_t)0 - w);
            prof_word_stall_th(pt + g, dc, w);
            prof_word_stall_th(pt + g, 0, (uint64_t)0 - w);
            st[g][0] -= w;
            st[g][dc] += w;
            cyc[g] += w;
            wait++;
        }
        if (!retires)
            continue; /* the same pc issues again */
        ins[g]++;
        pc[g] = walk(&s, pc[g], stk[g], &depth[g], 16, 1);
    }
    int in_words = 0;
    assert_false(prof_word_mode(pt + NT - 1)); /* (its words never count) */
    for (int g = 0; g < NT; g++) {
        in_words += prof_word_mode(pt + g);
        TELL(g);
    }
#undef TELL
    assert_true(in_words > 0); /* (the feed ran in word mode) */
    assert_true(pushes > 1000 && pops > 1000); /* (calls and returns inside the batches) */
    for (int f = 0; f < 2; f++) {
        for (int g = 0; g < NT; g++) {
            sim_thread *th = &m[f].units[0].threads[g];
            th->started = 1;
            th->instructions = ins[g];
            for (int c = 0; c < NCAUSE; c++)
                th->stalls[c] = st[g][c];
            th->state = SIM_T_HALTED;
            th->halted_at = cyc[g] + 2;
        }
        prof_finish(p[f], &m[f]);
    }
    assert_true(wide > 200 && stretch > 100 && wait > 1000 && told > 1000);
    assert_true(replays > 50 && bats > 8 * replays); /* (the batch words counted) */
    assert_true(p[0]->hn > 0);
    check_same(p[0], p[1]);
    free_pair(m, p);
}

/* Five causes: the word feed's pushes and pops the general way's (each a row-form issue,
 * then word mode again); three: their own ways (and the cache of calls), with calls from a
 * site mostly to one function (then the cache holds them) and recursion (the return address
 * of an open call issues again: the jump to it from the loop pops the frame). */
static void test_word_feed(void **state)
{
    (void)state;
    word_feed();
    make_isa = &test_isa3;
    word_feed();
    direct_calls = 1;
    word_feed();
    make_isa = &test_isa;
    direct_calls = 0;
}

XPUSIM_TESTS(profile, cmocka_unit_test(test_by_hand), cmocka_unit_test(test_return_by_jump),
             cmocka_unit_test(test_feeds_agree), cmocka_unit_test(test_batch),
             cmocka_unit_test(test_batch_derive), cmocka_unit_test(test_word_feed))
