/* tests/unit/test_asm_data.c: the shared data and alignment directives (core/asm/data.c)
 * under the two rule sets in use: the DPU's (`.align N` = 2^N, values cut to their width)
 * and Nyuzi's (`.align N` = N bytes, values must fit). Expected bytes are little-endian
 * encodings worked by hand; 1.5f is 0x3fc00000 (sign 0, exponent 127, mantissa 0.5). */
#include "../testlib.h"
#include "../../core/asm/data.h"

static const asm_data_rules dpu = {1, 4096, 1u << 26, 0, 0, {0}};
static const asm_data_rules nyz = {0, 65536, 1u << 28, 1, 0x7fffffffu, {[4] = 1 /* R_NYUZI_ABS32 */}};

/* Pass 1 values: "sym" is 0x1234; anything else is a constant expression. */
static int val(void *ctx, const char *text, int64_t *v, char *err, size_t errlen)
{
    (void)ctx;
    if (!strcmp(text, "sym")) { *v = 0x1234; return 0; }
    asm_expr_result r;
    if (asm_expr_eval(text, NULL, NULL, NULL, &r, err, errlen))
        return -1;
    if (r.unresolved) {
        snprintf(err, errlen, "undefined symbol '%s'", r.first_unresolved);
        return -1;
    }
    *v = r.value;
    return 0;
}

/* Pass 2 values: as val, and "ext" (plus a constant) is relocatable, base 7. */
static int val2(void *ctx, const char *text, int64_t *v, int *base, char *err, size_t errlen)
{
    *base = 0;
    if (!strncmp(text, "ext", 3)) {
        *base = 7;
        *v = text[3] == '+' ? strtoll(text + 4, NULL, 0) : 0;
        return 0;
    }
    return val(ctx, text, v, err, errlen);
}

static void test_values(void **state)
{
    (void)state;
    asm_data d;
    char err[200];
    uint8_t out[32];
    assert_int_equal(asm_data_size(&nyz, ".short", "1, sym, -2", val, NULL, &d, err, sizeof err), 0);
    assert_int_equal(d.kind, ASM_DATA_VALUES);
    assert_int_equal(d.size, 6);
    assert_int_equal(asm_data_emit(&nyz, &d, "1, sym, -2", d.size, val2, NULL, NULL, out, err, sizeof err), 0);
    assert_memory_equal(out, "\x01\x00\x34\x12\xfe\xff", 6);
    /* Nyuzi refuses 0x12345 in two bytes; the DPU keeps the low 16 bits (R_DPU_16) */
    assert_int_equal(asm_data_size(&nyz, ".2byte", "0x12345", val, NULL, &d, err, sizeof err), 0);
    assert_int_equal(asm_data_emit(&nyz, &d, "0x12345", 2, val2, NULL, NULL, out, err, sizeof err), -1);
    assert_string_equal(err, "value 74565 does not fit in 2 byte(s)");
    assert_int_equal(asm_data_emit(&dpu, &d, "0x12345", 2, val2, NULL, NULL, out, err, sizeof err), 0);
    assert_memory_equal(out, "\x45\x23", 2);
    assert_int_equal(asm_data_size(&nyz, ".float", "1.5, nan", val, NULL, &d, err, sizeof err), 0);
    assert_int_equal(d.size, 8);
    assert_int_equal(asm_data_emit(&nyz, &d, "1.5, nan", 8, val2, NULL, NULL, out, err, sizeof err), 0);
    assert_memory_equal(out, "\x00\x00\xc0\x3f\xff\xff\xff\x7f", 8);
    assert_int_equal(asm_data_emit(&nyz, &d, "1.5x, 2", 8, val2, NULL, NULL, out, err, sizeof err), -1);
    assert_string_equal(err, "bad floating-point number '1.5x'");
    assert_int_equal(asm_data_size(&nyz, ".byte", "", val, NULL, &d, err, sizeof err), 0);
    assert_int_equal(d.size, 0);                 /* GNU as: no operands, no bytes */
    assert_int_equal(asm_data_size(&nyz, ".nosuch", "", val, NULL, &d, err, sizeof err), 1);
}

/* Object files: a relocatable value leaves 0 in its field and a RELA record behind (addend
 * the constant part); a width without a relocation type, or no site (a linked image), is an
 * error that names the value. */
static void test_relocations(void **state)
{
    (void)state;
    asm_data d;
    char err[200];
    uint8_t out[16];
    asm_relocs rl = {0};
    asm_reloc_site site = {&rl, 2, 0x40};
    assert_int_equal(asm_data_size(&nyz, ".long", "5, ext+12, ext", val, NULL, &d, err, sizeof err), 0);
    assert_int_equal(asm_data_emit(&nyz, &d, "5, ext+12, ext", 12, val2, NULL, &site, out, err, sizeof err), 0);
    assert_memory_equal(out, "\x05\0\0\0\0\0\0\0\0\0\0\0", 12);
    assert_int_equal(rl.n, 2);
    assert_int_equal(rl.v[0].sec, 2);
    assert_int_equal(rl.v[0].off, 0x44);
    assert_int_equal(rl.v[0].type, 1);
    assert_int_equal(rl.v[0].base, 7);
    assert_int_equal(rl.v[0].addend, 12);
    assert_int_equal(rl.v[1].off, 0x48);
    assert_int_equal(rl.v[1].addend, 0);
    assert_int_equal(asm_data_size(&nyz, ".short", "ext", val, NULL, &d, err, sizeof err), 0);
    assert_int_equal(asm_data_emit(&nyz, &d, "ext", 2, val2, NULL, &site, out, err, sizeof err), -1);
    assert_string_equal(err, "'ext' needs a relocation, and there is none for a 2-byte value");
    assert_int_equal(asm_data_size(&nyz, ".long", "ext", val, NULL, &d, err, sizeof err), 0);
    assert_int_equal(asm_data_emit(&nyz, &d, "ext", 4, val2, NULL, NULL, out, err, sizeof err), -1);
    assert_int_equal(rl.n, 2);
    asm_relocs_free(&rl);
}

static void test_strings_and_fills(void **state)
{
    (void)state;
    asm_data d;
    char err[200];
    uint8_t out[32];
    assert_int_equal(asm_data_size(&dpu, ".asciz", "\"hi\", \"x\"", val, NULL, &d, err, sizeof err), 0);
    assert_int_equal(d.size, 5);
    assert_int_equal(asm_data_emit(&dpu, &d, "\"hi\", \"x\"", 5, val2, NULL, NULL, out, err, sizeof err), 0);
    assert_memory_equal(out, "hi\0x\0", 5);
    assert_int_equal(asm_data_size(&dpu, ".zero", "3, 0x1ab", val, NULL, &d, err, sizeof err), 0);
    assert_int_equal(d.size, 3);
    assert_int_equal(asm_data_emit(&dpu, &d, "3, 0x1ab", 3, val2, NULL, NULL, out, err, sizeof err), 0);
    assert_memory_equal(out, "\xab\xab\xab", 3);  /* the fill's low byte */
    assert_int_equal(asm_data_size(&dpu, ".space", "1 << 27", val, NULL, &d, err, sizeof err), -1);
    assert_string_equal(err, ".space 134217728: the size must be 0..67108864");
    assert_int_equal(asm_data_size(&dpu, ".zero", "1, 2, 3", val, NULL, &d, err, sizeof err), -1);
    assert_string_equal(err, ".zero takes at most 2 operands");
}

static void test_alignment(void **state)
{
    (void)state;
    asm_data d;
    char err[200];
    /* `.align 3`: 8 bytes on the DPU, 3 bytes (not a power of two) on Nyuzi */
    assert_int_equal(asm_data_size(&dpu, ".align", "3", val, NULL, &d, err, sizeof err), 0);
    assert_int_equal(d.align, 8);
    assert_int_equal(asm_data_pad(&d, 13), 3);
    assert_int_equal(asm_data_pad(&d, 16), 0);
    assert_int_equal(asm_data_size(&nyz, ".align", "3", val, NULL, &d, err, sizeof err), -1);
    assert_string_equal(err, ".align 3: the alignment must be a power of two up to 65536 bytes");
    assert_int_equal(asm_data_size(&nyz, ".p2align", "17", val, NULL, &d, err, sizeof err), -1);
    assert_string_equal(err, ".p2align 17: expected 0..16 (alignment up to 65536 bytes)");
    /* .balign 16, 0xff, 4: pad with 0xff, but not when more than 4 bytes are needed */
    assert_int_equal(asm_data_size(&nyz, ".balign", "16, 0xff, 4", val, NULL, &d, err, sizeof err), 0);
    assert_int_equal(d.fill, 0xff);
    assert_int_equal(asm_data_pad(&d, 13), 3);
    assert_int_equal(asm_data_pad(&d, 4), 0);
    assert_int_equal(asm_data_size(&nyz, ".balign", "0", val, NULL, &d, err, sizeof err), 0);
    assert_int_equal(d.align, 1);                /* LLVM MC: 0 means 1 */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_relocations),
        cmocka_unit_test(test_strings_and_fills),
        cmocka_unit_test(test_alignment),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
