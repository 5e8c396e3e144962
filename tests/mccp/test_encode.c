/* tests/mccp/test_encode.c: MCCP encodings, decoding and disassembly.
 * The worked-encodings table of the reference (§1.1, checked there against the original
 * testbench binaries) is assembled by our assembler and compared word for word; every
 * mnemonic with every suffix is assembled and compared with words built here from the bit
 * layouts; every 16-bit pattern disassembles either to data or to text that assembles back
 * to the same bits; and the ROM-slot disassembler handles 32-bit words and short buffers. */
#include "mccp_test.h"
#include "../../isa/mccp/mccp.h"

/* Assemble "stack_size" (prologue: movlal reg5 65535; movhal reg5 0; sbal reg5 = slots 0..4)
 * followed by body; return the 16-bit slots after the prologue (from slot 5). */
static size_t asm_slots(const char *body, uint32_t *slots, size_t max)
{
    size_t sl = strlen(body) + 16;
    char *src = malloc(sl);
    assert_non_null(src);
    snprintf(src, sl, "stack_size\n%s", body);
    uint32_t *w;
    size_t n;
    char err[256] = "";
    int rc = mccp_assemble_text("t.mccp", src, &w, &n, NULL, err, sizeof err);
    free(src);
    if (rc)
        fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, 0);
    /* prologue words: movl reg5 65535 (al), movh reg5 0 (al), then sbal reg5 in word 2 high */
    assert_true(n >= 3);
    assert_int_equal(w[0], t_movl(T_AL, 5, 65535));
    assert_int_equal(w[1], t_movh(T_AL, 5, 0));
    assert_int_equal(w[2] >> 16, t_spec(T_SB, T_AL, 5));
    size_t k = 0;
    int slot = 5;
    while ((size_t)(slot / 2) < n && k < max) {
        uint32_t word = w[slot / 2];
        if ((word >> 31) && slot % 2 == 0) {
            slots[k++] = word;
            slot += 2;
        } else {
            slots[k++] = slot % 2 ? word & 0xFFFF : word >> 16;
            slot++;
        }
    }
    free(w);
    return k;
}

static void test_worked_encodings(void **state)
{
    (void)state;
    /* the independent encoders reproduce the reference's literal table */
    assert_int_equal(T_NOP, t_alu(T_ADD, T_NV, 0, 0));
    assert_int_equal(T_INT1, t_spec(T_INT, T_AL, 1));
    assert_int_equal(0x1F40, t_jreg(T_JMP, 5));
    assert_int_equal(0x1F80, t_jreg(T_JMP, 6));
    assert_int_equal(0x1540, t_jreg(T_JNE, 5));
    assert_int_equal(0x028D, t_load(T_AL, 1, 5));
    assert_int_equal(0x069C, t_store(T_AL, 3, 4));
    assert_int_equal(0x0A82, t_mov(T_AL, 0, 2));
    assert_int_equal(0x0835, t_mov(T_EQ, 6, 5));
    assert_int_equal(0x214C, t_spec(T_COREIDX, T_AL, 3));
    assert_int_equal(0x62A4, t_alu(T_XOR, T_AL, 4, 4));
    assert_int_equal(0x729C, t_alu(T_CMP, T_AL, 3, 4));
    assert_int_equal(0x2414, t_spec(T_MSB, T_EQ, 5));
    assert_int_equal(0x2614, t_spec(T_MSE, T_EQ, 5));
    assert_int_equal(0x2954, t_spec(T_SB, T_AL, 5));
    assert_int_equal(0x2B54, t_spec(T_EXCL, T_AL, 5));
    assert_int_equal(0x8F54002Fu, t_movl(T_AL, 5, 47));
    assert_int_equal(0x8D540000u, t_movh(T_AL, 5, 0));
    assert_int_equal(0x8E140000u | 1234, t_movl(T_EQ, 5, 1234));
    /* and our assembler writes exactly those (movl/movh start words: a NOP pads slot 5) */
    static const char body[] = "nop\nint 1\njmp reg5\njmp sp\njne reg5\nload reg1 reg5\nstore reg3 reg4\n"
                               "mov reg0 reg2\nmoveq reg6 reg5\ncoreidx reg3\nxor reg4 reg4\ncmp reg3 reg4\n"
                               "msbeq reg5\nmseeq reg5\nsb reg5\nexcl reg5\nmovl reg5 47\nmovh reg5 0\nmovleq reg5 1234\n";
    static const uint32_t want[] = {0x42C0, 0x2344, 0x1F40, 0x1F80, 0x1540, 0x028D, 0x069C, 0x0A82, 0x0835, 0x214C,
                                    0x62A4, 0x729C, 0x2414, 0x2614, 0x2954, 0x2B54,
                                    0x42C0 /* alignment NOP: movl at odd slot 21 */, 0x8F54002Fu, 0x8D540000u,
                                    0x8E1404D2u};
    uint32_t got[64];
    size_t n = asm_slots(body, got, 64);
    assert_true(n >= sizeof want / sizeof want[0]);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        if (got[i] != want[i])
            fprintf(stderr, "slot %zu: got %08x want %08x\n", i, got[i], want[i]);
        assert_int_equal(got[i], want[i]);
    }
}

static const char *const conds[16] = {"eq", "ne", "gt", "lt", "ge", "le", "cs", "cc",
                                      "mi", "pl", "al", "nv", "vs", "vc", "hi", "ls"};

static void test_every_mnemonic_and_suffix(void **state)
{
    (void)state;
    static const char *const alu2[] = {"add", "addc", "sub", "subc", "mul", "div", "and", "or", "xor", "lsh", "rsh", NULL, "cmp"};
    static const int alu2op[] = {T_ADD, T_ADDC, T_SUB, T_SUBC, T_MUL, T_DIV, T_AND, T_OR, T_XOR, T_LSH, T_RSH, 0, T_CMP};
    static char body[65536];
    uint32_t want[512];
    size_t nw = 0, bl = 0;
    for (int c = 0; c < 16; c++) {
        for (int i = 0; i < 13; i++) {
            if (!alu2[i])
                continue;
            bl += (size_t)snprintf(body + bl, sizeof body - bl, "%s%s reg%d sp\n", alu2[i], conds[c], c % 6);
            want[nw++] = t_alu(alu2op[i], c, c % 6, 6);
        }
        bl += (size_t)snprintf(body + bl, sizeof body - bl, "not%s reg1\ninc%s bp\ndec%s reg3\n", conds[c], conds[c], conds[c]);
        want[nw++] = t_alu(T_NOT, c, 1, 0);
        want[nw++] = t_alu(T_INC, c, 4, 0);
        want[nw++] = t_alu(T_DEC, c, 3, 0);
        /* load/store/mov: the 0/1 opcode variant is the condition's MSB */
        bl += (size_t)snprintf(body + bl, sizeof body - bl, "load%s reg2 reg3\nstore%s reg4 reg5\nmov%s ip reg0\n",
                               conds[c], conds[c], conds[c]);
        want[nw++] = t_load(c, 2, 3);
        want[nw++] = t_store(c, 4, 5);
        want[nw++] = t_mov(c, 7, 0);
        bl += (size_t)snprintf(body + bl, sizeof body - bl, "coreidx%s reg1\nint%s 5\nmsb%s reg2\nmse%s reg3\nsb%s reg4\nexcl%s reg5\n",
                               conds[c], conds[c], conds[c], conds[c], conds[c], conds[c]);
        want[nw++] = t_spec(T_COREIDX, c, 1);
        want[nw++] = t_spec(T_INT, c, 5);
        want[nw++] = t_spec(T_MSB, c, 2);
        want[nw++] = t_spec(T_MSE, c, 3);
        want[nw++] = t_spec(T_SB, c, 4);
        want[nw++] = t_spec(T_EXCL, c, 5);
    }
    static const char *const jn[] = {"movf", "je", "jne", "jgt", "jge", "jlt", "jle", "jmp"};
    for (int j = 0; j < 8; j++) {
        bl += (size_t)snprintf(body + bl, sizeof body - bl, "%s reg%d\n", jn[j], j);
        want[nw++] = t_jreg(T_MOVF + j, j);
    }
    uint32_t got[600];
    size_t n = asm_slots(body, got, 600);
    assert_true(n >= nw);
    for (size_t i = 0; i < nw; i++) {
        if (got[i] != want[i])
            fprintf(stderr, "instruction %zu: got %04x want %04x\n", i, got[i], want[i]);
        assert_int_equal(got[i], want[i]);
    }
}

/* Every 16-bit pattern: data, or text that assembles back to the same bits. */
static void test_disasm_roundtrip_all16(void **state)
{
    (void)state;
    char *body = malloc(65536 * 40);
    uint32_t *want = malloc(65536 * sizeof *want);
    size_t bl = 0, nw = 0, ndata = 0;
    assert_non_null(body);
    assert_non_null(want);
    for (unsigned h = 0; h < 0x10000; h++) {
        char text[64];
        uint8_t b[2] = {(uint8_t)(h >> 8), (uint8_t)h};
        assert_int_equal(mccp_disasm(1, b, 2, text, sizeof text), 1); /* odd slot: always 16-bit */
        if (!strncmp(text, ".half", 5)) {
            ndata++;
            continue;
        }
        bl += (size_t)snprintf(body + bl, 65536 * 40 - bl, "%s\n", text);
        want[nw++] = h;
    }
    /* data: bit 15 set (32768), the decoder's no-op codes, don't-care bits set */
    assert_true(ndata > 32768);
    /* reassemble in chunks that fit the ROM; no 32-bit instructions, one slot per line */
    size_t done = 0;
    const char *p = body;
    while (done < nw) {
        size_t chunk = nw - done < 8000 ? nw - done : 8000;
        const char *e = p;
        for (size_t i = 0; i < chunk; i++)
            e = strchr(e, '\n') + 1;
        size_t len = (size_t)(e - p);
        char *part = malloc(len + 1);
        memcpy(part, p, len);
        part[len] = 0;
        uint32_t *got = malloc((chunk + 8) * sizeof *got);
        size_t k = asm_slots(part, got, chunk);
        assert_int_equal(k, chunk);
        for (size_t i = 0; i < chunk; i++) {
            if (got[i] != want[done + i])
                fprintf(stderr, "pattern %04x reassembled as %04x\n", want[done + i], got[i]);
            assert_int_equal(got[i], want[done + i]);
        }
        free(got);
        free(part);
        done += chunk;
        p = e;
    }
    free(body);
    free(want);
}

static void test_decode_specials(void **state)
{
    (void)state;
    mccp_insn in;
    /* 0x0000 is load reg0,[reg0] with condition eq (not a NOP) */
    mccp_decode16(0x0000, &in);
    assert_int_equal(in.op, MCCP_LOAD);
    assert_int_equal(in.r1, 0);
    assert_int_equal(in.r2, 0);
    /* 10110..11111 and the 16-bit 00110/00111 codes are decoder no-ops; one of them, the
     * half 0x3FFF (11111 with every other bit set), is the simulator's fast-forward marker */
    for (unsigned op5 = 0x16; op5 <= 0x1F; op5++) {
        mccp_decode16((uint16_t)(op5 << 9 | 0x1FE), &in);
        assert_int_equal(in.op, MCCP_NOOP);
        mccp_decode16((uint16_t)(op5 << 9 | 0x1FF), &in);
        assert_int_equal(in.op, op5 == 0x1F ? MCCP_MARKER : MCCP_NOOP);
    }
    mccp_decode(0x42C03FFFu, 1, &in); /* in a low half */
    assert_int_equal(in.op, MCCP_MARKER);
    mccp_decode(0x3FFF42C0u, 0, &in); /* in a high half */
    assert_int_equal(in.op, MCCP_MARKER);
    mccp_decode16(0x0C00, &in);
    assert_int_equal(in.op, MCCP_NOOP);
    mccp_decode16(0x0E00, &in);
    assert_int_equal(in.op, MCCP_NOOP);
    /* bit 31 makes the whole word a movl/movh, whatever the half; only bit 25 picks movl */
    mccp_decode(0x80000000u | 1u << 25 | 3u << 18 | 7, 1, &in);
    assert_int_equal(in.op, MCCP_MOVL);
    assert_int_equal(in.len, 2);
    assert_int_equal(in.r1, 3);
    assert_int_equal(in.imm, 7);
    mccp_decode(0xC0000000u, 0, &in);
    assert_int_equal(in.op, MCCP_MOVH);
    /* movf's condition is {0, register} */
    mccp_decode16(t_jreg(T_MOVF, 6), &in);
    assert_int_equal(in.op, MCCP_MOVF);
    assert_int_equal(in.cond, 6);
    /* ALU opcode 1111 exists in the RTL (result = op1) and prints as data */
    char text[64];
    uint8_t b[2] = {0x7E, 0x8A};
    mccp_disasm(0, b, 2, text, sizeof text);
    assert_string_equal(text, ".half 0x7e8a");
}

static void test_disasm_slots(void **state)
{
    (void)state;
    char text[64];
    uint8_t w[4] = {0x8F, 0x54, 0x00, 0x2F};
    assert_int_equal(mccp_disasm(0, w, 4, text, sizeof text), 2);
    assert_string_equal(text, "movl reg5 47");
    assert_int_equal(mccp_disasm(0, w, 2, text, sizeof text), 0); /* needs the whole word */
    assert_int_equal(mccp_disasm(0, w, 1, text, sizeof text), 0);
    uint8_t p[4] = {0x23, 0x44, 0x42, 0xC0};
    assert_int_equal(mccp_disasm(0, p, 4, text, sizeof text), 1);
    assert_string_equal(text, "int 1");
    assert_int_equal(mccp_disasm(1, p + 2, 2, text, sizeof text), 1);
    assert_string_equal(text, "addnv reg0 reg0");
    uint8_t q[2] = {0x08, 0x35};
    mccp_disasm(1, q, 2, text, sizeof text);
    assert_string_equal(text, "moveq sp reg5");
    uint8_t r[4] = {0x8E, 0x14, 0x04, 0xD2};
    mccp_disasm(4, r, 4, text, sizeof text);
    assert_string_equal(text, "movleq reg5 1234");
    /* a non-canonical 32-bit word (bit 30 set) still decodes but prints as data */
    uint8_t s[4] = {0xCF, 0x54, 0x00, 0x2F};
    mccp_disasm(0, s, 4, text, sizeof text);
    assert_string_equal(text, ".word 0xcf54002f");
}

static void test_disasm_image(void **state)
{
    (void)state;
    uint32_t words[] = {0x8F54002Fu, t_pair(T_INT1, T_NOP)};
    ld_image img;
    memset(&img, 0, sizeof img);
    snprintf(img.path, sizeof img.path, "x.out");
    img.fmt = LD_OUT;
    img.words = words;
    img.nwords = 2;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    char err[128];
    assert_int_equal(isa_mccp.disasm_image(&img, NULL, f, err, sizeof err), 0);
    fclose(f);
    assert_non_null(strstr(buf, "0000.h  8f54002f  movl reg5 47"));
    assert_non_null(strstr(buf, "0001.h  2344      int 1"));
    assert_non_null(strstr(buf, "0001.l  42c0      addnv reg0 reg0"));
    free(buf);
    img.nwords = 9000;
    f = open_memstream(&buf, &len);
    assert_int_equal(isa_mccp.disasm_image(&img, NULL, f, err, sizeof err), -1);
    fclose(f);
    free(buf);
    assert_non_null(strstr(err, "8192"));
}

/* Spike-style check of the one instruction table (issue 12): no two encodable entries may
 * claim the same opcode bits. The formats' leading bits and opcode fields (isa/mccp/mccp.h,
 * from instr_decoder.v): 01 + a 4-bit ALU code; 00 + a 4-bit MEM code at [13:10], which
 * covers the two 5-bit codes 2c and 2c+1 at [13:9]; 00 + a 5-bit code (REG, SPEC, INT);
 * 10 + a 5-bit code (the 32-bit IMM form). Each entry becomes (prefix, first and last 5-bit
 * code) and no two ranges of one prefix may meet. */
static void test_no_overlapping_entries(void **state)
{
    (void)state;
    int prefix[64], lo[64], hi[64], n = 0;
    for (int i = 0; i < mccp_table_len && n < 64; i++) {
        const mccp_desc *d = &mccp_table[i];
        switch (d->fmt) {
        case MCCP_F_ALU1: case MCCP_F_ALU2: prefix[n] = 1, lo[n] = 2 * d->code, hi[n] = 2 * d->code + 1; break;
        case MCCP_F_MEM: prefix[n] = 0, lo[n] = 2 * d->code, hi[n] = 2 * d->code + 1; break;
        case MCCP_F_REG: case MCCP_F_SPEC: case MCCP_F_INT: prefix[n] = 0, lo[n] = hi[n] = d->code; break;
        case MCCP_F_IMM: prefix[n] = 2, lo[n] = hi[n] = d->code; break;
        default: continue; /* named by the assembler, never encoded */
        }
        for (int k = 0; k < n; k++)
            if (prefix[k] == prefix[n] && lo[k] <= hi[n] && lo[n] <= hi[k])
                fail_msg("'%s' and an earlier entry share opcode bits (prefix %d, codes %d-%d)", d->name, prefix[n],
                         lo[n], hi[n]);
        n++;
    }
    /* every encodable mnemonic was checked: 15 ALU, 3 MEM, 2 IMM, 8 REG (movf, je..jmp),
     * 5 SPEC, 1 INT */
    assert_int_equal(n, 34);
}

XPUSIM_TESTS(mccp_encode,
             cmocka_unit_test(test_no_overlapping_entries),
             cmocka_unit_test(test_worked_encodings),
             cmocka_unit_test(test_every_mnemonic_and_suffix),
             cmocka_unit_test(test_disasm_roundtrip_all16),
             cmocka_unit_test(test_decode_specials),
             cmocka_unit_test(test_disasm_slots),
             cmocka_unit_test(test_disasm_image))
