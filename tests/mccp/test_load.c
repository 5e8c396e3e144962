/* tests/mccp/test_load.c: loading MCCP programs and rejecting bad ones.
 * A .out image (32 '0'/'1' characters per line) goes to ROM word n = line n and the cores
 * start (first save at cycle 5); malformed .out text, images larger than the 8192-word ROM,
 * raw images that are not whole words, non-ROM formats and bad options all give an error
 * naming the file (and line) and what was expected, never a crash. */
#include "mccp_test.h"

static void test_out_text_runs(void **state)
{
    (void)state;
    /* movl reg1 5 ; store reg1,[reg0] | int 1 */
    static const char text[] = "10001111010001000000000000000101\n"
                               "00000110100010000010001101000100\n";
    ld_image img;
    char err[256] = "";
    assert_int_equal(ld_parse("p.out", text, sizeof text - 1, LD_OUT, &img, err, sizeof err), 0);
    assert_int_equal(img.nwords, 2);
    assert_int_equal(img.words[0], t_movl(T_AL, 1, 5));
    assert_int_equal(img.words[1], t_pair(t_store(T_AL, 1, 0), T_INT1));
    assert_true(isa_mccp.probe(&img) > 0);
    tmach t;
    tm_create(&t, NULL);
    assert_int_equal(isa_mccp.load(&t.m, &img, err, sizeof err), 0);
    tm_open_stack(&t);
    tm_set(&t, 2, "reg0", 9);
    tm_run_halt(&t, 1000);
    assert_int_equal(tm_ram(&t, 9), 5);
    assert_int_equal(tm_ram(&t, 0), 5);
    /* the ROM space shows the image big-endian, one 16-bit slot per address */
    uint8_t b[4];
    assert_int_equal(mem_host_read(sim_space(&t.m, "rom"), 2, b, 4), 0);
    assert_int_equal(b[0], 0x06);
    assert_int_equal(b[1], 0x88);
    assert_int_equal(b[2], 0x23);
    assert_int_equal(b[3], 0x44);
    assert_int_equal(isa_mccp.pc_get(&t.m, 0, 0), 0); /* int in a low half: ip -1 + 1 = 0, high half */
    tm_destroy(&t);
    ld_free(&img);
}

static void test_malformed_out(void **state)
{
    (void)state;
    static const struct { const char *text, *what; } bad[] = {
        {"0101\n", "bad.out:1"},
        {"00000000000000000000000000000000\n0000000000000000000000000000000x\n", "bad.out:2"},
        {"000000000000000000000000000000001\n", "bad.out:1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ld_image img;
        char err[256] = "";
        assert_int_equal(ld_parse("bad.out", bad[i].text, strlen(bad[i].text), LD_OUT, &img, err, sizeof err), -1);
        if (!strstr(err, bad[i].what))
            fprintf(stderr, "error: %s\n", err);
        assert_non_null(strstr(err, bad[i].what));
    }
}

static void test_load_rejects(void **state)
{
    (void)state;
    tmach t;
    tm_create(&t, NULL);
    char err[256] = "";
    ld_image img;
    memset(&img, 0, sizeof img);
    snprintf(img.path, sizeof img.path, "big.out");
    img.fmt = LD_OUT;
    static uint32_t words[8193];
    img.words = words;
    img.nwords = 8193;
    assert_int_equal(isa_mccp.load(&t.m, &img, err, sizeof err), -1);
    assert_non_null(strstr(err, "big.out"));
    assert_non_null(strstr(err, "8192"));
    /* a raw image must be whole little-endian words */
    uint8_t raw[6] = {0};
    memset(&img, 0, sizeof img);
    snprintf(img.path, sizeof img.path, "x.bin");
    img.fmt = LD_RAW;
    img.file = raw;
    img.file_size = 6;
    assert_int_equal(isa_mccp.load(&t.m, &img, err, sizeof err), -1);
    assert_non_null(strstr(err, "multiple of 4"));
    /* an ELF is not an MCCP program */
    img.fmt = LD_ELF;
    assert_int_equal(isa_mccp.load(&t.m, &img, err, sizeof err), -1);
    assert_non_null(strstr(err, "ROM image"));
    tm_destroy(&t);
    /* a raw image of whole words loads (little-endian, as the HPS writes it) */
    uint8_t ok[4] = {0x00, 0x00, 0x44, 0x23}; /* 0x23440000: int 1 | load reg0,[reg0] */
    tm_create(&t, NULL);
    img.fmt = LD_RAW;
    img.file = ok;
    img.file_size = 4;
    assert_int_equal(isa_mccp.load(&t.m, &img, err, sizeof err), 0);
    tm_run_halt(&t, 100);
    for (int c = 0; c < 4; c++)
        assert_int_equal(tm_halted_at(&t, c), 5);
    tm_destroy(&t);
}

static void test_bad_options(void **state)
{
    (void)state;
    static const char *const bad[][2] = {
        {"semantics=arm", "semantics"}, {"arbiter_phase=4", "arbiter_phase"}, {"cores=5", "cores"},
        {"fault_stop=2", "fault_stop"}, {"fb_palette=cmyk", "fb_palette"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sim_opts o;
        opt_init(&o);
        assert_int_equal(opt_parse(&o, bad[i][0]), 0);
        sim_machine m;
        char err[256] = "";
        assert_int_equal(sim_create(&m, &isa_mccp, &o, err, sizeof err), -1);
        if (!strstr(err, bad[i][1]))
            fprintf(stderr, "%s -> %s\n", bad[i][0], err);
        assert_non_null(strstr(err, bad[i][1]));
    }
    /* unknown keys are caught before a machine exists */
    sim_opts o;
    opt_init(&o);
    opt_parse(&o, "corse=1");
    char err[256];
    assert_int_equal(isa_check_options(&isa_mccp, &o, err, sizeof err), -1);
    assert_non_null(strstr(err, "corse"));
}

XPUSIM_TESTS(mccp_load,
             cmocka_unit_test(test_out_text_runs),
             cmocka_unit_test(test_malformed_out),
             cmocka_unit_test(test_load_rejects),
             cmocka_unit_test(test_bad_options))
