/* tests/unit/test_profile.h: what the profile's tests share (test_profile.c,
 * test_profile_lazy.c): fake_isa.h's machine with call edges (a call at an address ending in
 * 0x14, a return at 0x28) and 5 or 3 stall causes, two profiles of it, the comparison of two
 * profiles' rows and edges, a small random generator. Nothing runs on the machine: the tests
 * play the issues. */
#ifndef XPUSIM_TESTS_TEST_PROFILE_H
#define XPUSIM_TESTS_TEST_PROFILE_H
#include "../testlib.h"
#include "fake_isa.h"
#include "../../core/profile.h"
#include "../../core/profile_int.h" /* (PROF_MAP_BUDGET: the word feed short of memory) */

#define NCAUSE 5
static const char *const causes[] = {"a", "b", "c", "d", "e", NULL};

/* Flow by address (code at FAKE_CODE_BASE, 4 bytes an instruction): an address ending in
 * 0x14 is a call (returns 4 bytes on), one ending in 0x28 a return. */
static int test_flow(sim_machine *m, int unit, uint64_t pc, uint64_t *ret)
{
    (void)m;
    (void)unit;
    if ((pc & 0xff) == 0x14) {
        *ret = pc + 4;
        return ISA_FLOW_CALL;
    }
    return (pc & 0xff) == 0x28 ? ISA_FLOW_RETURN : ISA_FLOW_NONE;
}

/* fake_isa.h's machine with more stall causes and call edges */
#define TEST_ISA(names, what)                                                                                          \
    {                                                                                                                  \
        .name = "fake", .description = what, .stall_names = names, .create = fake_create, .destroy = fake_destroy,     \
        .unit_run = fake_unit_run, .pc_get = fake_pc_get, .code_space = "code", .insn_flow = test_flow,                \
    }
static const isa_ops test_isa = TEST_ISA(causes, "unit-test ISA with call edges");
/* The same with 3 stall causes (as the DPU): the word feed's calls and returns take their
 * own ways only for an ISA with at most PROF_FRAME_STALLS causes (core/profile_word.c
 * prof_issue_word_slow; more: the general way) */
static const char *const causes3[] = {"a", "b", "c", NULL};
static const isa_ops test_isa3 = TEST_ISA(causes3, "unit-test ISA with call edges, 3 stall causes");
#undef TEST_ISA
static const isa_ops *make_isa = &test_isa; /* (what make builds) */

static void make(sim_machine *m, int threads)
{
    char kv[32];
    snprintf(kv, sizeof kv, "threads=%d", threads);
    fake_make(m, make_isa, (const char *const[]){kv, "insns=1", NULL});
}

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void check_same(const prof_state *a, const prof_state *b)
{
    prof_entry *va, *vb;
    int na = prof_sorted(a, -1, &va), nb = prof_sorted(b, -1, &vb);
    assert_true(na > 0);
    assert_int_equal(na, nb);
    for (int i = 0; i < na; i++) {
        assert_int_equal(va[i].pc, vb[i].pc);
        assert_int_equal(va[i].thread, vb[i].thread);
        assert_int_equal(va[i].insns, vb[i].insns);
        assert_int_equal(va[i].cycles, vb[i].cycles);
        for (int c = 0; c < NCAUSE; c++)
            assert_int_equal(va[i].stalls[c], vb[i].stalls[c]);
    }
    free(va);
    free(vb);
    prof_edge *ea, *eb;
    na = prof_edges(a, -1, &ea);
    nb = prof_edges(b, -1, &eb);
    assert_int_equal(na, nb);
    for (int i = 0; i < na; i++) {
        assert_int_equal(ea[i].site, eb[i].site);
        assert_int_equal(ea[i].target, eb[i].target);
        assert_int_equal(ea[i].thread, eb[i].thread);
        assert_int_equal(ea[i].calls, eb[i].calls);
        assert_int_equal(ea[i].insns, eb[i].insns);
        assert_int_equal(ea[i].cycles, eb[i].cycles);
        for (int c = 0; c < NCAUSE; c++)
            assert_int_equal(ea[i].stalls[c], eb[i].stalls[c]);
    }
    free(ea);
    free(eb);
}

/* Two machines of nt threads, each with a new profile (the tests play one feed into each). */
static void make_pair(sim_machine *m, prof_state **p, int nt)
{
    for (int f = 0; f < 2; f++) {
        make(&m[f], nt);
        p[f] = prof_new(&m[f]);
        assert_non_null(p[f]);
    }
}

static void free_pair(sim_machine *m, prof_state **p)
{
    for (int f = 0; f < 2; f++) {
        prof_free(p[f]);
        sim_destroy(&m[f]);
    }
}

#endif
