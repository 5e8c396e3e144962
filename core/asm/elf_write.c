/* core/asm/elf_write.c: the assemblers' ELF32 writer (see elf_write.h). libelf does the
 * byte order and the header encoding; we keep the layout (ELF_F_LAYOUT) because every ISA
 * reproduces its vendor linker's file layout exactly. libelf writes to a descriptor it can
 * seek, so the image is built in an anonymous temporary file and then copied to the
 * destination through the checked output path (core/file.c): pipes and devices work, and a
 * failed write is reported with the file name like every other output of xpusim. */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "elf_write.h"
#include "../file.h"
#include "../grow.h"

uint32_t asm_elf_headers_size(int nphdrs)
{
    return (uint32_t)sizeof(Elf32_Ehdr) + (uint32_t)nphdrs * (uint32_t)sizeof(Elf32_Phdr);
}

static uint32_t align_up(uint32_t v, uint32_t a)
{
    return a > 1 ? (v + a - 1) & ~(a - 1) : v;
}

uint32_t asm_elf_place(uint32_t *cursor, uint32_t align, uint32_t size)
{
    uint32_t at = align_up(*cursor, align);
    *cursor = at + size;
    return at;
}

/* A growing byte buffer for the string tables. */
typedef struct strbuf { char *p; size_t n, cap; } strbuf;

static int sb_add(strbuf *b, const char *s, uint32_t *off)
{
    size_t l = strlen(s) + 1;
    char *q = l <= SIZE_MAX - b->n ? grow_array(b->p, &b->cap, b->n + l, 1, 256) : NULL;
    if (!q)
        return -1;
    b->p = q;
    memcpy(b->p + b->n, s, l);
    *off = (uint32_t)b->n;
    b->n += l;
    return 0;
}

typedef struct writer {
    Elf *e;
    strbuf shstr, str;
    uint32_t cursor;        /* file layout cursor for the tables */
    const char *path;
    char *err;
    size_t errlen;
} writer;

static int w_fail(writer *w, const char *what)
{
    snprintf(w->err, w->errlen, "%s: %s: %s", w->path, what, elf_errmsg(-1));
    return -1;
}

/* Add a section with one data block at a fixed offset. */
static int add_scn(writer *w, const char *name, uint32_t type, uint32_t flags, uint32_t addr,
                   uint32_t offset, const void *data, uint32_t size, uint32_t align,
                   uint32_t link, uint32_t info, uint32_t entsize, Elf_Type dtype)
{
    Elf_Scn *scn = elf_newscn(w->e);
    if (!scn)
        return w_fail(w, "cannot add a section");
    uint32_t name_off;
    if (sb_add(&w->shstr, name, &name_off))
        return w_fail(w, "out of memory");
    Elf_Data *d = elf_newdata(scn);
    if (!d)
        return w_fail(w, "cannot add section data");
    d->d_buf = (void *)data;
    d->d_size = size;
    d->d_type = dtype;
    d->d_align = 1;
    d->d_off = 0;
    d->d_version = EV_CURRENT;
    Elf32_Shdr *sh = elf32_getshdr(scn);
    if (!sh)
        return w_fail(w, "cannot read a section header");
    sh->sh_name = name_off;
    sh->sh_type = type;
    sh->sh_flags = flags;
    sh->sh_addr = addr;
    sh->sh_offset = offset;
    sh->sh_size = size;
    sh->sh_link = link;
    sh->sh_info = info;
    sh->sh_addralign = align;
    sh->sh_entsize = entsize;
    return 0;
}

/* Copy the finished temporary file to the destination through the checked output path. */
static int copy_out(writer *w, FILE *tmp)
{
    FILE *o = fopen(w->path, "wb");
    if (!o) {
        snprintf(w->err, w->errlen, "%s: cannot create: %s", w->path, strerror(errno));
        return -1;
    }
    rewind(tmp);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, tmp)) > 0)
        if (fwrite(buf, 1, n, o) != n) {
            int e = errno ? errno : EIO; /* the stream keeps only a flag: report the cause now */
            fclose(o);
            snprintf(w->err, w->errlen, "%s: %s", w->path, strerror(e));
            return -1;
        }
    if (ferror(tmp)) {
        fclose(o);
        snprintf(w->err, w->errlen, "%s: cannot read the temporary image", w->path);
        return -1;
    }
    return file_close_out(o, w->path, w->err, w->errlen);
}

/* What both writers share: libelf builds the image (fn) in a temporary file, lays it out,
 * and the result is copied to w->path. 0, or -1 with the error in w->err. */
typedef int (*build_fn)(writer *w, const void *ctx);
static int emit(writer *w, build_fn fn, const void *ctx)
{
    if (elf_version(EV_CURRENT) == EV_NONE) {
        snprintf(w->err, w->errlen, "%s: libelf is too old", w->path);
        return -1;
    }
    FILE *tmp = tmpfile();
    if (!tmp) {
        snprintf(w->err, w->errlen, "%s: cannot make a temporary file: %s", w->path, strerror(errno));
        return -1;
    }
    int rc = -1;
    w->e = elf_begin(fileno(tmp), ELF_C_WRITE, NULL);
    if (!w->e)
        w_fail(w, "cannot start the ELF image");
    else {
        if (fn(w, ctx) == 0) {
            if (elf_update(w->e, ELF_C_WRITE) < 0)
                w_fail(w, "cannot lay out the ELF image");
            else
                rc = 0;
        }
        elf_end(w->e);
    }
    if (rc == 0)
        rc = copy_out(w, tmp);
    fclose(tmp);
    return rc;
}

/* The ELF header and the program headers (both writers): the header, or NULL with the
 * error in w->err. */
static Elf32_Ehdr *headers(writer *w, const asm_elf_raw *h)
{
    Elf32_Ehdr *eh = elf32_newehdr(w->e);
    if (!eh) {
        w_fail(w, "cannot make the ELF header");
        return NULL;
    }
    eh->e_ident[EI_DATA] = ELFDATA2LSB;
    eh->e_ident[EI_OSABI] = h->osabi;
    eh->e_ident[EI_ABIVERSION] = h->abiversion;
    eh->e_type = h->type;
    eh->e_machine = h->machine;
    eh->e_version = EV_CURRENT;
    eh->e_entry = h->entry;
    eh->e_flags = h->flags;
    if (h->nphdrs) {
        Elf32_Phdr *ph = elf32_newphdr(w->e, (size_t)h->nphdrs);
        if (!ph) {
            w_fail(w, "cannot make the program headers");
            return NULL;
        }
        eh = elf32_getehdr(w->e); /* ELF_F_LAYOUT: the table's place is ours to set */
        eh->e_phoff = sizeof(Elf32_Ehdr);
        for (int i = 0; i < h->nphdrs; i++) {
            const asm_elf_phdr *p = &h->phdrs[i];
            ph[i] = (Elf32_Phdr){p->type, p->offset, p->vaddr, p->paddr, p->filesz, p->memsz, p->flags, p->align};
        }
    }
    return eh;
}

static int build(writer *w, const asm_elf_image *im, Elf32_Sym *syms, int *order, Elf32_Rela **relas)
{
    const asm_elf_raw h = {.type = im->type, .machine = im->machine, .osabi = ELFOSABI_NONE, .entry = im->entry,
                           .flags = im->flags, .phdrs = im->phdrs, .nphdrs = im->nphdrs};
    Elf32_Ehdr *eh = headers(w, &h);
    if (!eh)
        return -1;
    uint32_t empty;
    if (sb_add(&w->shstr, "", &empty) || sb_add(&w->str, "", &empty))
        return w_fail(w, "out of memory");
    for (int i = 0; i < im->nsecs; i++) {
        const asm_elf_section *s = &im->secs[i];
        if (add_scn(w, s->name, s->type, s->flags, s->addr, s->offset, s->data, s->size, s->align, 0, 0,
                    s->entsize, ELF_T_BYTE))
            return -1;
    }
    /* symbols: the null symbol, then locals, then globals, each in the caller's order */
    int nsym = 0, nlocal = 1, *newidx = order;
    memset(&syms[0], 0, sizeof syms[0]);
    newidx[0] = nsym++;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 1; i < im->nsyms; i++) {
            const asm_elf_symbol *y = &im->syms[i];
            if ((y->bind != STB_LOCAL) != pass)
                continue;
            uint32_t off;
            if (sb_add(&w->str, y->name, &off))
                return w_fail(w, "out of memory");
            syms[nsym] = (Elf32_Sym){off, y->value, y->size, (unsigned char)ELF32_ST_INFO(y->bind, y->type), 0, y->shndx};
            newidx[i] = nsym++;
            if (!pass)
                nlocal++;
        }
    /* one .rela section per content section with relocations */
    uint32_t symtab_index = (uint32_t)im->nsecs + 1;
    for (int i = 0; i < im->nsecs; i++)
        symtab_index += im->secs[i].nrelas > 0;
    w->cursor = im->content_end;
    for (int i = 0; i < im->nsecs; i++) {
        const asm_elf_section *s = &im->secs[i];
        if (!s->nrelas)
            continue;
        for (int k = 0; k < s->nrelas; k++) {
            const asm_elf_rela *r = &s->relas[k];
            if (r->sym >= (uint32_t)(im->nsyms > 0 ? im->nsyms : 1)) {
                snprintf(w->err, w->errlen, "%s: relocation %d of %s names symbol %u of %d", w->path, k, s->name,
                         r->sym, im->nsyms);
                return -1;
            }
            relas[i][k] = (Elf32_Rela){r->offset, ELF32_R_INFO((uint32_t)newidx[r->sym], r->type), r->addend};
        }
        char name[300];
        snprintf(name, sizeof name, ".rela%s", s->name);
        uint32_t size = (uint32_t)(sizeof(Elf32_Rela) * (size_t)s->nrelas);
        uint32_t at = asm_elf_place(&w->cursor, 4, size);
        if (add_scn(w, name, SHT_RELA, 0, 0, at, relas[i], size, 4, symtab_index, (uint32_t)i + 1,
                    sizeof(Elf32_Rela), ELF_T_RELA))
            return -1;
    }
    uint32_t symsize = (uint32_t)(sizeof(Elf32_Sym) * (size_t)nsym);
    uint32_t at = asm_elf_place(&w->cursor, 4, symsize);
    if (add_scn(w, ".symtab", SHT_SYMTAB, 0, 0, at, syms, symsize, 4, symtab_index + 1, (uint32_t)nlocal,
                sizeof(Elf32_Sym), ELF_T_SYM))
        return -1;
    at = asm_elf_place(&w->cursor, 1, (uint32_t)w->str.n);
    if (add_scn(w, ".strtab", SHT_STRTAB, 0, 0, at, w->str.p, (uint32_t)w->str.n, 1, 0, 0, 0, ELF_T_BYTE))
        return -1;
    /* .shstrtab names itself: add the name first, then the section with the final size */
    uint32_t shstrtab_name;
    if (sb_add(&w->shstr, ".shstrtab", &shstrtab_name))
        return w_fail(w, "out of memory");
    w->shstr.n -= sizeof ".shstrtab"; /* add_scn appends it again, at the same offset */
    size_t shstr_size = w->shstr.n + sizeof ".shstrtab";
    at = asm_elf_place(&w->cursor, 1, (uint32_t)shstr_size);
    if (add_scn(w, ".shstrtab", SHT_STRTAB, 0, 0, at, NULL, 0, 1, 0, 0, 0, ELF_T_BYTE))
        return -1;
    Elf_Scn *shs = elf_getscn(w->e, symtab_index + 2);
    Elf_Data *d = shs ? elf_getdata(shs, NULL) : NULL;
    Elf32_Shdr *sh = shs ? elf32_getshdr(shs) : NULL;
    if (!d || !sh)
        return w_fail(w, "cannot find .shstrtab");
    d->d_buf = w->shstr.p; /* final: no more names are added */
    d->d_size = shstr_size;
    sh->sh_size = (uint32_t)shstr_size;
    eh = elf32_getehdr(w->e);
    eh->e_shstrndx = (Elf32_Half)(symtab_index + 2);
    eh->e_shoff = asm_elf_place(&w->cursor, 4, 0);
    elf_flagelf(w->e, ELF_C_SET, ELF_F_LAYOUT);
    return 0;
}

/* build()'s arguments through emit() */
typedef struct linked_ctx {
    const asm_elf_image *im;
    Elf32_Sym *syms;
    int *order;
    Elf32_Rela **relas;
} linked_ctx;

static int build_linked(writer *w, const void *ctx)
{
    const linked_ctx *c = ctx;
    return build(w, c->im, c->syms, c->order, c->relas);
}

int asm_elf_write(const char *path, const asm_elf_image *im, char *err, size_t errlen)
{
    writer w = {.path = path, .err = err, .errlen = errlen};
    int n = im->nsyms > 0 ? im->nsyms : 1;
    linked_ctx c = {im, calloc((size_t)n, sizeof *c.syms), calloc((size_t)n, sizeof *c.order),
                    calloc((size_t)im->nsecs + 1, sizeof *c.relas)};
    int rc = -1;
    if (!c.syms || !c.order || !c.relas) {
        snprintf(err, errlen, "%s: out of memory", path);
        goto out;
    }
    for (int i = 0; i < im->nsecs; i++)
        if (im->secs[i].nrelas > 0 && !(c.relas[i] = calloc((size_t)im->secs[i].nrelas, sizeof **c.relas))) {
            snprintf(err, errlen, "%s: out of memory", path);
            goto out;
        }
    rc = emit(&w, build_linked, &c);
out:
    if (c.relas)
        for (int i = 0; i < im->nsecs; i++)
            free(c.relas[i]);
    free(c.relas);
    free(c.order);
    free(c.syms);
    free(w.shstr.p);
    free(w.str.p);
    return rc;
}

uint32_t asm_elf_names_size(const asm_elf_rawsec *secs, int nsecs)
{
    uint32_t n = 1;
    for (int i = 0; i < nsecs; i++)
        n += (uint32_t)strlen(secs[i].name) + 1;
    return n;
}

static int build_raw(writer *w, const asm_elf_raw *im)
{
    Elf32_Ehdr *eh = headers(w, im);
    if (!eh)
        return -1;
    uint32_t empty;
    if (sb_add(&w->shstr, "", &empty))
        return w_fail(w, "out of memory");
    int names = -1;
    for (int i = 0; i < im->nsecs; i++) {
        const asm_elf_rawsec *s = &im->secs[i];
        if (s->is_names)
            names = i;
        if (add_scn(w, s->name, s->type, s->flags, s->addr, s->offset, s->is_names ? NULL : s->data,
                    s->is_names ? 0 : s->size, s->align, s->link, s->info, s->entsize, ELF_T_BYTE))
            return -1;
    }
    eh = elf32_getehdr(w->e);
    if (names >= 0) {
        /* every name is in now: the table's final bytes */
        Elf_Scn *scn = elf_getscn(w->e, (size_t)names + 1);
        Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
        Elf32_Shdr *sh = scn ? elf32_getshdr(scn) : NULL;
        if (!d || !sh)
            return w_fail(w, "cannot find the section-name table");
        d->d_buf = w->shstr.p;
        d->d_size = w->shstr.n;
        sh->sh_size = (uint32_t)w->shstr.n;
        eh->e_shstrndx = (Elf32_Half)(names + 1);
    }
    eh->e_shoff = im->shoff;
    elf_flagelf(w->e, ELF_C_SET, ELF_F_LAYOUT);
    return 0;
}

static int build_raw_ctx(writer *w, const void *ctx) { return build_raw(w, ctx); }

int asm_elf_write_raw(const char *path, const asm_elf_raw *im, char *err, size_t errlen)
{
    writer w = {.path = path, .err = err, .errlen = errlen};
    int rc = emit(&w, build_raw_ctx, im);
    free(w.shstr.p);
    free(w.str.p);
    return rc;
}
