/* tests/ipu/test_xchg21.c: ipu21's exchange instructions in the one table (delaypic,
 * delayxpic, sendoff, sendpic, sendpicp; docs/isa/ipu.md "IPU21 exchange instructions").
 * The expected words are the document's own examples (osmarks/ipu-stack
 * docs/EXCHANGE_INSTRUCTION_REFERENCE.md: SDK-generated rows) and its bit formulas, written
 * out below; the round trip assembles text, decodes the image for ipu21's supervisor and
 * compares the listing with the source line by line. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elf.h>
#include "../testlib.h"
#include "../../core/opts.h"
#include "../../isa/ipu/ipu.h"

#define S IPU_CTX_SUPERVISOR
#define I21 IPU_ARCH_IPU21

/* The document's SDK examples: bytes (little-endian words) and the text we print. */
typedef struct vec {
    uint32_t w[2];
    int n;
    const char *text;
} vec;
static const vec examples[] = {
    /* "f54a0109 19015000  sendpicp 42, 0x14021, 1, 0" with the payload XPIC 0x640, PIC 0x15000 */
    {{0xf54a0109u, 0x19015000u}, 8, "sendpicp 42, 81953, 1, 0, 1600, 86016"},
    /* the receiver row of four 52-word messages */
    {{0x64000082u, 0}, 4, "delayxpic 0, 0, 130"},
    {{0x40a00032u, 0}, 4, "delay 50"},
    {{0xf6600000u, 0x03014048u}, 8, "sendpicp 51, 0, 0, 0, 192, 81992"},
    {{0xf6600000u, 0x03095000u}, 8, "sendpicp 51, 0, 0, 0, 194, 86016"},
    {{0xf6600000u, 0x04016000u}, 8, "sendpicp 51, 0, 0, 0, 256, 90112"},
    {{0xf7200000u, 0x19017000u}, 8, "sendpicp 57, 0, 0, 0, 1600, 94208"},
};

static void put_le(uint8_t *b, uint32_t w)
{
    for (int i = 0; i < 4; i++)
        b[i] = (uint8_t)(w >> (8 * i));
}

static void test_examples(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++) {
        const vec *v = &examples[i];
        uint8_t b[8];
        put_le(b, v->w[0]);
        put_le(b + 4, v->w[1]);
        ipu_bundle bu;
        char text[160];
        int len = ipu_decode(b, 8, I21, S, 0, &bu);
        if (len != v->n)
            fail_msg("example %zu (%s): %d bytes", i, v->text, len);
        ipu_format_bundle(&bu, text, sizeof text);
        if (strcmp(text, v->text))
            fail_msg("example %zu: got '%s', expected '%s'", i, text, v->text);
        /* the same words through the listing helpers the debugger uses */
        assert_int_equal(ipu_disasm_context(b, 8, I21, S, text, sizeof text), v->n);
        assert_string_equal(text, v->text);
    }
    /* a sendpicp whose payload is not there is no instruction */
    uint8_t b[4];
    put_le(b, 0xf6600000u);
    ipu_bundle bu;
    assert_int_equal(ipu_decode(b, 4, I21, S, 0, &bu), IPU_DEC_UNKNOWN);
}

static void test_gating(void **state)
{
    (void)state;
    ipu_insn in;
    /* ipu21 and the supervisor only: on ipu2, and in a worker, these words are not them */
    const uint32_t w[] = {0x64000082u, 0x60000000u, 0x70000000u, 0x70100000u, 0xf6600000u};
    const char *const mn[] = {"delayxpic", "delaypic", "sendoff", "sendpic", "sendpicp"};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(ipu_decode_word(w[i], I21, S, &in), IPU_DEC_OK);
        assert_string_equal(in.op->mnemonic, mn[i]);
        assert_int_equal(!!(in.op->flags & IPU_F_WIDE), i == 4);
        if (ipu_decode_word(w[i], IPU_ARCH_IPU2, S, &in) == IPU_DEC_OK)
            assert_string_not_equal(in.op->mnemonic, mn[i]);
        if (ipu_decode_word(w[i], I21, IPU_CTX_WORKER, &in) == IPU_DEC_OK)
            assert_string_not_equal(in.op->mnemonic, mn[i]);
    }
}

/* ---- the assembler round trip ---- */

typedef struct insn_case {
    const char *text; /* as the source writes it and the listing prints it */
    uint32_t w[2];    /* the document's formula, computed by hand below */
    int n;
} insn_case;

/* The document's formulas (its operand order), for the cases below:
 *   delay(e-1)                0x40a00000 | (e-1 & 0x7ffff)
 *   delaypic(e-1, sel, v)     0x60000000 | (e-1)<<19 & 0x03f80000 | sel<<18 & 0x40000 | v & 0x3ffff
 *   delayxpic(e-1, sel, v)    0x64000000 | (e-1)<<14 & 0x03ffc000 | sel<<13 & 0x2000 | v & 0x1fff
 *   sendoff(w-1, d, c)        0x70000000 | (w-1)<<21 & 0x07e00000 | ((w-1)>>6)<<14 & 0xfc000 | d<<3 & 0x3ff8 | c
 *   sendpic(w-1, sel, v)      0x70100000 | (w-1)<<21 & 0x07e00000 | sel<<18 & 0xc0000 | v & 0x3ffff
 *   sendpicp(w-1, a, c; ps)   0xf0000000 | ps<<27 | (w-1)<<21 & 0x07e00000 | a<<3 & 0x1ffff8 | c,
 *                             then XPIC<<18 | PIC */
static const insn_case cases[] = {
    /* 0x60000000 | 112<<19 = 0x03800000 | 1<<18 = 0x40000 | 2 */
    {"delaypic 112, 1, 2", {0x63840002u, 0}, 4},
    /* 0x60000000 | 127<<19 = 0x03f80000 | 0x3ffff */
    {"delaypic 127, 0, 262143", {0x63fbffffu, 0}, 4},
    /* 0x64000000 | 4095<<14 = 0x03ffc000 | 1<<13 = 0x2000 | 0x1fff */
    {"delayxpic 4095, 1, 8191", {0x67ffffffu, 0}, 4},
    /* 100 = 0b1_100100: 0x24<<21 = 0x04800000, 1<<14 = 0x4000, 5<<3 = 0x28, 3 */
    {"sendoff 100, 5, 3", {0x7480402bu, 0}, 4},
    /* 4095 = 63 | 63<<6: 0x07e00000 | 0xfc000 | 2047<<3 = 0x3ff8 | 7 */
    {"sendoff 4095, 2047, 7", {0x77efffffu, 0}, 4},
    /* 7<<21 = 0x00e00000 | 3<<18 = 0xc0000 | 1 */
    {"sendpic 7, 3, 1", {0x70fc0001u, 0}, 4},
    /* 63<<21 = 0x07e00000 | 0 | 7 */
    {"sendpic 63, 0, 7", {0x77f00007u, 0}, 4},
    /* 1<<27 | 3<<21 = 0x00600000 | 0x100<<3 = 0x800 | 2; payload 5<<18 = 0x140000 | 0x13010 */
    {"sendpicp 3, 256, 2, 1, 5, 77840", {0xf8600802u, 0x00153010u}, 8},
};

static void test_round_trip(void **state)
{
    (void)state;
    char dir[] = "/tmp/xpusim-x21-XXXXXX", src[64], out[64], err[600];
    assert_non_null(mkdtemp(dir));
    snprintf(src, sizeof src, "%s/a.S", dir);
    snprintf(out, sizeof out, "%s/a.elf", dir);
    FILE *f = fopen(src, "w");
    assert_non_null(f);
    fputs(".section .text.sup, \"ax\"\n.supervisor\n.align 8\n", f);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) /* each wide one starts 8-aligned */
        fprintf(f, "%s%s\n", cases[i].n == 8 ? ".align 8\n" : "", cases[i].text);
    fclose(f);
    sim_opts o;
    opt_init(&o);
    opt_set(&o, "arch", "ipu21");
    const char *srcs[] = {src};
    if (ipu_assemble(1, srcs, out, &o, err, sizeof err))
        fail_msg("assembling: %s", err);
    f = fopen(out, "rb");
    assert_non_null(f);
    static uint8_t img[1 << 16];
    size_t len = fread(img, 1, sizeof img, f);
    fclose(f);
    Elf32_Ehdr eh;
    memcpy(&eh, img, sizeof eh);
    const Elf32_Shdr *sh = (const Elf32_Shdr *)(const void *)(img + eh.e_shoff), *text = NULL;
    for (int i = 0; i < eh.e_shnum; i++)
        if (!strcmp((const char *)img + sh[eh.e_shstrndx].sh_offset + sh[i].sh_name, ".text.sup"))
            text = &sh[i];
    assert_non_null(text);
    assert_true(text->sh_offset + text->sh_size <= len);
    const uint8_t *p = img + text->sh_offset, *end = p + text->sh_size;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const insn_case *c = &cases[i];
        char t[160];
        if (c->n == 8 && ((p - (img + text->sh_offset)) & 7)) /* the .align's nop */
            p += 4;
        assert_true(p + c->n <= end);
        for (int k = 0; k < c->n / 4; k++) {
            uint32_t w = (uint32_t)p[4 * k] | (uint32_t)p[4 * k + 1] << 8 | (uint32_t)p[4 * k + 2] << 16 |
                         (uint32_t)p[4 * k + 3] << 24;
            if (w != c->w[k])
                fail_msg("'%s' word %d: 0x%08x, the document's formula gives 0x%08x", c->text, k, w, c->w[k]);
        }
        assert_int_equal(ipu_disasm_context(p, (size_t)(end - p), I21, S, t, sizeof t), c->n);
        if (strcmp(t, c->text))
            fail_msg("round trip: '%s' lists as '%s'", c->text, t);
        p += c->n;
    }
    /* errors: a sendpicp not 8-byte aligned; these rows on ipu2; a payload too wide */
    const char *const bad[][2] = {
        {".section .text.sup, \"ax\"\n.supervisor\n.align 8\nnop\nsendpicp 0, 0, 0, 0, 1, 1\n", "8-byte boundary"},
        {".section .text.sup, \"ax\"\n.supervisor\n.align 8\nsendpicp 0, 0, 0, 0, 16384, 1\n", "14 bits"},
        {".section .text.sup, \"ax\"\n.supervisor\ndelayxpic 0, 0, 1\n", "not available on ipu2"},
    };
    for (int i = 0; i < 3; i++) {
        f = fopen(src, "w");
        assert_non_null(f);
        fputs(bad[i][0], f);
        fclose(f);
        sim_opts o2;
        opt_init(&o2);
        if (i < 2)
            opt_set(&o2, "arch", "ipu21");
        err[0] = 0;
        assert_int_not_equal(ipu_assemble(1, srcs, out, &o2, err, sizeof err), 0);
        if (!strstr(err, bad[i][1]))
            fail_msg("error %d: '%s' does not say '%s'", i, err, bad[i][1]);
    }
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

XPUSIM_TESTS(ipu_xchg21, cmocka_unit_test(test_examples), cmocka_unit_test(test_gating),
             cmocka_unit_test(test_round_trip))
