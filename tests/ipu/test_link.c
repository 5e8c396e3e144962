/* tests/ipu/test_link.c: the IPU linker (isa/ipu/link.c, link_reloc.c) behind `xpusim asm --isa ipu a.o b.S
 * -o x.elf`. (1) Objects written by our own assembler, with every relocation type it emits
 * (8, 16, 20, 32, 64, 19_S2, RUN), linked alone and together, and mixed with a source, give
 * the same allocated sections, byte for byte, as assembling the sources in one invocation.
 * (2) Every type of the relocation table on a field whose other bits are all ones: objects are
 * assembled with `.word`/`.short` fields, then their RELA type is rewritten here (and the
 * field pre-filled with 0xff) so the types our assembler never emits (RELATIVE_16_S2, 18_S2,
 * 16_S3..S5, 21) are applied too; each expected word is derived by hand in a comment from the
 * formulas of LLVM's public Colossus resolver (docs/isa/ipu.md "Assembler"). (3) Errors:
 * overflow, misalignment, an address below the tile base, an undefined symbol, an unknown
 * type, a field past its section's end, a duplicate definition and a relocatable output. */
#include <unistd.h>
#include <elf.h>
#include "../testlib.h"
#include "../../core/opts.h"
#include "../../isa/ipu/asm.h"
#include "../../isa/ipu/link.h"

typedef struct tdir { char d[64]; } tdir;

static void tmp_init(tdir *t)
{
    snprintf(t->d, sizeof t->d, "/tmp/xpusim-linkt-XXXXXX");
    assert_non_null(mkdtemp(t->d));
}
static void tmp_done(tdir *t)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", t->d);
    assert_int_equal(system(cmd), 0);
}
static const char *tpath(const tdir *t, const char *name, char *buf)
{
    snprintf(buf, 200, "%s/%s", t->d, name);
    return buf;
}
static void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}
static uint8_t *get_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    uint8_t *b = malloc(1 << 20);
    assert_non_null(b);
    *len = fread(b, 1, 1 << 20, f);
    fclose(f);
    return b;
}

/* xpusim asm --isa ipu srcs... -o out (object: "1", "0" or NULL for the .o rule). */
static int run_asm(int n, const char *const *srcs, const char *out, const char *object, char *err)
{
    sim_opts o;
    opt_init(&o);
    if (object)
        opt_set(&o, "object", object);
    err[0] = 0;
    return ipu_assemble(n, srcs, out, &o, err, 600);
}

/* The section header called name in an ELF32 file image, or NULL. */
static Elf32_Shdr *find_sec(uint8_t *b, const char *name)
{
    Elf32_Ehdr eh;
    memcpy(&eh, b, sizeof eh);
    Elf32_Shdr *sh = (Elf32_Shdr *)(void *)(b + eh.e_shoff);
    const char *str = (const char *)b + sh[eh.e_shstrndx].sh_offset;
    for (int i = 0; i < eh.e_shnum; i++)
        if (!strcmp(str + sh[i].sh_name, name))
            return &sh[i];
    return NULL;
}

/* Every allocated section of an executable: name, address, size and contents, as one text. */
static char *image_text(const char *path)
{
    size_t len;
    uint8_t *b = get_file(path, &len);
    Elf32_Ehdr eh;
    memcpy(&eh, b, sizeof eh);
    assert_int_equal(eh.e_type, ET_EXEC);
    Elf32_Shdr *sh = (Elf32_Shdr *)(void *)(b + eh.e_shoff);
    const char *str = (const char *)b + sh[eh.e_shstrndx].sh_offset;
    char *t = calloc(1, 1 << 16);
    size_t n = 0;
    for (int i = 1; i < eh.e_shnum; i++) {
        if (!(sh[i].sh_flags & SHF_ALLOC) || !sh[i].sh_size)
            continue;
        n += (size_t)snprintf(t + n, 400, "%s@%x:", str + sh[i].sh_name, sh[i].sh_addr);
        for (uint32_t k = 0; k < sh[i].sh_size && sh[i].sh_type != SHT_NOBITS && n < 60000; k++)
            n += (size_t)snprintf(t + n, 4, "%02x", b[sh[i].sh_offset + k]);
        t[n++] = '\n';
    }
    free(b);
    return t;
}

/* Rewrite entry k of .rela<sec> in an object: its type (if type >= 0), its offset (if
 * off >= 0); and fill bytes [fill_off, fill_off + fill_n) of the section with 0xff. */
static void edit_obj(const char *path, const char *sec, int k, int type, int off, uint32_t fill_off, uint32_t fill_n)
{
    size_t len;
    uint8_t *b = get_file(path, &len);
    char rn[64];
    snprintf(rn, sizeof rn, ".rela%s", sec);
    Elf32_Shdr *rs = find_sec(b, rn), *ts = find_sec(b, sec);
    assert_non_null(rs);
    assert_non_null(ts);
    assert_true((uint32_t)(k + 1) * sizeof(Elf32_Rela) <= rs->sh_size);
    Elf32_Rela r;
    memcpy(&r, b + rs->sh_offset + (size_t)k * sizeof r, sizeof r);
    if (type >= 0)
        r.r_info = ELF32_R_INFO(ELF32_R_SYM(r.r_info), (uint32_t)type);
    if (off >= 0)
        r.r_offset = (uint32_t)off;
    memcpy(b + rs->sh_offset + (size_t)k * sizeof r, &r, sizeof r);
    memset(b + ts->sh_offset + fill_off, 0xff, fill_n);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fwrite(b, 1, len, f);
    fclose(f);
    free(b);
}

/* The relocation types of an object, as a bit set. */
static uint32_t rel_types(const char *path)
{
    size_t len;
    uint8_t *b = get_file(path, &len);
    Elf32_Ehdr eh;
    memcpy(&eh, b, sizeof eh);
    Elf32_Shdr *sh = (Elf32_Shdr *)(void *)(b + eh.e_shoff);
    uint32_t set = 0;
    for (int i = 0; i < eh.e_shnum; i++)
        for (uint32_t k = 0; sh[i].sh_type == SHT_RELA && k < sh[i].sh_size / sizeof(Elf32_Rela); k++) {
            Elf32_Rela r;
            memcpy(&r, b + sh[i].sh_offset + k * sizeof r, sizeof r);
            set |= 1u << ELF32_R_TYPE(r.r_info);
        }
    free(b);
    return set;
}

/* Two sources that reference each other with every type the assembler emits. */
static const char src_a[] =
    ".worker\n.globl wk\n.align 8\n"
    "wk: brz $m3, sv\n"                 /* R_COLOSSUS_19_S2 against sv (b.S) */
    " setzi $m0, sv\n"                  /* R_COLOSSUS_20 */
    " nop\n rpt $m0, cnt\n"             /* R_COLOSSUS_8 (cnt: b.S's absolute symbol) */
    " { nop ; fnop }\n { nop ; fnop }\n"
    "loc: brnz $m1, loc2\n"             /* 19_S2 against a local label: the section symbol + 0x18 */
    "loc2: exitz $m15\n"
    ".data\n.globl da\nda: .word sv, loc\n.short cnt\n.byte cnt\n.byte 7\n.quad d\n";
static const char src_b[] =
    ".section .text.sup,\"ax\"\n.supervisor\n.globl sv\n"
    "sv: run $m0, $m0, wk\n"            /* R_COLOSSUS_RUN */
    ".data\n.globl d\nd: .word wk+4, sv, da\n"
    ".globl cnt\n.equ cnt, 1\n";

static void test_objects_link_like_one_invocation(void **state)
{
    (void)state;
    tdir t;
    tmp_init(&t);
    char a[200], b[200], ao[200], bo[200], one[200], two[200], mix[200], err[600];
    tpath(&t, "a.S", a), tpath(&t, "b.S", b), tpath(&t, "a.o", ao), tpath(&t, "b.o", bo);
    tpath(&t, "one.elf", one), tpath(&t, "two.elf", two), tpath(&t, "mix.elf", mix);
    put_file(a, src_a);
    put_file(b, src_b);
    const char *ab[] = {a, b};
    if (run_asm(2, ab, one, NULL, err))
        fail_msg("one invocation: %s", err);
    assert_int_equal(run_asm(1, ab, ao, NULL, err), 0);
    assert_int_equal(run_asm(1, ab + 1, bo, NULL, err), 0);
    /* the objects carry every type the assembler emits */
    uint32_t emitted = (1u << R_COLOSSUS_8) | (1u << R_COLOSSUS_16) | (1u << R_COLOSSUS_20) | (1u << R_COLOSSUS_32) |
                       (1u << R_COLOSSUS_64) | (1u << R_COLOSSUS_19_S2) | (1u << R_COLOSSUS_RUN);
    assert_int_equal(rel_types(ao) | rel_types(bo), emitted);
    const char *objs[] = {ao, bo}, *mixed[] = {ao, b};
    if (run_asm(2, objs, two, NULL, err))
        fail_msg("a.o b.o: %s", err);
    if (run_asm(2, mixed, mix, NULL, err))
        fail_msg("a.o b.S: %s", err);
    char *i1 = image_text(one), *i2 = image_text(two), *i3 = image_text(mix);
    assert_string_equal(i1, i2);
    assert_string_equal(i1, i3);
    /* and the image is the one derived by hand: .text at the ipu2 base 0x4c000 holds 0x28
     * bytes (brz, setzi, nop, rpt, two bundles, brnz, exitz); .data follows at 0x4c028
     * (a.S's two words, a short, two bytes and a quad, 8 + 2 + 1 + 1 + 8 = 20 bytes, then
     * b.S's 12: 0x20), then .text.sup at 0x4c048; brz sv holds 0x4c048 >> 2 = 0x13012 in
     * bits 18..0 (brz $m3 is 0x13300000 | target, basic.S); run wk: (0x4c000 - 0x4c000) >> 2 = 0 */
    assert_non_null(strstr(i1, ".text@4c000:12303113"));
    assert_non_null(strstr(i1, ".data@4c028:"));
    assert_non_null(strstr(i1, ".text.sup@4c048:00000014"));
    free(i1), free(i2), free(i3);
    /* an object with only local references linked alone = its source assembled alone */
    char c[200], co[200], c1[200], c2[200];
    tpath(&t, "c.S", c), tpath(&t, "c.o", co), tpath(&t, "c1.elf", c1), tpath(&t, "c2.elf", c2);
    put_file(c, ".worker\nw: brz $m0, w2\n setzi $m1, dd\nw2: exitz $m15\n"
                ".section .text.sup,\"ax\"\n.supervisor\n run $m0, $m0, w\n"
                ".data\ndd: .word w2\n.short 5\n.byte 9, 1\n.quad dd+8\n");
    const char *cs[] = {c}, *cos[] = {co};
    assert_int_equal(run_asm(1, cs, co, NULL, err), 0);
    assert_int_equal(run_asm(1, cs, c1, NULL, err), 0);
    if (run_asm(1, cos, c2, NULL, err))
        fail_msg("c.o alone: %s", err);
    i1 = image_text(c1), i2 = image_text(c2);
    assert_string_equal(i1, i2);
    free(i1), free(i2);
    /* a code piece aligned past the end of the previous one: one invocation pads with a nop
     * (0x19e00000) at 0x4c004 before the exitz at 0x4c008; the linker fills the gap alike;
     * data gaps are zeros in both */
    char p[200], q[200], po[200], qo[200];
    tpath(&t, "p.S", p), tpath(&t, "q.S", q), tpath(&t, "p.o", po), tpath(&t, "q.o", qo);
    put_file(p, "setzi $m0, 1\n.data\n.byte 5\n");
    put_file(q, ".align 8\nexitz $m15\n.data\n.align 4\n.word 7\n");
    const char *pq[] = {p, q}, *pqo[] = {po, qo};
    assert_int_equal(run_asm(2, pq, c1, NULL, err), 0);
    assert_int_equal(run_asm(1, pq, po, NULL, err), 0);
    assert_int_equal(run_asm(1, pq + 1, qo, NULL, err), 0);
    if (run_asm(2, pqo, c2, NULL, err))
        fail_msg("p.o q.o: %s", err);
    i1 = image_text(c1), i2 = image_text(c2);
    assert_string_equal(i1, i2);
    assert_non_null(strstr(i1, "0000e019"));
    free(i1), free(i2);
    tmp_done(&t);
}

/* One object: .data at the ipu2 tile base 0x4c000 (the empty .text takes no room), fields
 * from offset 0x40 on, each `.word tgt+A` (a relocation against the .data section symbol,
 * S = 0x4c000, addend A) retyped and pre-filled with 0xff. */
static const char src_fields[] =
    ".data\n.align 32\ntgt: .space 64\n"
    ".word tgt+0x40\n"     /* 0x40 RELATIVE_16_S2 */
    ".word tgt+0x44\n"     /* 0x44 18_S2 */
    ".word tgt+0x20\n"     /* 0x48 16_S3 */
    ".word tgt+0x20\n"     /* 0x4c 16_S4 */
    ".word tgt+0x20\n"     /* 0x50 16_S5 */
    ".word tgt+0x12345\n"  /* 0x54 21 */
    ".word tgt+8\n"        /* 0x58 19_S2 */
    ".word tgt+1\n"        /* 0x5c 20 */
    ".word tgt+0x4004\n"   /* 0x60 RUN */
    ".word e8\n"           /* 0x64 8: e8 = 0xab, an absolute symbol of g.S */
    ".word e16\n"          /* 0x68 16: e16 = 0xbeef */
    ".word tgt+0x10\n"     /* 0x6c 32 */
    ".word tgt+0x10, 0\n"  /* 0x70 64 (two words) */
    ".word tgt+0x10\n";    /* 0x78 NONE */

static void test_every_type(void **state)
{
    (void)state;
    tdir t;
    tmp_init(&t);
    char s[200], o[200], x[200], err[600];
    tpath(&t, "f.S", s), tpath(&t, "f.o", o), tpath(&t, "f.elf", x);
    char g[200];
    put_file(s, src_fields);
    put_file(tpath(&t, "g.S", g), ".globl e8, e16\n.equ e8, 0xab\n.equ e16, 0xbeef\n");
    const char *ss[] = {s}, *os[] = {o, g};
    assert_int_equal(run_asm(1, ss, o, NULL, err), 0);
    static const int types[] = {R_COLOSSUS_RELATIVE_16_S2, R_COLOSSUS_18_S2, R_COLOSSUS_16_S3, R_COLOSSUS_16_S4,
                                R_COLOSSUS_16_S5, R_COLOSSUS_21, R_COLOSSUS_19_S2, R_COLOSSUS_20, R_COLOSSUS_RUN,
                                R_COLOSSUS_8, R_COLOSSUS_16, R_COLOSSUS_32, R_COLOSSUS_64, R_COLOSSUS_NONE};
    for (int k = 0; k < 14; k++)
        edit_obj(o, ".data", k, types[k], -1, 0x40 + 4u * (uint32_t)k + (k == 13 ? 4u : 0u), 4);
    edit_obj(o, ".data", 12, -1, -1, 0x74, 4); /* the 64-bit field's upper word */
    if (run_asm(2, os, x, NULL, err))
        fail_msg("link: %s", err);
    size_t len;
    uint8_t *b = get_file(x, &len);
    Elf32_Shdr *d = find_sec(b, ".data");
    assert_non_null(d);
    assert_int_equal(d->sh_addr, 0x4c000);
    uint32_t w[16];
    memcpy(w, b + d->sh_offset + 0x40, sizeof w);
    /* RELATIVE_16_S2: (0x4c040 - 0x4c000) >> 2 = 0x10 in the low half; the high half kept */
    assert_int_equal(w[0], 0xffff0010);
    /* 18_S2: 0x4c044 >> 2 = 0x13011 in bits 17..0; bits 31..18 kept: 0xfffc0000 | 0x13011 */
    assert_int_equal(w[1], 0xfffd3011);
    /* 16_S3: 0x4c020 >> 3 = 0x9804; 16_S4: >> 4 = 0x4c02; 16_S5: >> 5 = 0x2601 */
    assert_int_equal(w[2], 0xffff9804);
    assert_int_equal(w[3], 0xffff4c02);
    assert_int_equal(w[4], 0xffff2601);
    /* 21: 0x4c000 + 0x12345 = 0x5e345 in bits 20..0; 0xffe00000 | 0x5e345 */
    assert_int_equal(w[5], 0xffe5e345);
    /* 19_S2: 0x4c008 >> 2 = 0x13002 in bits 18..0; 0xfff80000 | 0x13002 */
    assert_int_equal(w[6], 0xfff93002);
    /* 20: 0x4c001 in bits 19..0 */
    assert_int_equal(w[7], 0xfff4c001);
    /* RUN: (0x50004 - 0x4c000) >> 2 = 0x1001: bits 11..0 = 0x001, bits 15..12 = 1 at 19..16;
     * the rest kept: 0xfff0f000 | 0x10000 | 0x001 */
    assert_int_equal(w[8], 0xfff1f001);
    /* 8: the low byte becomes 0xab, the other three stay 0xff */
    assert_int_equal(w[9], 0xffffffab);
    /* 16: the low half becomes 0xbeef */
    assert_int_equal(w[10], 0xffffbeef);
    /* 32: S + A = 0x4c000 + 0x10 */
    assert_int_equal(w[11], 0x0004c010);
    /* 64: 0x000000000004c010 over two words */
    assert_int_equal(w[12], 0x0004c010);
    assert_int_equal(w[13], 0);
    /* NONE: the field is left as it was (all ones) */
    assert_int_equal(w[14], 0xffffffff);
    free(b);
    tmp_done(&t);
}

/* Link f.o (src_fields) after retyping entry k to type and moving it to off (-1: keep); the
 * error must contain every string of want. */
static void expect_error(const char *src, int k, int type, int off, const char *const *want)
{
    tdir t;
    tmp_init(&t);
    char s[200], o[200], x[200], err[600];
    tpath(&t, "e.S", s), tpath(&t, "e.o", o), tpath(&t, "e.elf", x);
    put_file(s, src);
    const char *ss[] = {s}, *os[] = {o};
    assert_int_equal(run_asm(1, ss, o, NULL, err), 0);
    if (type >= 0 || off >= 0)
        edit_obj(o, ".data", k, type, off, 0, 0);
    if (run_asm(1, os, x, NULL, err) == 0)
        fail_msg("%s linked (type %d)", src, type);
    for (int i = 0; want[i]; i++)
        if (!strstr(err, want[i]))
            fail_msg("error '%s' lacks '%s'", err, want[i]);
    assert_int_not_equal(access(x, F_OK), 0); /* no image written */
    tmp_done(&t);
}

static void test_errors(void **state)
{
    (void)state;
    /* 16_S3 of 0x4c000 + 0x80000 = 0xcc000: >> 3 = 0x19800 needs 17 bits */
    expect_error(".data\nt: .word t+0x80000\n", 0, R_COLOSSUS_16_S3, -1,
                 (const char *[]){"e.o: section .data offset 0x0: R_COLOSSUS_16_S3", "0xcc000",
                                  "does not fit in 16 bits",
                                  NULL});
    /* 18_S2 of 0x4c006: not a multiple of 4 */
    expect_error(".data\n.word 0\nt: .word t+2\n", 0, R_COLOSSUS_18_S2, -1,
                 (const char *[]){"offset 0x4: R_COLOSSUS_18_S2", "0x4c006 is not a multiple of 4", NULL});
    /* 16_S5 of 0x4c010: not a multiple of 32 */
    expect_error(".data\nt: .word t+0x10\n", 0, R_COLOSSUS_16_S5, -1,
                 (const char *[]){"R_COLOSSUS_16_S5", "not a multiple of 32", NULL});
    /* RELATIVE_16_S2 of 0x4c000 - 4: below the tile memory base */
    expect_error(".data\nt: .word t-4\n", 0, R_COLOSSUS_RELATIVE_16_S2, -1,
                 (const char *[]){"R_COLOSSUS_RELATIVE_16_S2", "below the tile memory base 0x4c000", NULL});
    /* RUN of 0x4c000 + 0x40000: 0x10000 words from the base need 17 bits */
    expect_error(".data\nt: .word t+0x40000\n", 0, R_COLOSSUS_RUN, -1,
                 (const char *[]){"R_COLOSSUS_RUN", "does not fit in 16 bits", NULL});
    /* an 8-bit field with an address */
    expect_error(".data\nt: .byte 0\n.byte t\n", -1, -1, -1,
                 (const char *[]){"offset 0x1: R_COLOSSUS_8", "0x4c000 does not fit in 8 bits", NULL});
    /* the assembler's own 19_S2 from a branch, to an undefined symbol */
    expect_error("brz $m0, elsewhere\n.data\n.word 1\n", -1, -1, -1,
                 (const char *[]){"e.o: section .text offset 0x0: R_COLOSSUS_19_S2: undefined symbol 'elsewhere'",
                                  NULL});
    expect_error(".data\n.word nowhere\n", -1, -1, -1, (const char *[]){"undefined symbol 'nowhere'", NULL});
    expect_error(".data\nt: .word t\n", 0, 12, -1,
                 (const char *[]){"e.o: section .data offset 0x0: unknown relocation type 12", NULL});
    /* a 32-bit field at offset 6 of an 8-byte section ends at 10 */
    expect_error(".data\nt: .word t, 0\n", 0, -1, 6,
                 (const char *[]){"offset 0x6: R_COLOSSUS_32: the field (4 bytes) runs past the section's end "
                                  "(0x8 bytes)",
                                  NULL});
}

static void test_inputs(void **state)
{
    (void)state;
    tdir t;
    tmp_init(&t);
    char a[200], ao[200], b[200], bo[200], x[200], err[600];
    tpath(&t, "a.S", a), tpath(&t, "a.o", ao), tpath(&t, "b.S", b), tpath(&t, "b.o", bo);
    put_file(a, ".globl f\nf: exitz $m15\n");
    put_file(b, ".globl f\nf: exitz $m15\n");
    const char *as[] = {a}, *bs[] = {b};
    assert_int_equal(run_asm(1, as, ao, NULL, err), 0);
    assert_int_equal(run_asm(1, bs, bo, NULL, err), 0);
    const char *both[] = {ao, b};
    assert_int_not_equal(run_asm(2, both, tpath(&t, "x.elf", x), NULL, err), 0);
    assert_non_null(strstr(err, "symbol 'f' is already defined in"));
    assert_non_null(strstr(err, "b.S (assembled)"));
    /* objects are linked into an executable only */
    const char *one[] = {ao};
    assert_int_not_equal(run_asm(1, one, tpath(&t, "x.o", x), NULL, err), 0);
    assert_non_null(strstr(err, "partial link"));
    /* a weak definition gives way to a strong one; an executable is not an input */
    put_file(b, ".weak f\nf: nop\n exitz $m15\n");
    assert_int_equal(run_asm(1, bs, bo, NULL, err), 0);
    const char *wk[] = {bo, ao};
    if (run_asm(2, wk, tpath(&t, "w.elf", x), NULL, err))
        fail_msg("weak: %s", err);
    const char *ex[] = {x};
    assert_int_not_equal(run_asm(1, ex, tpath(&t, "y.elf", b), NULL, err), 0);
    assert_non_null(strstr(err, "not a relocatable object"));
    tmp_done(&t);
}

/* The table: one row per type of the reference, distinct numbers. */
static void test_table(void **state)
{
    (void)state;
    static const uint32_t ref[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 14, 15, 16, 17};
    assert_int_equal(ipu_reloc_nrows, 14);
    for (int i = 0; i < 14; i++) {
        const ipu_reloc_row *r = ipu_reloc_find(ref[i]);
        assert_non_null(r);
        assert_int_equal(r->type, ref[i]);
    }
    for (uint32_t ty = 10; ty < 14; ty++)
        assert_null(ipu_reloc_find(ty));
    assert_null(ipu_reloc_find(18));
}

XPUSIM_TESTS(ipu_link, cmocka_unit_test(test_table), cmocka_unit_test(test_objects_link_like_one_invocation),
             cmocka_unit_test(test_every_type), cmocka_unit_test(test_errors), cmocka_unit_test(test_inputs))
