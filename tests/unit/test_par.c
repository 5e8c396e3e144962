/* tests/unit/test_par.c: core/par.c's sim_par_for, the set-up loop on -o jobs=N host
 * threads: every item runs exactly once for every N, the items of a range not starting at
 * 0 are the range's, and of several failures the lowest item's message is the result
 * whatever N and however the threads interleave (a slow item below the failures makes the
 * other threads run past them first), with every item below it run. */
#include <time.h>
#include "../testlib.h"
#include "../../core/sim.h"

#define N_ITEMS 300

typedef struct {
    int calls[N_ITEMS];  /* atomic */
    int fail_a, fail_b;  /* items that fail (-1: none) */
    int slow;            /* an item that takes a while */
} par_ctx;

static int item(void *ctx, int i, char *err, size_t errlen)
{
    par_ctx *c = ctx;
    __atomic_add_fetch(&c->calls[i], 1, __ATOMIC_RELAXED);
    if (i == c->slow) {
        const struct timespec nap = {0, 5 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    if (i == c->fail_a || i == c->fail_b) {
        snprintf(err, errlen, "item %d failed", i);
        return -1;
    }
    return 0;
}

static void test_each_once(void **state)
{
    (void)state;
    static const int jobs[] = {1, 2, 3, 8, 1024};
    for (size_t k = 0; k < sizeof jobs / sizeof jobs[0]; k++) {
        sim_machine m = {.jobs = jobs[k]};
        par_ctx c = {.fail_a = -1, .fail_b = -1, .slow = 7};
        char err[64] = "";
        assert_int_equal(sim_par_for(&m, 5, N_ITEMS, item, &c, err, sizeof err), 0);
        for (int i = 0; i < N_ITEMS; i++)
            assert_int_equal(c.calls[i], i >= 5);
        assert_string_equal(err, "");
        assert_int_equal(sim_par_for(&m, 9, 9, item, &c, err, sizeof err), 0); /* empty */
        assert_int_equal(c.calls[9], 1);
    }
}

static void test_lowest_failure(void **state)
{
    (void)state;
    static const int jobs[] = {1, 2, 3, 8};
    for (int round = 0; round < 20; round++)
        for (size_t k = 0; k < sizeof jobs / sizeof jobs[0]; k++) {
            sim_machine m = {.jobs = jobs[k]};
            /* the lower failure is slow: the other threads reach the higher one first */
            par_ctx c = {.fail_a = 250, .fail_b = 40 + round, .slow = 40 + round};
            char err[64] = "";
            assert_int_equal(sim_par_for(&m, 0, N_ITEMS, item, &c, err, sizeof err), -1);
            char want[64];
            snprintf(want, sizeof want, "item %d failed", c.fail_b);
            assert_string_equal(err, want);
            for (int i = 0; i <= c.fail_b; i++)
                assert_int_equal(c.calls[i], 1);
            for (int i = c.fail_b + 1; i < N_ITEMS; i++)
                assert_true(c.calls[i] <= 1);
        }
}

XPUSIM_TESTS(par, cmocka_unit_test(test_each_once), cmocka_unit_test(test_lowest_failure))
