/* isa/nyuzi/asm_elf.c: writes the assembler's output as an ELF32 little-endian executable
 * for e_machine 9999 (EM_NYUZI): one PT_LOAD segment holding .text and .data (plus .bss as
 * memory beyond the file image), section headers and a symbol table so the debugger and
 * the disassembler see labels. Written by hand: the layout is small and fixed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "asm.h"
#include "../../core/file.h"

typedef struct buf { uint8_t *p; size_t n, cap; } buf;

static int put(buf *b, const void *d, size_t n)
{
    if (b->n + n > b->cap) {
        size_t c = b->cap ? b->cap * 2 : 4096;
        while (c < b->n + n)
            c *= 2;
        uint8_t *q = realloc(b->p, c);
        if (!q)
            return -1;
        b->p = q;
        b->cap = c;
    }
    if (d)
        memcpy(b->p + b->n, d, n);
    else
        memset(b->p + b->n, 0, n);
    b->n += n;
    return 0;
}
static void u16(buf *b, uint32_t v) { uint8_t x[2] = {(uint8_t)v, (uint8_t)(v >> 8)}; put(b, x, 2); }
static void u32(buf *b, uint32_t v) { uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)}; put(b, x, 4); }
static void align(buf *b, size_t a) { while (b->n % a) put(b, NULL, 1); }

int nyz_write_elf(const char *path, const nyz_elf_out *o, char *err, size_t errlen)
{
    buf f = {0}, strtab = {0}, shstr = {0}, symtab = {0};
    put(&f, NULL, 52 + 32); /* ELF header + one program header */
    uint32_t text_off = (uint32_t)f.n;
    put(&f, o->text, o->text_size);
    /* data follows text in the file at the same distance as in memory */
    while (f.n < text_off + (o->data_addr - o->text_addr))
        put(&f, NULL, 1);
    uint32_t data_off = (uint32_t)f.n;
    put(&f, o->data, o->data_size);
    uint32_t filesz = (uint32_t)f.n - text_off;
    uint32_t memsz = o->bss_size ? o->bss_addr + o->bss_size - o->text_addr : filesz;
    /* symbols */
    put(&strtab, "", 1);
    put(&symtab, NULL, 16);
    int nlocal = 1;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < o->nsyms; i++) {
            const nyz_elf_sym *s = &o->syms[i];
            if (s->global != pass)
                continue;
            u32(&symtab, (uint32_t)strtab.n);
            put(&strtab, s->name, strlen(s->name) + 1);
            u32(&symtab, s->value);
            u32(&symtab, 0);
            uint8_t info = (uint8_t)((s->global ? 1 : 0) << 4 | (s->section == 1 ? 2 : 0));
            put(&symtab, &info, 1);
            put(&symtab, NULL, 1);
            u16(&symtab, s->section == 0 ? 0xfff1u : (uint32_t)s->section);
            if (!pass)
                nlocal++;
        }
    static const char names[] = "\0.text\0.data\0.bss\0.symtab\0.strtab\0.shstrtab";
    put(&shstr, names, sizeof names);
    align(&f, 4);
    uint32_t symoff = (uint32_t)f.n;
    put(&f, symtab.p, symtab.n);
    uint32_t stroff = (uint32_t)f.n;
    put(&f, strtab.p, strtab.n);
    uint32_t shstroff = (uint32_t)f.n;
    put(&f, shstr.p, shstr.n);
    align(&f, 4);
    uint32_t shoff = (uint32_t)f.n;
    /* section headers: null, .text(1) .data(2) .bss(3) .symtab(4) .strtab(5) .shstrtab(6) */
    put(&f, NULL, 40);
    uint32_t sh[6][10] = {
        {1, 1, 6, o->text_addr, text_off, o->text_size, 0, 0, 4, 0},
        {7, 1, 3, o->data_addr, data_off, o->data_size, 0, 0, 4, 0},
        {13, 8, 3, o->bss_addr, data_off + o->data_size, o->bss_size, 0, 0, 4, 0},
        {18, 2, 0, 0, symoff, (uint32_t)symtab.n, 5, (uint32_t)nlocal, 4, 16},
        {26, 3, 0, 0, stroff, (uint32_t)strtab.n, 0, 0, 1, 0},
        {34, 3, 0, 0, shstroff, (uint32_t)shstr.n, 0, 0, 1, 0},
    };
    for (int i = 0; i < 6; i++)
        for (int k = 0; k < 10; k++)
            u32(&f, sh[i][k]);
    /* ELF header */
    buf h = {0};
    static const uint8_t ident[16] = {0x7f, 'E', 'L', 'F', 1, 1, 1, 0};
    put(&h, ident, 16);
    u16(&h, 2); u16(&h, 9999); u32(&h, 1); u32(&h, o->entry); u32(&h, 52); u32(&h, shoff);
    u32(&h, 0); u16(&h, 52); u16(&h, 32); u16(&h, 1); u16(&h, 40); u16(&h, 7); u16(&h, 6);
    /* program header */
    u32(&h, 1); u32(&h, text_off); u32(&h, o->text_addr); u32(&h, o->text_addr);
    u32(&h, filesz); u32(&h, memsz); u32(&h, 7); u32(&h, 4);
    memcpy(f.p, h.p, 84);
    free(h.p);
    FILE *fp = fopen(path, "wb");
    int rc = 0;
    if (!fp) {
        snprintf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
        rc = -1;
    } else {
        fwrite(f.p, 1, f.n, fp);
        rc = file_close_out(fp, path, err, errlen);
    }
    free(f.p); free(strtab.p); free(shstr.p); free(symtab.p);
    return rc;
}
