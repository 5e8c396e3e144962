/* tests/loaders/test_images.c: the plain word formats and file handling of loaders/image.c:
 * MCCP ".out" ROM text, ".txt" decimal words, ".hex" words, raw binary, format detection
 * by content and extension, file reading across buffer-growth boundaries, and ld_read_data.
 * Errors must read "FILE:LINE: ..." (with the column for a bad character), never crash. */
#include "../testlib.h"
#include <unistd.h>
#include "../../loaders/loader.h"

static int parse(const char *name, const char *text, ld_format fmt, ld_image *img, char *err, size_t n)
{
    err[0] = 0;
    return ld_parse(name, text, strlen(text), fmt, img, err, n);
}

static void expect_err(const char *name, const char *text, ld_format fmt, const char *prefix, const char *what)
{
    ld_image img;
    char err[512];
    int rc = parse(name, text, fmt, &img, err, sizeof err);
    if (rc != -1)
        fail_msg("accepted bad %s input (%s expected)", ld_format_name(fmt), prefix);
    if (strncmp(err, prefix, strlen(prefix)) != 0)
        fail_msg("error \"%s\" does not start with \"%s\"", err, prefix);
    if (what && !strstr(err, what))
        fail_msg("error \"%s\" does not mention \"%s\"", err, what);
    assert_null(img.words);
    assert_null(img.file);
}

/* 32 binary digits of w, MSB first */
static void bits(uint32_t w, char *out)
{
    for (int i = 0; i < 32; i++)
        out[i] = (char)('0' + (w >> (31 - i) & 1));
    out[32] = 0;
}

/* ---- .out ---- */

static void test_out_valid(void **state)
{
    (void)state;
    char a[33], b[33], c[33], text[256];
    bits(1, a);
    bits(0x80000000u, b);
    bits(0xdeadbeef, c);
    /* blank lines are skipped; surrounding blanks are allowed; the last line may lack \n */
    snprintf(text, sizeof text, "%s\n\n  %s  \n%s", a, b, c);
    ld_image img;
    char err[512];
    if (parse("rom.out", text, LD_NONE, &img, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(img.fmt, LD_OUT); /* detected by the extension */
    assert_int_equal(img.nwords, 3);
    assert_int_equal(img.words[0], 1);
    assert_int_equal(img.words[1], 0x80000000u);
    assert_int_equal(img.words[2], 0xdeadbeef);
    ld_free(&img);
    /* CRLF line ends are accepted */
    snprintf(text, sizeof text, "%s\r\n%s\r\n", c, a);
    if (parse("crlf.out", text, LD_OUT, &img, err, sizeof err))
        fail_msg("CRLF rejected: %s", err);
    assert_int_equal(img.nwords, 2);
    assert_int_equal(img.words[0], 0xdeadbeef);
    assert_int_equal(img.words[1], 1);
    ld_free(&img);
}

static void test_out_errors(void **state)
{
    (void)state;
    char a[33], text[256];
    bits(0x12345678, a);
    /* line 3 has 31 digits */
    snprintf(text, sizeof text, "%s\n%s\n%.31s\n%s\n", a, a, a, a);
    expect_err("w.out", text, LD_OUT, "w.out:3:", "31");
    /* 33 digits on line 1 */
    snprintf(text, sizeof text, "%s1\n", a);
    expect_err("w.out", text, LD_OUT, "w.out:1:", "33");
    /* a bad character at line 2, column 5 */
    snprintf(text, sizeof text, "%s\n%s\n", a, a);
    text[33 + 4] = 'x';
    expect_err("c.out", text, LD_OUT, "c.out:2:", "column 5");
    /* '2' is not binary either; last column */
    snprintf(text, sizeof text, "%s\n", a);
    text[31] = '2';
    expect_err("c.out", text, LD_OUT, "c.out:1:", "column 32");
    /* empty, blank-only */
    expect_err("e.out", "", LD_OUT, "e.out:", "empty");
    expect_err("e.out", "\n\n  \n", LD_OUT, "e.out:", "empty");
    /* a non-printable character is not echoed raw */
    snprintf(text, sizeof text, "%s\n", a);
    text[0] = 1;
    ld_image img;
    char err[512];
    assert_int_equal(parse("np.out", text, LD_OUT, &img, err, sizeof err), -1);
    assert_null(strchr(err, 1));
}

static void test_out_column_counts_leading_blanks(void **state)
{
    (void)state;
    char a[33], text[256];
    bits(0x0f0f0f0f, a);
    /* "  " then 32 digits of which the 5th is bad: that character is in column 7 of the
     * line (a column counts from the start of the line, as the .txt errors do) */
    snprintf(text, sizeof text, "  %s\n", a);
    text[2 + 4] = 'z';
    expect_err("lead.out", text, LD_OUT, "lead.out:1:", "column 7");
    /* the same for .hex: "\t 12g4" has the 'g' in column 5 */
    expect_err("lead.hex", "\t 12g4\n", LD_HEX, "lead.hex:1:", "column 5");
    /* .txt already counts from the line start: "   7 y" has 'y' in column 6 */
    expect_err("lead.txt", "   7 y\n", LD_TXT, "lead.txt:1:", "column 6");
}

/* ---- .txt ---- */

static void test_txt_valid(void **state)
{
    (void)state;
    ld_image img;
    char err[512];
    /* several per line, any blanks; negatives wrap to 32 bits; both range ends */
    const char *text = "1 -1\t4294967295\n\n  -2147483648   7\r\n+5 0\n2147483647";
    if (parse("d.txt", text, LD_NONE, &img, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(img.fmt, LD_TXT);
    const uint32_t want[] = {1, 0xffffffffu, 0xffffffffu, 0x80000000u, 7, 5, 0, 0x7fffffffu};
    assert_int_equal(img.nwords, 8);
    for (int i = 0; i < 8; i++)
        assert_int_equal(img.words[i], want[i]);
    ld_free(&img);
    /* an empty data file is zero words, not an error */
    assert_int_equal(parse("empty.txt", "", LD_TXT, &img, err, sizeof err), 0);
    assert_int_equal(img.nwords, 0);
    ld_free(&img);
}

static void test_txt_errors(void **state)
{
    (void)state;
    expect_err("r.txt", "1\n4294967296\n", LD_TXT, "r.txt:2:", "range");
    expect_err("r.txt", "-2147483649", LD_TXT, "r.txt:1:", "range");
    expect_err("r.txt", "1 2 3\n\n99999999999999999999999\n", LD_TXT, "r.txt:3:", "range");
    /* garbage: line 2, the token starting in column 3 */
    expect_err("g.txt", "1 2\n3 x4\n", LD_TXT, "g.txt:2:", "column 3");
    expect_err("g.txt", "12abc\n", LD_TXT, "g.txt:1:", "column 1");
    expect_err("g.txt", "0x10\n", LD_TXT, "g.txt:1:", "column 1");  /* decimal only */
    expect_err("g.txt", "1,2\n", LD_TXT, "g.txt:1:", "column 1");
    expect_err("g.txt", "5 -\n", LD_TXT, "g.txt:1:", "column 3");
    expect_err("g.txt", "1.5\n", LD_TXT, "g.txt:1:", "decimal");
}

/* ---- .hex ---- */

static void test_hex(void **state)
{
    (void)state;
    ld_image img;
    char err[512];
    const char *text = "deadbeef\nDEADBEEF\n  12\n# comment\n// another\n\n0\r\nffffffff";
    if (parse("p.hex", text, LD_NONE, &img, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(img.fmt, LD_HEX);
    const uint32_t want[] = {0xdeadbeef, 0xdeadbeef, 0x12, 0, 0xffffffffu};
    assert_int_equal(img.nwords, 5);
    for (int i = 0; i < 5; i++)
        assert_int_equal(img.words[i], want[i]);
    ld_free(&img);
    expect_err("p.hex", "12\n123456789\n", LD_HEX, "p.hex:2:", "8 hex digits");
    expect_err("p.hex", "12\n1\n12g4\n", LD_HEX, "p.hex:3:", "column 3");
    expect_err("p.hex", "0x12\n", LD_HEX, "p.hex:1:", "column 2");
    expect_err("p.hex", "12 34\n", LD_HEX, "p.hex:1:", "column 3");
    /* "@hhhh" sets the next word's address, as $readmemh does (issue 15: the RTL's and the
     * emulator's images use it): words skipped are zero, a lower address overwrites */
    if (parse("a.hex", "@2\n11\n22\n@0\n55\n@6\n66\n", LD_HEX, &img, err, sizeof err))
        fail_msg("%s", err);
    const uint32_t placed[] = {0x55, 0, 0x11, 0x22, 0, 0, 0x66};
    assert_int_equal(img.nwords, 7);
    for (int i = 0; i < 7; i++)
        assert_int_equal(img.words[i], placed[i]);
    ld_free(&img);
    /* a file's number sizes a host allocation: bounded before it is used */
    expect_err("a.hex", "1\n@1000000\n2\n", LD_HEX, "a.hex:2:", "beyond word 16777215");
    expect_err("a.hex", "@ffffffff\n", LD_HEX, "a.hex:1:", "beyond word");
    expect_err("a.hex", "@\n", LD_HEX, "a.hex:1:", "1 to 8 hex digits after '@'");
    expect_err("a.hex", "@12g\n", LD_HEX, "a.hex:1:", "column 4");
}

/* ---- raw and detection ---- */

static void test_raw_and_detection(void **state)
{
    (void)state;
    ld_image img;
    char err[512];
    const uint8_t bin[5] = {0, 1, 2, 0xff, 0};
    assert_int_equal(ld_parse("x.bin", bin, 5, LD_NONE, &img, err, sizeof err), 0);
    assert_int_equal(img.fmt, LD_RAW);
    assert_int_equal(img.file_size, 5);
    assert_memory_equal(img.file, bin, 5);
    ld_free(&img);
    assert_int_equal(ld_parse("noext", bin, 5, LD_NONE, &img, err, sizeof err), 0);
    assert_int_equal(img.fmt, LD_RAW);
    ld_free(&img);
    assert_int_equal(ld_parse("e.bin", bin, 0, LD_RAW, &img, err, sizeof err), -1);
    assert_non_null(strstr(err, "e.bin"));
    assert_non_null(strstr(err, "empty"));
    /* content beats extension: ELF magic in a .txt file is parsed as ELF (and fails here
     * as a truncated ELF, not as bad decimal text) */
    assert_int_equal(ld_parse("elf.txt", "\177ELF", 4, LD_NONE, &img, err, sizeof err), -1);
    assert_non_null(strstr(err, "ELF"));
    /* .elf and .o promise ELF: text in them is an error naming the magic, not raw data */
    assert_int_equal(ld_parse("prog.o", "abc", 3, LD_NONE, &img, err, sizeof err), -1);
    assert_non_null(strstr(err, "prog.o"));
    assert_non_null(strstr(err, "magic"));
    assert_int_equal(ld_parse("prog.elf", "abcdefgh", 8, LD_NONE, &img, err, sizeof err), -1);
    assert_non_null(strstr(err, "magic"));
    /* forcing a format overrides the extension */
    assert_int_equal(parse("words.out", "1 2 3", LD_TXT, &img, err, sizeof err), 0);
    assert_int_equal(img.fmt, LD_TXT);
    assert_int_equal(img.nwords, 3);
    ld_free(&img);
    /* names of formats */
    assert_string_equal(ld_format_name(LD_ELF), "ELF");
    assert_string_equal(ld_format_name((ld_format)99), "?");
}

/* ---- files ---- */

typedef struct tmpdir {
    char dir[64];
} tmpdir;

static void mk(tmpdir *t)
{
    snprintf(t->dir, sizeof t->dir, "/tmp/xpusim-img-XXXXXX");
    assert_non_null(mkdtemp(t->dir));
}

static const char *path(const tmpdir *t, const char *name, char *buf, size_t n)
{
    snprintf(buf, n, "%s/%s", t->dir, name);
    return buf;
}

static void write_file(const char *p, const void *data, size_t len)
{
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

static void test_file_sizes_across_growth(void **state)
{
    (void)state;
    tmpdir t;
    mk(&t);
    char p[128];
    /* the reader starts with a 64 KiB buffer and doubles it: sizes around the boundaries */
    const size_t sizes[] = {1, 65535, 65536, 65537, 131072, 200001};
    uint8_t *data = malloc(200001);
    for (size_t i = 0; i < 200001; i++)
        data[i] = (uint8_t)(i * 131 + (i >> 9));
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        path(&t, "blob.bin", p, sizeof p);
        write_file(p, data, sizes[k]);
        ld_image img;
        char err[512];
        if (ld_load(p, &img, err, sizeof err))
            fail_msg("%s", err);
        assert_int_equal(img.fmt, LD_RAW);
        assert_int_equal(img.file_size, sizes[k]);
        assert_memory_equal(img.file, data, sizes[k]);
        ld_free(&img);
        uint8_t *buf = NULL;
        size_t len = 0;
        assert_int_equal(ld_read_data(p, &buf, &len, err, sizeof err), 0);
        assert_int_equal(len, sizes[k]);
        assert_memory_equal(buf, data, len);
        free(buf);
        unlink(p);
    }
    free(data);
    rmdir(t.dir);
}

static void test_load_by_extension(void **state)
{
    (void)state;
    tmpdir t;
    mk(&t);
    char p[128], err[512];
    ld_image img;
    char line[40];
    bits(5, line);
    strcat(line, "\n");
    write_file(path(&t, "a.out", p, sizeof p), line, 33);
    assert_int_equal(ld_load(p, &img, err, sizeof err), 0);
    assert_int_equal(img.fmt, LD_OUT);
    assert_int_equal(img.words[0], 5);
    assert_string_equal(img.path, p);
    ld_free(&img);
    write_file(path(&t, "a.hex", p, sizeof p), "1f\n", 3);
    assert_int_equal(ld_load(p, &img, err, sizeof err), 0);
    assert_int_equal(img.fmt, LD_HEX);
    assert_int_equal(img.words[0], 0x1f);
    ld_free(&img);
    /* errors name the file path as given */
    write_file(path(&t, "bad.txt", p, sizeof p), "1\n2\nthree\n", 10);
    assert_int_equal(ld_load(p, &img, err, sizeof err), -1);
    char want[200];
    snprintf(want, sizeof want, "%s:3:", p);
    if (strncmp(err, want, strlen(want)))
        fail_msg("\"%s\" does not start with \"%s\"", err, want);
    unlink(p);
    path(&t, "a.out", p, sizeof p);
    unlink(p);
    path(&t, "a.hex", p, sizeof p);
    unlink(p);
    /* missing file and a directory */
    path(&t, "missing.out", p, sizeof p);
    assert_int_equal(ld_load(p, &img, err, sizeof err), -1);
    assert_non_null(strstr(err, p));
    assert_non_null(strstr(err, "cannot open"));
    rmdir(t.dir);
    assert_int_equal(ld_load(t.dir, &img, err, sizeof err), -1); /* gone now: cannot open */
    assert_int_equal(ld_load("/", &img, err, sizeof err), -1);   /* a directory */
    assert_non_null(strstr(err, "/"));
}

static void test_read_data(void **state)
{
    (void)state;
    tmpdir t;
    mk(&t);
    char p[128], err[512];
    uint8_t *buf = NULL;
    size_t len = 0;
    /* .txt: each word as 4 little-endian bytes; -2 wraps to 0xfffffffe */
    write_file(path(&t, "v.txt", p, sizeof p), "1 -2\n305419896\n", 15);
    assert_int_equal(ld_read_data(p, &buf, &len, err, sizeof err), 0);
    assert_int_equal(len, 12);
    const uint8_t want[12] = {1, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0x78, 0x56, 0x34, 0x12};
    assert_memory_equal(buf, want, 12);
    free(buf);
    unlink(p);
    /* empty .txt: zero bytes */
    write_file(path(&t, "z.txt", p, sizeof p), "", 0);
    buf = NULL;
    assert_int_equal(ld_read_data(p, &buf, &len, err, sizeof err), 0);
    assert_int_equal(len, 0);
    free(buf);
    unlink(p);
    /* bad .txt: the line is reported */
    write_file(path(&t, "b.txt", p, sizeof p), "1\n\n7 8 nine\n", 12);
    assert_int_equal(ld_read_data(p, &buf, &len, err, sizeof err), -1);
    char wantp[200];
    snprintf(wantp, sizeof wantp, "%s:3:", p);
    if (strncmp(err, wantp, strlen(wantp)))
        fail_msg("\"%s\" does not start with \"%s\"", err, wantp);
    unlink(p);
    /* anything else: raw bytes, even if it looks like decimal text */
    write_file(path(&t, "r.dat", p, sizeof p), "1 2\n", 4);
    assert_int_equal(ld_read_data(p, &buf, &len, err, sizeof err), 0);
    assert_int_equal(len, 4);
    assert_memory_equal(buf, "1 2\n", 4);
    free(buf);
    unlink(p);
    path(&t, "none.bin", p, sizeof p);
    assert_int_equal(ld_read_data(p, &buf, &len, err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot open"));
    rmdir(t.dir);
}

static void test_random_text_never_crashes(void **state)
{
    (void)state;
    /* random printable/blank/binary text through each text format: 0 or -1, and on -1 a
     * message that starts with the name */
    uint64_t s = 0x853c49e6748fea9bull;
    char buf[300];
    const char alphabet[] = "01 \t\r\n-+x9aF#/@z\001";
    for (int it = 0; it < 3000; it++) {
        size_t len = 0, n = (size_t)(s % 299);
        for (; len < n; len++) {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            buf[len] = alphabet[s % (sizeof alphabet - 1)];
        }
        ld_format f = (ld_format)(LD_OUT + it % 3);
        ld_image img;
        char err[512] = "";
        int rc = ld_parse("fz", buf, len, f, &img, err, sizeof err);
        if (rc == 0) {
            assert_true(img.nwords <= len);
            ld_free(&img);
        } else {
            assert_int_equal(rc, -1);
            assert_memory_equal(err, "fz:", 3);
        }
    }
}

XPUSIM_TESTS(images,
             cmocka_unit_test(test_out_valid),
             cmocka_unit_test(test_out_errors),
             cmocka_unit_test(test_out_column_counts_leading_blanks),
             cmocka_unit_test(test_txt_valid),
             cmocka_unit_test(test_txt_errors),
             cmocka_unit_test(test_hex),
             cmocka_unit_test(test_raw_and_detection),
             cmocka_unit_test(test_file_sizes_across_growth),
             cmocka_unit_test(test_load_by_extension),
             cmocka_unit_test(test_read_data),
             cmocka_unit_test(test_random_text_never_crashes))
