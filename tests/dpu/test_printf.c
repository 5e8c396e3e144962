/* tests/dpu/test_printf.c: the DPU printf records are guest data. Each test builds a record
 * as the DPU runtime lays it out (format, NUL, raw little-endian arguments) and checks the
 * text dpu_printf_buffer prints. Expected texts follow the SDK host reader's rules (argument
 * sizes: 8 bytes with an 'l', else 4; doubles 8; %c 1; %s inline to its NUL; %b 32 bits
 * LSB first; unsupported specs printed literally, skipping 4 bytes) and C's printf for the
 * supported conversions. The hostile cases (%n, %lln, '*', huge widths, cut records) must
 * print text and never act as host formats: under ASan a host %n would be a wild write. */
#include "../testlib.h"
#include "../../isa/dpu/dpu.h"

typedef struct rec { uint8_t b[512]; size_t n; } rec;

static void put_fmt(rec *r, const char *f)
{
    size_t k = strlen(f) + 1;
    memcpy(r->b + r->n, f, k);
    r->n += k;
}
static void put32(rec *r, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        r->b[r->n++] = (uint8_t)(v >> (8 * i));
}
static void put64(rec *r, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        r->b[r->n++] = (uint8_t)(v >> (8 * i));
}
static void put_str(rec *r, const char *s)
{
    put_fmt(r, s);
}

/* the printed text of a buffer, in a static result buffer */
static const char *render(const rec *r)
{
    static char out[2048];
    memset(out, 0, sizeof out);
    FILE *f = fmemopen(out, sizeof out - 1, "w");
    assert_non_null(f);
    dpu_printf_buffer(f, r->b, r->n);
    fclose(f);
    return out;
}

static void test_integers(void **state)
{
    (void)state;
    rec r = {0};
    put_fmt(&r, "%d%s%u%s%x%s%08X%s%o");
    put32(&r, (uint32_t)-5); put_str(&r, " ");
    put32(&r, 4000000000u); put_str(&r, " ");
    put32(&r, 0xbeef); put_str(&r, " ");
    put32(&r, 0xab); put_str(&r, " ");
    put32(&r, 8);
    assert_string_equal(render(&r), "-5 4000000000 beef 000000AB 10");
}

/* issue 16: %ld/%lu/%lx take 8 bytes, and the text after them is kept */
static void test_long_is_eight_bytes(void **state)
{
    (void)state;
    rec r = {0};
    put_fmt(&r, "%ld%s%lu%s%lx%s");
    put64(&r, (uint64_t)-1234567890123LL); put_str(&r, " ");
    put64(&r, 10000000000ULL); put_str(&r, " ");
    put64(&r, 0x123456789aULL); put_str(&r, " end\n");
    assert_string_equal(render(&r), "-1234567890123 10000000000 123456789a end\n");
}

/* issue 16: %lld/%llu/%llx and a flag/width with l take 8 bytes too, and the text after
 * them is kept; a 4-byte %d right after an 8-byte argument reads the next 4 bytes */
static void test_long_long_is_eight_bytes(void **state)
{
    (void)state;
    rec r = {0};
    put_fmt(&r, "%lld%s%llu%s%llx%s%-12lu%s%d%s");
    put64(&r, (uint64_t)-9000000000LL); put_str(&r, " ");
    put64(&r, 18446744073709551615ULL); put_str(&r, " ");
    put64(&r, 0xfedcba9876543210ULL); put_str(&r, " [");
    put64(&r, 5000000000ULL); put_str(&r, "] ");
    put32(&r, (uint32_t)-7); put_str(&r, " tail\n");
    assert_string_equal(render(&r), "-9000000000 18446744073709551615 fedcba9876543210 [5000000000  ] -7 tail\n");
}

static void test_narrow_and_widths(void **state)
{
    (void)state;
    rec r = {0};
    put_fmt(&r, "%hhd%s%hu%s%-4d%s%5.2f%s%c%s%5s%s%.2s%s%p%s%p");
    put32(&r, 0x1ff); put_str(&r, "|");
    put32(&r, 0x12345); put_str(&r, "|");
    put32(&r, 7); put_str(&r, "|");
    put64(&r, 0x400921fb54442d18ULL); /* pi */ put_str(&r, "|");
    r.b[r.n++] = 'Z'; put_str(&r, "|");
    put_str(&r, "ab"); put_str(&r, "|");
    put_str(&r, "xyz"); put_str(&r, "|");
    put32(&r, 0); put_str(&r, "|");
    put32(&r, 0x1000);
    assert_string_equal(render(&r), "-1|9029|7   | 3.14|Z|   ab|xy|(nil)|0x1000");
}

static void test_binary_format(void **state)
{
    (void)state;
    rec r = {0};
    put_fmt(&r, "%b");
    put32(&r, 0x80000005u);
    assert_string_equal(render(&r), "10100000000000000000000000000001");
}

/* %n, %lln, '*' widths, %g and unknown letters are text, each skipping 4 bytes */
static void test_hostile_specs_are_text(void **state)
{
    (void)state;
    rec r = {0};
    put_fmt(&r, "%n%s%lln%s%*d%s%q%s%d");
    put32(&r, 0x41414141); put_str(&r, "|");
    put32(&r, 0x41414141); put_str(&r, "|");
    put32(&r, 0x7fffffff); put_str(&r, "|");
    put32(&r, 1); put_str(&r, "|");
    put32(&r, 42);
    assert_string_equal(render(&r), "%n|%lln|%*d|%q|42");
}

static void test_huge_width_is_text(void **state)
{
    (void)state;
    rec r = {0};
    put_fmt(&r, "%999999999d%s%.99999999f");
    put32(&r, 1); put_str(&r, "|");
    put32(&r, 2);
    assert_string_equal(render(&r), "%999999999d|%.99999999f");
}

/* a record cut short (arguments missing, a string without its NUL) stops cleanly */
static void test_cut_records(void **state)
{
    (void)state;
    rec r = {0};
    put_fmt(&r, "%s%ld");
    put_str(&r, "ok ");
    put32(&r, 5);               /* 4 of the 8 bytes */
    assert_string_equal(render(&r), "ok ");
    rec s = {0};
    put_fmt(&s, "%s");
    memcpy(s.b + s.n, "abc", 3);  /* no NUL before the end */
    s.n += 3;
    assert_string_equal(render(&s), "");
    rec t = {0};
    memcpy(t.b, "%d%d%d", 6);     /* the format itself has no NUL */
    t.n = 6;
    assert_string_equal(render(&t), "");
}

static void test_two_records(void **state)
{
    (void)state;
    rec r = {0};
    put_fmt(&r, "%s%d%s");
    put_str(&r, "a=");
    put32(&r, 1);
    put_str(&r, "\n");
    put_fmt(&r, "%s%d%s");
    put_str(&r, "b=");
    put32(&r, 2);
    put_str(&r, "\n");
    assert_string_equal(render(&r), "a=1\nb=2\n");
}

XPUSIM_TESTS(dpu_printf,
             cmocka_unit_test(test_integers),
             cmocka_unit_test(test_long_is_eight_bytes),
             cmocka_unit_test(test_long_long_is_eight_bytes),
             cmocka_unit_test(test_narrow_and_widths),
             cmocka_unit_test(test_binary_format),
             cmocka_unit_test(test_hostile_specs_are_text),
             cmocka_unit_test(test_huge_width_is_text),
             cmocka_unit_test(test_cut_records),
             cmocka_unit_test(test_two_records))
