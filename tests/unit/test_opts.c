/* tests/unit/test_opts.c: the -o KEY=VALUE list (core/opts.c) and its typed getters.
 * opts.h promises: later settings replace earlier ones; integers are decimal or 0x hex and
 * are range-checked; getters report a value that does not parse or is out of range instead
 * of guessing, with a message naming the option and its value. */
#include "../testlib.h"
#include "../../core/opts.h"

static void test_parse_and_get(void **state)
{
    (void)state;
    sim_opts o;
    opt_init(&o);
    assert_int_equal(opt_parse(&o, "a=1"), 0);
    assert_int_equal(opt_parse(&o, "name=hello world"), 0);
    assert_int_equal(opt_parse(&o, "expr=x=y"), 0);   /* only the first '=' splits */
    assert_int_equal(opt_parse(&o, "empty="), 0);
    assert_int_equal(o.n, 4);
    assert_string_equal(opt_get(&o, "a", NULL), "1");
    assert_string_equal(opt_get(&o, "name", NULL), "hello world");
    assert_string_equal(opt_get(&o, "expr", NULL), "x=y");
    assert_string_equal(opt_get(&o, "empty", "dflt"), "");
    assert_string_equal(opt_get(&o, "missing", "dflt"), "dflt");
    assert_null(opt_get(&o, "A", NULL)); /* keys are case-sensitive */
    /* a later setting replaces the earlier one, without a second entry */
    assert_int_equal(opt_parse(&o, "a=2"), 0);
    assert_int_equal(o.n, 4);
    assert_string_equal(opt_get(&o, "a", NULL), "2");
    assert_int_equal(opt_set(&o, "a", "3"), 0);
    assert_string_equal(opt_get(&o, "a", NULL), "3");
}

static void test_parse_malformed(void **state)
{
    (void)state;
    sim_opts o;
    opt_init(&o);
    assert_int_equal(opt_parse(&o, "novalue"), -1);
    assert_int_equal(opt_parse(&o, "=5"), -1);
    assert_int_equal(opt_parse(&o, ""), -1);
    assert_int_equal(opt_set(&o, "", "x"), -1);
    /* keys hold 31 characters, values 127 */
    char kv[300];
    memset(kv, 'k', 31);
    strcpy(kv + 31, "=v");
    assert_int_equal(opt_parse(&o, kv), 0);
    memset(kv, 'k', 32);
    strcpy(kv + 32, "=v");
    assert_int_equal(opt_parse(&o, kv), -1);
    memset(kv, 'k', 100);
    strcpy(kv + 100, "=v");
    assert_int_equal(opt_parse(&o, kv), -1);
    strcpy(kv, "v=");
    memset(kv + 2, 'x', 127);
    kv[129] = 0;
    assert_int_equal(opt_parse(&o, kv), 0);
    assert_int_equal(strlen(opt_get(&o, "v", "")), 127);
    kv[129] = 'x';
    kv[130] = 0;
    assert_int_equal(opt_parse(&o, kv), -1);
    assert_int_equal(strlen(opt_get(&o, "v", "")), 127); /* unchanged */
    assert_int_equal(o.n, 2);
}

static void test_table_full(void **state)
{
    (void)state;
    sim_opts o;
    opt_init(&o);
    char k[16];
    for (int i = 0; i < OPT_MAX; i++) {
        snprintf(k, sizeof k, "k%d", i);
        assert_int_equal(opt_set(&o, k, "1"), 0);
    }
    assert_int_equal(opt_set(&o, "one-more", "1"), -1);
    assert_null(opt_get(&o, "one-more", NULL));
    /* replacing an existing key still works when full */
    assert_int_equal(opt_set(&o, "k7", "seven"), 0);
    assert_string_equal(opt_get(&o, "k7", NULL), "seven");
}

static void test_u64(void **state)
{
    (void)state;
    sim_opts o;
    char err[256];
    uint64_t v;
    opt_init(&o);
    /* absent: the default, even if outside the range (the range is for user values) */
    assert_int_equal(opt_get_u64(&o, "n", 42, 0, 100, &v, err, sizeof err), 0);
    assert_int_equal(v, 42);
    opt_set(&o, "n", "17");
    assert_int_equal(opt_get_u64(&o, "n", 0, 0, 100, &v, err, sizeof err), 0);
    assert_int_equal(v, 17);
    opt_set(&o, "n", "0x1F");
    assert_int_equal(opt_get_u64(&o, "n", 0, 0, 100, &v, err, sizeof err), 0);
    assert_int_equal(v, 31);
    opt_set(&o, "n", "18446744073709551615");
    assert_int_equal(opt_get_u64(&o, "n", 0, 0, UINT64_MAX, &v, err, sizeof err), 0);
    assert_true(v == UINT64_MAX);
    /* range limits are inclusive */
    opt_set(&o, "n", "100");
    assert_int_equal(opt_get_u64(&o, "n", 0, 0, 100, &v, err, sizeof err), 0);
    assert_int_equal(v, 100);
    opt_set(&o, "n", "5");
    assert_int_equal(opt_get_u64(&o, "n", 0, 5, 5, &v, err, sizeof err), 0);
    /* bad values: error, message names option and value, *out untouched */
    const char *bad[] = {"101", "-1", "abc", "12abc", "", "0x", "1.5", "18446744073709551616", "4 5", NULL};
    for (int i = 0; bad[i]; i++) {
        opt_set(&o, "n", bad[i]);
        v = 777;
        err[0] = 0;
        assert_int_equal(opt_get_u64(&o, "n", 0, 0, 100, &v, err, sizeof err), -1);
        assert_int_equal(v, 777);
        assert_non_null(strstr(err, "n="));
        assert_non_null(strstr(err, bad[i]));
        assert_non_null(strstr(err, "[0, 100]"));
    }
    opt_set(&o, "n", "4");
    assert_int_equal(opt_get_u64(&o, "n", 0, 5, 10, &v, err, sizeof err), -1); /* below lo */
}

static void test_u64_decimal_not_octal(void **state)
{
    (void)state;
    sim_opts o;
    char err[256];
    uint64_t v = 0;
    opt_init(&o);
    /* "decimal or 0x hex" (opts.h): a leading zero is still decimal, so 010 is ten (or, at
     * the very least, not silently eight); 08 is a valid decimal number */
    opt_set(&o, "n", "010");
    int rc = opt_get_u64(&o, "n", 0, 0, 100, &v, err, sizeof err);
    assert_true(rc == -1 || v == 10);
    assert_false(rc == 0 && v == 8);
    opt_set(&o, "n", "08");
    rc = opt_get_u64(&o, "n", 0, 0, 100, &v, err, sizeof err);
    assert_int_equal(rc, 0);
    assert_int_equal(v, 8);
}

static void test_double(void **state)
{
    (void)state;
    sim_opts o;
    char err[256];
    double d;
    opt_init(&o);
    assert_int_equal(opt_get_double(&o, "f", 2.5, &d, err, sizeof err), 0);
    assert_true(d == 2.5);
    opt_set(&o, "f", "1e9");
    assert_int_equal(opt_get_double(&o, "f", 0, &d, err, sizeof err), 0);
    assert_true(d == 1e9);
    opt_set(&o, "f", "0");
    assert_int_equal(opt_get_double(&o, "f", 1, &d, err, sizeof err), 0);
    assert_true(d == 0);
    const char *bad[] = {"-1", "abc", "", "1.5x", "1e999", NULL};
    for (int i = 0; bad[i]; i++) {
        opt_set(&o, "f", bad[i]);
        err[0] = 0;
        assert_int_equal(opt_get_double(&o, "f", 0, &d, err, sizeof err), -1);
        assert_non_null(strstr(err, "f="));
    }
}

static void test_double_not_a_number(void **state)
{
    (void)state;
    sim_opts o;
    char err[256];
    double d;
    opt_init(&o);
    /* "expected a non-negative number": NaN and infinity are not usable numbers (a clock of
     * NaN Hz would poison every statistic) */
    const char *bad[] = {"nan", "inf", "infinity", NULL};
    for (int i = 0; bad[i]; i++) {
        opt_set(&o, "clock", bad[i]);
        d = 1;
        int rc = opt_get_double(&o, "clock", 0, &d, err, sizeof err);
        if (rc != -1)
            fail_msg("clock=%s accepted as %g", bad[i], d);
    }
}

static void test_choice(void **state)
{
    (void)state;
    sim_opts o;
    char err[256];
    const char *const ch[] = {"fast", "exact", "off", NULL};
    opt_init(&o);
    assert_int_equal(opt_get_choice(&o, "mode", ch, 1, err, sizeof err), 1);
    opt_set(&o, "mode", "off");
    assert_int_equal(opt_get_choice(&o, "mode", ch, 0, err, sizeof err), 2);
    opt_set(&o, "mode", "Fast");
    err[0] = 0;
    assert_int_equal(opt_get_choice(&o, "mode", ch, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "mode=Fast"));
    assert_non_null(strstr(err, "fast"));
    assert_non_null(strstr(err, "exact"));
    assert_non_null(strstr(err, "off"));
    /* a tiny buffer is not overrun */
    char small[8];
    memset(small, 'Z', sizeof small);
    assert_int_equal(opt_get_choice(&o, "mode", ch, 0, small, 6), -1);
    assert_int_equal(small[5], 0);
    assert_int_equal(small[6], 'Z');
}

static void test_list(void **state)
{
    (void)state;
    sim_opts o;
    char err[256];
    uint64_t mask;
    opt_init(&o);
    assert_int_equal(opt_get_list(&o, "units", 0xf, 8, &mask, err, sizeof err), 0);
    assert_int_equal(mask, 0xf);
    opt_set(&o, "units", "0,3,5");
    assert_int_equal(opt_get_list(&o, "units", 0, 8, &mask, err, sizeof err), 0);
    assert_int_equal(mask, 0x29); /* bits 0, 3, 5 = 1 + 8 + 32 */
    opt_set(&o, "units", "63");
    assert_int_equal(opt_get_list(&o, "units", 0, 64, &mask, err, sizeof err), 0);
    assert_true(mask == 1ull << 63);
    opt_set(&o, "units", "0x2,1");
    assert_int_equal(opt_get_list(&o, "units", 0, 8, &mask, err, sizeof err), 0);
    assert_int_equal(mask, 6);
    const char *bad[] = {"8", "1,8", "a", "1,-1", "1;2", NULL};
    for (int i = 0; bad[i]; i++) {
        opt_set(&o, "units", bad[i]);
        mask = 99;
        err[0] = 0;
        assert_int_equal(opt_get_list(&o, "units", 0, 8, &mask, err, sizeof err), -1);
        assert_int_equal(mask, 99);
        assert_non_null(strstr(err, "units="));
        assert_non_null(strstr(err, "[0, 8)"));
    }
    opt_set(&o, "units", "64");
    assert_int_equal(opt_get_list(&o, "units", 0, 64, &mask, err, sizeof err), -1);
}

/* Declared options: one table gives each option's type, range and default; the getters read
 * through it (no second copy of a default), the check refuses what does not fit. */
static const opt_desc table[] = {
    OPT_U("ways", "4", 1, 64, "cache ways"),
    OPT_U("chip_threads", NULL, 1, 24, "decided by the model when not given"),
    OPT_R("beta", "0.5", 0, 100, "cycles per byte"),
    OPT_C("mode", "rtl", ((const char *const[]){"rtl", "doc", NULL}), "semantics"),
    OPT_L("cores", "0,1", 4, "enabled cores"),
    OPT_T("file", NULL, "an output file"),
    OPT_END,
};

static void test_declared(void **state)
{
    (void)state;
    sim_opts o;
    char err[200] = "";
    uint64_t u = 99, mask = 0;
    double r = 0;
    int c = -1;
    opt_init(&o);
    /* absent: the declared defaults */
    assert_int_equal(opt_uint(&o, table, "ways", &u, err, sizeof err), 0);
    assert_int_equal(u, 4);
    assert_int_equal(opt_uint(&o, table, "chip_threads", &u, err, sizeof err), 1); /* no default: untouched */
    assert_int_equal(u, 4);
    assert_int_equal(opt_real(&o, table, "beta", &r, err, sizeof err), 0);
    assert_true(r == 0.5);
    assert_int_equal(opt_choice(&o, table, "mode", &c, err, sizeof err), 0);
    assert_int_equal(c, 0);
    assert_int_equal(opt_list(&o, table, "cores", &mask, err, sizeof err), 0);
    assert_int_equal(mask, 3);
    assert_null(opt_text(&o, table, "file"));
    /* given */
    opt_parse(&o, "ways=0x10");
    opt_parse(&o, "mode=doc");
    opt_parse(&o, "cores=3");
    opt_parse(&o, "file=out.txt");
    assert_int_equal(opt_uint(&o, table, "ways", &u, err, sizeof err), 0);
    assert_int_equal(u, 16);
    assert_int_equal(opt_choice(&o, table, "mode", &c, err, sizeof err), 0);
    assert_int_equal(c, 1);
    assert_int_equal(opt_list(&o, table, "cores", &mask, err, sizeof err), 0);
    assert_int_equal(mask, 8);
    assert_string_equal(opt_text(&o, table, "file"), "out.txt");
    /* out of range, wrong type, undeclared, read as the wrong type */
    opt_parse(&o, "ways=65");
    assert_int_equal(opt_uint(&o, table, "ways", &u, err, sizeof err), -1);
    assert_string_equal(err, "option ways=65: expected an integer in [1, 64]");
    assert_int_equal(opt_value_check(&table[2], "101", err, sizeof err), -1);
    assert_string_equal(err, "option beta=101: expected a number in [0, 100]");
    assert_int_equal(opt_value_check(&table[3], "fast", err, sizeof err), -1);
    assert_string_equal(err, "option mode=fast: expected one of rtl|doc");
    assert_int_equal(opt_value_check(&table[4], "1,4", err, sizeof err), -1);
    assert_string_equal(err, "option cores=1,4: '4' is not an index in [0, 4)");
    assert_int_equal(opt_value_check(&table[5], "anything", err, sizeof err), 0);
    assert_int_equal(opt_uint(&o, table, "nosuch", &u, err, sizeof err), -1);
    assert_int_equal(opt_uint(&o, table, "beta", &u, err, sizeof err), -1);
    assert_string_equal(err, "option beta: internal: not declared with this type");
    /* what xpusim isas prints beside each option */
    char d[64];
    opt_describe(&table[0], d, sizeof d);
    assert_string_equal(d, "integer 1..64");
    opt_describe(&table[3], d, sizeof d);
    assert_string_equal(d, "rtl|doc");
    opt_describe(&table[4], d, sizeof d);
    assert_string_equal(d, "list of 0..3");
}

XPUSIM_TESTS(opts,
             cmocka_unit_test(test_parse_and_get),
             cmocka_unit_test(test_parse_malformed),
             cmocka_unit_test(test_table_full),
             cmocka_unit_test(test_u64),
             cmocka_unit_test(test_u64_decimal_not_octal),
             cmocka_unit_test(test_double),
             cmocka_unit_test(test_double_not_a_number),
             cmocka_unit_test(test_choice),
             cmocka_unit_test(test_list),
             cmocka_unit_test(test_declared))
