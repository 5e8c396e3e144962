/* tests/unit/test_asm_arith.c: assembler expression arithmetic (core/asm/arith.c) and the
 * two ISA evaluators built on it (DPU, Nyuzi). Issue 8: the most negative number divided by
 * -1 was undefined behaviour in both evaluators (UBSan: signed overflow; on x86 a SIGFPE).
 * Expected values are two's complement arithmetic on 64 bits, worked by hand below. */
#include "../testlib.h"
#include "../../core/asm/arith.h"
#include "../../isa/dpu/dpu.h"
#include "../../isa/nyuzi/asm.h"

static void test_arith(void **state)
{
    (void)state;
    int64_t v;
    assert_null(asm_arith('+', INT64_MAX, 1, &v));
    assert_true(v == INT64_MIN);                 /* wraps, as GNU as does */
    assert_null(asm_arith('*', INT64_MIN, -1, &v));
    assert_true(v == INT64_MIN);                 /* 2^63 mod 2^64, read as signed */
    assert_null(asm_arith('<', 1, 65, &v));
    assert_int_equal(v, 2);                      /* count mod 64 */
    assert_null(asm_arith('>', -8, 1, &v));
    assert_int_equal(v, -4);                     /* arithmetic shift */
    assert_null(asm_arith('/', -7, 2, &v));
    assert_int_equal(v, -3);                     /* C truncates toward zero */
    assert_null(asm_arith('%', -7, 2, &v));
    assert_int_equal(v, -1);
    assert_string_equal(asm_arith('/', INT64_MIN, -1, &v), "overflow: the most negative number divided by -1");
    assert_string_equal(asm_arith('%', INT64_MIN, -1, &v), "overflow: the most negative number divided by -1");
    assert_string_equal(asm_arith('/', 5, 0, &v), "division by zero");
    assert_string_equal(asm_arith('%', 5, 0, &v), "division by zero");
    assert_true(asm_negate(INT64_MIN) == INT64_MIN);
    assert_int_equal(asm_negate(5), -5);
}

static int no_symbols(void *ctx, const char *name, int64_t *val, int *base)
{
    (void)ctx, (void)name, (void)val, (void)base;
    return -1;
}

static void test_evaluators(void **state)
{
    (void)state;
    static const char *const bad[] = {"(-9223372036854775807 - 1) / -1", "(-9223372036854775807 - 1) % -1",
                                      "-(-9223372036854775807 - 1) / -1", "1 / 0"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int64_t v;
        char err[200] = "";
        assert_int_not_equal(dpu_eval_expr(bad[i], NULL, &v, err, sizeof err), 0);
        assert_true(strstr(err, "overflow") || strstr(err, "division by zero"));
        int unresolved = 0, base = 0;
        char why[200] = "";
        assert_int_not_equal(nyz_asm_eval(bad[i], no_symbols, NULL, &v, &base, &unresolved, why, sizeof why), 0);
        assert_true(strstr(why, "overflow") || strstr(why, "division by zero"));
    }
    int64_t v;
    char err[200];
    assert_int_equal(dpu_eval_expr("-(-9223372036854775807 - 1)", NULL, &v, err, sizeof err), 0);
    assert_true(v == INT64_MIN);
    assert_int_equal(dpu_eval_expr("(1 << 63) >> 62", NULL, &v, err, sizeof err), 0);
    assert_int_equal(v, -2);
}

XPUSIM_TESTS(asm_arith, cmocka_unit_test(test_arith), cmocka_unit_test(test_evaluators))
