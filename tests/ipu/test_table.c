/* tests/ipu/test_table.c: the IPU instruction table and its decoder and disassembler.
 * Well-formedness: every row's match lies inside its mask; operand fields lie inside the
 * word, do not overlap each other or the fixed bits, and with bit 31 (the co-issue flag)
 * cover the whole word; no two rows that one context and architecture decode accept the
 * same word. Known encodings: each (bytes -> text) pair below was checked against the LLVM
 * MC tests of graphcore/llvm-project-fork (llvm/test/MC/Disassembler/Colossus/
 * bundle-disassemble.txt, reg-pairs.txt, zero-reg-alias.txt; llvm/test/MC/Colossus/
 * reg-quads.s) or against the llvm-objdump listing of the SDK's IPU1 tile bootloader
 * (Saghetti0/graphcore-ipu-research research/ipu1/tile_bootloader_ipu1_disassembly.txt,
 * lines whose text that listing's authors did not rewrite by hand). Context and
 * architecture gating: supervisor-only, worker-only and ipu21-only rows, invalid pairs. */
#include "../testlib.h"
#include "../../isa/ipu/ipu.h"

static uint32_t piece_bits(const ipu_piece *p)
{
    return (p->width >= 32 ? 0xffffffffu : ((1u << p->width) - 1)) << p->lo;
}

static void test_rows_well_formed(void **state)
{
    (void)state;
    assert_true(ipu_nops > 300);
    for (int i = 0; i < ipu_nops; i++) {
        const ipu_opdef *d = &ipu_ops[i];
        uint32_t used = d->mask;
        if (d->match & ~d->mask)
            fail_msg("%s: match has bits outside its mask", d->name);
        assert_true(d->nops <= IPU_MAX_OPS);
        assert_true(d->arch && !(d->arch & ~IPU_ARCH_ALL));
        assert_true(d->ctx && !(d->ctx & ~IPU_CTX_BOTH));
        for (int k = 0; k < d->nops; k++) {
            const ipu_operand *o = &d->op[k];
            assert_true(o->kind != IPU_K_NONE && o->npieces >= 1);
            for (int p = 0; p < o->npieces; p++) {
                if (o->p[p].lo + o->p[p].width > 32 || !o->p[p].width)
                    fail_msg("%s: operand %d outside the word", d->name, k);
                if (used & piece_bits(&o->p[p]))
                    fail_msg("%s: operand %d overlaps another field", d->name, k);
                used |= piece_bits(&o->p[p]);
            }
        }
        /* bit 31 is free exactly on co-issuable rows: it is the co-issue flag */
        if (d->flags & IPU_F_COISSUE) {
            assert_false(d->mask & 0x80000000u);
            used |= 0x80000000u;
        }
        if (used != 0xffffffffu)
            fail_msg("%s: bits %08x are neither fixed nor an operand", d->name, ~used);
    }
}

static void test_no_overlap(void **state)
{
    (void)state;
    for (int i = 0; i < ipu_nops; i++)
        for (int j = 0; j < i; j++) {
            const ipu_opdef *a = &ipu_ops[i], *b = &ipu_ops[j];
            if (!(a->arch & b->arch) || !(a->ctx & b->ctx))
                continue;
            if (!((a->match ^ b->match) & a->mask & b->mask))
                fail_msg("%s and %s decode the same words", a->name, b->name);
        }
}

typedef struct vec {
    int ctx, arch;
    uint8_t b[8];
    int n;
    const char *text; /* NULL: invalid encoding */
} vec;

#define W IPU_CTX_WORKER
#define S IPU_CTX_SUPERVISOR
#define I1 IPU_ARCH_IPU1
#define I21 IPU_ARCH_IPU21
static const vec vectors[] = {
    /* llvm/test/MC/Disassembler/Colossus/bundle-disassemble.txt */
    {W, I21, {0x11, 0x30, 0x20, 0xc4, 0x41, 0x60, 0x50, 0xc4}, 8, "{ add $m1, $m2, $m3 ; add $m4, $m5, $m6 }"},
    {W, I21, {0x02, 0x26, 0x10, 0xc4, 0x32, 0x56, 0x40, 0xc4}, 8, "{ sub $m0, $m2, $m1 ; sub $m3, $m5, $m4 }"},
    {W, I21, {0x61, 0x10, 0x70, 0xc4, 0x41, 0x60, 0x50, 0xc4}, 8, "{ add $m6, $m7, $m1 ; add $m4, $m5, $m6 }"},
    {W, I21, {0x41, 0x60, 0x50, 0x44}, 4, "add $m4, $m5, $m6"},
    {W, I21, {0x11, 0x30, 0x20, 0x44}, 4, "add $m1, $m2, $m3"},
    /* llvm/test/MC/Disassembler/Colossus/reg-pairs.txt */
    {W, I21, {0x00, 0xf0, 0x20, 0x5f}, 4, "st64 $a0:1, $m2, $m15, 0"},
    {W, I21, {0x10, 0xf0, 0x20, 0x5f}, 4, NULL},
    {W, I21, {0x20, 0xf0, 0x20, 0x5f}, 4, "st64 $a2:3, $m2, $m15, 0"},
    {W, I21, {0x30, 0xf0, 0x20, 0x5f}, 4, NULL},
    {W, I21, {0x40, 0xf0, 0x20, 0x5f}, 4, "st64 $a4:5, $m2, $m15, 0"},
    {W, I21, {0x60, 0xf0, 0x20, 0x5f}, 4, "st64 $a6:7, $m2, $m15, 0"},
    {W, I21, {0x80, 0xf0, 0x20, 0x5f}, 4, "st64 $a8:9, $m2, $m15, 0"},
    {W, I21, {0xa0, 0xf0, 0x20, 0x5f}, 4, "st64 $a10:11, $m2, $m15, 0"},
    {W, I21, {0xc0, 0xf0, 0x20, 0x5f}, 4, "st64 $a12:13, $m2, $m15, 0"},
    {W, I21, {0xd0, 0xf0, 0x20, 0x5f}, 4, NULL},
    {W, I21, {0xe0, 0xf0, 0x20, 0x5f}, 4, "st64 $a14:15, $m2, $m15, 0"},
    {W, I21, {0xf0, 0xf0, 0x20, 0x5f}, 4, NULL},
    /* llvm/test/MC/Disassembler/Colossus/zero-reg-alias.txt */
    {W, I21, {0x00, 0x00, 0xf0, 0x1a}, 4, "setzi $a15, 0"},
    {W, I21, {0x00, 0x00, 0xf0, 0x19}, 4, "setzi $m15, 0"},
    {W, I21, {0x03, 0xe0, 0xe0, 0x58}, 4, "f32v2add $a0:1, $a14:15, $a14:15"},
    /* llvm/test/MC/Colossus/reg-quads.s (encoding: [...] of each CHECK line) */
    {W, I21, {0x05, 0x08, 0x00, 0x4d}, 4, "ld128 $a0:3, $m0, $m0, $m0"},
    {W, I21, {0x45, 0x08, 0x00, 0x4d}, 4, "ld128 $a4:7, $m0, $m0, $m0"},
    {W, I21, {0x85, 0x08, 0x00, 0x4d}, 4, "ld128 $a8:11, $m0, $m0, $m0"},
    {W, I21, {0xc5, 0x08, 0x00, 0x4d}, 4, "ld128 $a12:15, $m0, $m0, $m0"},
    {W, I21, {0x00, 0x28, 0x40, 0x56}, 4, "ld2xst64pace $a0:3, $a0:1, $m2:3+=, $m4, 0"},
    {W, I21, {0x00, 0x28, 0x44, 0x56}, 4, "ld2xst64pace $a4:7, $a0:1, $m2:3+=, $m4, 0"},
    {W, I21, {0x00, 0x28, 0x48, 0x56}, 4, "ld2xst64pace $a8:11, $a0:1, $m2:3+=, $m4, 0"},
    {W, I21, {0x00, 0x28, 0x4c, 0x56}, 4, "ld2xst64pace $a12:15, $a0:1, $m2:3+=, $m4, 0"},
    /* SDK IPU1 tile bootloader (supervisor code, llvm-objdump text) */
    {S, I1, {0x00, 0xf0, 0x00, 0x15}, 4, "runall $m0, $m15, 0"},
    {S, I1, {0xd6, 0x00, 0x01, 0x18}, 4, "call $m0, 0x40358"},
    {S, I1, {0x3d, 0x80, 0x01, 0x42}, 4, "and $m1, $m0, 61"},
    {S, I1, {0x21, 0x10, 0x20, 0x44}, 4, "add $m2, $m2, $m1"},
    {S, I1, {0x28, 0x00, 0xa0, 0x40}, 4, "delay 40"},
    {S, I1, {0x00, 0x00, 0xf1, 0x4f}, 4, "st32 $m1, $m15, $m0, 0"},
    {S, I1, {0x81, 0xf3, 0xf0, 0x44}, 4, "zero $m8"},
    {S, I1, {0x3c, 0xb0, 0x03, 0x42}, 4, "andc $m3, $m0, 60"},
    {S, I1, {0x04, 0xd0, 0x32, 0x42}, 4, "shr $m2, $m3, 4"},
    {S, I1, {0x12, 0x00, 0x19, 0x39}, 4, "sub $m9, 18, $m1"},
    {S, I1, {0x3b, 0x00, 0x31, 0x13}, 4, "brz $m3, 0x400ec"},
    {S, I1, {0x01, 0x00, 0xc0, 0x40}, 4, "sans 1"},
    {S, I1, {0x37, 0x00, 0x19, 0x13}, 4, "brnzdec $m1, 0x400dc"},
    {S, I1, {0x3f, 0x00, 0x81, 0x40}, 4, "bri 0x400fc"},
    {S, I1, {0x33, 0x00, 0x20, 0x78}, 4, "send 1, 6, 3"},
    {S, I1, {0x00, 0xf0, 0xb0, 0x01}, 4, "ld32 $m0, $m11, $m15, 0"},
    {S, I1, {0x07, 0x01, 0x17, 0x33}, 4, "min $m7, $m1, 263"},
    {S, I1, {0x11, 0x00, 0x77, 0x30}, 4, "max $m7, $m7, 17"},
    {S, I1, {0x11, 0x77, 0x10, 0x44}, 4, "xor $m1, $m1, $m7"},
    {S, I1, {0xff, 0xff, 0x77, 0x22}, 4, "add $m7, $m7, -1"},
    {S, I1, {0x00, 0x90, 0x07, 0x42}, 4, "mov $m7, $m0"},
    {S, I1, {0x11, 0x00, 0x60, 0x2a}, 4, "cmpult $m0, $m6, 17"},
    {S, I1, {0x00, 0x00, 0x44, 0x28}, 4, "cmpeq $m4, $m4, 0"},
    {S, I1, {0x33, 0xf5, 0x10, 0x44}, 4, "sort4x16lo $m3, $m1, $m15"},
    {S, I1, {0x42, 0x46, 0x80, 0x44}, 4, "sub $m4, $m4, $m8"},
    {S, I1, {0x01, 0x80, 0xff, 0x4e}, 4, "st32step $m15, $m15, $m8+=, 1"},
    {S, I1, {0x80, 0xf0, 0x09, 0x4d}, 4, "ld32 $m8, $m0, $m15, $m9"},
    {S, I1, {0x00, 0x90, 0xb8, 0x4c}, 4, "stm32 $m8, $m11, $m9"},
    {S, I1, {0x01, 0x10, 0x80, 0x41}, 4, "trap 1"},
    {S, I1, {0x00, 0x00, 0xa0, 0x43}, 4, "br $m10"},
    {S, I1, {0xfc, 0xff, 0xa1, 0x22}, 4, "add $m1, $m10, -4"},
    {W, I1, {0x00, 0xfe, 0xf0, 0x58}, 4, "zero $a0"},
    {W, I1, {0x10, 0xfe, 0xf0, 0x58}, 4, "zero $a1"},
};

static void test_vectors(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof vectors / sizeof vectors[0]; i++) {
        const vec *v = &vectors[i];
        ipu_bundle b;
        int len = ipu_decode(v->b, (size_t)v->n, v->arch, v->ctx, 0, &b);
        if (!v->text) {
            if (len > 0)
                fail_msg("vector %zu: decoded an invalid encoding", i);
            continue;
        }
        char text[200];
        if (len != v->n)
            fail_msg("vector %zu (%s): used %d bytes of %d", i, v->text, len, v->n);
        ipu_format_bundle(&b, text, sizeof text);
        if (strcmp(text, v->text))
            fail_msg("vector %zu: got '%s', expected '%s'", i, text, v->text);
    }
}

static void test_gating(void **state)
{
    (void)state;
    ipu_insn in;
    /* run $m0, $m0, 0 is supervisor-only; exitz $m15 worker-only */
    assert_int_equal(ipu_decode_word(0x14000000u, IPU_ARCH_IPU2, S, &in), IPU_DEC_OK);
    assert_string_equal(in.op->mnemonic, "run");
    assert_int_equal(ipu_decode_word(0x14000000u, IPU_ARCH_IPU2, W, &in), IPU_DEC_UNKNOWN);
    assert_int_equal(ipu_decode_word(0x43f04000u, IPU_ARCH_IPU2, W, &in), IPU_DEC_OK);
    assert_string_equal(in.op->mnemonic, "exitz");
    assert_false(in.op->flags & IPU_F_COISSUE);
    assert_int_equal(ipu_decode_word(0x43f04000u, IPU_ARCH_IPU2, S, &in), IPU_DEC_UNKNOWN);
    /* the fallback finds it in the other context, as llvm-objdump does */
    ipu_bundle b;
    const uint8_t exitz[4] = {0x00, 0x40, 0xf0, 0x43};
    assert_int_equal(ipu_decode(exitz, 4, IPU_ARCH_IPU2, S, 1, &b), 4);
    assert_int_equal(b.insn[0].ctx, W);
    /* f8v2tof16 $a0, $a1 (FSXD aux 14-12=110, 11=1, 10-8=100) exists on ipu21 only */
    uint32_t f8 = 0x52106c00u;
    assert_int_equal(ipu_decode_word(f8, IPU_ARCH_IPU21, W, &in), IPU_DEC_OK);
    assert_string_equal(in.op->mnemonic, "f8v2tof16");
    assert_int_equal(in.op->pipe, IPU_PIPE_AUX);
    assert_int_equal(ipu_decode_word(f8, IPU_ARCH_IPU2, W, &in), IPU_DEC_UNKNOWN);
    /* a short buffer and an undecodable word in a listing */
    char text[64];
    assert_int_equal(ipu_disasm_at(0, exitz, 3, IPU_ARCH_IPU2, W, text, sizeof text), 0);
    const uint8_t junk[4] = {0xff, 0xff, 0xff, 0xff};
    assert_int_equal(ipu_disasm_at(0, junk, 4, IPU_ARCH_IPU2, W, text, sizeof text), 4);
    assert_string_equal(text, ".long 0xffffffff");
}

XPUSIM_TESTS(ipu_table, cmocka_unit_test(test_rows_well_formed), cmocka_unit_test(test_no_overlap),
             cmocka_unit_test(test_vectors), cmocka_unit_test(test_gating))
