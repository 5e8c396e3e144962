/* isa/cert/asm_elf.c: the CERT assembler's output file, laid out exactly as aiebu-asm lays
 * it out through ELFIO (ABI version 0x02, both releases): ELF32 EM_M32; section 1
 * .shstrtab, then per uC and page .ctrltext.<uc>.<page> (R+X) and .ctrldata.<uc>.<page>
 * (R+W), .pad.<uc>, then, when the host must patch fields, .dynstr/.dynsym/.rela.dyn/
 * .dynamic, and last .note.xrt.UID (the md5 of every content section: core/md5.c).
 * Program headers: PT_PHDR, one PT_LOAD per content section (16-aligned in the file).
 * What the releases do differently is read from the cert_writer row: OSABI per target
 * (Feb-2025) or the group OSABI 0x46 (latest); addresses 0 or each section 16 bytes after
 * the last; the UID as hex text or as the 16 digest bytes; the dynamic sections allocated
 * with a PT_DYNAMIC or not. Sections outside segments follow in header order; the section
 * header table follows them at the next 16 (a whole 16 when already aligned, as ELFIO
 * does). -o symbols=1 adds a .symtab/.strtab of the labels (not aiebu's: for the debugger).
 * The bytes are written by the shared writer (core/asm/elf_write.c). */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "asm.h"
#include "../../core/md5.h"
#include "../../core/asm/elf_write.h"

static const uint8_t osabi_of[] = {0x40, 0x4B, 0x56, 0x69}; /* aie2ps, aie4, aie4-a, aie4-z */

enum { MAX_NAME = 40 };

typedef struct elf_build {
    asm_elf_rawsec *secs;
    char (*names)[MAX_NAME];
    int nsecs;
    asm_elf_phdr *ph;
    int nph;
} elf_build;

static uint32_t up(uint32_t v, uint32_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

static void le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* The UID: md5 over the content sections in file order, as 32 lower-case hex characters
 * (Feb-2025) or the 16 digest bytes in order (latest); both checked on aiebu's output. */
static void uid_md5(const elf_build *b, int ncontent, int raw, char out[33])
{
    md5_ctx ctx;
    uint8_t md[16];
    md5_init(&ctx);
    for (int i = 0; i < ncontent; i++)
        md5_update(&ctx, b->secs[1 + i].data, b->secs[1 + i].size);
    md5_final(&ctx, md);
    if (raw) {
        memcpy(out, md, 16);
        return;
    }
    for (int w = 0; w < 4; w++)
        snprintf(out + 8 * w, 9, "%02x%02x%02x%02x", md[4 * w], md[4 * w + 1], md[4 * w + 2], md[4 * w + 3]);
}

/* -o symbols=1: .symtab (+ .strtab) with every label as a global symbol whose value is the
 * simulator's pc (page * 8192 + offset in the page), STT_FUNC in the text section of a label
 * scope's first page, STT_NOTYPE in the data section that holds a data label. aiebu writes
 * no such table: this is for the debugger (`break LABEL`). */
static int symbols_table(const cert_asm *a, elf_build *b, const int *text_index, uint8_t **symtab, char **strtab)
{
    size_t n = 1, slen = 1;
    for (int ci = 0; ci < a->ncols; ci++)
        for (int i = 0; i < a->cols[ci].nlsyms; i++, n++)
            slen += strlen(a->cols[ci].lsyms[i].name) + 1;
    if (!(*symtab = calloc(n, 16)) || !(*strtab = calloc(1, slen)))
        return -1;
    uint32_t at = 1, k = 1;
    int ti = 0;
    for (int ci = 0; ci < a->ncols; ci++) {
        const cert_col *c = &a->cols[ci];
        for (int i = 0; i < c->nlsyms; i++, k++) {
            const cert_lsym *l = &c->lsyms[i];
            int sec = text_index[ti + 2 * l->page + !l->code];
            if (!sec)
                sec = text_index[ti + 2 * l->page];
            uint8_t *e = *symtab + 16 * k;
            le32(e, at);
            le32(e + 4, l->pc);
            e[12] = (uint8_t)(STB_GLOBAL << 4 | (l->code ? STT_FUNC : STT_NOTYPE));
            e[14] = (uint8_t)sec;
            e[15] = (uint8_t)(sec >> 8);
            size_t len = strlen(l->name) + 1;
            memcpy(*strtab + at, l->name, len);
            at += (uint32_t)len;
        }
        ti += 2 * c->npages;
    }
    int i_sym = b->nsecs + 1;
    b->secs[b->nsecs++] = (asm_elf_rawsec){".symtab", SHT_SYMTAB, 0, 0, 0, 16u * k, (uint32_t)i_sym + 1, 1, 4, 16,
                                           *symtab, 0};
    b->secs[b->nsecs++] = (asm_elf_rawsec){".strtab", SHT_STRTAB, 0, 0, 0, at, 0, 0, 1, 0, *strtab, 0};
    return 0;
}

int cert_asm_write_elf(const cert_asm *a, const char *path, char *err, size_t errlen)
{
    int maxsec = 10;
    for (int i = 0; i < a->ncols; i++)
        maxsec += 2 * a->cols[i].npages + 1;
    elf_build b = {calloc((size_t)maxsec, sizeof *b.secs), calloc((size_t)maxsec, sizeof *b.names), 0,
                   calloc((size_t)maxsec + 2, sizeof *b.ph), 0};
    uint8_t *dyn = NULL, *dynsym = NULL, *rela = NULL, *symtab = NULL;
    char *dynstr = NULL, *strtab = NULL;
    int *symidx = NULL, *symsec = NULL, rc = -1, nsyms = 0;
    int *text_index = NULL; /* (uC, page, text/data) -> section index */
    for (int i = 0; i < a->ncols; i++)
        nsyms += a->cols[i].nsyms;
    if (!b.secs || !b.names || !b.ph)
        goto oom;
    b.secs[b.nsecs++] = (asm_elf_rawsec){".shstrtab", SHT_STRTAB, 0, 0, 0, 0, 0, 0, 1, 0, NULL, 1};
    /* content sections, in aiebu's writer order */
    text_index = calloc((size_t)maxsec, sizeof *text_index);
    if (!text_index)
        goto oom;
    int ti = 0;
    for (int ci = 0; ci < a->ncols; ci++) {
        const cert_col *c = &a->cols[ci];
        for (int p = 0; p < c->npages; p++) {
            for (int k = 0; k < 2; k++) {
                uint32_t size = k ? c->data_len[p] : c->text_len[p];
                text_index[ti + 2 * p + k] = 0;
                if (!size)
                    continue;
                snprintf(b.names[b.nsecs], MAX_NAME, ".ctrl%s.%d.%d", k ? "data" : "text", c->col, p);
                b.secs[b.nsecs] = (asm_elf_rawsec){b.names[b.nsecs], SHT_PROGBITS,
                                                   k ? SHF_ALLOC | SHF_WRITE : SHF_ALLOC | SHF_EXECINSTR, 0, 0,
                                                   size, 0, 0, 16, 0, k ? c->data[p] : c->text[p], 0};
                text_index[ti + 2 * p + k] = b.nsecs + 1;
                b.nsecs++;
            }
        }
        ti += 2 * c->npages;
        if (c->npads) {
            uint32_t size = 0;
            for (int i = 0; i < c->npads; i++)
                size += c->pads[i].size; /* back to back, as aiebu fills them */
            if (size) {
                uint8_t *pad = calloc(1, size);
                if (!pad)
                    goto oom;
                uint32_t at = 0;
                for (int i = 0; i < c->npads; i++) {
                    if (c->pads[i].content)
                        memcpy(pad + at, c->pads[i].content, c->pads[i].size);
                    at += c->pads[i].size;
                }
                snprintf(b.names[b.nsecs], MAX_NAME, ".pad.%d", c->col);
                b.secs[b.nsecs] = (asm_elf_rawsec){b.names[b.nsecs], SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 0, 0, size,
                                                   0, 0, 16, 0, pad, 0};
                b.nsecs++;
            }
        }
    }
    int ncontent = b.nsecs - 1;
    char uid[33];
    const cert_writer *w = a->w;
    uint32_t uidlen = w->uid_raw ? 16 : 32;
    uid_md5(&b, ncontent, w->uid_raw, uid);
    /* patch symbols: one per (section, name), relocations in order */
    int dyn_first = b.nsecs;
    uint32_t dynstr_len = 0, ndsym = 1;
    if (nsyms) {
        size_t cap = 1;
        for (int ci = 0; ci < a->ncols; ci++)
            for (int i = 0; i < a->cols[ci].nsyms; i++)
                cap += strlen(a->cols[ci].syms[i].name) + 1;
        dynstr = calloc(1, cap);
        dynsym = calloc((size_t)nsyms + 1, 16);
        rela = calloc((size_t)nsyms, 12);
        symidx = calloc((size_t)nsyms, sizeof *symidx);
        dyn = calloc(2, 8);
        if (!dynstr || !dynsym || !rela || !symidx || !dyn)
            goto oom;
        dynstr_len = 1;
        symsec = calloc((size_t)nsyms, sizeof *symsec);
        if (!symsec)
            goto oom;
        const cert_sym **flat = (const cert_sym **)calloc((size_t)nsyms, sizeof *flat);
        if (!flat)
            goto oom;
        int k = 0, ti2 = 0;
        for (int ci = 0; ci < a->ncols; ci++) {
            for (int i = 0; i < a->cols[ci].nsyms; i++, k++) {
                flat[k] = &a->cols[ci].syms[i];
                symsec[k] = text_index[ti2 + 2 * flat[k]->page];
            }
            ti2 += 2 * a->cols[ci].npages;
        }
        for (k = 0; k < nsyms; k++) {
            const cert_sym *y = flat[k];
            int found = 0;
            for (int m = 0; m < k && !found; m++) /* same section and name: the same symbol */
                if (symsec[m] == symsec[k] && !strcmp(flat[m]->name, y->name))
                    found = symidx[m];
            if (!found) {
                uint8_t *e = dynsym + 16 * ndsym;
                le32(e, dynstr_len);
                e[12] = (STB_GLOBAL << 4) | STT_OBJECT;
                e[14] = (uint8_t)symsec[k];
                e[15] = (uint8_t)(symsec[k] >> 8);
                size_t l = strlen(y->name) + 1;
                memcpy(dynstr + dynstr_len, y->name, l);
                dynstr_len += (uint32_t)l;
                found = (int)ndsym++;
            }
            symidx[k] = found;
            le32(rela + 12 * k, y->pos);
            le32(rela + 12 * k + 4, ELF32_R_INFO((uint32_t)found, y->type));
        }
        free(flat);
        int i_dynstr = b.nsecs + 1, i_dynsym = b.nsecs + 2, i_rela = b.nsecs + 3;
        uint32_t dflag = w->dyn_alloc ? SHF_ALLOC : 0;
        b.secs[b.nsecs++] = (asm_elf_rawsec){".dynstr", SHT_STRTAB, 0, 0, 0, dynstr_len, 0, 0, 0, 0, dynstr, 0};
        b.secs[b.nsecs++] = (asm_elf_rawsec){".dynsym", SHT_DYNSYM, dflag, 0, 0, 16 * ndsym, (uint32_t)i_dynstr, 1, 8,
                                             16, dynsym, 0};
        b.secs[b.nsecs++] = (asm_elf_rawsec){".rela.dyn", SHT_RELA, dflag, 0, 0, 12u * (uint32_t)nsyms,
                                             (uint32_t)i_dynsym, 0, 8, 12, rela, 0};
        le32(dyn, DT_RELA);
        le32(dyn + 4, (uint32_t)i_rela);
        le32(dyn + 8, DT_RELASZ);
        le32(dyn + 12, 12u * (uint32_t)nsyms);
        b.secs[b.nsecs++] = (asm_elf_rawsec){".dynamic", SHT_DYNAMIC, dflag, 0, 0, 16, (uint32_t)i_dynstr, 0, 8, 8,
                                             dyn, 0};
    }
    if (a->symbols && symbols_table(a, &b, text_index, &symtab, &strtab))
        goto oom;
    uint8_t note[12 + 4 + 32];
    le32(note, 4);
    le32(note + 4, uidlen);
    le32(note + 8, 4 /* NT_XRT_UID */);
    memcpy(note + 12, "XRT", 4);
    memcpy(note + 16, uid, uidlen);
    b.secs[b.nsecs++] = (asm_elf_rawsec){".note.xrt.UID", SHT_NOTE, 0, 0, 0, 16 + uidlen, 0, 0, 1, 0, note, 0};
    b.secs[0].size = asm_elf_names_size(b.secs, b.nsecs);

    /* ELFIO's layout: segments first (their sections 16- or 8-aligned), then the rest */
    int ptdyn = nsyms && w->dyn_alloc;
    b.nph = 1 + ncontent + ptdyn;
    uint32_t pos = asm_elf_headers_size(b.nph), addr = 0;
    b.ph[0] = (asm_elf_phdr){PT_PHDR, (uint32_t)asm_elf_headers_size(0), 0, 0, 32u * (uint32_t)b.nph,
                             32u * (uint32_t)b.nph, PF_R, 0};
    for (int i = 0; i < ncontent; i++) {
        asm_elf_rawsec *s = &b.secs[1 + i];
        pos = up(pos, 16);
        s->offset = pos;
        pos += s->size;
        if (w->running_addr) { /* the newest aiebu: a section's address follows the last one's end */
            s->addr = addr;
            addr = up(addr + s->size, 16);
        }
        b.ph[1 + i] = (asm_elf_phdr){PT_LOAD, s->offset, s->addr, 0, s->size, s->size,
                                     (s->flags & SHF_EXECINSTR) ? PF_R | PF_X : PF_R | PF_W, 16};
    }
    if (ptdyn) {
        asm_elf_rawsec *s = &b.secs[dyn_first + 3];
        pos = up(pos, 8);
        s->offset = pos;
        pos += s->size;
        b.ph[b.nph - 1] = (asm_elf_phdr){PT_DYNAMIC, s->offset, 0, 0, s->size, s->size, PF_R | PF_W, 8};
    }
    for (int i = 0; i < b.nsecs; i++) {
        asm_elf_rawsec *s = &b.secs[i];
        if ((i >= 1 && i <= ncontent) || (s->type == SHT_DYNAMIC && ptdyn))
            continue;
        pos = up(pos, s->align);
        s->offset = pos;
        pos += s->size;
    }
    uint8_t osabi = w->group_osabi ? (uint8_t)w->group_osabi : osabi_of[a->target];
    asm_elf_raw im = {ET_EXEC, EM_M32, osabi, 2, 0, 0, b.ph, b.nph, b.secs, b.nsecs, pos + 16 - pos % 16};
    rc = asm_elf_write_raw(path, &im, err, errlen);
    goto out;
oom:
    snprintf(err, errlen, "%s: out of memory", path);
out:
    if (b.secs)
        for (int i = 0; i < b.nsecs; i++)
            if (b.secs[i].name && !strncmp(b.secs[i].name, ".pad.", 5))
                free((void *)b.secs[i].data);
    free(text_index);
    free(b.secs);
    free(b.names);
    free(b.ph);
    free(dyn);
    free(dynsym);
    free(rela);
    free(dynstr);
    free(symtab);
    free(strtab);
    free(symidx);
    free(symsec);
    return rc;
}
