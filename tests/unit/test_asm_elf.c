/* tests/unit/test_asm_elf.c: the shared ELF32 writer of the assemblers (core/asm/elf_write.c).
 * An image with two content sections, a NOBITS section, symbols given globals-first and a
 * relocation is written, then read back through libelf (the same library the loaders use)
 * and every field the writer is responsible for is checked against the ELF rules: locals
 * before globals with sh_info = first global, the .rela section's link (symbol table) and
 * info (the section it patches), relocation symbols renumbered to the reordered table, the
 * section header names, and the file offsets the caller chose. Output errors name the file. */
#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>
#include "../testlib.h"
#include "../../core/asm/elf_write.h"

static const char *sec_name(Elf *e, size_t shstrndx, Elf_Scn *s)
{
    GElf_Shdr sh;
    gelf_getshdr(s, &sh);
    return elf_strptr(e, shstrndx, sh.sh_name);
}

static void test_round_trip(void **state)
{
    (void)state;
    static const uint8_t text[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    static const uint8_t data[3] = {0xaa, 0xbb, 0xcc};
    asm_elf_rela rel[1] = {{4, 1, 7, -12}}; /* patches text+4 with symbol 1 ("gfun") */
    uint32_t cur = asm_elf_headers_size(1);
    assert_int_equal(cur, 52 + 32);
    uint32_t off_text = asm_elf_place(&cur, 16, sizeof text); /* 84 rounded up to 96 */
    uint32_t off_data = asm_elf_place(&cur, 4, sizeof data);  /* 104 */
    assert_int_equal(off_text, 96);
    assert_int_equal(off_data, 104);
    assert_int_equal(cur, 107);
    asm_elf_section secs[3] = {
        {".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0x1000, 16, 0, text, sizeof text, off_text, rel, 1},
        {".data", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 0x2000, 4, 0, data, sizeof data, off_data, NULL, 0},
        {".bss", SHT_NOBITS, SHF_ALLOC | SHF_WRITE, 0x3000, 4, 0, NULL, 64, cur, NULL, 0},
    };
    asm_elf_symbol syms[4] = {
        {0},
        {"gfun", 0x1000, 8, STB_GLOBAL, STT_FUNC, 1},
        {"lvar", 0x2000, 3, STB_LOCAL, STT_OBJECT, 2},
        {"kabs", 42, 0, STB_LOCAL, STT_NOTYPE, SHN_ABS},
    };
    asm_elf_phdr ph = {PT_LOAD, off_text, 0x1000, 0x1000, 11, 11, PF_R | PF_X, 16};
    asm_elf_image im = {ET_EXEC, 0x1234, 0x1000, 0x55, &ph, 1, secs, 3, syms, 4, cur};
    char path[] = "/tmp/xpusim-test-elf-XXXXXX", err[256] = "";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(asm_elf_write(path, &im, err, sizeof err), 0);

    assert_true(elf_version(EV_CURRENT) != EV_NONE);
    fd = open(path, O_RDONLY);
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    assert_non_null(e);
    GElf_Ehdr eh;
    assert_non_null(gelf_getehdr(e, &eh));
    assert_int_equal(eh.e_machine, 0x1234);
    assert_int_equal(eh.e_entry, 0x1000);
    assert_int_equal(eh.e_flags, 0x55);
    assert_int_equal(eh.e_phoff, 52);
    assert_int_equal(eh.e_shoff % 4, 0);
    GElf_Phdr p;
    assert_non_null(gelf_getphdr(e, 0, &p));
    assert_int_equal(p.p_offset, 96);
    size_t shstrndx, nscn;
    assert_int_equal(elf_getshdrstrndx(e, &shstrndx), 0);
    assert_int_equal(elf_getshdrnum(e, &nscn), 0);
    /* null .text .data .bss .rela.text .symtab .strtab .shstrtab */
    assert_int_equal(nscn, 8);
    static const char *const names[] = {"", ".text", ".data", ".bss", ".rela.text", ".symtab", ".strtab", ".shstrtab"};
    for (size_t i = 1; i < nscn; i++)
        assert_string_equal(sec_name(e, shstrndx, elf_getscn(e, i)), names[i]);
    GElf_Shdr sh;
    gelf_getshdr(elf_getscn(e, 1), &sh);
    assert_int_equal(sh.sh_offset, 96);
    Elf_Data *d = elf_getdata(elf_getscn(e, 1), NULL);
    assert_memory_equal(d->d_buf, text, sizeof text);
    gelf_getshdr(elf_getscn(e, 2), &sh);
    assert_int_equal(sh.sh_offset, 104);
    d = elf_getdata(elf_getscn(e, 2), NULL);
    assert_memory_equal(d->d_buf, data, sizeof data);
    gelf_getshdr(elf_getscn(e, 3), &sh);
    assert_int_equal(sh.sh_type, SHT_NOBITS);
    assert_int_equal(sh.sh_size, 64);
    /* symbols: null, lvar, kabs (locals in the given order), then gfun; sh_info = 3 */
    gelf_getshdr(elf_getscn(e, 5), &sh);
    assert_int_equal(sh.sh_info, 3);
    assert_int_equal(sh.sh_link, 6);
    assert_int_equal(sh.sh_offset % 4, 0);
    assert_true(sh.sh_offset >= 107);
    d = elf_getdata(elf_getscn(e, 5), NULL);
    GElf_Sym y;
    static const char *const order[] = {"", "lvar", "kabs", "gfun"};
    for (int i = 0; i < 4; i++) {
        assert_non_null(gelf_getsym(d, i, &y));
        assert_string_equal(elf_strptr(e, sh.sh_link, y.st_name), order[i]);
    }
    assert_int_equal(y.st_value, 0x1000);
    assert_int_equal(y.st_size, 8);
    assert_int_equal(GELF_ST_BIND(y.st_info), STB_GLOBAL);
    assert_int_equal(GELF_ST_TYPE(y.st_info), STT_FUNC);
    gelf_getsym(d, 2, &y);
    assert_int_equal(y.st_shndx, SHN_ABS);
    assert_int_equal(y.st_value, 42);
    /* the relocation: symbol 1 of the input is entry 3 of the written table */
    gelf_getshdr(elf_getscn(e, 4), &sh);
    assert_int_equal(sh.sh_type, SHT_RELA);
    assert_int_equal(sh.sh_link, 5);
    assert_int_equal(sh.sh_info, 1);
    d = elf_getdata(elf_getscn(e, 4), NULL);
    GElf_Rela r;
    assert_non_null(gelf_getrela(d, 0, &r));
    assert_int_equal(r.r_offset, 4);
    assert_int_equal(GELF_R_SYM(r.r_info), 3);
    assert_int_equal(GELF_R_TYPE(r.r_info), 7);
    assert_int_equal(r.r_addend, -12);
    elf_end(e);
    close(fd);
    unlink(path);

    /* a relocation naming a symbol that does not exist is an error, not a wild index */
    rel[0].sym = 9;
    assert_int_equal(asm_elf_write(path, &im, err, sizeof err), -1);
    assert_non_null(strstr(err, "names symbol 9 of 4"));
    unlink(path);
}

static void test_output_errors(void **state)
{
    (void)state;
    asm_elf_symbol null_sym[1] = {{0}};
    asm_elf_image im = {ET_EXEC, 1, 0, 0, NULL, 0, NULL, 0, null_sym, 1, asm_elf_headers_size(0)};
    char err[256];
    if (access("/dev/full", W_OK) == 0) {
        assert_int_equal(asm_elf_write("/dev/full", &im, err, sizeof err), -1);
        assert_non_null(strstr(err, "/dev/full: No space left on device"));
    }
    assert_int_equal(asm_elf_write("/nonexistent-dir/x.elf", &im, err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent-dir/x.elf: cannot create"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_output_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
