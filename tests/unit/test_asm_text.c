/* tests/unit/test_asm_text.c: the assemblers' shared lexical layer (core/asm/text.c).
 * Expected bytes of string literals are GNU as's escapes worked by hand (\101 octal = 'A',
 * \x41 = 'A', \x141 keeps the low byte 0x41); comment rules are the DPU SDK's (`//`
 * anywhere, `#` only at the start or after a blank) and Nyuzi's (`#` and `//` anywhere). */
#include "../testlib.h"
#include "../../core/asm/text.h"

static void test_comments(void **state)
{
    (void)state;
    static const asm_comment_syntax dpu = {{"//"}, {"#"}};
    static const asm_comment_syntax nyz = {{"#", "//"}, {NULL}};
    char a[] = "move r0, 1 // set";
    asm_strip_comment(a, &dpu);
    assert_string_equal(asm_trim(a), "move r0, 1");
    char b[] = "ld d0, r1, sym#x # note";          /* '#' inside a word is not a comment */
    asm_strip_comment(b, &dpu);
    assert_string_equal(asm_trim(b), "ld d0, r1, sym#x");
    char c[] = ".ascii \"a#b//c\" # real";          /* markers inside a string are text */
    asm_strip_comment(c, &nyz);
    assert_string_equal(asm_trim(c), ".ascii \"a#b//c\"");
    char d[] = "add_i s0, s0, 1#x";
    asm_strip_comment(d, &nyz);
    assert_string_equal(d, "add_i s0, s0, 1");
}

static void test_words_and_operands(void **state)
{
    (void)state;
    char line[] = "  store_v  v1, 16(s2) , f(1, 2), \"a,b\"  ";
    char mn[8];
    char *rest = asm_first_word(line, mn, sizeof mn);
    assert_string_equal(mn, "store_v");
    char *ops[3];
    int n = asm_split_operands(rest, ops, 3);
    assert_int_equal(n, 4);                       /* counted past the array: caller reports */
    assert_string_equal(ops[0], "v1");
    assert_string_equal(ops[1], "16(s2)");
    assert_string_equal(ops[2], "f(1, 2)");
    char empty[] = "   ";
    assert_int_equal(asm_split_operands(empty, ops, 3), 0);
    char trailing[] = "a,";
    assert_int_equal(asm_split_operands(trailing, ops, 3), 2);
    assert_string_equal(ops[1], "");
    char longword[] = "abcdefghij rest";
    rest = asm_first_word(longword, mn, sizeof mn);  /* cut to 7 characters, rest intact */
    assert_string_equal(mn, "abcdefg");
    assert_string_equal(rest, "rest");
    assert_int_equal(asm_ident_len("_a.b$1+2"), 6);
    assert_int_equal(asm_ident_len("1abc"), 0);
}

static void test_strings(void **state)
{
    (void)state;
    char out[32], err[100];
    size_t len;
    assert_int_equal(asm_string_list(" \"A\\101\\x41\\x141\\n\\\"\"", 0, out, sizeof out, &len, err, sizeof err), 0);
    assert_int_equal(len, 6);
    assert_memory_equal(out, "AAAA\n\"", 6);
    /* .asciz "ab", "c" is a\0 b... : a 0 byte after each string */
    assert_int_equal(asm_string_list("\"ab\", \"c\"", 1, out, sizeof out, &len, err, sizeof err), 0);
    assert_int_equal(len, 5);
    assert_memory_equal(out, "ab\0c\0", 5);
    /* cap 0 measures */
    assert_int_equal(asm_string_list("\"hello\"", 1, NULL, 0, &len, err, sizeof err), 0);
    assert_int_equal(len, 6);
    assert_int_equal(asm_string_list("\"open", 0, out, sizeof out, &len, err, sizeof err), -1);
    assert_string_equal(err, "unterminated string");
    assert_int_equal(asm_string_list("bare", 0, out, sizeof out, &len, err, sizeof err), -1);
    assert_non_null(strstr(err, "expected a string in quotes at 'bare'"));
    assert_int_equal(asm_string_list("\"a\" junk", 0, out, sizeof out, &len, err, sizeof err), -1);
    assert_non_null(strstr(err, "unexpected 'junk' after a string"));
}

static void test_labels(void **state)
{
    (void)state;
    char l1[] = "  loop :  add s0, s0, 1", *p = l1, *name;
    assert_int_equal(asm_take_label(&p, &name), 1);   /* blanks before the colon: LLVM MC */
    assert_string_equal(name, "loop");
    assert_string_equal(asm_trim(p), "add s0, s0, 1");
    char l2[] = "1: nop", *q = l2;
    assert_int_equal(asm_take_label(&q, &name), 1);
    assert_string_equal(name, "1");
    char l3[] = "size = 4 * 8", *r = l3;
    assert_int_equal(asm_take_label(&r, &name), 2);
    assert_string_equal(name, "size");
    assert_string_equal(asm_trim(r), "4 * 8");
    char l4[] = "x == y", *t = l4;
    assert_int_equal(asm_take_label(&t, &name), 0);  /* a comparison, not an assignment */
    assert_ptr_equal(t, l4);
    char l5[] = "move r0, 1", *u = l5;
    assert_int_equal(asm_take_label(&u, &name), 0);
    char l6[300];
    memset(l6, 'a', 260);
    strcpy(l6 + 260, ":");
    char *v = l6;
    assert_int_equal(asm_take_label(&v, &name), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_labels),
        cmocka_unit_test(test_comments),
        cmocka_unit_test(test_words_and_operands),
        cmocka_unit_test(test_strings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
