/* tests/dpu/test_encoding.c: round trip of every DPU instruction form. For each of the 1,080
 * forms, four operand samples whose expected words come from an independent source (the SDK
 * encoder macros, tests/dpu/vectors.inc): the assembler must produce the word, the decoder
 * must recognise it (as the form or an alias with the same execution form), the
 * disassembly must assemble back to the same word, and illegal words must be rejected. */
#include "../testlib.h"
#include "../../isa/dpu/dpu.h"

typedef struct vec { const char *text; uint64_t word; } vec;
static const vec vecs[] = {
#include "vectors.inc"
};
#define NVEC (sizeof vecs / sizeof vecs[0])

static void test_table_size(void **state)
{
    (void)state;
    assert_int_equal(NVEC, 4 * DPU_NFORMS);
    assert_int_equal(DPU_NFORMS, 1080);
}

static void test_assemble_all(void **state)
{
    (void)state;
    int fails = 0;
    for (size_t i = 0; i < NVEC; i++) {
        uint64_t w = 0;
        char err[256];
        int fi = dpu_assemble_line(vecs[i].text, NULL, &w, err, sizeof err);
        int equivalent = 0;
        if (fi >= 0 && w != vecs[i].word) {
            /* the SDK gives some texts two encodings (and.s rri / rki): accept the other
             * one only when both words read back as the same text */
            char t1[256], t2[256];
            dpu_disasm_word(w, t1, sizeof t1);
            dpu_disasm_word(vecs[i].word, t2, sizeof t2);
            equivalent = !strcmp(t1, t2) && dpu_decode_exec(w) >= 0;
            /* rki with a work register: the SDK's bits would read back as 'and rri'; we
             * encode the same text with the and.s/and.u rri form instead */
            const dpu_form *vf = dpu_form_at((int)(i / 4)), *gf = dpu_form_at(fi);
            if ((vf->flags & DPU_F_KREG) && !(gf->flags & DPU_F_KREG) && !strcmp(vf->mnem, gf->mnem) &&
                !strcmp(gf->form, "rri"))
                equivalent = 1;
        }
        if (fi < 0 || (w != vecs[i].word && !equivalent)) {
            if (fails++ < 20)
                print_message("asm '%s': got %012llx (%s) want %012llx\n", vecs[i].text,
                              (unsigned long long)w, fi < 0 ? err : "", (unsigned long long)vecs[i].word);
        }
    }
    assert_int_equal(fails, 0);
}

static void test_decode_all(void **state)
{
    (void)state;
    int fails = 0;
    for (size_t i = 0; i < NVEC; i++) {
        int want = (int)(i / 4);
        uint64_t w = vecs[i].word;
        int d = dpu_decode(w), x = dpu_decode_exec(w);
        const dpu_form *wf = dpu_form_at(want);
        /* 'and rc, ra, imm' and 'and.s/.u dc, ra, imm' (rki) share their bits: ra r0..r23
         * means the 32-bit and (real code), ra zero..id8 the 64-bit rki (docs/isa/dpu.md) */
        uint32_t ra = (uint32_t)((w >> 34) & 31);
        int and_rri = !strcmp(wf->mnem, "and") && !strcmp(wf->form, "rri");
        if ((wf->flags & DPU_F_KREG) || and_rri) {
            int want_k = ra >= 24;
            if (d < 0 || x < 0 || (want_k != ((dpu_form_at(x)->flags & DPU_F_KREG) != 0)) ||
                (!want_k && (strcmp(dpu_form_at(x)->mnem, "and") || strcmp(dpu_form_at(x)->form, "rri")))) {
                if (fails++ < 20)
                    print_message("and/rki '%s': exec %d\n", vecs[i].text, x);
            }
            continue;
        }
        if (d < 0 || x < 0 || dpu_form_at(d)->exec != wf->exec || x != wf->exec) {
            if (fails++ < 20)
                print_message("decode '%s' %012llx: display %d exec %d, want form %d (%s %s) exec %d\n",
                              vecs[i].text, (unsigned long long)w, d, x, want, wf->mnem, wf->form, wf->exec);
        }
    }
    assert_int_equal(fails, 0);
}

static void test_disasm_roundtrip(void **state)
{
    (void)state;
    int fails = 0;
    for (size_t i = 0; i < NVEC; i++) {
        char txt[256], err[256];
        uint64_t w2 = 0;
        dpu_disasm_word(vecs[i].word, txt, sizeof txt);
        if (dpu_assemble_line(txt, NULL, &w2, err, sizeof err) < 0 || w2 != vecs[i].word) {
            if (fails++ < 20)
                print_message("'%s' -> %012llx -> '%s' -> %012llx %s\n", vecs[i].text,
                              (unsigned long long)vecs[i].word, txt, (unsigned long long)w2, err);
        }
    }
    assert_int_equal(fails, 0);
}

static void test_bootstrap_words(void **state)
{
    (void)state;
    /* The real bootstrap words of an SDK-built ELF (reference §1.6). */
    static const struct { uint64_t w; const char *txt; } boot[] = {
        {0x3c7383000006ull, "jnz id, 6"},
        {0x7ce346000000ull, "sd zero, 16, 0"},
        {0x6be3009c0000ull, "move r23, 201"},
        {0x3c5f828c0006ull, "jeq r23, 200, 6"},
        {0x7c5f80000005ull, "release r23, 0, nz, 5"},
        {0x2fdf01ff0003ull, "add r23, r23, -1, true, 3"},
        {0x7df320100000ull, "boot id, 1"},
        {0x7b7f468f0000ull, "ld d22, id8, 248"},
        {0x8be300b00000ull, "call r23, 11"},
        {0x7ef32100000aull, "stop true, 10"},
    };
    for (size_t i = 0; i < sizeof boot / sizeof boot[0]; i++) {
        char txt[128];
        dpu_disasm_word(boot[i].w, txt, sizeof txt);
        assert_string_equal(txt, boot[i].txt);
    }
}

/* Any word the decoder accepts disassembles to text that assembles back to the same word
 * (100,000 pseudo-random 48-bit words, fixed seed; about a sixth are legal). */
static void test_random_words(void **state)
{
    (void)state;
    uint64_t x = 0x9e3779b97f4a7c15ull;
    int legal = 0, fails = 0;
    for (int i = 0; i < 100000; i++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        uint64_t w = x & 0xffffffffffffull, w2 = 0;
        char txt[256], err[256];
        if (dpu_disasm_word(w, txt, sizeof txt) < 0)
            continue;
        legal++;
        if (dpu_assemble_line(txt, NULL, &w2, err, sizeof err) < 0 || w2 != w) {
            if (fails++ < 10)
                print_message("%012llx '%s' -> %012llx %s\n", (unsigned long long)w, txt, (unsigned long long)w2, err);
        }
    }
    assert_int_equal(fails, 0);
    assert_true(legal > 1000);
}

static void test_illegal(void **state)
{
    (void)state;
    /* upper 16 bits set, and an unused major opcode pattern: no form matches */
    assert_int_equal(dpu_decode(0x1000000000000ull), -1);
    int unknown = 0;
    for (uint64_t top = 0; top < 0x10000; top++)
        if (dpu_decode_exec(top << 32) < 0)
            unknown++;
    assert_true(unknown > 0);
    char err[128];
    uint64_t w;
    assert_true(dpu_assemble_line("add r24, r1, r2", NULL, &w, err, sizeof err) < 0);
    assert_true(dpu_assemble_line("lsl r1, r2, 32", NULL, &w, err, sizeof err) < 0);
    assert_true(dpu_assemble_line("frobnicate r1", NULL, &w, err, sizeof err) < 0);
    assert_true(strstr(err, "unknown instruction") != NULL);
}

XPUSIM_TESTS(dpu_encoding,
             cmocka_unit_test(test_table_size),
             cmocka_unit_test(test_assemble_all),
             cmocka_unit_test(test_decode_all),
             cmocka_unit_test(test_disasm_roundtrip),
             cmocka_unit_test(test_bootstrap_words),
             cmocka_unit_test(test_random_words),
             cmocka_unit_test(test_illegal))
