/* tests/loaders/test_elf.c: the ELF loader (loaders/elf.c) on images built in memory here,
 * field by field with the <elf.h> struct layouts (offsetof), in both classes and byte
 * orders. Valid images check segments, sections by name and symbols; malformed variants
 * (every truncation length, bad class/encoding, tables and ranges past the end of the file,
 * filesz > memsz, random corruption) must give -1 and "FILE: problem", never a crash (the
 * ASan/UBSan build runs the same suite). Nothing binary is committed. */
#include "../testlib.h"
#include <elf.h>
#include <unistd.h>
#include "../../loaders/loader.h"

/* ---- image builder ---- */

typedef struct elfb {
    int is64, be;
    uint8_t buf[2048];
    size_t size;
    size_t phoff, shoff, symoff, stroff, shstroff;
    size_t ehsize, phent, shent, syment;
} elfb;

static void put(uint8_t *p, size_t n, uint64_t v, int be)
{
    for (size_t i = 0; i < n; i++)
        p[be ? n - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get(const uint8_t *p, size_t n, int be)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
        v |= (uint64_t)p[be ? n - 1 - i : i] << (8 * i);
    return v;
}

#define FSIZE(T, f) sizeof(((T *)0)->f)
/* write field f of a struct (Elf32_X or Elf64_X by class) at byte offset base */
#define SETF(b, base, T32, T64, f, v)                                                          \
    ((b)->is64 ? put((b)->buf + (base) + offsetof(T64, f), FSIZE(T64, f), (uint64_t)(v), (b)->be) \
               : put((b)->buf + (base) + offsetof(T32, f), FSIZE(T32, f), (uint64_t)(v), (b)->be))
#define EH(b, f, v) SETF(b, 0, Elf32_Ehdr, Elf64_Ehdr, f, v)
#define PH(b, i, f, v) SETF(b, (b)->phoff + (size_t)(i) * (b)->phent, Elf32_Phdr, Elf64_Phdr, f, v)
#define SH(b, i, f, v) SETF(b, (b)->shoff + (size_t)(i) * (b)->shent, Elf32_Shdr, Elf64_Shdr, f, v)
#define SYM(b, i, f, v) SETF(b, (b)->symoff + (size_t)(i) * (b)->syment, Elf32_Sym, Elf64_Sym, f, v)

static const uint8_t text_bytes[16] = {0x13, 0x05, 0x10, 0x00, 0x93, 0x05, 0x20, 0x00,
                                       0x73, 0x00, 0x10, 0x00, 0x6f, 0x00, 0x00, 0x00};
static const uint8_t data_bytes[8] = {1, 2, 3, 4, 5, 6, 7, 8};
static const char strtab[] = "\0dup\0local_lbl\0_start\0buf"; /* offsets 1, 5, 15, 22 */
static const char shstrtab[] = "\0.text\0.data\0.bss\0.symtab\0.strtab\0.shstrtab"; /* 1 7 13 18 26 34 */
#define NSYM 6
#define NSEC 7
#define MACHINE 0x1234
#define EFLAGS 0x5

/* Layout: ehdr | 2 phdrs | .text @0x100 (16) | .data @0x110 (8) | .symtab @0x118 |
 * .strtab | .shstrtab | section headers (8-aligned). */
static void build(elfb *b, int is64, int be)
{
    memset(b, 0, sizeof *b);
    b->is64 = is64;
    b->be = be;
    b->ehsize = is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
    b->phent = is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
    b->shent = is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
    b->syment = is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
    b->phoff = b->ehsize;
    memcpy(b->buf + 0x100, text_bytes, 16);
    memcpy(b->buf + 0x110, data_bytes, 8);
    b->symoff = 0x118;
    b->stroff = b->symoff + NSYM * b->syment;
    memcpy(b->buf + b->stroff, strtab, sizeof strtab);
    b->shstroff = b->stroff + sizeof strtab;
    memcpy(b->buf + b->shstroff, shstrtab, sizeof shstrtab);
    b->shoff = (b->shstroff + sizeof shstrtab + 7) & ~(size_t)7;
    b->size = b->shoff + NSEC * b->shent;

    uint8_t *id = b->buf;
    memcpy(id, ELFMAG, SELFMAG);
    id[EI_CLASS] = is64 ? ELFCLASS64 : ELFCLASS32;
    id[EI_DATA] = be ? ELFDATA2MSB : ELFDATA2LSB;
    id[EI_VERSION] = EV_CURRENT;
    EH(b, e_type, ET_EXEC);
    EH(b, e_machine, MACHINE);
    EH(b, e_version, EV_CURRENT);
    EH(b, e_entry, 0x1000);
    EH(b, e_phoff, b->phoff);
    EH(b, e_shoff, b->shoff);
    EH(b, e_flags, EFLAGS);
    EH(b, e_ehsize, b->ehsize);
    EH(b, e_phentsize, b->phent);
    EH(b, e_phnum, 2);
    EH(b, e_shentsize, b->shent);
    EH(b, e_shnum, NSEC);
    EH(b, e_shstrndx, 6);

    PH(b, 0, p_type, PT_LOAD);
    PH(b, 0, p_offset, 0x100);
    PH(b, 0, p_vaddr, 0x1000);
    PH(b, 0, p_paddr, 0x1000);
    PH(b, 0, p_filesz, 16);
    PH(b, 0, p_memsz, 16);
    PH(b, 0, p_flags, PF_R | PF_X);
    PH(b, 0, p_align, 4);
    PH(b, 1, p_type, PT_LOAD);
    PH(b, 1, p_offset, 0x110);
    PH(b, 1, p_vaddr, 0x2000);
    PH(b, 1, p_paddr, 0x80002000u);
    PH(b, 1, p_filesz, 8);
    PH(b, 1, p_memsz, 72);
    PH(b, 1, p_flags, PF_R | PF_W);
    PH(b, 1, p_align, 4);

    /* symbols: locals first (ELF rule), sh_info = index of the first global */
    struct { uint32_t name; uint64_t value, size; int type, bind, shndx; } syms[NSYM] = {
        {0, 0, 0, 0, 0, 0},
        {1, 0x1004, 0, STT_NOTYPE, STB_LOCAL, 1},   /* dup (local) */
        {5, 0x1008, 0, STT_NOTYPE, STB_LOCAL, 1},   /* local_lbl */
        {15, 0x1000, 16, STT_FUNC, STB_GLOBAL, 1},  /* _start */
        {1, 0x2000, 8, STT_OBJECT, STB_GLOBAL, 2},  /* dup (global) */
        {22, 0x2008, 64, STT_OBJECT, STB_GLOBAL, 3} /* buf */
    };
    for (int i = 0; i < NSYM; i++) {
        SYM(b, i, st_name, syms[i].name);
        SYM(b, i, st_value, syms[i].value);
        SYM(b, i, st_size, syms[i].size);
        SYM(b, i, st_info, (syms[i].bind << 4) | syms[i].type);
        SYM(b, i, st_shndx, syms[i].shndx);
    }

    struct { uint32_t name, type; uint64_t flags, addr, off, size; uint32_t link, info; uint64_t align, entsize; } sh[NSEC] = {
        {0, SHT_NULL, 0, 0, 0, 0, 0, 0, 0, 0},
        {1, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0x1000, 0x100, 16, 0, 0, 4, 0},
        {7, SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 0x2000, 0x110, 8, 0, 0, 4, 0},
        {13, SHT_NOBITS, SHF_ALLOC | SHF_WRITE, 0x2008, 0x118, 64, 0, 0, 4, 0},
        {18, SHT_SYMTAB, 0, 0, b->symoff, NSYM * b->syment, 5, 3, 4, b->syment},
        {26, SHT_STRTAB, 0, 0, b->stroff, sizeof strtab, 0, 0, 1, 0},
        {34, SHT_STRTAB, 0, 0, b->shstroff, sizeof shstrtab, 0, 0, 1, 0},
    };
    for (int i = 0; i < NSEC; i++) {
        SH(b, i, sh_name, sh[i].name);
        SH(b, i, sh_type, sh[i].type);
        SH(b, i, sh_flags, sh[i].flags);
        SH(b, i, sh_addr, sh[i].addr);
        SH(b, i, sh_offset, sh[i].off);
        SH(b, i, sh_size, sh[i].size);
        SH(b, i, sh_link, sh[i].link);
        SH(b, i, sh_info, sh[i].info);
        SH(b, i, sh_addralign, sh[i].align);
        SH(b, i, sh_entsize, sh[i].entsize);
    }
}

/* err must read "NAME: ..." */
static void assert_names_file(const char *err, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(err, name, n) != 0 || err[n] != ':' || strlen(err) < n + 5)
        fail_msg("error message does not start with \"%s:\" and a reason: \"%s\"", name, err);
}

/* Whatever a successful parse returns must point inside the file. */
static void assert_image_sane(const ld_image *img)
{
    for (int i = 0; i < img->nsegs; i++) {
        const ld_segment *s = &img->segs[i];
        assert_true(s->offset <= img->file_size && s->filesz <= img->file_size - s->offset);
        assert_ptr_equal(s->data, img->file + s->offset);
        assert_true(s->filesz <= s->memsz);
    }
    for (int i = 0; i < img->nsecs; i++) {
        const ld_section *s = &img->secs[i];
        assert_non_null(s->name);
        (void)strlen(s->name);
        if (s->data) {
            assert_true(s->offset <= img->file_size && s->size <= img->file_size - s->offset);
            assert_ptr_equal(s->data, img->file + s->offset);
        }
    }
    for (int i = 0; i < img->nsyms; i++) {
        assert_non_null(img->syms[i].name);
        (void)strlen(img->syms[i].name);
    }
}

static void check_valid(int is64, int be)
{
    elfb b;
    ld_image img;
    char err[512] = "";
    build(&b, is64, be);
    int rc = ld_parse("good.elf", b.buf, b.size, LD_NONE, &img, err, sizeof err);
    if (rc)
        fail_msg("valid ELF%d %s rejected: %s", is64 ? 64 : 32, be ? "BE" : "LE", err);
    assert_int_equal(img.fmt, LD_ELF);
    assert_int_equal(img.elfclass, is64 ? 2 : 1);
    assert_int_equal(img.big_endian, be);
    assert_int_equal(img.machine, MACHINE);
    assert_int_equal(img.eflags, EFLAGS);
    assert_int_equal(img.entry, 0x1000);
    assert_int_equal(img.file_size, b.size);
    assert_image_sane(&img);
    /* segments */
    assert_int_equal(img.nsegs, 2);
    assert_int_equal(img.segs[0].vaddr, 0x1000);
    assert_int_equal(img.segs[0].paddr, 0x1000);
    assert_int_equal(img.segs[0].filesz, 16);
    assert_int_equal(img.segs[0].memsz, 16);
    assert_int_equal(img.segs[0].flags, PF_R | PF_X);
    assert_int_equal(img.segs[0].type, PT_LOAD);
    assert_memory_equal(img.segs[0].data, text_bytes, 16);
    assert_int_equal(img.segs[1].vaddr, 0x2000);
    assert_int_equal(img.segs[1].paddr, 0x80002000u);
    assert_int_equal(img.segs[1].filesz, 8);
    assert_int_equal(img.segs[1].memsz, 72);
    assert_int_equal(img.segs[1].flags, PF_R | PF_W);
    assert_memory_equal(img.segs[1].data, data_bytes, 8);
    /* sections: the 6 real ones (index 0 is the null section) */
    assert_int_equal(img.nsecs, 6);
    const ld_section *t = ld_section_find(&img, ".text");
    assert_non_null(t);
    assert_int_equal(t->addr, 0x1000);
    assert_int_equal(t->size, 16);
    assert_int_equal(t->type, SHT_PROGBITS);
    assert_int_equal(t->flags, SHF_ALLOC | SHF_EXECINSTR);
    assert_memory_equal(t->data, text_bytes, 16);
    const ld_section *d = ld_section_find(&img, ".data");
    assert_non_null(d);
    assert_memory_equal(d->data, data_bytes, 8);
    const ld_section *bss = ld_section_find(&img, ".bss");
    assert_non_null(bss);
    assert_null(bss->data);
    assert_int_equal(bss->size, 64);
    assert_int_equal(bss->type, SHT_NOBITS);
    assert_non_null(ld_section_find(&img, ".symtab"));
    assert_non_null(ld_section_find(&img, ".shstrtab"));
    assert_null(ld_section_find(&img, ".rodata"));
    assert_null(ld_section_find(&img, ""));
    /* symbols: the 5 named ones */
    assert_int_equal(img.nsyms, 5);
    const ld_symbol *s = ld_symbol_find(&img, "_start");
    assert_non_null(s);
    assert_int_equal(s->value, 0x1000);
    assert_int_equal(s->size, 16);
    assert_int_equal(s->type, STT_FUNC);
    assert_int_equal(s->bind, STB_GLOBAL);
    assert_int_equal(s->shndx, 1);
    s = ld_symbol_find(&img, "dup"); /* the global wins over the local of the same name */
    assert_non_null(s);
    assert_int_equal(s->value, 0x2000);
    s = ld_symbol_find(&img, "local_lbl");
    assert_non_null(s);
    assert_int_equal(s->bind, STB_LOCAL);
    assert_null(ld_symbol_find(&img, "nosuch"));
    /* nearest symbol at or below an address: 0x100c -> local_lbl (0x1008) + 4;
     * 0x1004 -> dup (local, 0x1004) + 0; 0x2010 -> buf (0x2008) + 8; below all -> none */
    uint64_t off = 99;
    s = ld_symbol_at(&img, 0x100c, &off);
    assert_non_null(s);
    assert_string_equal(s->name, "local_lbl");
    assert_int_equal(off, 4);
    s = ld_symbol_at(&img, 0x1004, &off);
    assert_non_null(s);
    assert_int_equal(s->value, 0x1004);
    assert_int_equal(off, 0);
    s = ld_symbol_at(&img, 0x2010, &off);
    assert_non_null(s);
    assert_string_equal(s->name, "buf");
    assert_int_equal(off, 8);
    assert_null(ld_symbol_at(&img, 0xfff, &off));
    /* the image owns its copy: the source buffer can change */
    memset(b.buf, 0, sizeof b.buf);
    assert_memory_equal(ld_section_find(&img, ".text")->data, text_bytes, 16);
    assert_string_equal(ld_symbol_find(&img, "buf")->name, "buf");
    ld_free(&img);
    assert_null(img.segs);
    assert_int_equal(img.nsyms, 0);
    assert_string_equal(img.path, "good.elf");
}

static void test_valid_elf32_le(void **state) { (void)state; check_valid(0, 0); }
static void test_valid_elf32_be(void **state) { (void)state; check_valid(0, 1); }
static void test_valid_elf64_le(void **state) { (void)state; check_valid(1, 0); }
static void test_valid_elf64_be(void **state) { (void)state; check_valid(1, 1); }

/* Parse a (modified) image; it must fail naming the file and containing `what`. */
static void expect_fail(const elfb *b, size_t len, const char *what)
{
    ld_image img;
    char err[512] = "";
    int rc = ld_parse("bad.elf", b->buf, len, LD_ELF, &img, err, sizeof err);
    if (rc != -1)
        fail_msg("malformed ELF%d accepted (expected an error about \"%s\")", b->is64 ? 64 : 32, what);
    assert_names_file(err, "bad.elf");
    if (what && !strstr(err, what))
        fail_msg("error \"%s\" does not mention \"%s\"", err, what);
    /* a failed parse leaves nothing allocated behind */
    assert_null(img.file);
    assert_null(img.segs);
    assert_null(img.secs);
}

static void each_variant(void (*fn)(int is64, int be))
{
    for (int is64 = 0; is64 < 2; is64++)
        for (int be = 0; be < 2; be++)
            fn(is64, be);
}

static void truncations(int is64, int be)
{
    elfb b;
    build(&b, is64, be);
    /* every proper prefix: the section header table is last, so each one cuts something.
     * All lengths are tried and the problems counted, so a failure shows its extent. */
    int accepted = 0, unclear = 0;
    size_t first_acc = 0, first_unclear = 0;
    char unclear_msg[512] = "";
    for (size_t len = 0; len < b.size; len++) {
        ld_image img;
        char err[512] = "";
        int rc = ld_parse("trunc.elf", b.buf, len, LD_ELF, &img, err, sizeof err);
        if (rc == 0) {
            assert_image_sane(&img);
            ld_free(&img);
            if (!accepted++)
                first_acc = len;
            continue;
        }
        assert_int_equal(rc, -1);
        assert_names_file(err, "trunc.elf");
        if (!strstr(err, "truncated") && !strstr(err, "past the end") && !strstr(err, "ELF magic") && !unclear++) {
            first_unclear = len;
            snprintf(unclear_msg, sizeof unclear_msg, "%s", err);
        }
    }
    if (accepted || unclear)
        fail_msg("ELF%d %s (%zu bytes): %d truncated prefixes accepted (first: %zu bytes), %d rejected without "
                 "saying what is cut (first: %zu bytes: \"%s\")",
                 is64 ? 64 : 32, be ? "BE" : "LE", b.size, accepted, first_acc, unclear, first_unclear, unclear_msg);
}
static void test_truncated_every_length(void **state) { (void)state; each_variant(truncations); }

static void bad_ident(int is64, int be)
{
    elfb b;
    build(&b, is64, be);
    b.buf[EI_CLASS] = 3;
    expect_fail(&b, b.size, "class");
    b.buf[EI_CLASS] = ELFCLASSNONE;
    expect_fail(&b, b.size, "class");
    build(&b, is64, be);
    b.buf[EI_DATA] = ELFDATANONE;
    expect_fail(&b, b.size, "encoding");
    b.buf[EI_DATA] = 7;
    expect_fail(&b, b.size, "encoding");
    build(&b, is64, be);
    b.buf[1] = 'e'; /* magic */
    expect_fail(&b, b.size, "magic");
}
static void test_bad_ident(void **state) { (void)state; each_variant(bad_ident); }

static void bad_phdr_table(int is64, int be)
{
    elfb b;
    /* program header table starting near the end of the file */
    build(&b, is64, be);
    EH(&b, e_phoff, b.size - 8);
    expect_fail(&b, b.size, "program header");
    /* ... or with far too many entries */
    build(&b, is64, be);
    EH(&b, e_phnum, 1000);
    expect_fail(&b, b.size, "program header");
}
static void test_phdr_table_past_eof(void **state) { (void)state; each_variant(bad_phdr_table); }

static void bad_shdr_table(int is64, int be)
{
    elfb b;
    /* section header table past the end: must not silently load as a segment-only image
     * (which would drop every section and symbol) */
    build(&b, is64, be);
    EH(&b, e_shoff, b.size - b.shent);
    expect_fail(&b, b.size, "section header");
    build(&b, is64, be);
    EH(&b, e_shnum, 100);
    expect_fail(&b, b.size, "section header");
}
static void test_shdr_table_past_eof(void **state) { (void)state; each_variant(bad_shdr_table); }

static void bad_segments(int is64, int be)
{
    elfb b;
    build(&b, is64, be);
    PH(&b, 0, p_offset, b.size - 4); /* 16 bytes from 4 before the end */
    expect_fail(&b, b.size, "segment 0");
    build(&b, is64, be);
    PH(&b, 1, p_filesz, b.size); /* from 0x110, size of the whole file */
    PH(&b, 1, p_memsz, b.size);
    expect_fail(&b, b.size, "segment 1");
    build(&b, is64, be);
    /* offset + size wraps around: must not pass the bounds check by overflow */
    PH(&b, 0, p_offset, is64 ? UINT64_MAX - 3 : UINT32_MAX - 3);
    expect_fail(&b, b.size, "segment 0");
    build(&b, is64, be);
    PH(&b, 1, p_memsz, 4); /* filesz 8 > memsz 4 */
    expect_fail(&b, b.size, "exceeds memory size");
}
static void test_segments(void **state) { (void)state; each_variant(bad_segments); }

static void bad_sections(int is64, int be)
{
    elfb b;
    build(&b, is64, be);
    SH(&b, 1, sh_offset, b.size + 100);
    expect_fail(&b, b.size, ".text");
    build(&b, is64, be);
    SH(&b, 2, sh_size, is64 ? (1ull << 40) : 0xffffff00u);
    expect_fail(&b, b.size, ".data");
    build(&b, is64, be);
    SH(&b, 2, sh_offset, is64 ? UINT64_MAX - 3 : UINT32_MAX - 3);
    expect_fail(&b, b.size, ".data");
    /* a section whose type was zeroed (SHT_NULL) is not range-checked: then it must not
     * come out with a data pointer outside the file either */
    build(&b, is64, be);
    SH(&b, 2, sh_type, SHT_NULL);
    SH(&b, 2, sh_offset, b.size + 4096);
    {
        ld_image img;
        char err[512] = "";
        if (ld_parse("null.elf", b.buf, b.size, LD_ELF, &img, err, sizeof err) == 0) {
            assert_image_sane(&img);
            ld_free(&img);
        } else {
            assert_names_file(err, "null.elf");
        }
    }
    /* a NOBITS section may have any offset: .bss past the end is fine */
    build(&b, is64, be);
    SH(&b, 3, sh_offset, 0xfffff0);
    ld_image img;
    char err[512];
    assert_int_equal(ld_parse("bss.elf", b.buf, b.size, LD_ELF, &img, err, sizeof err), 0);
    assert_null(ld_section_find(&img, ".bss")->data);
    ld_free(&img);
}
static void test_sections(void **state) { (void)state; each_variant(bad_sections); }

static void test_segment_only_and_empty(void **state)
{
    (void)state;
    elfb b;
    ld_image img;
    char err[512] = "";
    /* no section headers at all: still loadable from its segments */
    build(&b, 0, 0);
    EH(&b, e_shoff, 0);
    EH(&b, e_shnum, 0);
    EH(&b, e_shstrndx, 0);
    if (ld_parse("segonly.elf", b.buf, b.shoff, LD_ELF, &img, err, sizeof err))
        fail_msg("segment-only image rejected: %s", err);
    assert_int_equal(img.nsegs, 2);
    assert_int_equal(img.nsecs, 0);
    assert_int_equal(img.nsyms, 0);
    assert_null(ld_symbol_find(&img, "_start"));
    ld_free(&img);
    /* neither segments nor sections */
    EH(&b, e_phnum, 0);
    EH(&b, e_phoff, 0);
    expect_fail(&b, b.shoff, "neither");
    /* only non-LOAD program headers: nothing to load (PT_NOTE is skipped) */
    build(&b, 1, 0);
    PH(&b, 0, p_type, PT_NOTE);
    PH(&b, 1, p_type, PT_NOTE);
    assert_int_equal(ld_parse("notes.elf", b.buf, b.size, LD_ELF, &img, err, sizeof err), 0);
    assert_int_equal(img.nsegs, 0);
    assert_int_equal(img.nsecs, 6);
    ld_free(&img);
}

static void shstrndx_escape(int is64, int be)
{
    elfb b;
    /* e_shstrndx = SHN_XINDEX (0xffff) with a section 0 that does not hold the real index:
     * libelf cannot give the string table index; whatever the loader does then, it must not
     * write more sections than it allocated (ASan build) and must stay consistent */
    const uint64_t v[] = {SHN_XINDEX, 99, NSEC, 0};
    for (int i = 0; i < 4; i++) {
        build(&b, is64, be);
        EH(&b, e_shstrndx, v[i]);
        ld_image img;
        char err[512] = "";
        if (ld_parse("strndx.elf", b.buf, b.size, LD_ELF, &img, err, sizeof err) == 0) {
            assert_image_sane(&img);
            assert_true(img.nsecs <= NSEC - 1);
            assert_int_equal(img.nsegs, 2);
            ld_free(&img);
        } else {
            assert_names_file(err, "strndx.elf");
        }
    }
}
static void test_bad_shstrndx(void **state) { (void)state; each_variant(shstrndx_escape); }

/* ---- garbage and random corruption ---- */
static uint64_t rs = 0x243f6a8885a308d3ull;
static uint32_t rnd(void)
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return (uint32_t)rs;
}

static void parse_anything(const uint8_t *buf, size_t len)
{
    ld_image img;
    char err[512] = "";
    int rc = ld_parse("fuzz.elf", buf, len, LD_ELF, &img, err, sizeof err);
    if (rc == 0) {
        assert_image_sane(&img);
        ld_free(&img);
    } else {
        assert_int_equal(rc, -1);
        assert_names_file(err, "fuzz.elf");
    }
}

static void test_garbage(void **state)
{
    (void)state;
    uint8_t g[1024];
    /* pure garbage, with and without a plausible identification */
    for (int it = 0; it < 600; it++) {
        size_t len = rnd() % sizeof g;
        for (size_t i = 0; i < len; i++)
            g[i] = (uint8_t)rnd();
        if (it & 1 && len >= 8) {
            memcpy(g, ELFMAG, SELFMAG);
            g[EI_CLASS] = (uint8_t)(1 + (it >> 1) % 2);
            g[EI_DATA] = (uint8_t)(1 + (it >> 2) % 2);
            g[EI_VERSION] = EV_CURRENT;
        }
        parse_anything(g, len);
    }
    /* text is not ELF */
    ld_image img;
    char err[512] = "";
    assert_int_equal(ld_parse("text.elf", "hello world\n", 12, LD_ELF, &img, err, sizeof err), -1);
    assert_names_file(err, "text.elf");
    assert_non_null(strstr(err, "magic"));
}

static void mutate_valid(int is64, int be)
{
    elfb b, m;
    build(&b, is64, be);
    /* random corruption of the header area and tables: 1..4 random bytes per try */
    for (int it = 0; it < 1500; it++) {
        m = b;
        int n = 1 + (int)(rnd() % 4);
        for (int k = 0; k < n; k++) {
            size_t at;
            switch (rnd() % 4) {
            case 0: at = rnd() % m.ehsize; break;
            case 1: at = m.phoff + rnd() % (2 * m.phent); break;
            case 2: at = m.shoff + rnd() % (NSEC * m.shent); break;
            default: at = rnd() % m.size; break;
            }
            m.buf[at] = (uint8_t)rnd();
        }
        parse_anything(m.buf, m.size);
    }
    /* field-wise corruption with extreme values */
    const uint64_t extreme[] = {0, 1, 0x7fffffff, 0xffffffff, 0xffff, 0x8000000000000000ull, UINT64_MAX};
    for (size_t e = 0; e < sizeof extreme / sizeof extreme[0]; e++) {
        uint64_t v = extreme[e];
        m = b; EH(&m, e_phentsize, v); parse_anything(m.buf, m.size);
        m = b; EH(&m, e_shentsize, v); parse_anything(m.buf, m.size);
        m = b; EH(&m, e_shstrndx, v); parse_anything(m.buf, m.size);
        m = b; EH(&m, e_phnum, v); parse_anything(m.buf, m.size);
        m = b; EH(&m, e_shnum, v); parse_anything(m.buf, m.size);
        m = b; SH(&m, 4, sh_link, v); parse_anything(m.buf, m.size);
        m = b; SH(&m, 4, sh_size, v); parse_anything(m.buf, m.size);
        m = b; SH(&m, 4, sh_entsize, v); parse_anything(m.buf, m.size);
        m = b; SH(&m, 6, sh_size, v); parse_anything(m.buf, m.size);
        m = b; SH(&m, 1, sh_name, v); parse_anything(m.buf, m.size);
        m = b; SYM(&m, 3, st_name, v); parse_anything(m.buf, m.size);
        m = b; PH(&m, 0, p_filesz, v); parse_anything(m.buf, m.size);
    }
}
static void test_random_corruption(void **state) { (void)state; each_variant(mutate_valid); }

static void test_builder_self_check(void **state)
{
    (void)state;
    /* the builder writes what <elf.h> describes: read fields back the plain way */
    elfb b;
    build(&b, 0, 1);
    assert_int_equal(get(b.buf + offsetof(Elf32_Ehdr, e_machine), 2, 1), MACHINE);
    assert_int_equal(b.buf[offsetof(Elf32_Ehdr, e_machine)], MACHINE >> 8); /* BE: high byte first */
    build(&b, 1, 0);
    Elf64_Ehdr eh;
    memcpy(&eh, b.buf, sizeof eh); /* host is little-endian like this image */
    assert_int_equal(eh.e_phoff, sizeof(Elf64_Ehdr));
    assert_int_equal(eh.e_shnum, NSEC);
    Elf64_Shdr sh;
    memcpy(&sh, b.buf + eh.e_shoff + 4 * sizeof sh, sizeof sh);
    assert_int_equal(sh.sh_type, SHT_SYMTAB);
    assert_int_equal(sh.sh_entsize, sizeof(Elf64_Sym));
}

static void test_load_from_files(void **state)
{
    (void)state;
    char dir[] = "/tmp/xpusim-elf-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char p1[600], p2[600], p3[600];
    snprintf(p1, sizeof p1, "%s/prog.bin", dir);  /* ELF content, odd extension */
    snprintf(p2, sizeof p2, "%s/fake.elf", dir);  /* .elf extension, not ELF */
    snprintf(p3, sizeof p3, "%s/missing.elf", dir);
    elfb b;
    build(&b, 1, 0);
    FILE *f = fopen(p1, "wb");
    fwrite(b.buf, 1, b.size, f);
    fclose(f);
    f = fopen(p2, "wb");
    fputs("0001\n", f);
    fclose(f);
    ld_image img;
    char err[1024] = "";
    if (ld_load(p1, &img, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(img.fmt, LD_ELF); /* detected by content */
    assert_string_equal(img.path, p1);
    assert_int_equal(img.nsegs, 2);
    ld_free(&img);
    assert_int_equal(ld_load(p2, &img, err, sizeof err), -1);
    assert_names_file(err, p2);
    assert_non_null(strstr(err, "magic"));
    assert_int_equal(ld_load(p3, &img, err, sizeof err), -1);
    assert_names_file(err, p3);
    assert_non_null(strstr(err, "cannot open"));
    unlink(p1);
    unlink(p2);
    rmdir(dir);
}

XPUSIM_TESTS(elf,
             cmocka_unit_test(test_builder_self_check),
             cmocka_unit_test(test_valid_elf32_le),
             cmocka_unit_test(test_valid_elf32_be),
             cmocka_unit_test(test_valid_elf64_le),
             cmocka_unit_test(test_valid_elf64_be),
             cmocka_unit_test(test_truncated_every_length),
             cmocka_unit_test(test_bad_ident),
             cmocka_unit_test(test_phdr_table_past_eof),
             cmocka_unit_test(test_shdr_table_past_eof),
             cmocka_unit_test(test_segments),
             cmocka_unit_test(test_sections),
             cmocka_unit_test(test_segment_only_and_empty),
             cmocka_unit_test(test_bad_shstrndx),
             cmocka_unit_test(test_garbage),
             cmocka_unit_test(test_random_corruption),
             cmocka_unit_test(test_load_from_files))
