/* tests/dpu/test_overlap.c: Spike-style overlap test of the DPU instruction table, on words.
 * The DPU's 1,080 forms overlap by masks on purpose (a narrower form is carved out of a
 * wider one by fixed bits, register ranges and condition classes), so two forms sharing a
 * mask pattern is not an error; what would be is a word that two execution forms claim
 * equally, because then the table's order, not the ISA, decides what runs. For every word
 * the decoder sees, the forms that match it must be ordered by specificity: the most
 * specific (most fixed bits) is unique, and every other match fixes a strict subset of its
 * bits (a true specialisation, as Spike's encoding database requires). Words: the 4,320
 * SDK-encoder vectors (an independent source) and 400,000 pseudo-random 48-bit words from a
 * fixed seed (a xorshift generator: the same words on every run).
 *
 * One overlap is in the SDK's encodings themselves: an `add`/`adds` "ssi" word whose
 * immediate has the bit pattern of the "sss" form's fixed bits (immediate 12, 44, 76, ...)
 * is bit for bit an "sss" word. The decoder runs the more specific "sss"; the assembler
 * refuses such an immediate (test_assembler_refuses_clash) instead of emitting a word that
 * runs as another instruction, which it did before this test existed. That pair is the
 * only one allowed to clash, and only with "sss" winning. */
#include "../testlib.h"
#include "../../isa/dpu/dpu.h"

typedef struct vec { const char *text; uint64_t word; } vec;
static const vec vecs[] = {
#include "vectors.inc"
};
#define NVEC (sizeof vecs / sizeof vecs[0])

/* 0 if the execution forms matching w are properly nested; else describe the clash. */
static int check_word(uint64_t w, char *why, size_t n)
{
    int match[DPU_NFORMS], nm = 0, best = -1, bestbits = -1, ties = 0;
    for (int i = 0; i < DPU_NFORMS; i++) {
        if ((dpu_form_at(i)->flags & DPU_F_ALIAS) || !dpu_form_matches(i, w))
            continue;
        match[nm++] = i;
        int bits = __builtin_popcountll(dpu_form_fixed(i));
        if (bits > bestbits) {
            best = i;
            bestbits = bits;
            ties = 0;
        } else if (bits == bestbits)
            ties++;
    }
    if (best < 0)
        return 0; /* an illegal word: nothing claims it */
    if (ties) {
        snprintf(why, n, "word %012llx: %d execution forms tie with %d fixed bits (first %s %s)",
                 (unsigned long long)w, ties + 1, bestbits, dpu_form_at(best)->mnem, dpu_form_at(best)->form);
        return -1;
    }
    uint64_t fb = dpu_form_fixed(best);
    for (int k = 0; k < nm; k++) {
        uint64_t f = dpu_form_fixed(match[k]);
        const dpu_form *a = dpu_form_at(best), *b = dpu_form_at(match[k]);
        int sdk_clash = !strcmp(a->form, "sss") && !strcmp(b->form, "ssi") && !strcmp(a->mnem, b->mnem);
        if (match[k] != best && (f & ~fb) && !sdk_clash) {
            snprintf(why, n, "word %012llx: %s %s and %s %s both match, neither specialises the other",
                     (unsigned long long)w, dpu_form_at(best)->mnem, dpu_form_at(best)->form,
                     dpu_form_at(match[k])->mnem, dpu_form_at(match[k])->form);
            return -1;
        }
    }
    /* an alias must run as a form that also matches the word */
    int shown = dpu_decode(w);
    if (shown >= 0 && dpu_form_at(shown)->exec != best && shown != best) {
        snprintf(why, n, "word %012llx: shown as %s %s, which runs as form %d, but form %d decodes",
                 (unsigned long long)w, dpu_form_at(shown)->mnem, dpu_form_at(shown)->form, dpu_form_at(shown)->exec,
                 best);
        return -1;
    }
    return 0;
}

static void test_vector_words(void **state)
{
    (void)state;
    int bad = 0;
    char why[300];
    for (size_t i = 0; i < NVEC; i++)
        if (check_word(vecs[i].word, why, sizeof why) && bad++ < 10)
            print_message("%s (%s)\n", why, vecs[i].text);
    assert_int_equal(bad, 0);
}

static void test_random_words(void **state)
{
    (void)state;
    uint64_t x = 0x9e3779b97f4a7c15ull;
    int bad = 0, decoded = 0;
    char why[300];
    for (int i = 0; i < 400000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        uint64_t w = x & 0xffffffffffffull;
        if (dpu_decode_exec(w) >= 0)
            decoded++;
        if (check_word(w, why, sizeof why) && bad++ < 10)
            print_message("%s\n", why);
    }
    assert_int_equal(bad, 0);
    assert_true(decoded > 1000); /* the sample reaches real instructions, not only illegal words */
}

static void test_assembler_refuses_clash(void **state)
{
    (void)state;
    uint64_t w;
    char err[300];
    /* before: 2f8710c00000, which runs (and disassembles) as `adds r23, zero, r1` */
    assert_int_equal(dpu_assemble_line("adds r23, r1, 12", NULL, &w, err, sizeof err), -1);
    assert_non_null(strstr(err, "would run as add sss"));
    /* neighbours without the pattern still assemble, and run as written */
    assert_true(dpu_assemble_line("adds r23, r1, 13", NULL, &w, err, sizeof err) >= 0);
    assert_int_equal(dpu_form_at(dpu_decode_exec(w))->exec, dpu_decode_exec(w));
    assert_string_equal(dpu_form_at(dpu_decode_exec(w))->form, "ssi");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_assembler_refuses_clash),
        cmocka_unit_test(test_vector_words),
        cmocka_unit_test(test_random_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
