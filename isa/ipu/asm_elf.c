/* isa/ipu/asm_elf.c: writes the IPU assembler's output as ELF32 little-endian for
 * EM_GRAPHCORE_IPU (248) through the shared writer (core/asm/elf_write.c). An object file
 * (ET_REL) keeps every section at address 0 with one STT_SECTION symbol each (what
 * relocations against local labels name, with the offset as addend), the labels, the
 * undefined symbols and a .rela section per section that has relocations, as
 * ColossusMCObjectWriter writes them (RELA, ELFOSABI_STANDALONE). An executable (ET_EXEC)
 * is one tile's image: the sections at the addresses asm.c gave them from the tile memory
 * base, one PT_LOAD per allocated section, symbols at their addresses. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include "asm.h"
#include "../../core/asm/elf_write.h"

#define EM_GRAPHCORE_IPU 248

/* llvm-mc marks Colossus objects ELFOSABI_STANDALONE; the shared writer leaves 0. */
static void set_osabi(const char *path)
{
    struct stat st;
    if (stat(path, &st) || !S_ISREG(st.st_mode))
        return;
    FILE *f = fopen(path, "r+b");
    if (!f)
        return;
    if (fseek(f, EI_OSABI, SEEK_SET) == 0)
        fputc(ELFOSABI_STANDALONE, f);
    fclose(f);
}

int ipu_write_elf(const char *path, const ipu_elf_out *o, char *err, size_t errlen)
{
    int ns = o->nsecs, rc = -1;
    asm_elf_section *secs = calloc((size_t)ns + 1, sizeof *secs);
    asm_elf_rela *r = calloc((size_t)o->nrelas + 1, sizeof *r);
    asm_elf_symbol *syms = calloc((size_t)o->nsyms + (size_t)ns + 1, sizeof *syms);
    asm_elf_phdr *ph = calloc((size_t)ns + 1, sizeof *ph);
    if (!secs || !r || !syms || !ph) {
        snprintf(err, errlen, "%s: out of memory", path);
        goto out;
    }
    int nph = 0, k = 0;
    uint32_t cur = asm_elf_headers_size(o->object ? 0 : ns);
    int nload = 0;
    for (int i = 0; i < ns; i++)
        nload += !o->object && (o->secs[i].flags & SHF_ALLOC) && o->secs[i].size;
    cur = asm_elf_headers_size(nload);
    for (int i = 0; i < ns; i++) {
        const ipu_elf_sec *s = &o->secs[i];
        uint32_t align = s->align ? s->align : 1;
        int nobits = s->type == SHT_NOBITS;
        uint32_t off = asm_elf_place(&cur, align, nobits ? 0 : s->size);
        int first = k;
        for (int j = 0; j < o->nrelas; j++) /* relocations grouped by section, in order */
            if (o->relas[j].sec == i) {
                const ipu_elf_rela *x = &o->relas[j];
                r[k++] = (asm_elf_rela){x->off, x->sym < 0 ? (uint32_t)-x->sym : (uint32_t)(x->sym + ns + 1),
                                        x->type, x->addend};
            }
        secs[i] = (asm_elf_section){s->name, s->type, s->flags, o->object ? 0 : s->addr, align, 0,
                                    nobits ? NULL : s->data, s->size, off, r + first, k - first};
        if (!o->object && (s->flags & SHF_ALLOC) && s->size)
            ph[nph++] = (asm_elf_phdr){PT_LOAD, off, s->addr, s->addr, nobits ? 0 : s->size, s->size,
                                       PF_R | ((s->flags & SHF_WRITE) ? PF_W : 0) |
                                           ((s->flags & SHF_EXECINSTR) ? PF_X : 0),
                                       align};
    }
    /* the null symbol, a section symbol per section (objects), then the named ones */
    for (int i = 0; i < ns; i++)
        syms[i + 1] = (asm_elf_symbol){"", 0, 0, STB_LOCAL, STT_SECTION, (uint16_t)(i + 1)};
    for (int i = 0; i < o->nsyms; i++) {
        const ipu_elf_sym *s = &o->syms[i];
        syms[i + ns + 1] = (asm_elf_symbol){s->name, s->value, s->size,
                                            s->weak ? STB_WEAK : s->global ? STB_GLOBAL : STB_LOCAL,
                                            s->func ? STT_FUNC : s->sec >= 0 && (o->secs[s->sec].flags & SHF_EXECINSTR)
                                                                     ? STT_NOTYPE
                                                                     : s->sec >= 0 ? STT_OBJECT : STT_NOTYPE,
                                            s->sec == -1 ? SHN_UNDEF : s->sec == -2 ? SHN_ABS : (uint16_t)(s->sec + 1)};
    }
    asm_elf_image im = {o->object ? ET_REL : ET_EXEC, EM_GRAPHCORE_IPU, o->entry, 0, nph ? ph : NULL, nph,
                        secs, ns, syms, o->nsyms + ns + 1, cur};
    rc = asm_elf_write(path, &im, err, errlen);
    if (rc == 0)
        set_osabi(path);
out:
    free(secs), free(r), free(syms), free(ph);
    return rc;
}
