/* isa/nyuzi/asm_elf.c: writes the assembler's output as an ELF32 little-endian executable
 * for e_machine 9999 (EM_NYUZI): one PT_LOAD segment holding .text and .data (plus .bss as
 * memory beyond the file image), section headers and a symbol table so the debugger and
 * the disassembler see labels. The file layout is ld.lld's; the bytes are written by the
 * shared writer (core/asm/elf_write.c). */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include "asm.h"
#include "../../core/asm/elf_write.h"

int nyz_write_elf(const char *path, const nyz_elf_out *o, char *err, size_t errlen)
{
    uint32_t cur = asm_elf_headers_size(1);
    uint32_t text_off = asm_elf_place(&cur, 1, o->text_size);
    /* data follows text in the file at the same distance as in memory (one segment) */
    cur = text_off + (o->data_addr - o->text_addr);
    uint32_t data_off = asm_elf_place(&cur, 1, o->data_size);
    uint32_t filesz = cur - text_off;
    uint32_t memsz = o->bss_size ? o->bss_addr + o->bss_size - o->text_addr : filesz;
    asm_elf_phdr ph = {PT_LOAD, text_off, o->text_addr, o->text_addr, filesz, memsz, PF_R | PF_W | PF_X, 4};
    asm_elf_section secs[3] = {
        {".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, o->text_addr, 4, 0, o->text, o->text_size, text_off, NULL, 0},
        {".data", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, o->data_addr, 4, 0, o->data, o->data_size, data_off, NULL, 0},
        {".bss", SHT_NOBITS, SHF_ALLOC | SHF_WRITE, o->bss_addr, 4, 0, NULL, o->bss_size, cur, NULL, 0},
    };
    asm_elf_symbol *syms = calloc((size_t)o->nsyms + 1, sizeof *syms);
    if (!syms) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    for (int i = 0; i < o->nsyms; i++) {
        const nyz_elf_sym *s = &o->syms[i];
        syms[i + 1] = (asm_elf_symbol){s->name, s->value, 0, s->global ? STB_GLOBAL : STB_LOCAL,
                                       s->section == 1 ? STT_FUNC : STT_NOTYPE,
                                       s->section == 0 ? SHN_ABS : (uint16_t)s->section};
    }
    asm_elf_image im = {ET_EXEC, 9999 /* EM_NYUZI */, o->entry, 0, &ph, 1, secs, 3, syms, o->nsyms + 1, cur};
    int rc = asm_elf_write(path, &im, err, errlen);
    free(syms);
    return rc;
}
