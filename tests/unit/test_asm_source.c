/* tests/unit/test_asm_source.c: the assemblers' line reader (core/asm/source.c), on files
 * made here: direct reading gives lines without newlines and counts them; a line of 4,095
 * characters is accepted and one of 4,096 refused with its number (not split in two);
 * through cpp, an #include's lines carry the included file's name and line numbers, and a
 * cpp failure comes back with cpp's own message. The file-name table gives each name one
 * index in order of first sight, the same index again, and "?" for an index it never gave
 * (messages about no file in particular). */
#include <unistd.h>
#include "../testlib.h"
#include "../../core/asm/source.h"

static char dir[] = "/tmp/xpusim-test-src-XXXXXX";

static void put(const char *name, const char *text)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_direct(void **state)
{
    (void)state;
    static char text[3 * 4200];
    snprintf(text, sizeof text, "one\n");
    size_t n = strlen(text);
    memset(text + n, 'a', 4095);
    n += 4095;
    text[n++] = '\n';
    memset(text + n, 'b', 4096);
    n += 4096;
    text[n++] = '\n';
    text[n] = 0;
    put("d.s", text);
    char p[256], err[200], *line;
    snprintf(p, sizeof p, "%s/d.s", dir);
    asm_source s;
    assert_int_equal(asm_source_open(&s, p, NULL, err, sizeof err), 0);
    assert_int_equal(asm_source_next(&s, &line, err, sizeof err), 1);
    assert_string_equal(line, "one");
    assert_int_equal(asm_source_next(&s, &line, err, sizeof err), 1);
    assert_int_equal(strlen(line), 4095);
    assert_int_equal(s.line, 2);
    assert_int_equal(asm_source_next(&s, &line, err, sizeof err), -1);
    assert_int_equal(s.line, 3);
    assert_string_equal(err, "line longer than 4095 characters");
    assert_int_equal(asm_source_close(&s, err, sizeof err), 0);
}

static void test_cpp(void **state)
{
    (void)state;
    put("inc.h", "inc_one\ninc_two\n");
    put("m.S", "#define X 42\nfirst X\n#include \"inc.h\"\nlast\n");
    char p[256], err[200], *line;
    snprintf(p, sizeof p, "%s/m.S", dir);
    asm_cpp_args args;
    assert_int_equal(asm_cpp_args_build(&args, p, NULL, "Y=1", NULL, err, sizeof err), 0);
    asm_source s;
    assert_int_equal(asm_source_open(&s, p, args.argv, err, sizeof err), 0);
    int seen = 0, r;
    while ((r = asm_source_next(&s, &line, err, sizeof err)) == 1) {
        if (!strcmp(line, "first 42")) { assert_int_equal(s.line, 2); assert_non_null(strstr(s.file, "m.S")); seen |= 1; }
        if (!strcmp(line, "inc_two")) { assert_int_equal(s.line, 2); assert_non_null(strstr(s.file, "inc.h")); seen |= 2; }
        if (!strcmp(line, "last")) { assert_int_equal(s.line, 4); assert_non_null(strstr(s.file, "m.S")); seen |= 4; }
    }
    assert_int_equal(r, 0);
    assert_int_equal(seen, 7);
    assert_int_equal(asm_source_close(&s, err, sizeof err), 0);
    /* a missing include: cpp fails and its message is the error */
    put("bad.S", "#include \"nowhere.h\"\n");
    snprintf(p, sizeof p, "%s/bad.S", dir);
    assert_int_equal(asm_cpp_args_build(&args, p, NULL, NULL, NULL, err, sizeof err), 0);
    assert_int_equal(asm_source_open(&s, p, args.argv, err, sizeof err), 0);
    while (asm_source_next(&s, &line, err, sizeof err) == 1)
        ;
    assert_int_equal(asm_source_close(&s, err, sizeof err), -1);
    assert_non_null(strstr(err, "nowhere.h"));
    /* defines are checked before anything runs */
    assert_int_equal(asm_cpp_args_build(&args, p, NULL, "A;rm", NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "-o define=A;rm: expected NAME or NAME=VALUE"));
}

static void test_files(void **state)
{
    (void)state;
    asm_files t = {0};
    assert_string_equal(asm_files_name(&t, 0), "?");
    char name[32];
    for (int i = 0; i < 40; i++) { /* past the first growth (16) and the second (32) */
        snprintf(name, sizeof name, "f%d.S", i);
        assert_int_equal(asm_files_index(&t, name), i);
    }
    assert_int_equal(asm_files_index(&t, "f0.S"), 0);
    assert_int_equal(asm_files_index(&t, "f39.S"), 39);
    assert_int_equal(t.n, 40);
    assert_string_equal(asm_files_name(&t, 17), "f17.S");
    assert_string_equal(asm_files_name(&t, 39), "f39.S");
    assert_string_equal(asm_files_name(&t, 40), "?");
    assert_string_equal(asm_files_name(&t, -1), "?");
    asm_files_free(&t);
    assert_int_equal(t.n, 0);
    assert_null(t.v);
    assert_string_equal(asm_files_name(&t, 0), "?");
}

static int setup(void **state)
{
    (void)state;
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    static const char *const files[] = {"d.s", "inc.h", "m.S", "bad.S"};
    char p[256];
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, files[i]);
        unlink(p);
    }
    return rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_direct),
        cmocka_unit_test(test_cpp),
        cmocka_unit_test(test_files),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
