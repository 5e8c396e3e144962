/* tests/unit/test_asm_directive.c: the directive dispatcher (core/asm/directive.c): an ISA
 * row wins over the shared data directives (a row for ".long" replaces it), a row ending in
 * '*' matches by prefix, data directives reach the ISA's recorder already sized with its
 * rules, annotations are accepted without effect, anything else is refused by name. */
#include "../testlib.h"
#include "../../core/asm/directive.h"

typedef struct log { char last[64]; uint32_t size; int fail; } log_t;

static int row(void *ctx, const char *name, char *args)
{
    log_t *l = ctx;
    snprintf(l->last, sizeof l->last, "row %s %s", name, args);
    return l->fail ? -1 : 0;
}

static int data(void *ctx, const char *name, char *args, const asm_data *d)
{
    log_t *l = ctx;
    (void)args;
    snprintf(l->last, sizeof l->last, "data %s", name);
    l->size = d->size;
    return 0;
}

static int cval(void *ctx, const char *text, int64_t *v, char *err, size_t errlen)
{
    (void)ctx;
    asm_expr_result r;
    if (asm_expr_eval(text, NULL, NULL, NULL, &r, err, errlen))
        return -1;
    *v = r.value;
    return 0;
}

static void test_dispatch(void **state)
{
    (void)state;
    static const asm_data_rules rules = {0, 64, 1024, 1, 0, {0}};
    static const asm_directive rows[] = {{".section", row}, {".long", row}, {".mine_*", row}, {NULL, NULL}};
    static const asm_directives d = {rows, &rules, cval, data};
    log_t l = {0};
    char msg[200], args[64];
    strcpy(args, ".text, \"ax\"");
    assert_int_equal(asm_directive_run(&d, &l, ".section", args, msg, sizeof msg), 0);
    assert_string_equal(l.last, "row .section .text, \"ax\"");
    strcpy(args, "1, 2");
    assert_int_equal(asm_directive_run(&d, &l, ".long", args, msg, sizeof msg), 0);
    assert_string_equal(l.last, "row .long 1, 2");            /* the ISA's row first */
    assert_int_equal(asm_directive_run(&d, &l, ".mine_thing", args, msg, sizeof msg), 0);
    assert_string_equal(l.last, "row .mine_thing 1, 2");
    assert_int_equal(asm_directive_run(&d, &l, ".short", args, msg, sizeof msg), 0);
    assert_string_equal(l.last, "data .short");
    assert_int_equal(l.size, 4);                              /* two 2-byte items */
    strcpy(args, "5");
    assert_int_equal(asm_directive_run(&d, &l, ".zero", args, msg, sizeof msg), 0);
    assert_int_equal(l.size, 5);
    strcpy(args, "2000");
    assert_int_equal(asm_directive_run(&d, &l, ".zero", args, msg, sizeof msg), -1);
    assert_string_equal(msg, ".zero 2000: the size must be 0..1024");
    assert_int_equal(asm_directive_run(&d, &l, ".cfi_startproc", args, msg, sizeof msg), 0);
    assert_int_equal(asm_directive_run(&d, &l, ".lnog", args, msg, sizeof msg), -1);
    assert_string_equal(msg, "unknown directive '.lnog'");
    l.fail = 1;                                               /* the ISA recorded its own error */
    assert_int_equal(asm_directive_run(&d, &l, ".section", args, msg, sizeof msg), -1);
    assert_string_equal(msg, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dispatch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
