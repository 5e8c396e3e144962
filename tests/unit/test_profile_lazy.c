/* tests/unit/test_profile_lazy.c: word mode's lazy frames (core/profile.h prof_frame.lazy,
 * session 33) against the row form's feed, issue by issue (test_profile.h's machine). */
#include "test_profile.h"

/* Lazy frames (prof_frame.lazy): one thread in a loop 0x00-0x24 whose call (0x14 to 0x218,
 * returning at 0x228 to 0x18) mostly pushes and pops in word mode, ret's row kept in the map,
 * with a transfer in the callee; every 7th pass word mode ends in the callee (two row-form
 * issues: the open frame's row out of the map, prof_word_unlazy) and the callee jumps to 0x18
 * (as a longjmp does: the row form's fast path must not take it), every 13th the return
 * address's issue is the row form's; the run ends with the call open. Against
 * prof_issue_stall for every issue. */
static void test_word_lazy(void **state)
{
    (void)state;
    make_isa = &test_isa3;
    sim_machine m[2];
    prof_state *p[2];
    make_pair(m, p, 1);
    prof_thread *const pt = prof_th(p[1], 0);
    prof_word_span(pt, 1 << 12);
    uint64_t s = 0x853c49e6748fea9bull, cyc = 3, last = (uint64_t)-1, ins = 0, st[NCAUSE] = {0}, lazy_pops = 0;
    int at = 0; /* (word issues since the feed was told, prof_word_at) */
    enum { PASSES = 3001 }; /* (the pass before the last a plain one: its call's frame lazy) */
    for (int it = 0; it <= PASSES; it++) {
        uint64_t seq[24];
        int n = 0;
        const int jump = it % 7 == 3, general = it % 13 == 5, end = it == PASSES;
        for (uint64_t pc = 0x00; pc <= 0x14; pc += 4)
            seq[n++] = pc;
        for (uint64_t pc = 0x218; pc <= (end ? 0x21c : jump ? 0x224 : 0x228); pc += 4)
            seq[n++] = pc;
        for (uint64_t pc = 0x18; !end && pc <= 0x24; pc += 4)
            seq[n++] = pc;
        for (int k = 0; k < n; k++) {
            const uint64_t pc = seq[k], gap = cyc - last - 1;
            st[0] += gap;
            prof_issue_stall(p[0], 0, pc, cyc, ins, 0, gap);
            if ((jump && (pc == 0x220 || pc == 0x224 || pc == 0x18)) || (general && pc == 0x18)) {
                if (at) /* (the row form's: word mode ends, or stays ended) */
                    prof_word_at(pt, last, ins);
                at = 0;
                prof_issue_stall_th(pt, pc, cyc, ins, 0, gap);
            } else {
                const uint32_t d0 = pt->depth;
                const int lazy = d0 && pt->stack[d0 - 1].lazy;
                prof_issue_word_th(pt, pc, cyc, ins, 0, gap);
                lazy_pops += lazy && prof_word_mode(pt) && pt->depth < d0;
                at = 1;
            }
            last = cyc;
            if (pc == 0x21c) { /* a transfer: its own wait moves from cause 0 to 1 */
                const uint64_t w = 1 + rnd(&s) % 30;
                prof_stall(p[0], 0, 1, w);
                prof_stall(p[0], 0, 0, (uint64_t)0 - w);
                prof_word_stall_th(pt, 1, w);
                prof_word_stall_th(pt, 0, (uint64_t)0 - w);
                st[0] -= w;
                st[1] += w;
                cyc += w;
            }
            ins++;
            cyc += 1 + rnd(&s) % 5;
        }
    }
    if (at)
        prof_word_at(pt, last, ins);
    assert_true(lazy_pops > PASSES / 2); /* (most calls returned in word mode, lazily) */
    assert_int_equal(pt->depth, 1);
    assert_int_equal(pt->nlazy, 1);
    for (int f = 0; f < 2; f++) {
        sim_thread *th = &m[f].units[0].threads[0];
        th->started = 1;
        th->instructions = ins;
        for (int c = 0; c < NCAUSE; c++)
            th->stalls[c] = st[c];
        th->state = SIM_T_HALTED;
        th->halted_at = last + 2;
        prof_finish(p[f], &m[f]);
    }
    assert_int_equal(pt->nlazy, 0); /* (word mode ended: the frame's row out of the map) */
    check_same(p[0], p[1]);
    prof_edge *e;
    assert_int_equal(prof_edges(p[1], -1, &e), 1);
    assert_int_equal(e[0].site, 0x14);
    assert_int_equal(e[0].target, 0x218);
    assert_int_equal(e[0].calls, PASSES + 1);
    free(e);
    free_pair(m, p);
    make_isa = &test_isa;
}

XPUSIM_TESTS(profile_lazy, cmocka_unit_test(test_word_lazy))
