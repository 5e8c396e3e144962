/* isa/ipu/link.c: the single-tile IPU linker behind `xpusim asm --isa ipu a.o b.S -o x.elf`.
 * It reads relocatable objects (ELF32 little-endian, ET_REL, EM 248, SHT_RELA sections, as
 * our own asm_elf.c writes them), merges the allocated sections by name in the order they
 * first appear (each input piece aligned to its own alignment; gaps in code hold nops, as the
 * assembler pads code, other gaps zeros), places the merged sections one after another from
 * the tile memory base as asm.c places a multi-source program, resolves global symbols across
 * the objects (a strong definition wins over a weak one, two strong ones are an error, an
 * undefined weak reference is 0) and applies every R_COLOSSUS_* relocation through the table
 * of link_reloc.c. The host is assumed little-endian for the ELF structures, as the rest of
 * xpusim does. */
#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "asm.h"
#include "link.h"
#include "../../core/mem.h"

#define EM_GRAPHCORE_IPU 248

/* ---- the linker ---- */

typedef struct lobj {
    const char *path;
    uint8_t *buf;
    size_t len;
    Elf32_Ehdr eh;
    Elf32_Shdr *sh;          /* copies of the section headers */
    int nsh;
    const char *shstr; size_t shstrlen;
    Elf32_Sym *syms; int nsyms;
    const char *str; size_t strlen;
    int *osec;               /* per input section: the output section, or -1 (not in the image) */
    uint32_t *ooff;          /* per input section: its offset in the output section */
} lobj;

typedef struct lsec {
    const char *name;
    uint32_t type, flags, align, size, addr;
    uint8_t *data;
} lsec;

typedef struct lglob {       /* one global name */
    const char *name;
    uint32_t value;
    int obj, sec;            /* the defining object and output section (-2 absolute, -1 none) */
    int defined, weak, func;
} lglob;

typedef struct lctx {
    lobj *o; int no;
    lsec *s; int ns, caps;
    lglob *g; int ng, capg;
    uint32_t tmem_base;
    char *err; size_t errlen;
} lctx;

static int lerr(lctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int lerr(lctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, c->errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static const char *str_at(const char *tab, size_t len, uint32_t off)
{
    if (!tab || off >= len || !memchr(tab + off, 0, len - off))
        return NULL;
    return tab + off;
}

static const char *sec_name(const lobj *o, int i)
{
    const char *n = str_at(o->shstr, o->shstrlen, o->sh[i].sh_name);
    return n ? n : "?";
}

static int read_whole(lctx *c, lobj *o)
{
    FILE *f = fopen(o->path, "rb");
    if (!f)
        return lerr(c, "%s: %s", o->path, strerror(errno));
    size_t cap = 1 << 16, n = 0;
    uint8_t *b = malloc(cap);
    while (b) {
        size_t r = fread(b + n, 1, cap - n, f);
        n += r;
        if (n < cap)
            break;
        uint8_t *nb = cap < ((size_t)1 << 30) ? realloc(b, cap * 2) : NULL;
        if (!nb)
            free(b);
        b = nb, cap *= 2;
    }
    fclose(f);
    if (!b)
        return lerr(c, "%s: out of memory (or larger than 1 GiB)", o->path);
    o->buf = b, o->len = n;
    return 0;
}

static int in_file(const lobj *o, uint32_t off, uint64_t size) { return off <= o->len && size <= o->len - off; }

/* Check the headers and find the symbol table. */
static int parse_obj(lctx *c, lobj *o)
{
    if (read_whole(c, o))
        return -1;
    if (o->len < sizeof o->eh || memcmp(o->buf, ELFMAG, SELFMAG))
        return lerr(c, "%s: not an ELF file", o->path);
    memcpy(&o->eh, o->buf, sizeof o->eh);
    if (o->eh.e_ident[EI_CLASS] != ELFCLASS32 || o->eh.e_ident[EI_DATA] != ELFDATA2LSB)
        return lerr(c, "%s: not a 32-bit little-endian ELF file", o->path);
    if (o->eh.e_machine != EM_GRAPHCORE_IPU)
        return lerr(c, "%s: machine %u is not the Graphcore IPU (248)", o->path, o->eh.e_machine);
    if (o->eh.e_type != ET_REL)
        return lerr(c, "%s: not a relocatable object (ELF type %u): only objects are linked", o->path,
                    o->eh.e_type);
    o->nsh = o->eh.e_shnum;
    if (o->eh.e_shentsize != sizeof(Elf32_Shdr) || !in_file(o, o->eh.e_shoff, (uint64_t)o->nsh * sizeof(Elf32_Shdr)) ||
        o->nsh == 0 || o->eh.e_shstrndx >= o->nsh)
        return lerr(c, "%s: bad section header table", o->path);
    o->sh = calloc((size_t)o->nsh, sizeof *o->sh);
    o->osec = calloc((size_t)o->nsh, sizeof *o->osec);
    o->ooff = calloc((size_t)o->nsh, sizeof *o->ooff);
    if (!o->sh || !o->osec || !o->ooff)
        return lerr(c, "out of memory");
    memcpy(o->sh, o->buf + o->eh.e_shoff, (size_t)o->nsh * sizeof *o->sh);
    for (int i = 0; i < o->nsh; i++) {
        o->osec[i] = -1;
        if (o->sh[i].sh_type != SHT_NOBITS && o->sh[i].sh_type != SHT_NULL &&
            !in_file(o, o->sh[i].sh_offset, o->sh[i].sh_size))
            return lerr(c, "%s: section %d lies outside the file", o->path, i);
    }
    const Elf32_Shdr *ss = &o->sh[o->eh.e_shstrndx];
    if (ss->sh_type == SHT_NOBITS)
        return lerr(c, "%s: bad section name table", o->path);
    o->shstr = (const char *)o->buf + ss->sh_offset, o->shstrlen = ss->sh_size;
    for (int i = 0; i < o->nsh; i++) {
        const Elf32_Shdr *h = &o->sh[i];
        if (h->sh_type == SHT_REL)
            return lerr(c, "%s: section %s: REL relocations (the IPU uses RELA)", o->path, sec_name(o, i));
        if (h->sh_type != SHT_SYMTAB)
            continue;
        if (h->sh_entsize != sizeof(Elf32_Sym) || h->sh_link >= (uint32_t)o->nsh ||
            o->sh[h->sh_link].sh_type == SHT_NOBITS)
            return lerr(c, "%s: bad symbol table", o->path);
        o->syms = (Elf32_Sym *)(void *)(o->buf + h->sh_offset); /* read through memcpy below */
        o->nsyms = (int)(h->sh_size / sizeof(Elf32_Sym));
        o->str = (const char *)o->buf + o->sh[h->sh_link].sh_offset;
        o->strlen = o->sh[h->sh_link].sh_size;
    }
    return 0;
}

static Elf32_Sym sym_at(const lobj *o, int i)
{
    Elf32_Sym s;
    memcpy(&s, (const uint8_t *)o->syms + (size_t)i * sizeof s, sizeof s);
    return s;
}

/* Merge the allocated sections of every object by name, in first-appearance order. */
static int merge_sections(lctx *c)
{
    for (int k = 0; k < c->no; k++) {
        lobj *o = &c->o[k];
        for (int i = 1; i < o->nsh; i++) {
            const Elf32_Shdr *h = &o->sh[i];
            if (!(h->sh_flags & SHF_ALLOC))
                continue;
            const char *name = sec_name(o, i);
            int j = 0;
            while (j < c->ns && strcmp(c->s[j].name, name))
                j++;
            if (j == c->ns) {
                if (c->ns == c->caps) {
                    int cap = c->caps ? 2 * c->caps : 16;
                    lsec *v = realloc(c->s, sizeof *v * (size_t)cap);
                    if (!v)
                        return lerr(c, "out of memory");
                    c->s = v, c->caps = cap;
                }
                c->s[c->ns++] = (lsec){name, h->sh_type, h->sh_flags, 1, 0, 0, NULL};
            }
            lsec *s = &c->s[j];
            uint32_t al = h->sh_addralign ? h->sh_addralign : 1;
            if (al & (al - 1))
                return lerr(c, "%s: section %s: alignment %u is not a power of two", o->path, name, al);
            if (h->sh_type != SHT_NOBITS)
                s->type = s->type == SHT_NOBITS ? SHT_PROGBITS : s->type;
            s->flags |= h->sh_flags & (SHF_WRITE | SHF_EXECINSTR);
            if ((s->flags ^ h->sh_flags) & IPU_SHF_SUPERVISOR)
                s->flags &= ~IPU_SHF_SUPERVISOR; /* worker code joined it */
            s->align = al > s->align ? al : s->align;
            uint64_t at = ((uint64_t)s->size + al - 1) & ~(uint64_t)(al - 1);
            if (at + h->sh_size > IPU_MAX_SECTION)
                return lerr(c, "%s: section %s: the merged section exceeds %u bytes", o->path, name, IPU_MAX_SECTION);
            o->osec[i] = j;
            o->ooff[i] = (uint32_t)at;
            s->size = (uint32_t)(at + h->sh_size);
        }
    }
    uint64_t cur = c->tmem_base;
    for (int j = 0; j < c->ns; j++) {
        lsec *s = &c->s[j];
        cur = (cur + s->align - 1) & ~(uint64_t)(s->align - 1);
        s->addr = (uint32_t)cur;
        cur += s->size;
        if (cur > 0xffffffffu)
            return lerr(c, "section %s ends beyond the 32-bit address space", s->name);
        if (s->type != SHT_NOBITS && !(s->data = calloc(s->size ? s->size : 1, 1)))
            return lerr(c, "out of memory for %s", s->name);
    }
    uint32_t *end = calloc((size_t)c->ns + 1, sizeof *end); /* how far each section is filled */
    if (!end)
        return lerr(c, "out of memory");
    for (int k = 0; k < c->no; k++) { /* the contents */
        const lobj *o = &c->o[k];
        for (int i = 1; i < o->nsh; i++) {
            int j = o->osec[i];
            if (j < 0 || o->sh[i].sh_type == SHT_NOBITS || !c->s[j].data)
                continue;
            /* the gap before a code piece gets what asm_out.c pads code with (zeros to a word,
             * then nops), so that aligned pieces match one invocation's `.align` padding */
            if (c->s[j].flags & SHF_EXECINSTR)
                for (uint32_t at = (end[j] + 3) & ~3u; at + 4 <= o->ooff[i]; at += 4)
                    mem_st32le(c->s[j].data + at, 0x19e00000u);
            memcpy(c->s[j].data + o->ooff[i], o->buf + o->sh[i].sh_offset, o->sh[i].sh_size);
            end[j] = o->ooff[i] + o->sh[i].sh_size;
        }
    }
    free(end);
    return 0;
}

/* A defined symbol's address (its section placed), or -1 if its section is not in the image. */
static int sym_addr(const lctx *c, const lobj *o, const Elf32_Sym *s, uint32_t *v, int *osec)
{
    if (s->st_shndx == SHN_ABS) {
        *v = s->st_value, *osec = -2;
        return 0;
    }
    if (s->st_shndx >= o->nsh || o->osec[s->st_shndx] < 0)
        return -1;
    *osec = o->osec[s->st_shndx];
    *v = c->s[*osec].addr + o->ooff[s->st_shndx] + s->st_value;
    return 0;
}

static lglob *glob_find(lctx *c, const char *name)
{
    for (int i = 0; i < c->ng; i++)
        if (!strcmp(c->g[i].name, name))
            return &c->g[i];
    return NULL;
}

static int collect_globals(lctx *c)
{
    for (int k = 0; k < c->no; k++) {
        const lobj *o = &c->o[k];
        for (int i = 1; i < o->nsyms; i++) {
            Elf32_Sym s = sym_at(o, i);
            int bind = ELF32_ST_BIND(s.st_info);
            if (bind != STB_GLOBAL && bind != STB_WEAK)
                continue;
            const char *name = str_at(o->str, o->strlen, s.st_name);
            if (!name || !name[0])
                return lerr(c, "%s: symbol %d has a bad name", o->path, i);
            if (s.st_shndx == SHN_COMMON)
                return lerr(c, "%s: common symbol '%s' is not supported", o->path, name);
            lglob *g = glob_find(c, name);
            if (!g) {
                if (c->ng == c->capg) {
                    int cap = c->capg ? 2 * c->capg : 64;
                    lglob *v = realloc(c->g, sizeof *v * (size_t)cap);
                    if (!v)
                        return lerr(c, "out of memory");
                    c->g = v, c->capg = cap;
                }
                g = &c->g[c->ng++];
                *g = (lglob){name, 0, -1, -1, 0, 0, 0};
            }
            if (s.st_shndx == SHN_UNDEF)
                continue;
            int weak = bind == STB_WEAK;
            if (g->defined && !g->weak && !weak)
                return lerr(c, "%s: symbol '%s' is already defined in %s", o->path, name, c->o[g->obj].path);
            if (g->defined && weak)
                continue;
            uint32_t v = 0;
            int sec = -1;
            if (sym_addr(c, o, &s, &v, &sec))
                return lerr(c, "%s: symbol '%s' is in a section that is not loaded", o->path, name);
            *g = (lglob){name, v, k, sec, 1, weak, ELF32_ST_TYPE(s.st_info) == STT_FUNC};
        }
    }
    return 0;
}

/* Apply the relocations of every RELA section whose target is in the image. */
static int relocate(lctx *c)
{
    for (int k = 0; k < c->no; k++) {
        const lobj *o = &c->o[k];
        for (int i = 1; i < o->nsh; i++) {
            const Elf32_Shdr *h = &o->sh[i];
            if (h->sh_type != SHT_RELA)
                continue;
            uint32_t t = h->sh_info;
            if (t >= (uint32_t)o->nsh)
                return lerr(c, "%s: %s: target section %u does not exist", o->path, sec_name(o, i), t);
            if (o->osec[t] < 0) /* debug info and other sections not loaded */
                continue;
            if (h->sh_entsize != sizeof(Elf32_Rela))
                return lerr(c, "%s: %s: entry size %u is not RELA's", o->path, sec_name(o, i), h->sh_entsize);
            lsec *out = &c->s[o->osec[t]];
            const char *tn = sec_name(o, (int)t);
            for (uint32_t e = 0; e < h->sh_size / sizeof(Elf32_Rela); e++) {
                Elf32_Rela r;
                memcpy(&r, o->buf + h->sh_offset + (size_t)e * sizeof r, sizeof r);
                uint32_t type = ELF32_R_TYPE(r.r_info), si = ELF32_R_SYM(r.r_info);
                const ipu_reloc_row *row = ipu_reloc_find(type);
                if (!row)
                    return lerr(c, "%s: section %s offset 0x%x: unknown relocation type %u", o->path, tn,
                                r.r_offset, type);
                const char *tyn = row->name;
                if ((uint64_t)r.r_offset + row->size > o->sh[t].sh_size)
                    return lerr(c, "%s: section %s offset 0x%x: R_COLOSSUS_%s: the field (%u bytes) runs past the "
                                "section's end (0x%x bytes)", o->path, tn, r.r_offset, tyn, row->size,
                                o->sh[t].sh_size);
                if (row->place == IPU_RF_NONE)
                    continue;
                if (!out->data)
                    return lerr(c, "%s: section %s offset 0x%x: R_COLOSSUS_%s in a section without contents",
                                o->path, tn, r.r_offset, tyn);
                if ((int)si >= o->nsyms || (!si && o->nsyms == 0))
                    return lerr(c, "%s: section %s offset 0x%x: R_COLOSSUS_%s: symbol %u does not exist", o->path,
                                tn, r.r_offset, tyn, si);
                Elf32_Sym s = sym_at(o, (int)si);
                const char *sn = str_at(o->str, o->strlen, s.st_name);
                uint32_t sv = 0;
                int sec = -1;
                if (ELF32_ST_BIND(s.st_info) != STB_LOCAL && sn && sn[0]) {
                    const lglob *g = glob_find(c, sn);
                    if (!g || (!g->defined && ELF32_ST_BIND(s.st_info) != STB_WEAK))
                        return lerr(c, "%s: section %s offset 0x%x: R_COLOSSUS_%s: undefined symbol '%s'", o->path,
                                    tn, r.r_offset, tyn, sn);
                    sv = g->defined ? g->value : 0; /* an undefined weak symbol is 0 */
                } else if (si && sym_addr(c, o, &s, &sv, &sec))
                    return lerr(c, "%s: section %s offset 0x%x: R_COLOSSUS_%s: symbol '%s' is in a section that is "
                                "not loaded", o->path, tn, r.r_offset, tyn, sn && sn[0] ? sn : sec_name(o, s.st_shndx));
                uint64_t val = (uint64_t)((int64_t)sv + r.r_addend); /* S + A */
                char why[200];
                if (ipu_reloc_apply(row, out->data + o->ooff[t] + r.r_offset, val, c->tmem_base, why, sizeof why))
                    return lerr(c, "%s: section %s offset 0x%x: R_COLOSSUS_%s against '%s': %s", o->path, tn,
                                r.r_offset, tyn, sn && sn[0] ? sn : sec_name(o, s.st_shndx), why);
            }
        }
    }
    return 0;
}

/* The image: the merged sections, then every named symbol (locals too: the debugger's). */
static int write_image(lctx *c, const char *out, const char *entry_name)
{
    int cap = c->ng + 1;
    for (int k = 0; k < c->no; k++)
        cap += c->o[k].nsyms;
    ipu_elf_sec *secs = calloc((size_t)c->ns + 1, sizeof *secs);
    ipu_elf_sym *syms = calloc((size_t)cap, sizeof *syms);
    int n = 0, rc = -1, have_entry = 0;
    uint32_t entry = 0;
    if (!secs || !syms) {
        lerr(c, "out of memory");
        goto done;
    }
    for (int j = 0; j < c->ns; j++) {
        const lsec *s = &c->s[j];
        secs[j] = (ipu_elf_sec){s->name, s->type, s->flags, s->align, s->size, s->addr, s->data};
        if (!entry && (s->flags & SHF_EXECINSTR) && s->size)
            entry = s->addr;
    }
    for (int k = 0; k < c->no; k++) {
        const lobj *o = &c->o[k];
        for (int i = 1; i < o->nsyms; i++) {
            Elf32_Sym s = sym_at(o, i);
            const char *nm = str_at(o->str, o->strlen, s.st_name);
            int type = ELF32_ST_TYPE(s.st_info);
            if (ELF32_ST_BIND(s.st_info) != STB_LOCAL || !nm || !nm[0] || type == STT_SECTION || type == STT_FILE ||
                !strncmp(nm, ".L", 2))
                continue;
            uint32_t v = 0;
            int sec = -1;
            if (sym_addr(c, o, &s, &v, &sec))
                continue;
            syms[n++] = (ipu_elf_sym){nm, v, s.st_size, sec, 0, 0, type == STT_FUNC};
            if (!have_entry && entry_name && !strcmp(nm, entry_name))
                entry = v, have_entry = 1;
        }
    }
    for (int i = 0; i < c->ng; i++) {
        const lglob *g = &c->g[i];
        if (!g->defined)
            continue;
        uint32_t size = 0;
        Elf32_Sym s;
        for (int j = 1; j < c->o[g->obj].nsyms; j++) { /* the defining entry's size */
            s = sym_at(&c->o[g->obj], j);
            const char *nm = str_at(c->o[g->obj].str, c->o[g->obj].strlen, s.st_name);
            if (ELF32_ST_BIND(s.st_info) != STB_LOCAL && s.st_shndx != SHN_UNDEF && nm && !strcmp(nm, g->name))
                size = s.st_size;
        }
        syms[n++] = (ipu_elf_sym){g->name, g->value, size, g->sec, 1, g->weak, g->func};
        if (entry_name && !strcmp(g->name, entry_name))
            entry = g->value, have_entry = 1;
    }
    if (!have_entry && entry_name && strcmp(entry_name, "_start")) {
        lerr(c, "%s: entry symbol '%s' is not defined", out, entry_name);
        goto done;
    }
    ipu_elf_out eo = {0, entry, secs, c->ns, syms, n, NULL, 0};
    rc = ipu_write_elf(out, &eo, c->err, c->errlen);
done:
    free(secs), free(syms);
    return rc;
}

int ipu_link(int nobj, const char *const *paths, const char *const *names, const char *out, uint32_t tmem_base,
             const char *entry, char *err, size_t errlen)
{
    lctx c = {0};
    c.tmem_base = tmem_base, c.err = err, c.errlen = errlen;
    c.o = calloc((size_t)nobj + 1, sizeof *c.o);
    int rc = -1;
    if (!c.o) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    c.no = nobj;
    for (int k = 0; k < nobj; k++)
        c.o[k].path = paths[k];
    for (int k = 0; k < nobj; k++)
        if (parse_obj(&c, &c.o[k]))
            goto done;
    if (merge_sections(&c) || collect_globals(&c) || relocate(&c))
        goto done;
    rc = write_image(&c, out, entry ? entry : "_start");
done:
    if (rc && names) /* a source assembled to a temporary object: name the source, not the file */
        for (int k = 0; k < nobj; k++) {
            size_t pl = strlen(paths[k]);
            if (names[k] && !strncmp(err, paths[k], pl) && err[pl] == ':') {
                char tmp[1024];
                snprintf(tmp, sizeof tmp, "%s (assembled)%s", names[k], err + pl);
                snprintf(err, errlen, "%s", tmp);
                break;
            }
        }
    for (int k = 0; k < nobj; k++)
        free(c.o[k].buf), free(c.o[k].sh), free(c.o[k].osec), free(c.o[k].ooff);
    for (int j = 0; j < c.ns; j++)
        free(c.s[j].data);
    free(c.o), free(c.s), free(c.g);
    return rc;
}

int ipu_is_object(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    unsigned char m[SELFMAG];
    int is = fread(m, 1, SELFMAG, f) == SELFMAG && !memcmp(m, ELFMAG, SELFMAG);
    fclose(f);
    return is;
}

/* `xpusim asm --isa ipu` with at least one object among its inputs: every source is assembled
 * alone into a temporary object (-o object=1), then everything is linked in input order. */
int ipu_link_inputs(int nin, const char *const *ins, const char *out, const sim_opts *opts, char *err, size_t errlen)
{
    int archi = 1;
    uint64_t object = 2;
    if (opts && (opt_choice(opts, ipu_asm_options, "arch", &archi, err, errlen) ||
                 opt_uint(opts, ipu_asm_options, "object", &object, err, errlen)))
        return -1;
    size_t ol = strlen(out);
    if (object == 1 || (object == 2 && ol > 2 && !strcmp(out + ol - 2, ".o"))) {
        snprintf(err, errlen, "%s: objects among the inputs are linked into an executable; a relocatable output "
                 "(partial link) is not supported", out);
        return -1;
    }
    uint32_t base = archi == 0 ? 0x40000u : 0x4c000u; /* TMEM_REGION0_BASE_ADDR, as asm.c */
    char **tmp = calloc((size_t)nin + 1, sizeof *tmp);
    const char **paths = calloc((size_t)nin + 1, sizeof *paths), **names = calloc((size_t)nin + 1, sizeof *names);
    sim_opts o;
    int rc = -1;
    if (!tmp || !paths || !names) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    if (opts)
        o = *opts;
    else
        opt_init(&o);
    if (opt_set(&o, "object", "1")) {
        snprintf(err, errlen, "too many options");
        goto done;
    }
    const char *td = getenv("TMPDIR");
    for (int i = 0; i < nin; i++) {
        paths[i] = ins[i];
        if (ipu_is_object(ins[i]))
            continue;
        size_t n = strlen(td && td[0] ? td : "/tmp") + 32;
        if (!(tmp[i] = malloc(n))) {
            snprintf(err, errlen, "out of memory");
            goto done;
        }
        snprintf(tmp[i], n, "%s/xpusim-link-XXXXXX", td && td[0] ? td : "/tmp");
        int fd = mkstemp(tmp[i]);
        if (fd < 0) {
            snprintf(err, errlen, "cannot make a temporary file: %s", strerror(errno));
            free(tmp[i]), tmp[i] = NULL;
            goto done;
        }
        close(fd);
        const char *src = ins[i];
        if (ipu_assemble(1, &src, tmp[i], &o, err, errlen))
            goto done;
        paths[i] = tmp[i], names[i] = ins[i];
    }
    rc = ipu_link(nin, paths, names, out, base, opts ? opt_text(opts, ipu_asm_options, "entry") : NULL, err, errlen);
done:
    for (int i = 0; tmp && i < nin; i++)
        if (tmp[i])
            unlink(tmp[i]), free(tmp[i]);
    free(tmp), free(paths), free(names);
    return rc;
}
