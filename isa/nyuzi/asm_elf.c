/* isa/nyuzi/asm_elf.c: writes the assembler's output as an ELF32 little-endian file for
 * e_machine 9999 (EM_NYUZI). An executable has one PT_LOAD segment holding .text and .data
 * (plus .bss as memory beyond the file image), section headers and a symbol table so the
 * debugger and the disassembler see labels; its file layout is ld.lld's. An object file
 * (-c) has the three sections at address 0, a section symbol each, the labels, the
 * undefined symbols, and .rela.text/.rela.data. The bytes are written by the shared writer
 * (core/asm/elf_write.c). */
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

/* Symbols of an object file: the null symbol, one STT_SECTION symbol per section (what
 * relocations against local labels name), then the caller's. */
int nyz_write_object(const char *path, const nyz_obj_out *o, char *err, size_t errlen)
{
    uint32_t cur = asm_elf_headers_size(0);
    uint32_t text_off = asm_elf_place(&cur, o->text_align, o->text_size);
    uint32_t data_off = asm_elf_place(&cur, o->data_align, o->data_size);
    asm_elf_rela *r = calloc((size_t)o->nrelas + 1, sizeof *r);
    asm_elf_symbol *syms = calloc((size_t)o->nsyms + 4, sizeof *syms);
    if (!r || !syms) {
        free(r);
        free(syms);
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    /* relocations grouped by section, in the order they were made */
    int nr[3] = {0, 0, 0}, k = 0;
    for (int sec = 1; sec <= 2; sec++)
        for (int i = 0; i < o->nrelas; i++)
            if (o->relas[i].sec == sec) {
                const nyz_obj_rela *x = &o->relas[i];
                r[k++] = (asm_elf_rela){x->off, x->sym < 0 ? (uint32_t)-x->sym : (uint32_t)x->sym + 4, x->type, x->addend};
                nr[sec]++;
            }
    asm_elf_section secs[3] = {
        {".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0, o->text_align, 0, o->text, o->text_size, text_off, r, nr[1]},
        {".data", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 0, o->data_align, 0, o->data, o->data_size, data_off, r + nr[1], nr[2]},
        {".bss", SHT_NOBITS, SHF_ALLOC | SHF_WRITE, 0, o->bss_align, 0, NULL, o->bss_size, cur, NULL, 0},
    };
    for (int i = 1; i <= 3; i++)
        syms[i] = (asm_elf_symbol){"", 0, 0, STB_LOCAL, STT_SECTION, (uint16_t)i};
    for (int i = 0; i < o->nsyms; i++) {
        const nyz_elf_sym *s = &o->syms[i];
        syms[i + 4] = (asm_elf_symbol){s->name, s->value, 0, s->global ? STB_GLOBAL : STB_LOCAL,
                                       s->section == 1 ? STT_FUNC : STT_NOTYPE,
                                       s->section < 0 ? SHN_UNDEF : s->section == 0 ? SHN_ABS : (uint16_t)s->section};
    }
    asm_elf_image im = {ET_REL, 9999 /* EM_NYUZI */, 0, 0, NULL, 0, secs, 3, syms, o->nsyms + 4, cur};
    int rc = asm_elf_write(path, &im, err, errlen);
    free(r);
    free(syms);
    return rc;
}
