/* tests/unit/test_asm_macro.c: assembler macros and numeric local labels (core/asm/macro.c),
 * driven as an assembler drives them: every line goes through one handler that records a
 * body while a macro is being defined and otherwise keeps the line. Expected expansions are
 * GNU as's rules: \NAME is the argument or the default, \() vanishes, arguments are
 * separated by commas or blanks, recursion stops at 64 levels. */
#include "../testlib.h"
#include "../../core/asm/macro.h"
#include "../../core/asm/text.h"

typedef struct sink {
    asm_macros m;
    char out[16][200];
    int n;
    char err[300];
} sink;

static int line(void *ctx, char *l)
{
    sink *k = ctx;
    if (k->m.defining >= 0)
        return asm_macro_record(&k->m, l);
    char word[64], buf[8192];
    snprintf(buf, sizeof buf, "%s", l);
    char *rest = asm_first_word(buf, word, sizeof word);
    if (!strcmp(word, ".macro"))
        return asm_macro_begin(&k->m, rest, k->err, sizeof k->err);
    int mi = asm_macro_find(&k->m, word);
    if (mi >= 0)
        return asm_macro_expand(&k->m, mi, rest, line, k, k->err, sizeof k->err);
    if (k->n < 16)
        snprintf(k->out[k->n++], sizeof k->out[0], "%s", asm_trim(l));
    return 0;
}

static int feed(sink *k, const char *const *lines)
{
    for (; *lines; lines++) {
        char l[8192];
        snprintf(l, sizeof l, "%s", *lines);
        if (line(k, l))
            return -1;
    }
    return 0;
}

static void test_expand(void **state)
{
    (void)state;
    sink k = {0};
    asm_macros_init(&k.m);
    static const char *const src[] = {
        ".macro addi rd, rs, imm=1", "add_i \\rd, \\rs, \\imm", ".endm",
        ".macro twice r", "addi \\r, \\r", "addi \\r \\r 4", "lbl\\()\\r:", ".endm",
        "twice s3", "addi s1, s2, 8 + 2", NULL};
    assert_int_equal(feed(&k, src), 0);
    assert_int_equal(k.n, 4);
    assert_string_equal(k.out[0], "add_i s3, s3, 1");      /* default for imm */
    assert_string_equal(k.out[1], "add_i s3, s3, 4");      /* blank-separated arguments */
    assert_string_equal(k.out[2], "lbls3:");               /* \() joins */
    assert_string_equal(k.out[3], "add_i s1, s2, 8 + 2");  /* blanks around + stay one argument */
    static const char *const bad[] = {"addi a, b, c, d", NULL};
    assert_int_equal(feed(&k, bad), -1);
    assert_string_equal(k.err, "macro 'addi' takes 3 arguments, got 4");
    asm_macros_free(&k.m);
}

static void test_limits(void **state)
{
    (void)state;
    sink k = {0};
    asm_macros_init(&k.m);
    static const char *const rec[] = {".macro loop", "loop", ".endm", "loop", NULL};
    assert_int_equal(feed(&k, rec), -1);
    assert_string_equal(k.err, "macro expansion too deep (recursive macro 'loop'?)");
    char many[200] = ".macro m";
    for (int i = 0; i < 17; i++)
        snprintf(many + strlen(many), sizeof many - strlen(many), " p%d", i);
    const char *const toomany[] = {many, NULL};
    assert_int_equal(feed(&k, toomany), -1);
    assert_string_equal(k.err, "macro 'm' has more than 16 parameters");
    asm_macros_free(&k.m);
    asm_macros_init(&k.m);
    k.n = 0;
    /* an expansion longer than a line is an error, not a cut line */
    char big[3000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = 0;
    static const char *const dbl[] = {".macro d a", "\\a \\a", ".endm", NULL};
    assert_int_equal(feed(&k, dbl), 0);
    char use[3100];
    snprintf(use, sizeof use, "d %s", big);
    const char *const u[] = {use, NULL};
    assert_int_equal(feed(&k, u), -1);
    assert_non_null(strstr(k.err, "an expanded line is longer than 4095 characters"));
    asm_macros_free(&k.m);
}

static void test_local_labels(void **state)
{
    (void)state;
    asm_locals l = {0};
    char name[64], out[200];
    assert_int_equal(asm_local_rename(&l, "b 1f", out, sizeof out), 0);
    assert_string_equal(out, "b .Llocal_label_1_0");           /* forward: the next one */
    assert_int_equal(asm_local_define(&l, "1", name, sizeof name), 0);
    assert_string_equal(name, ".Llocal_label_1_0");
    assert_int_equal(asm_local_rename(&l, "b 1b; b 1f; x1b; 2b", out, sizeof out), 0);
    assert_string_equal(out, "b .Llocal_label_1_0; b .Llocal_label_1_1; x1b; no_earlier_local_label_2");
    assert_int_equal(asm_local_define(&l, "1000", name, sizeof name), -1);
    assert_int_equal(asm_local_define(&l, "1abc", name, sizeof name), -2);
    assert_int_equal(asm_local_rename(&l, "b 1b, 1b, 1b, 1b", out, 30), -1); /* does not fit */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_expand),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_local_labels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
