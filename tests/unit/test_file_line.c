/* tests/unit/test_file_line.c: core/file.h's file_line (the text statistics' line writer)
 * writes exactly what fprintf's "%s" and "%llu" write: numbers at every digit count and at
 * both ends of uint64_t, strings longer than the line's buffer (the flush on the way), and
 * the stall list of file_text_counts, each compared with fprintf's text of the same. */
#include "../testlib.h"
#include "../../core/file.h"

/* The text a file_line wrote to a memory stream. */
static char *memtext(FILE *f, char **buf)
{
    fflush(f);
    return *buf;
}

static void test_numbers(void **state)
{
    (void)state;
    static const uint64_t vals[] = {0, 1, 9, 10, 99, 100, 12345, 4294967295ULL, 4294967296ULL,
                                    999999999999999999ULL, 1000000000000000000ULL, 10000000000000000000ULL,
                                    UINT64_MAX - 1, UINT64_MAX};
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        char want[32], *buf = NULL;
        size_t len = 0;
        snprintf(want, sizeof want, "x%llu;", (unsigned long long)vals[i]);
        FILE *f = open_memstream(&buf, &len);
        assert_non_null(f);
        file_line l = {.f = f};
        file_line_put(&l, "x");
        file_line_u64(&l, vals[i]);
        file_line_put(&l, ";");
        file_line_flush(&l);
        assert_string_equal(memtext(f, &buf), want);
        fclose(f);
        free(buf);
    }
}

/* Pieces that cross the buffer's end at every offset: the text is the pieces in order. */
static void test_long_lines(void **state)
{
    (void)state;
    char piece[700];
    for (size_t k = 0; k < sizeof piece - 1; k++)
        piece[k] = (char)('a' + k % 26);
    piece[sizeof piece - 1] = 0;
    for (size_t cut = 0; cut < sizeof piece; cut += 37) {
        char *buf = NULL, *want = NULL;
        size_t len = 0, wlen = 0;
        FILE *f = open_memstream(&buf, &len), *w = open_memstream(&want, &wlen);
        assert_non_null(f);
        assert_non_null(w);
        file_line l = {.f = f};
        for (int rep = 0; rep < 5; rep++) {
            char save = piece[cut];
            piece[cut] = 0;
            file_line_put(&l, piece);
            fprintf(w, "%s", piece);
            piece[cut] = save;
            file_line_u64(&l, UINT64_MAX - (uint64_t)rep);
            fprintf(w, "%llu", (unsigned long long)(UINT64_MAX - (uint64_t)rep));
            file_line_put(&l, piece + cut);
            fprintf(w, "%s", piece + cut);
        }
        file_line_flush(&l);
        fflush(w);
        assert_int_equal(strlen(memtext(f, &buf)), wlen);
        assert_string_equal(buf, want);
        fclose(f);
        fclose(w);
        free(buf);
        free(want);
    }
}

/* file_text_counts: the non-zero values only, up to max or the first NULL name. */
static void test_counts(void **state)
{
    (void)state;
    static const char *const names[] = {"revolver", "dma", "sync", NULL, "never"};
    static const uint64_t vals[] = {900010, 0, UINT64_MAX, 5, 7};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    file_text_counts(f, ", stall ", names, vals, 5);
    file_text_counts(f, "|", names, vals, 1);
    file_text_counts(f, "|", NULL, vals, 5);
    assert_string_equal(memtext(f, &buf), ", stall revolver 900010, stall sync 18446744073709551615|revolver 900010");
    fclose(f);
    free(buf);
}

XPUSIM_TESTS(file_line, cmocka_unit_test(test_numbers), cmocka_unit_test(test_long_lines),
             cmocka_unit_test(test_counts))
