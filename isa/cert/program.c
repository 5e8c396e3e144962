/* isa/cert/program.c: an aiebu control-code ELF turned into what the host hands the CERT
 * firmware: per uC, its pages back to back at page * 8192 (text, then data, zero-padded to
 * the page size, as XRT's module_elf lays them out), then its .pad buffers. Reads both
 * layouts aiebu writes: per-page sections (.ctrltext.<uc>.<page>, .ctrldata.<uc>.<page>,
 * ABI 0x01-0x03) and merged pages (.ctrltext.<uc>, one section per uC holding every page,
 * ABI 0x21). Every page header is parsed and checked, and patch records (.rela.dyn over
 * .dynsym) are kept for display. Errors name the section, page and offset. */
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include "cert.h"

enum { EM_M32_ = 1, ET_EXEC_ = 2, EI_OSABI_ = 7, EI_ABIVERSION_ = 8 };

static const struct { uint8_t osabi; int target; const char *name; } osabis[] = {
    {0x40, CERT_T_AIE2PS, "aie2ps"}, {0x4B, CERT_T_AIE4, "aie4"}, {0x56, CERT_T_AIE4A, "aie4-a"},
    {0x69, CERT_T_AIE4Z, "aie4-z"},  {0x46, CERT_T_GROUP, "group"},
};

const char *cert_target_name(int target)
{
    for (size_t i = 0; i < sizeof osabis / sizeof osabis[0]; i++)
        if (osabis[i].target == target)
            return osabis[i].name;
    return "?";
}

int cert_target_ucs_per_column(int target) { return target == CERT_T_AIE2PS || target == CERT_T_GROUP ? 1 : 2; }

static int osabi_target(uint8_t osabi)
{
    for (size_t i = 0; i < sizeof osabis / sizeof osabis[0]; i++)
        if (osabis[i].osabi == osabi)
            return osabis[i].target;
    return -1;
}

int cert_probe_image(const ld_image *img)
{
    if (img->fmt != LD_ELF || img->machine != EM_M32_ || img->file_size <= EI_ABIVERSION_)
        return 0;
    return osabi_target(img->file[EI_OSABI_]) >= 0 ? 100 : 0;
}

static uint32_t le16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t le32(const uint8_t *p) { return le16(p) | le16(p + 2) << 16; }

int cert_page_hdr_parse(const uint8_t *p, cert_page_hdr *h)
{
    h->magic = (uint16_t)le16(p);
    h->index = (uint16_t)le16(p + 2);
    h->ooo_len1 = (uint16_t)le16(p + 4);
    h->ooo_len2 = (uint16_t)le16(p + 6);
    h->cur_len = (uint16_t)le16(p + 8);
    h->next_len = (uint16_t)le16(p + 10);
    h->busy_poll = p[12];
    return h->magic == 0xFFFF ? 0 : -1;
}

/* Parse a decimal number at *s (no sign, no overflow past max); advances *s. */
static int parse_dec(const char **s, unsigned long max, unsigned long *out)
{
    const char *p = *s;
    unsigned long v = 0;
    if (*p < '0' || *p > '9')
        return -1;
    for (; *p >= '0' && *p <= '9'; p++) {
        v = v * 10 + (unsigned long)(*p - '0');
        if (v > max)
            return -1;
    }
    *s = p;
    *out = v;
    return 0;
}

enum { S_OTHER, S_TEXT, S_DATA, S_PAD };
static int kind_has_instance(int kind) { return kind == S_TEXT || kind == S_DATA; }
/* Classify a section name: kind, uC and page (page = ULONG_MAX when the name has none). */
static int section_kind(const char *name, unsigned long *uc, unsigned long *page)
{
    static const struct { const char *prefix; int kind; } k[] = {
        {".ctrltext.", S_TEXT}, {".ctrldata.", S_DATA}, {".pad.", S_PAD}};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        size_t n = strlen(k[i].prefix);
        if (strncmp(name, k[i].prefix, n))
            continue;
        const char *p = name + n;
        *page = (unsigned long)-1;
        if (parse_dec(&p, CERT_MAX_UC - 1, uc))
            return -1;
        if (*p == '.') {
            p++;
            if (parse_dec(&p, CERT_MAX_PAGES - 1, page))
                return -1;
        }
        unsigned long inst;
        if (*p == '.' && kind_has_instance(k[i].kind)) { /* ABI 0x03 config ELFs: .<uc>.<page>.<instance> */
            p++;
            if (parse_dec(&p, 0xFFFF, &inst))
                return -1;
        }
        return *p ? -1 : k[i].kind;
    }
    return S_OTHER;
}

/* "path: section 'sec': what" into err; always -1. fmt is ours, never the file's. */
__attribute__((format(printf, 4, 6)))
static int fail(char *err, size_t n, const char *path, const char *fmt, const char *sec, ...)
{
    int w = snprintf(err, n, "%s: section '%s': ", path, sec);
    if (w >= 0 && (size_t)w < n) {
        va_list ap;
        va_start(ap, sec);
        vsnprintf(err + w, n - (size_t)w, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* First pass: how many pages and how much pad each uC has. */
static int size_ucs(const ld_image *img, int merged, cert_program *p, uint32_t *npages, size_t *pad,
                    char *err, size_t n)
{
    for (int i = 0; i < img->nsecs; i++) {
        const ld_section *s = &img->secs[i];
        unsigned long uc, page;
        int kind = section_kind(s->name, &uc, &page);
        if (kind < 0)
            return fail(err, n, img->path, "malformed name: expected .ctrltext.<uc>[.<page>], .ctrldata.<uc>.<page> "
                        "or .pad.<uc> with uc < %lu and page < %lu", s->name, (unsigned long)CERT_MAX_UC, (unsigned long)CERT_MAX_PAGES);
        if (kind == S_OTHER)
            continue;
        if (!s->data && s->size)
            return fail(err, n, img->path, "has no contents (type %u)", s->name, (unsigned)s->type);
        if ((int)uc + 1 > p->nuc)
            p->nuc = (int)uc + 1;
        if (kind == S_PAD) {
            if (s->size > CERT_PAGE_SIZE * (size_t)CERT_MAX_PAGES)
                return fail(err, n, img->path, "pad of %lu bytes is larger than %lu", s->name, s->size,
                            (unsigned long)CERT_PAGE_SIZE * CERT_MAX_PAGES);
            pad[uc] += s->size;
            continue;
        }
        uint32_t pages;
        if (merged && kind == S_TEXT) {
            if (s->size % CERT_PAGE_SIZE || !s->size || s->size / CERT_PAGE_SIZE > CERT_MAX_PAGES)
                return fail(err, n, img->path, "merged-page text of %lu bytes: expected a non-zero multiple of %lu "
                            "(at most %lu pages)", s->name, (unsigned long)s->size, (unsigned long)CERT_PAGE_SIZE, (unsigned long)CERT_MAX_PAGES);
            pages = (uint32_t)(s->size / CERT_PAGE_SIZE);
        } else {
            if (page == (unsigned long)-1)
                return fail(err, n, img->path, "expected a page number (.<uc>.<page>) in a per-page ELF "
                            "(ABI version 0x%02x)", s->name, (unsigned)img->file[EI_ABIVERSION_]);
            if (s->size > CERT_PAGE_SIZE)
                return fail(err, n, img->path, "%lu bytes: a page holds at most %u", s->name, (unsigned long)s->size,
                            CERT_PAGE_SIZE);
            pages = (uint32_t)page + 1;
        }
        if (pages > npages[uc])
            npages[uc] = pages;
    }
    return 0;
}

/* Copy every text and data section into its page; text first (at the page start), the data
 * right after the text (aiebu's ABI 0x02 pages hold text + data = one page). */
static int place(const ld_image *img, int merged, cert_program *p, uint32_t *data_at, size_t *pad_at,
                 char *err, size_t n)
{
    for (int pass = 0; pass < 3; pass++) /* text, then data, then pads: data follows its text */
        for (int i = 0; i < img->nsecs; i++) {
            const ld_section *s = &img->secs[i];
            unsigned long uc, page;
            int kind = section_kind(s->name, &uc, &page);
            if (kind != (pass == 0 ? S_TEXT : pass == 1 ? S_DATA : S_PAD))
                continue;
            cert_ucode *u = &p->uc[uc];
            if (kind == S_PAD) {
                memcpy(u->buf + (size_t)u->npages * CERT_PAGE_SIZE + pad_at[uc], s->data, s->size);
                pad_at[uc] += s->size;
                continue;
            }
            if (kind == S_TEXT && merged) {
                memcpy(u->buf, s->data, s->size);
                for (uint32_t k = 0; k < s->size / CERT_PAGE_SIZE; k++)
                    u->text_len[k] = CERT_PAGE_SIZE; /* text and data are not told apart */
                continue;
            }
            size_t base = (size_t)page * CERT_PAGE_SIZE;
            if (kind == S_TEXT) {
                if (u->text_len[page])
                    return fail(err, n, img->path, "uC %lu page %lu appears twice", s->name, uc, page);
                if (s->size < CERT_PAGE_HDR + 4)
                    return fail(err, n, img->path, "page %lu: %lu bytes, too short for a page header and EOF",
                                s->name, page, s->size);
                memcpy(u->buf + base, s->data, s->size);
                u->text_len[page] = (uint32_t)s->size;
                data_at[page + (size_t)uc * CERT_MAX_PAGES] = (uint32_t)s->size;
            } else {
                uint32_t at = data_at[page + (size_t)uc * CERT_MAX_PAGES];
                if (!u->text_len[page])
                    return fail(err, n, img->path, "data of uC %lu page %lu has no text section", s->name, uc,
                                page);
                if (s->size > CERT_PAGE_SIZE - at)
                    return fail(err, n, img->path, "page %lu: text (%lu bytes) and data do not fit in one page "
                                "(%u bytes)", s->name, page, (unsigned long)at, CERT_PAGE_SIZE);
                memcpy(u->buf + base + at, s->data, s->size);
                data_at[page + (size_t)uc * CERT_MAX_PAGES] = at + (uint32_t)s->size;
            }
        }
    return 0;
}

/* Check each page: present, header magic, index, lengths. */
static int check_pages(const ld_image *img, cert_program *p, char *err, size_t n)
{
    for (int uc = 0; uc < p->nuc; uc++) {
        cert_ucode *u = &p->uc[uc];
        for (uint32_t k = 0; k < u->npages; k++) {
            char sec[48];
            snprintf(sec, sizeof sec, p->merged ? ".ctrltext.%d" : ".ctrltext.%d.%u", uc, k);
            if (!u->text_len[k])
                return fail(err, n, img->path, "missing: uC %d has pages up to %u but no page %u", sec,
                            uc, u->npages - 1, k);
            const uint8_t *pg = u->buf + (size_t)k * CERT_PAGE_SIZE;
            cert_page_hdr *h = &u->hdr[k];
            if (cert_page_hdr_parse(pg, h))
                return fail(err, n, img->path, "page %u offset 0: page header magic 0x%04x, expected 0xffff",
                            sec, k, h->magic);
            if (h->index != k)
                return fail(err, n, img->path, "page %u offset 2: header names page %u", sec, k, (unsigned)h->index);
            if (h->cur_len < CERT_PAGE_HDR + 4 || h->cur_len > CERT_PAGE_SIZE)
                return fail(err, n, img->path, "page %u offset 8: page length %u, expected %u..8192", sec, k,
                            h->cur_len, CERT_PAGE_HDR + 4);
        }
    }
    return 0;
}

/* Patch records: .rela.dyn entries (12 bytes) naming .dynsym symbols whose st_shndx is the
 * patched section; r_offset counts from the page's first instruction (page start + 16). */
static int read_patches(const ld_image *img, cert_program *p, char *err, size_t n)
{
    const ld_section *rela = ld_section_find(img, ".rela.dyn");
    const ld_section *sym = ld_section_find(img, ".dynsym");
    const ld_section *str = ld_section_find(img, ".dynstr");
    if (!rela || !rela->size)
        return 0;
    if (!sym || !str || !rela->data || !sym->data || !str->data || rela->size % 12 || sym->size % 16)
        return fail(err, n, img->path, "expected 12-byte entries over .dynsym (16-byte) and .dynstr",
                    ".rela.dyn");
    size_t count = rela->size / 12;
    p->patches = calloc(count ? count : 1, sizeof *p->patches);
    if (!p->patches)
        return fail(err, n, img->path, "out of memory", ".rela.dyn");
    for (size_t i = 0; i < count; i++) {
        const uint8_t *r = rela->data + i * 12;
        uint32_t off = le32(r), info = le32(r + 4), symi = info >> 8;
        if ((size_t)symi >= sym->size / 16)
            return fail(err, n, img->path, "entry %zu: symbol %u past the end of .dynsym (%lu symbols)", ".rela.dyn",
                        i, symi, sym->size / 16);
        const uint8_t *s = sym->data + (size_t)symi * 16;
        uint32_t name = le32(s), shndx = le16(s + 14);
        unsigned long uc = (unsigned long)-1, page = 0;
        if (!shndx || shndx > (uint32_t)img->nsecs)
            return fail(err, n, img->path, "entry %zu: symbol %u names section %u, past the section table (%d)",
                        ".rela.dyn", i, symi, shndx, img->nsecs);
        /* patches of other sections (a control-packet blob) are kept with uc -1 */
        if (section_kind(img->secs[shndx - 1].name, &uc, &page) <= S_OTHER)
            uc = (unsigned long)-1, page = 0;
        cert_patch *pt = &p->patches[p->npatches++];
        pt->uc = (int)uc;
        pt->page = page == (unsigned long)-1 ? (off + CERT_PAGE_HDR) / CERT_PAGE_SIZE : (uint32_t)page;
        pt->offset = page == (unsigned long)-1 ? (off + CERT_PAGE_HDR) % CERT_PAGE_SIZE : off + CERT_PAGE_HDR;
        pt->type = info & 0xFF;
        pt->addend = (int32_t)le32(r + 8);
        if (name < str->size) {
            size_t max = str->size - name;
            size_t len = strnlen((const char *)str->data + name, max);
            if (len >= sizeof pt->sym)
                len = sizeof pt->sym - 1;
            memcpy(pt->sym, str->data + name, len);
            pt->sym[len] = 0;
        }
    }
    return 0;
}

int cert_program_load(const ld_image *img, int spec, cert_program *p, char *err, size_t errlen)
{
    (void)spec;
    memset(p, 0, sizeof *p);
    if (img->fmt != LD_ELF || img->elfclass != 1 || img->big_endian || img->machine != EM_M32_)
        return snprintf(err, errlen, "%s: not a CERT control-code ELF (expected ELF32 little-endian, e_machine 1 "
                        "EM_M32 as aiebu writes)", img->path), -1;
    if (img->elf_type != ET_EXEC_)
        return snprintf(err, errlen, "%s: e_type %u, expected 2 (ET_EXEC)", img->path, img->elf_type), -1;
    p->osabi = img->file[EI_OSABI_];
    p->abi_version = img->file[EI_ABIVERSION_];
    p->target = osabi_target(p->osabi);
    if (p->target < 0)
        return snprintf(err, errlen, "%s: offset 7: OSABI 0x%02x is not a CERT target (0x40 aie2ps, 0x4b aie4, "
                        "0x56 aie4-a, 0x69 aie4-z, 0x46 group)", img->path, p->osabi), -1;
    p->merged = p->abi_version >= 0x10;
    uint32_t npages[CERT_MAX_UC] = {0};
    size_t pad[CERT_MAX_UC] = {0}, pad_at[CERT_MAX_UC] = {0};
    uint32_t *data_at = NULL;
    int rc = -1;
    if (size_ucs(img, p->merged, p, npages, pad, err, errlen))
        goto out;
    if (!p->nuc) {
        snprintf(err, errlen, "%s: no control code: expected .ctrltext.<uc>.<page> sections", img->path);
        goto out;
    }
    p->uc = calloc((size_t)p->nuc, sizeof *p->uc);
    data_at = calloc((size_t)p->nuc * CERT_MAX_PAGES, sizeof *data_at);
    if (!p->uc || !data_at)
        goto nomem;
    for (int uc = 0; uc < p->nuc; uc++) {
        cert_ucode *u = &p->uc[uc];
        if (!npages[uc] && pad[uc]) {
            snprintf(err, errlen, "%s: section '.pad.%d': uC %d has a pad but no pages", img->path, uc, uc);
            goto out;
        }
        if (!npages[uc])
            continue;
        u->present = 1;
        u->npages = npages[uc];
        u->pad_len = pad[uc];
        u->len = (size_t)u->npages * CERT_PAGE_SIZE + u->pad_len;
        u->buf = calloc(u->len, 1);
        u->hdr = calloc(u->npages, sizeof *u->hdr);
        u->text_len = calloc(u->npages, sizeof *u->text_len);
        if (!u->buf || !u->hdr || !u->text_len)
            goto nomem;
    }
    if (place(img, p->merged, p, data_at, pad_at, err, errlen) || check_pages(img, p, err, errlen) ||
        read_patches(img, p, err, errlen))
        goto out;
    rc = 0;
    goto out;
nomem:
    snprintf(err, errlen, "%s: out of memory", img->path);
out:
    free(data_at);
    if (rc)
        cert_program_free(p);
    return rc;
}

void cert_program_free(cert_program *p)
{
    for (int i = 0; p->uc && i < p->nuc; i++) {
        free(p->uc[i].buf);
        free(p->uc[i].hdr);
        free(p->uc[i].text_len);
    }
    free(p->uc);
    free(p->patches);
    memset(p, 0, sizeof *p);
}
