/* tests/unit/test_registry.c: the ISA registry helpers (isa/registry.c) that do not depend
 * on which ISAs are built in: option checking against an ISA's option table plus the
 * core's own options, register lookup, and the consistency of the generated table
 * (whatever ISAS= selected, possibly none). */
#include "../testlib.h"
#include "../../isa/isa.h"

static const opt_desc opts_tbl[] = {
    OPT_U("cores", "4", 1, 8, "number of cores"),
    OPT_U("mem", "65536", 1024, 1 << 20, "memory words"),
    OPT_END,
};

static const isa_reg regs_tbl[] = {
    {"r0", 32, ISA_REG_THREAD, 0, "general"},
    {"PC", 32, ISA_REG_THREAD, ISA_REG_PC, "special"},
    {"status", 32, ISA_REG_UNIT, ISA_REG_RO, "control"},
};

static const isa_ops opt_isa = {
    .name = "opt-test",
    .options = opts_tbl,
    .regs = regs_tbl,
    .nregs = 3,
};

static const isa_ops bare_isa = {.name = "bare"}; /* no options at all */

static void test_check_options(void **state)
{
    (void)state;
    sim_opts o;
    char err[512];
    opt_init(&o);
    assert_int_equal(isa_check_options(&opt_isa, &o, err, sizeof err), 0);
    opt_parse(&o, "cores=2");
    opt_parse(&o, "mem=1024");
    assert_int_equal(isa_check_options(&opt_isa, &o, err, sizeof err), 0);
    /* a typo is refused, naming the key, the ISA and the keys it knows */
    opt_parse(&o, "core=3");
    err[0] = 0;
    assert_int_equal(isa_check_options(&opt_isa, &o, err, sizeof err), -1);
    assert_non_null(strstr(err, "'core'"));
    assert_non_null(strstr(err, "opt-test"));
    assert_non_null(strstr(err, "cores"));
    assert_non_null(strstr(err, "mem"));
    opt_init(&o);
    opt_parse(&o, "x=1");
    assert_int_equal(isa_check_options(&bare_isa, &o, err, sizeof err), -1);
    assert_non_null(strstr(err, "'x'"));
    /* a known key with a value outside its declared type or range is refused before a
     * machine is built, with the declared range */
    opt_init(&o);
    opt_parse(&o, "cores=9");
    assert_int_equal(isa_check_options(&opt_isa, &o, err, sizeof err), -1);
    assert_string_equal(err, "option cores=9: expected an integer in [1, 8]");
    opt_parse(&o, "cores=two");
    assert_int_equal(isa_check_options(&opt_isa, &o, err, sizeof err), -1);
    assert_string_equal(err, "option cores=two: expected an integer in [1, 8]");
    opt_init(&o);
    opt_parse(&o, "jobs=0"); /* the core's own options are checked the same way */
    assert_int_equal(isa_check_options(&opt_isa, &o, err, sizeof err), -1);
    assert_string_equal(err, "option jobs=0: expected an integer in [1, 1024]");
}

static void test_core_options_known_to_every_isa(void **state)
{
    (void)state;
    sim_opts o;
    char err[512] = "";
    /* "jobs" is read by the core (sim_create) for every ISA; opts/isa.h: "every key in opts
     * is known to the ISA (or to the core)", so no ISA has to list it */
    opt_init(&o);
    opt_parse(&o, "jobs=4");
    if (isa_check_options(&opt_isa, &o, err, sizeof err))
        fail_msg("core option refused: %s", err);
    if (isa_check_options(&bare_isa, &o, err, sizeof err))
        fail_msg("core option refused: %s", err);
}

static void test_reg_find(void **state)
{
    (void)state;
    assert_int_equal(isa_reg_find(&opt_isa, "r0"), 0);
    assert_int_equal(isa_reg_find(&opt_isa, "pc"), 1);     /* case-insensitive */
    assert_int_equal(isa_reg_find(&opt_isa, "STATUS"), 2);
    assert_int_equal(isa_reg_find(&opt_isa, "r1"), -1);
    assert_int_equal(isa_reg_find(&opt_isa, ""), -1);
    assert_int_equal(isa_reg_find(&bare_isa, "pc"), -1);
}

static void test_registry_table(void **state)
{
    (void)state;
    int n = isa_count();
    assert_true(n >= 0);
    assert_null(isa_at(-1));
    assert_null(isa_at(n));
    assert_null(isa_find("no-such-isa"));
    assert_null(isa_find(""));
    for (int i = 0; i < n; i++) {
        const isa_ops *isa = isa_at(i);
        assert_non_null(isa);
        assert_non_null(isa->name);
        assert_ptr_equal(isa_find(isa->name), isa);
        /* the hooks the core calls unconditionally */
        assert_non_null(isa->create);
        assert_non_null(isa->unit_run);
        assert_non_null(isa->load);
        for (int j = 0; j < i; j++)
            assert_string_not_equal(isa_at(j)->name, isa->name);
        /* stall names fit the per-thread counters */
        int ns = 0;
        while (isa->stall_names && isa->stall_names[ns])
            ns++;
        assert_true(ns <= SIM_MAX_STALLS);
    }
}

XPUSIM_TESTS(registry,
             cmocka_unit_test(test_check_options),
             cmocka_unit_test(test_core_options_known_to_every_isa),
             cmocka_unit_test(test_reg_find),
             cmocka_unit_test(test_registry_table))
