/* tests/unit/test_asm_section.c: sections and deferred statements (core/asm/section.c):
 * sections are per scope, statements get consecutive offsets, a section never grows past
 * its limit (checked before the addition: 0xFFFFFFF0 + 32 must not wrap to a small size),
 * and pass 2 writes data through core/asm/data.c and the ISA's statements through its
 * encoder, at the place the ISA gives, skipping statements placed nowhere. */
#include "../testlib.h"
#include "../../core/asm/section.h"

static uint8_t image[64];

static uint8_t *place(void *ctx, const asm_stmt *st)
{
    (void)ctx;
    return st->sec == 1 ? NULL : image + st->off; /* section 1 is like .bss */
}

static int encode(void *ctx, const asm_stmt *st, uint8_t *out, char *err, size_t errlen)
{
    (void)ctx;
    if (!strcmp(st->text, "bad")) {
        snprintf(err, errlen, "cannot encode '%s'", st->text);
        return -1;
    }
    memset(out, 0xee, st->size);
    return 0;
}

static int value(void *ctx, const char *text, int64_t *v, int *base, char *err, size_t errlen)
{
    (void)ctx, (void)err, (void)errlen;
    *base = 0;
    *v = strtoll(text, NULL, 0);
    return 0;
}

static void test_sections_and_statements(void **state)
{
    (void)state;
    static const asm_data_rules rules = {0, 64, 1024, 1, 0, {0}};
    asm_sections s = {.max_size = 64};
    asm_stmts t = {0};
    int created;
    assert_int_equal(asm_section_get(&s, ".text", 0, &created), 0);
    assert_true(created);
    assert_int_equal(asm_section_get(&s, ".bss", 0, NULL), 1);
    assert_int_equal(asm_section_get(&s, ".text", 1, NULL), 2);  /* another file's .text */
    assert_int_equal(asm_section_get(&s, ".text", 0, &created), 0);
    assert_false(created);
    asm_stmt insn = {.kind = 1, .size = 4};
    asm_stmt data = {.kind = ASM_STMT_DATA, .size = 2, .data = {.kind = ASM_DATA_VALUES, .width = 1}};
    int big;
    asm_stmt *a = asm_stmt_add(&t, &s, 0, &insn, "op", "ok", &big);
    assert_non_null(a);
    assert_int_equal(a->off, 0);
    asm_stmt *b = asm_stmt_add(&t, &s, 0, &data, NULL, "0x12, 0x34", &big);
    assert_int_equal(b->off, 4);
    assert_non_null(asm_stmt_add(&t, &s, 1, &data, NULL, "9, 9", &big)); /* placed nowhere */
    assert_int_equal(s.v[0].size, 6);
    asm_stmt huge = {.kind = 1, .size = 60};
    assert_null(asm_stmt_add(&t, &s, 0, &huge, NULL, "x", &big));
    assert_true(big);
    assert_int_equal(s.v[0].size, 6);                           /* unchanged */
    s.v[2].size = 0xFFFFFFF0u;
    s.max_size = 0xFFFFFFFFu;
    assert_int_equal(asm_section_grow(&s, 2, 32), -1);          /* would wrap */
    const asm_stmt *failed;
    char err[100];
    assert_int_equal(asm_stmts_emit(&t, &rules, place, encode, value, NULL, NULL, &failed, err, sizeof err), 0);
    assert_memory_equal(image, "\xee\xee\xee\xee\x12\x34", 6);
    asm_stmt *c = asm_stmt_add(&t, &s, 0, &insn, "op", "bad", &big);
    assert_non_null(c);
    assert_int_equal(asm_stmts_emit(&t, &rules, place, encode, value, NULL, NULL, &failed, err, sizeof err), -1);
    assert_ptr_equal(failed, &t.v[3]);
    assert_string_equal(err, "cannot encode 'bad'");
    asm_stmts_free(&t);
    asm_sections_free(&s);
}

/* Contents: zeroed buffers of each section's final size, none for a no-bits section
 * (.bss), freed with the sections. */
static void test_contents(void **state)
{
    (void)state;
    asm_sections s = {.max_size = 1024};
    assert_int_equal(asm_section_get(&s, ".text", -1, NULL), 0);
    assert_int_equal(asm_section_get(&s, ".bss", -1, NULL), 1);
    assert_int_equal(asm_section_get(&s, ".data", -1, NULL), 2);
    assert_int_equal(asm_section_grow(&s, 0, 12), 0);
    assert_int_equal(asm_section_grow(&s, 1, 100), 0);
    const char *bad = NULL;
    assert_int_equal(asm_sections_alloc(&s, 1u << 1, &bad), 0);
    assert_non_null(s.v[0].bytes);
    assert_null(s.v[1].bytes);
    assert_non_null(s.v[2].bytes);            /* empty, but there to point at */
    static const uint8_t zero[12];
    assert_memory_equal(s.v[0].bytes, zero, 12);
    asm_sections_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sections_and_statements),
        cmocka_unit_test(test_contents),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
