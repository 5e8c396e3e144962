/* tests/cert/test_asm_elf_raw.c: the shared writer's "raw layout" mode (asm_elf_write_raw,
 * added for the CERT assembler, whose files mirror aiebu's ELFIO layout): an image with the
 * name table as section 1, a content section and a note is written and read back through
 * libelf: OSABI and ABI version bytes, the name table ("" then every name in header order),
 * offsets, links and the section header table where the caller put them, zero gaps. */
#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>
#include "../testlib.h"
#include "../../core/asm/elf_write.h"

static void test_raw_layout(void **state)
{
    (void)state;
    static const uint8_t text[5] = {0xff, 0xff, 0, 0, 7};
    static const uint8_t note[4] = {1, 2, 3, 4};
    asm_elf_rawsec secs[3] = {
        {".shstrtab", SHT_STRTAB, 0, 0, 0, 0, 0, 0, 1, 0, NULL, 1},
        {".ctrltext.0.0", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0, 0x60, 5, 0, 0, 16, 0, text, 0},
        {".note.x", SHT_NOTE, 0, 0, 0, 4, 1, 0, 1, 0, note, 0},
    };
    secs[0].size = asm_elf_names_size(secs, 3);
    assert_int_equal(secs[0].size, 1 + 10 + 14 + 8);
    secs[0].offset = 0x65;
    secs[2].offset = 0x65 + secs[0].size;
    asm_elf_phdr ph[1] = {{PT_LOAD, 0x60, 0, 0, 5, 5, PF_R | PF_X, 16}};
    asm_elf_raw im = {ET_EXEC, EM_M32, 0x40, 2, 0, 0, ph, 1, secs, 3, 0xa0};
    char path[] = "/tmp/xpusim-rawXXXXXX", err[256];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(asm_elf_write_raw(path, &im, err, sizeof err), 0);
    fd = open(path, O_RDONLY);
    elf_version(EV_CURRENT);
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    assert_non_null(e);
    Elf32_Ehdr *eh = elf32_getehdr(e);
    assert_int_equal(eh->e_ident[EI_OSABI], 0x40);
    assert_int_equal(eh->e_ident[EI_ABIVERSION], 2);
    assert_int_equal(eh->e_shoff, 0xa0);
    assert_int_equal(eh->e_shstrndx, 1);
    size_t len;
    const char *raw = elf_rawfile(e, &len);
    assert_memory_equal(raw + 0x65, "\0.shstrtab\0.ctrltext.0.0\0.note.x\0", secs[0].size);
    assert_memory_equal(raw + 0x60, text, 5);
    assert_int_equal(raw[0x54], 0); /* the gap after the program header is zeros */
    Elf_Scn *s = elf_getscn(e, 3);
    Elf32_Shdr *sh = elf32_getshdr(s);
    assert_int_equal(sh->sh_link, 1);
    assert_int_equal(sh->sh_offset, 0x65 + secs[0].size);
    elf_end(e);
    close(fd);
    unlink(path);
}

XPUSIM_TESTS(cert_asm_elf_raw, cmocka_unit_test(test_raw_layout));
