/* tests/unit/test_asm_expr.c: the shared expression evaluator (core/asm/expr.c).
 * Expected values follow LLVM MC's GNU-mode rules (lib/MC/MCParser/AsmParser.cpp,
 * getGNUBinOpPrecedence): `+ -` bind loosest, then `| & ^`, then `* / % << >>`, all
 * left-associative. Where C would group differently the case is chosen so that the two
 * answers differ, and the LLVM answer is worked out beside it. */
#include "../testlib.h"
#include "../../core/asm/expr.h"

static int table(void *ctx, const char *name, int64_t *v)
{
    (void)ctx;
    if (!strcmp(name, "four")) { *v = 4; return 0; }
    if (!strcmp(name, ".")) { *v = 0x1000; return 0; }
    return -1;
}

static int is_reg(const char *name) { return !strcmp(name, "r0") || !strcmp(name, "sp"); }

static int64_t ok(const char *text)
{
    static const asm_expr_syntax syn = {is_reg};
    asm_expr_result r;
    char err[200] = "";
    if (asm_expr_eval(text, &syn, table, NULL, &r, err, sizeof err))
        fail_msg("'%s': %s", text, err);
    assert_int_equal(r.unresolved, 0);
    return r.value;
}

static void bad(const char *text, const char *want)
{
    static const asm_expr_syntax syn = {is_reg};
    asm_expr_result r;
    char err[200] = "";
    assert_int_equal(asm_expr_eval(text, &syn, table, NULL, &r, err, sizeof err), -1);
    if (!strstr(err, want))
        fail_msg("'%s': got '%s', want '%s'", text, err, want);
}

static void test_precedence(void **state)
{
    (void)state;
    assert_int_equal(ok("1 + 2 << 3"), 17);   /* 1 + (2 << 3); C: (1 + 2) << 3 = 24 */
    assert_int_equal(ok("6 & 3 + 1"), 3);     /* (6 & 3) + 1; C: 6 & 4 = 4 */
    assert_int_equal(ok("1 << 2 * 3"), 12);   /* (1 << 2) * 3; C: 1 << 6 = 64 */
    assert_int_equal(ok("5 | 2 ^ 3"), 4);     /* (5 | 2) ^ 3 = 7 ^ 3; C: 5 | (2 ^ 3) = 5 */
    assert_int_equal(ok("10 - 2 - 3"), 5);    /* left-associative */
    assert_int_equal(ok("64 / 4 / 2"), 8);
    assert_int_equal(ok("(1 + 2) << 3"), 24);
    assert_int_equal(ok("-2 * -3"), 6);
    assert_int_equal(ok("~0"), -1);
    assert_int_equal(ok("!0 + !7"), 1);
    assert_int_equal(ok("four * four - . / 0x100"), 0);  /* 16 - 0x1000 / 0x100 */
}

static void test_numbers(void **state)
{
    (void)state;
    assert_int_equal(ok("0x10"), 16);
    assert_int_equal(ok("017"), 15);          /* a leading 0 is octal, as in GNU as */
    assert_int_equal(ok("0b101"), 5);
    assert_int_equal(ok("'a'"), 97);
    assert_int_equal(ok("'\\n'"), 10);
    assert_true(ok("0xffffffffffffffff") == -1);
    bad("99999999999999999999", "does not fit in 64 bits");
    bad("08", "malformed number");
    bad("12ab", "malformed number");
}

static void test_errors(void **state)
{
    (void)state;
    bad("1 +", "expected a value at the end");
    bad("(1 + 2", "expected ')'");
    bad("1 2", "unexpected '2' after the expression");
    bad("1 && 2", "unexpected '&& 2'");
    bad("r0 + 4", "register 'r0' where a value was expected");
    bad("1 / 0", "division by zero");
    bad("@", "expected a number or symbol at '@'");
    char longname[400];
    memset(longname, 'a', 300);
    longname[300] = 0;
    bad(longname, "name longer than 255 characters");
}

static void test_unresolved(void **state)
{
    (void)state;
    asm_expr_result r;
    char err[200];
    /* unknown symbols read as 0 and are counted; the first is named; a division by an
     * unknown value is not an error yet (pass 1 of a two-pass assembler) */
    assert_int_equal(asm_expr_eval("later + four / other", NULL, table, NULL, &r, err, sizeof err), 0);
    assert_int_equal(r.unresolved, 2);
    assert_string_equal(r.first_unresolved, "later");
    assert_int_equal(r.value, 0);
    /* without a callback every symbol is unresolved */
    assert_int_equal(asm_expr_eval("x", NULL, NULL, NULL, &r, err, sizeof err), 0);
    assert_int_equal(r.unresolved, 1);
}

/* Relocatable lookups: t1 and t2 lie in section 1 (offsets 8 and 20), d1 in section 2
 * (offset 4), ext is undefined (its own base 100), four is absolute. */
static int rel_table(void *ctx, const char *name, int64_t *v, int *base)
{
    (void)ctx;
    static const struct { const char *name; int64_t v; int base; } syms[] = {
        {"t1", 8, 1}, {"t2", 20, 1}, {"d1", 4, 2}, {"ext", 0, 100}, {"four", 4, 0}};
    for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++)
        if (!strcmp(name, syms[i].name)) {
            *v = syms[i].v;
            *base = syms[i].base;
            return 0;
        }
    return -1;
}

static void rel_ok(const char *text, int64_t want, int want_base, const char *want_sym)
{
    asm_expr_result r;
    char err[300] = "";
    if (asm_expr_eval_rel(text, NULL, rel_table, NULL, &r, err, sizeof err))
        fail_msg("'%s': %s", text, err);
    if (r.value != want || r.base != want_base || strcmp(r.base_sym, want_sym))
        fail_msg("'%s': got %lld base %d '%s', want %lld base %d '%s'", text, (long long)r.value, r.base,
                 r.base_sym, (long long)want, want_base, want_sym);
}

static void rel_bad(const char *text, const char *want)
{
    asm_expr_result r;
    char err[300] = "";
    assert_int_equal(asm_expr_eval_rel(text, NULL, rel_table, NULL, &r, err, sizeof err), -1);
    if (!strstr(err, want))
        fail_msg("'%s': got '%s', want '%s'", text, err, want);
}

/* GNU as's rules for values in object files: one base plus a constant, or absolute. */
static void test_relocatable(void **state)
{
    (void)state;
    rel_ok("four * 2", 8, 0, "");
    rel_ok("t1", 8, 1, "t1");
    rel_ok("t1 + four", 12, 1, "t1");
    rel_ok("four + t1", 12, 1, "t1");
    rel_ok("t1 - 2", 6, 1, "t1");
    rel_ok("t2 - t1", 12, 0, "");              /* same section: a constant */
    rel_ok("d1 + (t2 - t1)", 16, 2, "d1");
    rel_ok("t2 - t1 + d1", 16, 2, "d1");       /* the base comes from the last operand */
    rel_ok("ext + 4", 4, 100, "ext");
    rel_ok("ext - ext", 0, 0, "");
    rel_bad("t1 + d1", "cannot be combined at '+ d1'");
    rel_bad("d1 - t1", "cannot be combined at '- t1'");
    rel_bad("4 - t1", "cannot be combined");
    rel_bad("t1 * 2", "cannot be combined");
    rel_bad("-ext", "'-' of a relocatable value");
    rel_bad("~t1", "'~' of a relocatable value");
    /* the plain evaluator is unchanged by bases: its lookup has none */
    assert_int_equal(ok("four + 1"), 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_precedence),
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_unresolved),
        cmocka_unit_test(test_relocatable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
