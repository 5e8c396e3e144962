/* tests/cert/test_table.c: the CERT instruction table against the spec's rules and known
 * encodings. Every row: size = 2 + its operand widths, each field naturally aligned, sizes
 * multiples of 4 except the Feb-2025 6-byte LOAD_PDI; one row per (opcode, spec); the latest
 * spec covers 0x00-0x23 except the unused 0x0a, plus EOF. Decoding known bytes (the
 * reference's verified START_JOB size 0x1c example, WAIT_TCTS TILE_2_1 MM2S_0), a non-zero
 * pad, a short buffer, names and aliases, and the disassembler's one-line form. */
#include "../testlib.h"
#include "../../isa/cert/cert.h"

static void test_rows_well_formed(void **state)
{
    (void)state;
    for (int i = 0; i < cert_nops; i++) {
        const cert_opdef *o = &cert_ops[i];
        unsigned at = 2;
        for (int a = 0; a < o->nargs; a++) {
            unsigned w = o->args[a].bytes;
            assert_true(w == 1 || w == 2 || w == 4);
            if (at % w) /* natural alignment (spec "Alignment") */
                fail_msg("%s operand %d at byte %u not aligned to %u", o->name, a, at, w);
            at += w;
        }
        assert_int_equal(at, o->size);
        if (o->size % 4)
            assert_true(o->code == 0x1a && o->specs == CERT_SPEC_2502);
        for (int j = 0; j < i; j++)
            assert_false(cert_ops[j].code == o->code && (cert_ops[j].specs & o->specs));
    }
}

static void test_coverage(void **state)
{
    (void)state;
    for (unsigned c = 0; c <= 0x23; c++) {
        const cert_opdef *o = cert_op_by_code(c, CERT_SPEC_LATEST);
        if (c == 0x0a)
            assert_null(o);
        else if (!o)
            fail_msg("opcode 0x%02x missing from the latest spec", c);
    }
    assert_non_null(cert_op_by_code(0xff, CERT_SPEC_LATEST));
    /* Feb-2025 ends at 0x1c: no LOAD_CORES, SLEEP, SAVE_REGISTER or 0x1f-0x23 */
    assert_null(cert_op_by_code(0x04, CERT_SPEC_2502));
    assert_null(cert_op_by_code(0x1d, CERT_SPEC_2502));
    assert_null(cert_op_by_code(0x23, CERT_SPEC_2502));
    assert_int_equal(cert_op_by_code(0x1a, CERT_SPEC_2502)->size, 6);
    assert_int_equal(cert_op_by_code(0x1a, CERT_SPEC_LATEST)->size, 12);
    assert_int_equal(cert_op_by_code(0x22, CERT_SPEC_LATEST)->size, 20);
}

static void test_names(void **state)
{
    (void)state;
    const char *n = "uC_DMA_WRITE_DES";
    const cert_opdef *o = cert_op_by_name(n, strlen(n), CERT_SPEC_LATEST);
    assert_non_null(o);
    assert_int_equal(o->code, 0x01);
    o = cert_op_by_name("PREEMPTION_CHECKPOINT", 21, CERT_SPEC_LATEST);
    assert_non_null(o);
    assert_string_equal(o->name, "PREEMPT");
    o = cert_op_by_name("preempt", 7, CERT_SPEC_2502);
    assert_non_null(o);
    assert_string_equal(o->name, "PREEMPTION_CHECKPOINT");
    assert_null(cert_op_by_name("SLEEP", 5, CERT_SPEC_2502));
    assert_int_equal(cert_spec_parse("2025.02"), CERT_SPEC_2502);
    assert_int_equal(cert_spec_parse("latest"), CERT_SPEC_LATEST);
    assert_int_equal(cert_spec_parse("2024"), 0);
}

static void test_decode(void **state)
{
    (void)state;
    cert_insn in;
    /* START_JOB 1 of 0x1c bytes (reference §1.2, verified with aiebu) */
    const uint8_t sj[] = {0x00, 0x00, 0x01, 0x00, 0x1c, 0x00, 0x00, 0x00};
    assert_int_equal(cert_decode(sj, sizeof sj, CERT_SPEC_LATEST, &in), 8);
    assert_int_equal(cert_arg_value(&in, "job_id", 99), 1);
    assert_int_equal(cert_arg_value(&in, "size", 99), 0x1c);
    /* WAIT_TCTS TILE_2_1, MM2S_0, 1: tile (2 << 5 | 1) = 0x41, actor 6 */
    const uint8_t wt[] = {0x06, 0x00, 0x41, 0x00, 0x06, 0x00, 0x01, 0x00};
    assert_int_equal(cert_decode(wt, sizeof wt, CERT_SPEC_LATEST, &in), 8);
    char buf[128];
    cert_format(&in, buf, sizeof buf);
    assert_string_equal(buf, "WAIT_TCTS TILE_2_1, MM2S_0, 0x1");
    /* WRITE_32 0x41A0634, 0x80000000 */
    const uint8_t w32[] = {0x05, 0, 0, 0, 0x34, 0x06, 0x1a, 0x04, 0, 0, 0, 0x80};
    assert_int_equal(cert_decode(w32, sizeof w32, CERT_SPEC_LATEST, &in), 12);
    cert_format(&in, buf, sizeof buf);
    assert_string_equal(buf, "WRITE_32 0x41A0634, 0x80000000");
    /* registers and barriers: READ_32_D $r1, $g0; REMOTE_BARRIER $rb0 (encoded 1), mask 6 */
    const uint8_t rd[] = {0x0d, 0x00, 0x01, 0x08};
    assert_int_equal(cert_decode(rd, sizeof rd, CERT_SPEC_LATEST, &in), 4);
    cert_format(&in, buf, sizeof buf);
    assert_string_equal(buf, "READ_32_D $r1, $g0");
    const uint8_t rb[] = {0x12, 0x00, 0x01, 0x00, 0x06, 0, 0, 0};
    assert_int_equal(cert_decode(rb, sizeof rb, CERT_SPEC_LATEST, &in), 8);
    cert_format(&in, buf, sizeof buf);
    assert_string_equal(buf, "REMOTE_BARRIER $rb0, 0x6");
    /* a short buffer, an unknown opcode, a non-zero pad */
    assert_int_equal(cert_decode(w32, 8, CERT_SPEC_LATEST, &in), 0);
    const uint8_t bad[] = {0x0a, 0, 0, 0};
    assert_int_equal(cert_decode(bad, sizeof bad, CERT_SPEC_LATEST, &in), -1);
    const uint8_t pad[] = {0x07, 0x00, 0x01, 0x00};
    assert_int_equal(cert_decode(pad, sizeof pad, CERT_SPEC_LATEST, &in), -2);
    /* the same LOAD_PDI bytes are 6 bytes in 2025.02 and need 12 in latest */
    const uint8_t lp[] = {0x1a, 0x00, 0x05, 0x00, 0x02, 0x00};
    assert_int_equal(cert_decode(lp, sizeof lp, CERT_SPEC_2502, &in), 6);
    assert_int_equal(cert_arg_value(&in, "pdi_id", 0), 5);
    assert_int_equal(cert_decode(lp, sizeof lp, CERT_SPEC_LATEST, &in), 0);
}

static void test_disasm_one(void **state)
{
    (void)state;
    char buf[128];
    uint8_t page[32] = {0xff, 0xff, 0x03, 0x00, 0, 0, 0, 0, 0x40, 0x00, 0x20, 0x00};
    /* pc 3 * 8192: the header of page 3 */
    assert_int_equal(cert_disasm_one(3 * 8192, page, sizeof page, buf, sizeof buf), 16);
    assert_string_equal(buf, ".page_header index 3, length 64, next 32, ooo 0/0");
    page[16] = 0xA5;
    assert_int_equal(cert_disasm_one(3 * 8192 + 16, page + 16, 16, buf, sizeof buf), 1);
    page[16] = 0x08; /* YIELD */
    assert_int_equal(cert_disasm_one(3 * 8192 + 16, page + 16, 16, buf, sizeof buf), 4);
    assert_string_equal(buf, "YIELD");
}

XPUSIM_TESTS(cert_table, cmocka_unit_test(test_rows_well_formed), cmocka_unit_test(test_coverage),
             cmocka_unit_test(test_names), cmocka_unit_test(test_decode), cmocka_unit_test(test_disasm_one))
