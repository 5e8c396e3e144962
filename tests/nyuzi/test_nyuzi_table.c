/* tests/nyuzi/test_nyuzi_table.c: the instruction table as decoder, disassembler and
 * assembler. Field placement is checked against words built here from the documented bit
 * layouts (docs/isa/nyuzi.md), every assemblable table entry round-trips through
 * disassembly and assembly, reserved formats decode as illegal, and the elf2hex parser
 * handles addresses, comments and errors. */
#include "../testlib.h"
#include "../../isa/nyuzi/nyuzi.h"

static uint32_t R(unsigned fmt, unsigned op, unsigned d, unsigned a, unsigned b, unsigned m)
{
    return 0xC0000000u | fmt << 26 | op << 20 | b << 15 | m << 10 | d << 5 | a;
}
static uint32_t I(unsigned fmt, unsigned op, unsigned d, unsigned a, int imm)
{
    return fmt << 29 | op << 24 | ((uint32_t)imm & 0x3fff) << 10 | d << 5 | a;
}

static uint32_t as(const char *text, uint32_t pc)
{
    uint32_t w = 0;
    char err[256];
    int rc = nyz_asm_line(text, pc, &w, err, sizeof err);
    if (rc)
        fail_msg("'%s': %s", text, err);
    return w;
}

static void test_field_layout(void **state)
{
    (void)state;
    assert_int_equal(as("add_i s4, s5, s6", 0), R(0, 5, 4, 5, 6, 0));
    assert_int_equal(as("sub_i v1, v2, s3", 0), R(1, 6, 1, 2, 3, 0));
    assert_int_equal(as("xor_mask v1, s7, v2, s3", 0), R(2, 3, 1, 2, 3, 7));
    assert_int_equal(as("shl v9, v10, v11", 0), R(4, 0xb, 9, 10, 11, 0));
    assert_int_equal(as("mul_f_mask v9, s8, v10, v11", 0), R(5, 0x22, 9, 10, 11, 8));
    assert_int_equal(as("clz s1, s2", 0), R(0, 0xc, 1, 0, 2, 0));     /* one source: src2 */
    assert_int_equal(as("itof_mask v3, s4, v5", 0), R(5, 0x2a, 3, 0, 5, 4));
    assert_int_equal(as("cmpge_f s1, v2, v3", 0), R(4, 0x2d, 1, 2, 3, 0));
    assert_int_equal(as("add_i s24, s25, -81", 0), I(0, 5, 24, 25, -81));
    assert_int_equal(as("or v3, v4, 8191", 0), I(1, 0, 3, 4, 8191));
    /* masked immediate: 9-bit immediate in 23:15, mask in 14:10 */
    assert_int_equal(as("add_i_mask v2, s4, v3, -79", 0),
                     3u << 29 | 5u << 24 | (0x1ffu & (uint32_t)-79) << 15 | 4u << 10 | 2u << 5 | 3u);
    assert_int_equal(as("movehi s2, 0x7ffff", 0), 2u << 29 | 0xfu << 24 | 0x3fffu << 10 | 2u << 5 | 31u);
    assert_int_equal(as("syscall 1037", 0), 2u << 24 | 1037u << 10);
    assert_int_equal(as("getlane s4, v5, 7", 0), I(1, 0x1a, 4, 5, 7));
    /* memory: load bit 29, op 28:25, offset 24:10 (15 bits) or 24:15 when masked */
    assert_int_equal(as("load_s16 s10, -12(s11)", 0), 0x80000000u | 1u << 29 | 3u << 25 | (0x7fffu & (uint32_t)-12) << 10 | 10u << 5 | 11u);
    assert_int_equal(as("store_8 s1, (s2)", 0), 0x80000000u | 1u << 25 | 1u << 5 | 2u);
    assert_int_equal(as("load_v_mask v1, s3, 128(s2)", 0), 0x80000000u | 1u << 29 | 8u << 25 | 128u << 15 | 3u << 10 | 1u << 5 | 2u);
    assert_int_equal(as("store_scat v4, 8(v5)", 0), 0x80000000u | 13u << 25 | 8u << 10 | 4u << 5 | 5u);
    assert_int_equal(as("getcr s7, 9", 0), 0x80000000u | 1u << 29 | 6u << 25 | 7u << 5 | 9u);
    /* cache control and branches */
    assert_int_equal(as("membar", 0), 0xE8000000u);
    assert_int_equal(as("itlbinsert s3, s4", 0), 0xE0000000u | 7u << 25 | 4u << 5 | 3u);
    assert_int_equal(as("dflush 64(s7)", 0), 0xE0000000u | 2u << 25 | 64u << 15 | 7u);
    assert_int_equal(as("bnz s1, 0x1010", 0x1000), 0xF0000000u | 2u << 25 | 4u << 5 | 1u);
    assert_int_equal(as("bz s2, 0xff8", 0x1000), 0xF0000000u | 1u << 25 | (0xfffffu & (uint32_t)-2) << 5 | 2u);
    assert_int_equal(as("call 0x2000", 0x1000), 0xF0000000u | 4u << 25 | 0x400u);
    assert_int_equal(as("call s3", 0), 0xF0000000u | 6u << 25 | 3u << 5 | 3u);
    assert_int_equal(as("ret", 0), 0xF000001Fu);
    assert_int_equal(as("eret", 0), 0xFE000000u);
    assert_int_equal(as("break", 0), R(0, 0x3e, 0, 0, 0, 0));
    assert_int_equal(as("nop", 0), 0);
}

static void test_range_errors(void **state)
{
    (void)state;
    uint32_t w;
    char err[256];
    assert_int_equal(nyz_asm_line("add_i s1, s2, 8192", 0, &w, err, sizeof err), -1);
    assert_non_null(strstr(err, "out of range"));
    assert_int_equal(nyz_asm_line("add_i_mask v1, s2, v3, 256", 0, &w, err, sizeof err), -1);
    assert_int_equal(nyz_asm_line("load_v_mask v1, s3, 512(s2)", 0, &w, err, sizeof err), -1);
    assert_int_equal(nyz_asm_line("shuffle s1, s2, s3", 0, &w, err, sizeof err), -1);
    assert_non_null(strstr(err, "invalid operands"));
    assert_int_equal(nyz_asm_line("b 0x1002", 0x1000, &w, err, sizeof err), -1);
}

/* Every entry the assembler may emit: fill its register/immediate fields with a pattern,
 * disassemble, assemble the text again at the same address: the word must come back. */
static void test_roundtrip_every_entry(void **state)
{
    (void)state;
    int checked = 0;
    for (int i = 0; i < nyz_noptab; i++) {
        const nyz_opdef *d = &nyz_optab[i];
        if (!d->asm_ok)
            continue;
        for (uint32_t pat = 0; pat < 3; pat++) {
            uint32_t fill = pat == 0 ? 0x00000000u : pat == 1 ? 0x0155aa55u : 0x01ff7fffu;
            uint32_t w = d->match | (fill & ~d->mask);
            nyz_insn in;
            if (nyz_decode(w, &in) < 0 || in.def != i)
                continue; /* a pattern that selects another entry (e.g. "ret") */
            char text[128];
            nyz_disasm_word(0x4000, w, text, sizeof text);
            uint32_t back = as(text, 0x4000);
            /* fields the hardware ignores (src1 of one-source ops, unused bits) read back as 0 */
            nyz_insn in2;
            assert_int_equal(nyz_decode(back, &in2), 0);
            char text2[128];
            nyz_disasm_word(0x4000, back, text2, sizeof text2);
            if (strcmp(text, text2))
                fail_msg("entry %s: %08x '%s' -> %08x '%s'", d->name, w, text, back, text2);
            checked++;
        }
    }
    assert_true(checked > 250);
}

static void test_illegal_formats(void **state)
{
    (void)state;
    nyz_insn in;
    assert_int_equal(nyz_decode(R(3, 5, 1, 2, 3, 0), &in), -1);   /* R fmt 011 */
    assert_int_equal(nyz_decode(R(6, 5, 1, 2, 3, 0), &in), -1);
    assert_int_equal(nyz_decode(R(7, 5, 1, 2, 3, 0), &in), -1);
    assert_int_equal(nyz_decode(0x80000000u | 9u << 25, &in), -1); /* memory op 9 */
    assert_int_equal(nyz_decode(0x80000000u | 1u << 29 | 15u << 25, &in), -1);
    assert_int_equal(nyz_decode(0xF0000000u | 5u << 25, &in), -1); /* branch type 5 */
    assert_int_equal(in.kind, K_ILLEGAL);
    char buf[64];
    nyz_disasm_word(0, 0xFA000000u, buf, sizeof buf);
    assert_string_equal(buf, ".long 0xfa000000");
    /* pipeline selection */
    assert_int_equal(nyz_decode(R(0, 7, 1, 2, 3, 0), &in), 0);
    assert_int_equal(in.pipe, NYZ_PIPE_FP);                        /* mull_i */
    assert_int_equal(nyz_decode(R(0, 0x1c, 1, 0, 3, 0), &in), 0);
    assert_int_equal(in.pipe, NYZ_PIPE_INT);                       /* reciprocal */
}

/* Spike-style check of the one instruction table (issue 12): decoding takes the first entry
 * whose masked bits match, so two entries that can match the same word are allowed only
 * when the earlier one is strictly more specific (a special case such as `ret`, decoded
 * before the general form). The same mask and match twice, or a later entry that an earlier
 * one hides or half-covers, would make decode and the assembler disagree. */
static void test_no_overlapping_entries(void **state)
{
    (void)state;
    int special = 0;
    for (int i = 0; i < nyz_noptab; i++)
        for (int j = i + 1; j < nyz_noptab; j++) {
            const nyz_opdef *a = &nyz_optab[i], *b = &nyz_optab[j];
            if ((a->match ^ b->match) & a->mask & b->mask)
                continue; /* some bit both fix differs: never the same word */
            if (a->mask != b->mask && (a->mask & b->mask) == b->mask) {
                special++; /* a is b with more bits fixed, and decodes first */
                continue;
            }
            fail_msg("entries %d %s (%08x/%08x) and %d %s (%08x/%08x) match the same words", i, a->name, a->match,
                     a->mask, j, b->name, b->match, b->mask);
        }
    assert_true(special < 8); /* the few deliberate special cases, not a pattern */
}

static void test_hex_parser(void **state)
{
    (void)state;
    uint8_t mem[64] = {0};
    uint32_t top;
    char err[128];
    const char *ok = "// header\n000400f6 /* b */\n@00000004\n78563412\n";
    assert_int_equal(nyz_hex_load((const uint8_t *)ok, strlen(ok), mem, sizeof mem, &top, err, sizeof err), 0);
    assert_int_equal(mem_ld32le(mem), 0xF6000400u);
    assert_int_equal(mem_ld32le(mem + 16), 0x12345678u);
    assert_int_equal(top, 20);
    const char *bad = "00000000\n12g4\n";
    assert_int_equal(nyz_hex_load((const uint8_t *)bad, strlen(bad), mem, sizeof mem, &top, err, sizeof err), -1);
    assert_non_null(strstr(err, "2:"));
    const char *big = "@00000100\n00000000\n";
    assert_int_equal(nyz_hex_load((const uint8_t *)big, strlen(big), mem, sizeof mem, &top, err, sizeof err), -1);
    assert_non_null(strstr(err, "beyond memory"));
}

XPUSIM_TESTS(nyuzi_table,
             cmocka_unit_test(test_field_layout),
             cmocka_unit_test(test_range_errors),
             cmocka_unit_test(test_roundtrip_every_entry),
             cmocka_unit_test(test_illegal_formats),
             cmocka_unit_test(test_no_overlapping_entries), cmocka_unit_test(test_hex_parser))
