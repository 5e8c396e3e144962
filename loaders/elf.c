/* loaders/elf.c: ELF32/ELF64 images through libelf, hardened against hostile files.
 * libelf parses headers; every size and offset it reports is still checked against the
 * file size before a pointer into the buffer is made, so a truncated or malformed file
 * gives "file: what, where" instead of a crash. Names are copied so the image owns them. */
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ld_internal.h"
#include "../core/grow.h"


static int in_file(const ld_image *img, uint64_t off, uint64_t len)
{
    return off <= img->file_size && len <= img->file_size - off;
}

/* Append a copy of s to the image's string pool; returns its offset or -1. */
static long pool_add(char **pool, size_t *used, size_t *cap, const char *s)
{
    size_t n = strlen(s) + 1;
    if (n > SIZE_MAX - *used)
        return -1;
    char *p = grow_array(*pool, cap, *used + n, 1, 4096);
    if (!p)
        return -1;
    *pool = p;
    memcpy(*pool + *used, s, n);
    *used += n;
    return (long)(*used - n);
}

int ld_elf_parse(ld_image *img, char *err, size_t errlen)
{
    const char *path = img->path;
    if (elf_version(EV_CURRENT) == EV_NONE)
        return ld_err(err, errlen, "%s: libelf initialisation failed", path);
    if (img->file_size < EI_NIDENT + 2)
        return ld_err(err, errlen, "%s: truncated ELF header (%zu bytes, need at least 52)", path, img->file_size);
    int cls = img->file[EI_CLASS];
    if (cls != ELFCLASS32 && cls != ELFCLASS64)
        return ld_err(err, errlen, "%s: offset 4: ELF class %d, expected 1 (32-bit) or 2 (64-bit)", path, cls);
    int data = img->file[EI_DATA];
    if (data != ELFDATA2LSB && data != ELFDATA2MSB)
        return ld_err(err, errlen, "%s: offset 5: ELF data encoding %d, expected 1 (LE) or 2 (BE)", path, data);
    size_t ehsize = cls == ELFCLASS32 ? sizeof(Elf32_Ehdr) : sizeof(Elf64_Ehdr);
    if (img->file_size < ehsize)
        return ld_err(err, errlen, "%s: truncated ELF header (%zu bytes, need %zu)", path, img->file_size, ehsize);

    Elf *e = elf_memory((char *)img->file, img->file_size);
    if (!e)
        return ld_err(err, errlen, "%s: not a valid ELF file: %s", path, elf_errmsg(-1));
    int rc = -1;
    char *pool = NULL;
    size_t used = 0, cap = 0;
    long *secname = NULL, *symname = NULL;
    GElf_Ehdr eh;
    if (!gelf_getehdr(e, &eh)) {
        ld_err(err, errlen, "%s: bad ELF header: %s", path, elf_errmsg(-1));
        goto out;
    }
    img->machine = eh.e_machine;
    img->elf_type = eh.e_type;
    img->eflags = eh.e_flags;
    img->elfclass = (uint8_t)cls;
    img->big_endian = data == ELFDATA2MSB;
    img->entry = eh.e_entry;

    /* Check the header tables against the file size before libelf walks them: libelf
     * reports a cut table only as "invalid data", and may accept a partial one. */
    size_t phsize = cls == ELFCLASS32 ? sizeof(Elf32_Phdr) : sizeof(Elf64_Phdr);
    size_t shsize = cls == ELFCLASS32 ? sizeof(Elf32_Shdr) : sizeof(Elf64_Shdr);
    if (eh.e_phnum && eh.e_phentsize != phsize) {
        ld_err(err, errlen, "%s: e_phentsize %u, expected %zu", path, eh.e_phentsize, phsize);
        goto out;
    }
    if (eh.e_phnum && !in_file(img, eh.e_phoff, (uint64_t)eh.e_phnum * phsize)) {
        ld_err(err, errlen, "%s: program header table at offset %llu (%u entries) runs past the end of the file (%zu bytes)",
               path, (unsigned long long)eh.e_phoff, eh.e_phnum, img->file_size);
        goto out;
    }
    if (eh.e_shoff) {
        if (eh.e_shentsize != shsize) {
            ld_err(err, errlen, "%s: e_shentsize %u, expected %zu", path, eh.e_shentsize, shsize);
            goto out;
        }
        /* e_shnum == 0 with a table means the count lives in section 0: at least one entry */
        uint64_t n = eh.e_shnum ? eh.e_shnum : 1;
        if (!in_file(img, eh.e_shoff, n * shsize)) {
            ld_err(err, errlen, "%s: section header table at offset %llu (%llu entries) runs past the end of the file (%zu bytes)",
                   path, (unsigned long long)eh.e_shoff, (unsigned long long)n, img->file_size);
            goto out;
        }
    }
    size_t phnum = 0, shnum = 0, shstrndx = 0;
    if (elf_getphdrnum(e, &phnum)) {
        ld_err(err, errlen, "%s: bad program header count: %s", path, elf_errmsg(-1));
        goto out;
    }
    if (phnum && !in_file(img, eh.e_phoff, (uint64_t)phnum * phsize)) {
        ld_err(err, errlen, "%s: program header table at offset %llu (%zu entries) runs past the end of the file (%zu bytes)", path,
               (unsigned long long)eh.e_phoff, phnum, img->file_size);
        goto out;
    }
    img->segs = calloc(phnum ? phnum : 1, sizeof *img->segs);
    if (!img->segs)
        goto nomem;
    for (size_t i = 0; i < phnum; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(e, (int)i, &ph)) {
            ld_err(err, errlen, "%s: program header %zu unreadable: %s", path, i, elf_errmsg(-1));
            goto out;
        }
        if (ph.p_type != PT_LOAD)
            continue;
        if (!in_file(img, ph.p_offset, ph.p_filesz)) {
            ld_err(err, errlen, "%s: segment %zu: file range [%llu, +%llu) runs past the end of the file (%zu bytes)", path, i,
                   (unsigned long long)ph.p_offset, (unsigned long long)ph.p_filesz, img->file_size);
            goto out;
        }
        if (ph.p_filesz > ph.p_memsz) {
            ld_err(err, errlen, "%s: segment %zu: file size %llu exceeds memory size %llu", path, i,
                   (unsigned long long)ph.p_filesz, (unsigned long long)ph.p_memsz);
            goto out;
        }
        ld_segment *s = &img->segs[img->nsegs++];
        s->vaddr = ph.p_vaddr;
        s->paddr = ph.p_paddr;
        s->memsz = ph.p_memsz;
        s->filesz = ph.p_filesz;
        s->offset = ph.p_offset;
        s->flags = ph.p_flags;
        s->type = ph.p_type;
        s->data = img->file + ph.p_offset;
    }

    if (eh.e_shoff) {
        if (elf_getshdrnum(e, &shnum) || elf_getshdrstrndx(e, &shstrndx)) {
            ld_err(err, errlen, "%s: bad section header table: %s", path, elf_errmsg(-1));
            goto out;
        }
        if (!in_file(img, eh.e_shoff, (uint64_t)shnum * shsize)) {
            ld_err(err, errlen, "%s: section header table at offset %llu (%zu entries) runs past the end of the file (%zu bytes)",
                   path, (unsigned long long)eh.e_shoff, shnum, img->file_size);
            goto out;
        }
        if (shnum && shstrndx >= shnum) {
            ld_err(err, errlen, "%s: section name table index %zu is not below the section count %zu", path, shstrndx, shnum);
            goto out;
        }
    }
    img->secs = calloc(shnum ? shnum : 1, sizeof *img->secs);
    secname = calloc(shnum ? shnum : 1, sizeof *secname);
    if (!img->secs || !secname)
        goto nomem;
    Elf_Scn *symscn = NULL;
    GElf_Shdr symsh;
    for (Elf_Scn *scn = NULL; shnum && (scn = elf_nextscn(e, scn)) != NULL;) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh)) {
            ld_err(err, errlen, "%s: section header unreadable: %s", path, elf_errmsg(-1));
            goto out;
        }
        const char *nm = elf_strptr(e, shstrndx, sh.sh_name);
        if (sh.sh_type != SHT_NOBITS && sh.sh_type != SHT_NULL && !in_file(img, sh.sh_offset, sh.sh_size)) {
            ld_err(err, errlen, "%s: section '%s': file range [%llu, +%llu) runs past the end of the file (%zu bytes)", path,
                   nm ? nm : "?", (unsigned long long)sh.sh_offset, (unsigned long long)sh.sh_size, img->file_size);
            goto out;
        }
        ld_section *s = &img->secs[img->nsecs];
        long off = pool_add(&pool, &used, &cap, nm ? nm : "");
        if (off < 0)
            goto nomem;
        secname[img->nsecs++] = off;
        s->addr = sh.sh_addr;
        s->size = sh.sh_size;
        s->offset = sh.sh_offset;
        s->align = sh.sh_addralign;
        s->type = sh.sh_type;
        s->flags = (uint32_t)sh.sh_flags;
        s->data = sh.sh_type == SHT_NOBITS || sh.sh_type == SHT_NULL ? NULL : img->file + sh.sh_offset;
        if (sh.sh_type == SHT_SYMTAB) {
            symscn = scn;
            symsh = sh;
        }
    }
    if (symscn) {
        Elf_Data *d = elf_getdata(symscn, NULL);
        size_t entsize = gelf_fsize(e, ELF_T_SYM, 1, EV_CURRENT);
        size_t n = d && entsize ? d->d_size / entsize : 0;
        img->syms = calloc(n ? n : 1, sizeof *img->syms);
        symname = calloc(n ? n : 1, sizeof *symname);
        if (!img->syms || !symname)
            goto nomem;
        for (size_t i = 1; i < n; i++) {
            GElf_Sym sym;
            if (!gelf_getsym(d, (int)i, &sym))
                break;
            const char *nm = elf_strptr(e, symsh.sh_link, sym.st_name);
            if (!nm || !*nm)
                continue;
            long off = pool_add(&pool, &used, &cap, nm);
            if (off < 0)
                goto nomem;
            ld_symbol *s = &img->syms[img->nsyms];
            symname[img->nsyms++] = off;
            s->value = sym.st_value;
            s->size = sym.st_size;
            s->type = GELF_ST_TYPE(sym.st_info);
            s->bind = GELF_ST_BIND(sym.st_info);
            s->shndx = sym.st_shndx;
        }
    }
    /* resolve pooled names now that the pool has stopped moving */
    img->strings = pool;
    pool = NULL;
    for (int i = 0; i < img->nsecs; i++)
        img->secs[i].name = img->strings + secname[i];
    for (int i = 0; i < img->nsyms; i++)
        img->syms[i].name = img->strings + symname[i];
    if (!img->nsegs && !img->nsecs) {
        ld_err(err, errlen, "%s: ELF file has neither loadable segments nor sections", path);
        goto out;
    }
    rc = 0;
    goto out;
nomem:
    ld_err(err, errlen, "%s: out of memory", path);
out:
    free(pool);
    free(secname);
    free(symname);
    elf_end(e);
    return rc;
}
