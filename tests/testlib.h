/* tests/testlib.h: what every cmocka suite includes. cmocka needs its system headers first;
 * XPUSIM_TESTS(name, ...) expands to main() running the group. TEST_BIN_DIR is where the
 * built xpusim lives (tests that run the CLI use it); TEST_SRC_DIR is the repository root. */
#ifndef XPUSIM_TESTLIB_H
#define XPUSIM_TESTLIB_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define XPUSIM_TESTS(name, ...)                                                   \
    int main(void)                                                                \
    {                                                                             \
        const struct CMUnitTest tests_[] = {__VA_ARGS__};                         \
        return cmocka_run_group_tests_name(#name, tests_, NULL, NULL);            \
    }

/* Directory of the repository (tests run from it). */
static inline const char *test_root(void)
{
    const char *r = getenv("XPUSIM_ROOT");
    return r ? r : ".";
}
/* Path of the xpusim binary under test. */
static inline const char *test_xpusim(void)
{
    const char *x = getenv("XPUSIM");
    return x ? x : "build/xpusim";
}
#endif
