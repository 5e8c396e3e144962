/* tests/unit/test_asm_symtab.c: the assemblers' symbol table (core/asm/symtab.c): scopes,
 * the chain of same-named symbols in definition order (what the DPU linker's strong/weak
 * and file-local rules walk), growth past several rehashes with every name still found,
 * and names longer than the old fixed 96-byte fields kept whole. */
#include "../testlib.h"
#include "../../core/asm/symtab.h"

static void test_scopes_and_chains(void **state)
{
    (void)state;
    asm_symtab t = {0};
    assert_int_equal(asm_sym_first(&t, "x"), -1);
    assert_null(asm_sym_find(&t, "x", 0));
    asm_symbol *a = asm_sym_get(&t, "x", 0);
    a->defined = 1;
    a->value = 10;
    asm_sym_get(&t, "other", 0);
    asm_symbol *b = asm_sym_get(&t, "x", 2);
    b->value = 20;
    asm_sym_get(&t, "x", ASM_SCOPE_GLOBAL)->value = 30;
    assert_ptr_equal(asm_sym_get(&t, "x", 2), asm_sym_find(&t, "x", 2)); /* no duplicate */
    int want[3] = {10, 20, 30}, k = 0;
    for (int i = asm_sym_first(&t, "x"); i >= 0; i = t.v[i].next_same)
        assert_int_equal(t.v[i].value, want[k++]);
    assert_int_equal(k, 3);
    assert_int_equal(t.n, 4);
    assert_int_equal(asm_sym_find(&t, "x", 0)->section, -1);
    assert_int_equal(asm_sym_set_expr(asm_sym_find(&t, "other", 0), "x + 1"), 0);
    assert_string_equal(asm_sym_find(&t, "other", 0)->expr, "x + 1");
    assert_int_equal(asm_sym_set_expr(asm_sym_find(&t, "other", 0), NULL), 0);
    assert_null(asm_sym_find(&t, "other", 0)->expr);
    asm_symtab_free(&t);
    assert_int_equal(t.n, 0);
}

static void test_growth_and_long_names(void **state)
{
    (void)state;
    asm_symtab t = {0};
    char name[300];
    for (int i = 0; i < 5000; i++) { /* 256 slots at first: several rehashes */
        snprintf(name, sizeof name, "sym_%d", i);
        asm_symbol *y = asm_sym_get(&t, name, i % 3);
        assert_non_null(y);
        y->value = i;
    }
    for (int i = 0; i < 5000; i++) {
        snprintf(name, sizeof name, "sym_%d", i);
        asm_symbol *y = asm_sym_find(&t, name, i % 3);
        assert_non_null(y);
        assert_int_equal(y->value, i);
        assert_null(asm_sym_find(&t, name, (i + 1) % 3));
    }
    /* two names equal in their first 200 characters stay two symbols */
    memset(name, 'n', 250);
    name[250] = 0;
    asm_sym_get(&t, name, 0)->value = 1;
    name[249] = 'm';
    asm_sym_get(&t, name, 0)->value = 2;
    assert_int_equal(asm_sym_find(&t, name, 0)->value, 2);
    assert_int_equal(strlen(asm_sym_find(&t, name, 0)->name), 250);
    name[249] = 'n';
    assert_int_equal(asm_sym_find(&t, name, 0)->value, 1);
    asm_symtab_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scopes_and_chains),
        cmocka_unit_test(test_growth_and_long_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
