/* tests/unit/test_asm_unit.c: one assembly run's shared steps (core/asm/unit.c): labels in
 * front of a statement are defined at the current place in pass 1 only (twice is an error,
 * `N:` gets its unique name, `NAME = EXPR` is handed back), a named symbol's value (a
 * `.set` expression evaluated, one that needs itself unknown, a label handed back, an
 * undefined name left to the linker only in an object's pass 2), the first error kept with
 * its place, a statement refused when its section would grow past the limit, and cpp's
 * lines followed into other files. */
#include "../testlib.h"
#include "../../core/asm/expr.h"
#include "../../core/asm/unit.h"

static int lookup(void *ctx, const char *name, int64_t *val, int *base)
{
    const asm_symbol *s;
    int r = asm_unit_symbol(ctx, name, val, base, &s);
    if (r == 1) { /* labels: their offset, relative to their section (1 + index) */
        *val = s->value;
        *base = 1 + s->section;
        return 0;
    }
    return r;
}

static int eval(asm_unit *u, const char *text, int64_t *v, int *base, int *unresolved)
{
    asm_expr_result r;
    char e[100];
    if (asm_expr_eval_rel(text, NULL, lookup, u, &r, e, sizeof e))
        return -1;
    *v = r.value, *base = r.base, *unresolved = r.unresolved;
    return 0;
}

static int lines_seen;
static int line(asm_unit *u, char *text)
{
    (void)u;
    lines_seen++;
    return strcmp(text, "stop") ? 0 : -1;
}

static void unit_init(asm_unit *u)
{
    memset(u, 0, sizeof *u);
    asm_macros_init(&u->macros);
    u->ext_base = 100;
    u->eval = eval;
    u->line = line;
    u->secs.max_size = 16;
    u->pass = 1;
    assert_int_equal(asm_files_index(&u->files, "a.S"), 0);
    assert_int_equal(asm_section_get(&u->secs, ".text", -1, NULL), 0);
    assert_int_equal(asm_section_get(&u->secs, ".data", -1, NULL), 1);
}

static void test_labels(void **state)
{
    (void)state;
    asm_unit u;
    unit_init(&u);
    asm_stmt insn = {.kind = 1, .size = 4};
    assert_non_null(asm_unit_add(&u, &insn, "nop", ""));
    char line1[] = "a: b:  nop", *p = line1, *set = NULL;
    assert_int_equal(asm_unit_labels(&u, &p, &set), 0);
    assert_string_equal(p, "  nop");           /* the blanks are the caller's to skip */
    const asm_symbol *a = asm_sym_find(&u.syms, "a", 0), *b = asm_sym_find(&u.syms, "b", 0);
    assert_true(a && a->defined && b && b->defined);
    assert_int_equal(a->section, 0);
    assert_int_equal(a->value, 4);               /* after the first 4-byte statement */
    assert_int_equal(b->value, 4);
    /* numeric labels get a unique name each, the second `1:` another */
    char line2[] = "1: 1:", *q = line2;
    assert_int_equal(asm_unit_labels(&u, &q, &set), 0);
    assert_int_equal(u.syms.n, 4);
    /* NAME = EXPR: handed back, nothing defined */
    char line3[] = "x = a + 4", *r = line3;
    assert_int_equal(asm_unit_labels(&u, &r, &set), 1);
    assert_string_equal(set, "x");
    assert_null(asm_sym_find(&u.syms, "x", 0));
    /* pass 2 defines nothing again */
    u.pass = 2;
    char line4[] = "a: nop", *s = line4;
    assert_int_equal(asm_unit_labels(&u, &s, &set), 0);
    assert_string_equal(u.err, "");
    /* twice in pass 1: an error with its place; the first error is kept */
    u.pass = 1;
    u.cur_line = 7, u.cur_col = 3;
    char line5[] = "a: nop", *t = line5;
    assert_int_equal(asm_unit_labels(&u, &t, &set), -1);
    assert_string_equal(u.err, "a.S:7:3: error: symbol 'a' defined twice");
    assert_int_equal(asm_unit_fail(&u, "later"), -1);
    assert_string_equal(u.err, "a.S:7:3: error: symbol 'a' defined twice");
    u.err[0] = 0;
    char line6[] = "1x: nop", *w = line6;
    assert_int_equal(asm_unit_labels(&u, &w, &set), -1);
    assert_non_null(strstr(u.err, "label '1x' starts with a digit"));
    asm_unit_free(&u);
}

static void test_symbol_values(void **state)
{
    (void)state;
    asm_unit u;
    unit_init(&u);
    u.sec = 1;
    asm_stmt word = {.kind = 1, .size = 8};
    assert_non_null(asm_unit_add(&u, &word, "w", ""));
    char l[] = "d:", *p = l, *set;
    assert_int_equal(asm_unit_labels(&u, &p, &set), 0);
    asm_symbol *k = asm_unit_sym(&u, "k");
    assert_int_equal(asm_sym_set_expr(k, "3 * 7"), 0);
    k->defined = 1;
    asm_symbol *m = asm_unit_sym(&u, "m");     /* a label plus a .set constant */
    assert_int_equal(asm_sym_set_expr(m, "d + k"), 0);
    m->defined = 1;
    asm_symbol *loop = asm_unit_sym(&u, "loop"); /* needs itself */
    assert_int_equal(asm_sym_set_expr(loop, "loop + 1"), 0);
    loop->defined = 1;
    int64_t v;
    int base;
    const asm_symbol *lab = NULL;
    assert_int_equal(asm_unit_symbol(&u, "k", &v, &base, &lab), 0);
    assert_int_equal(v, 21);
    assert_int_equal(base, 0);
    assert_int_equal(asm_unit_symbol(&u, "d", &v, &base, &lab), 1);
    assert_ptr_equal(lab, asm_sym_find(&u.syms, "d", 0));
    assert_int_equal(asm_unit_symbol(&u, "m", &v, &base, &lab), 0);
    assert_int_equal(v, 8 + 21);
    assert_int_equal(base, 2);                   /* .data's base in this test's numbering */
    assert_int_equal(asm_unit_symbol(&u, "loop", &v, &base, &lab), -1);
    assert_false(asm_sym_find(&u.syms, "loop", 0)->busy);
    /* undefined: unknown, except in an object's pass 2, where each name gets one base */
    assert_int_equal(asm_unit_symbol(&u, "ext1", &v, &base, &lab), -1);
    u.pass = 2;
    assert_int_equal(asm_unit_symbol(&u, "ext1", &v, &base, &lab), -1);
    u.object = 1;
    assert_int_equal(asm_unit_symbol(&u, "ext1", &v, &base, &lab), 0);
    assert_int_equal(base, 100);
    assert_int_equal(v, 0);
    assert_int_equal(asm_unit_symbol(&u, "ext2", &v, &base, &lab), 0);
    assert_int_equal(base, 101);
    assert_int_equal(asm_unit_symbol(&u, "ext1", &v, &base, &lab), 0);
    assert_int_equal(base, 100);
    asm_unit_free(&u);
}

static void test_growth_and_lines(void **state)
{
    (void)state;
    asm_unit u;
    unit_init(&u);
    asm_stmt big = {.kind = 1, .size = 12};
    assert_non_null(asm_unit_add(&u, &big, "x", ""));
    u.cur_line = 2, u.cur_col = 5;
    assert_null(asm_unit_add(&u, &big, "x", ""));   /* 24 > 16 */
    assert_string_equal(u.err, "a.S:2:5: error: section grows past 16 bytes");
    assert_int_equal(u.stmts.n, 1);
    assert_int_equal(u.stmts.v[0].line, 0);
    u.err[0] = 0;
    /* cpp's lines: a new file is entered, the line handed on, its error stops the read */
    char t1[] = "nop", t2[] = "stop";
    lines_seen = 0;
    assert_int_equal(asm_unit_source_line(&u, "inc.h", 9, t1, NULL), 0);
    assert_int_equal(u.cur_line, 9);
    assert_string_equal(asm_files_name(&u.files, u.cur_file), "inc.h");
    assert_int_equal(asm_unit_source_line(&u, "inc.h", 10, t2, NULL), -1);
    assert_int_equal(lines_seen, 2);
    assert_int_equal(asm_unit_source_line(&u, "a.S", 3, NULL, "line too long"), -1);
    assert_string_equal(asm_files_name(&u.files, u.cur_file), "a.S");
    asm_unit_free(&u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_labels),
        cmocka_unit_test(test_symbol_values),
        cmocka_unit_test(test_growth_and_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
