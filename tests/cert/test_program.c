/* tests/cert/test_program.c: the CERT program loader (isa/cert/program.c) on ELFs our
 * assembler writes and on copies of them corrupted one field at a time. A good two-page
 * program becomes per-uC host buffers with the pages at page * 8192 and their headers
 * parsed; every corruption (page magic, page index, page length, a section name, a page
 * that is too big, a missing page, the OSABI, the ELF type) is refused with a message that
 * names the section, the page and the offset. A merged-page ELF (ABI 0x21: one section per uC
 * holding all its pages), built byte by byte, loads into the same host buffers. */
#include "../testlib.h"
#include <unistd.h>
#include "../../isa/cert/cert.h"

static const char *src =
    "START_JOB 0\n"
    "  WRITE_32 0x41A0634, 0x1\n"
    "END_JOB\n"
    ".eop\n"
    "START_JOB 1\n"
    "  NOP\n"
    "END_JOB\n"
    "EOF\n";

typedef struct elfbuf {
    uint8_t *b;
    size_t n;
    ld_image img;
} elfbuf;

/* Assemble src into a file and read it back. */
static void build(elfbuf *e)
{
    char dir[] = "/tmp/xpusim-cert-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char in[64], out[64], err[512] = "";
    snprintf(in, sizeof in, "%s/p.asm", dir);
    snprintf(out, sizeof out, "%s/p.elf", dir);
    FILE *f = fopen(in, "w");
    assert_non_null(f);
    fputs(src, f);
    fclose(f);
    const char *srcs[] = {in};
    if (cert_assemble(1, srcs, out, NULL, err, sizeof err))
        fail_msg("assemble: %s", err);
    f = fopen(out, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    e->n = (size_t)ftell(f);
    rewind(f);
    e->b = malloc(e->n);
    assert_int_equal(fread(e->b, 1, e->n, f), e->n);
    fclose(f);
    unlink(in);
    unlink(out);
    rmdir(dir);
    assert_int_equal(ld_parse("p.elf", e->b, e->n, LD_ELF, &e->img, err, sizeof err), 0);
}

/* Load a copy of e with byte at off replaced by v; return 0/-1 and the message. */
static int load_patched(const elfbuf *e, size_t off, const uint8_t *v, size_t len, char *err, size_t errlen)
{
    uint8_t *c = malloc(e->n);
    memcpy(c, e->b, e->n);
    memcpy(c + off, v, len);
    ld_image img;
    int rc = ld_parse("p.elf", c, e->n, LD_ELF, &img, err, errlen);
    free(c);
    if (rc)
        return rc;
    cert_program p;
    rc = cert_program_load(&img, CERT_SPEC_LATEST, &p, err, errlen);
    if (!rc)
        cert_program_free(&p);
    ld_free(&img);
    return rc;
}

static const ld_section *sec(const elfbuf *e, const char *name)
{
    const ld_section *s = ld_section_find(&e->img, name);
    if (!s)
        fail_msg("no section %s", name);
    return s;
}

static void test_good(void **state)
{
    (void)state;
    elfbuf e;
    build(&e);
    cert_program p;
    char err[512] = "";
    assert_int_equal(cert_probe_image(&e.img), 100);
    if (cert_program_load(&e.img, CERT_SPEC_2502, &p, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(p.nuc, 1);
    assert_true(p.target == CERT_T_AIE2PS || p.target == CERT_T_GROUP); /* the writer decides */
    assert_int_equal(p.uc[0].npages, 2);
    assert_int_equal(p.uc[0].len, 2 * CERT_PAGE_SIZE);
    /* page 1 starts at 8192 with its header: magic, index 1, and page 0 names its length */
    assert_int_equal(p.uc[0].hdr[1].index, 1);
    assert_int_equal(p.uc[0].buf[8192], 0xff);
    assert_int_equal(p.uc[0].buf[8192 + 2], 1);
    assert_int_equal(p.uc[0].hdr[0].next_len, p.uc[0].hdr[1].cur_len);
    assert_int_equal(p.uc[0].hdr[1].next_len, 0);
    /* the first instruction of page 1 (offset 16) is its START_JOB 1 */
    cert_insn in;
    assert_int_equal(cert_decode(p.uc[0].buf + 8192 + 16, 8, CERT_SPEC_2502, &in), 8);
    assert_string_equal(in.op->name, "START_JOB");
    assert_int_equal(cert_arg_value(&in, "job_id", 9), 1);
    cert_program_free(&p);
    ld_free(&e.img);
    free(e.b);
}

static void expect(const elfbuf *e, size_t off, const void *v, size_t len, const char *needle)
{
    char err[512] = "";
    assert_int_equal(load_patched(e, off, v, len, err, sizeof err), -1);
    if (!strstr(err, needle))
        fail_msg("expected '%s' in: %s", needle, err);
}

static void test_corrupt(void **state)
{
    (void)state;
    elfbuf e;
    build(&e);
    const ld_section *t1 = sec(&e, ".ctrltext.0.1");
    size_t base = (size_t)t1->offset;
    expect(&e, base, (uint8_t[]){0x12, 0x34}, 2, "section '.ctrltext.0.1': page 1 offset 0: page header magic 0x3412");
    expect(&e, base + 2, (uint8_t[]){7, 0}, 2, "page 1 offset 2: header names page 7");
    expect(&e, base + 8, (uint8_t[]){0x00, 0x40}, 2, "page 1 offset 8: page length 16384, expected 20..8192");
    /* the OSABI byte: not a CERT target */
    expect(&e, 7, (uint8_t[]){0x03}, 1, "offset 7: OSABI 0x03 is not a CERT target");
    /* ET_REL instead of ET_EXEC */
    expect(&e, 16, (uint8_t[]){1, 0}, 2, "e_type 1, expected 2 (ET_EXEC)");
    /* a section renamed: rewrite ".ctrltext.0.1" in the name table to ".ctrltext.0.x" */
    const ld_section *strs = sec(&e, ".shstrtab");
    const char *names = (const char *)strs->data;
    const char *at = memmem(names, strs->size, ".ctrltext.0.1", 14);
    assert_non_null(at);
    expect(&e, (size_t)strs->offset + (size_t)(at - names) + 12, "x", 1, "section '.ctrltext.0.x': malformed name");
    /* text of page 1 renamed page 3: the data of page 1 has no text any more */
    expect(&e, (size_t)strs->offset + (size_t)(at - names) + 12, "3", 1,
           "section '.ctrldata.0.1': data of uC 0 page 1 has no text section");
    ld_free(&e.img);
    free(e.b);
}

/* A merged-page ELF (ABI 0x21): one .ctrltext.<uc> section holding every page, 8192 bytes
 * each, built here byte by byte (ELF32 header, section headers, names): each page is a
 * header, START_JOB k (8 bytes, size 12), END_JOB, EOF. */
static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, v); put16(p + 2, v >> 16); }

static void test_merged(void **state)
{
    (void)state;
    static const char names[] = "\0.shstrtab\0.ctrltext.3";
    enum { NAMES = 64, TEXT = 128, NPAGES = 2, SHOFF = TEXT + NPAGES * 8192, SIZE = SHOFF + 3 * 40 };
    uint8_t *b = calloc(1, SIZE);
    assert_non_null(b);
    memcpy(b, "\x7f" "ELF", 4);
    b[4] = 1, b[5] = 1, b[6] = 1, b[7] = 0x40, b[8] = 0x21; /* ELF32 LE, OSABI aie2ps, ABI 0x21 */
    put16(b + 16, 2), put16(b + 18, 1), put32(b + 20, 1);     /* ET_EXEC, EM_M32, EV_CURRENT */
    put32(b + 32, SHOFF), put16(b + 40, 52), put16(b + 46, 40), put16(b + 48, 3), put16(b + 50, 1);
    memcpy(b + NAMES, names, sizeof names);
    for (uint32_t k = 0; k < NPAGES; k++) {
        uint8_t *pg = b + TEXT + k * 8192;
        put16(pg, 0xFFFF), put16(pg + 2, k), put16(pg + 8, 32), put16(pg + 10, k + 1 < NPAGES ? 32 : 0);
        pg[16] = 0x00, put16(pg + 18, k), put16(pg + 20, 12); /* START_JOB k, size 12 */
        pg[24] = 0x07;                                       /* END_JOB */
        pg[28] = 0xFF;                                       /* EOF */
    }
    uint8_t *sh = b + SHOFF + 40; /* [1] .shstrtab, [2] .ctrltext.3 */
    put32(sh, 1), put32(sh + 4, 3), put32(sh + 16, NAMES), put32(sh + 20, sizeof names), put32(sh + 32, 1);
    sh += 40;
    put32(sh, 11), put32(sh + 4, 1), put32(sh + 8, 6), put32(sh + 16, TEXT), put32(sh + 20, NPAGES * 8192);
    put32(sh + 32, 16);
    ld_image img;
    char err[512] = "";
    if (ld_parse("merged.elf", b, SIZE, LD_ELF, &img, err, sizeof err))
        fail_msg("%s", err);
    cert_program p;
    if (cert_program_load(&img, CERT_SPEC_LATEST, &p, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(p.merged, 1);
    assert_int_equal(p.abi_version, 0x21);
    assert_int_equal(p.nuc, 4);     /* uCs 0-2 absent, uC 3 present */
    assert_int_equal(p.uc[2].present, 0);
    assert_int_equal(p.uc[3].npages, 2);
    assert_int_equal(p.uc[3].hdr[1].index, 1);
    assert_int_equal(p.uc[3].hdr[0].next_len, 32);
    cert_insn in;
    assert_int_equal(cert_decode(p.uc[3].buf + 8192 + 16, 8, CERT_SPEC_LATEST, &in), 8);
    assert_int_equal(cert_arg_value(&in, "job_id", 9), 1);
    cert_program_free(&p);
    /* a merged section that is not a whole number of pages */
    ld_free(&img);
    put32(b + SHOFF + 80 + 20, NPAGES * 8192 - 4);
    assert_int_equal(ld_parse("merged.elf", b, SIZE, LD_ELF, &img, err, sizeof err), 0);
    assert_int_equal(cert_program_load(&img, CERT_SPEC_LATEST, &p, err, sizeof err), -1);
    if (!strstr(err, "section '.ctrltext.3': merged-page text of 16380 bytes: expected a non-zero multiple of 8192"))
        fail_msg("%s", err);
    ld_free(&img);
    free(b);
}

XPUSIM_TESTS(cert_program, cmocka_unit_test(test_good), cmocka_unit_test(test_corrupt), cmocka_unit_test(test_merged))
