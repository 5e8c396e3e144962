/* isa/cert/disasm.c: CERT disassembly, in two forms. The debugger's form decodes one
 * instruction at a pc (page * 8192 + offset) from the table. The listing form reproduces,
 * line for line, what aiebu's Python disassembler (control_asm_disasm.py -d) prints for an
 * ELF, including its quirks, so that the two outputs can be diffed: labels numbered in
 * order of first use across the file (@labelN for descriptor and page operands, @label_bdN
 * for the words a uC-DMA descriptor points at), a "    " indent only while no label has
 * been printed (its writer compares a label without '@' with one with it), one ".ALIGN 16"
 * line per 0xA5 filler byte, zero data bytes skipped without advancing its position. Where
 * aiebu's tool gives up (data no descriptor reaches), the listing goes on with .long words. */
#include <string.h>
#include <stdlib.h>
#include "cert.h"

int cert_disasm_one(uint64_t addr, const uint8_t *p, size_t avail, char *buf, size_t n)
{
    uint64_t off = addr % CERT_PAGE_SIZE;
    if (off < CERT_PAGE_HDR) { /* the page header: show it whole, from its start */
        size_t len = CERT_PAGE_HDR - off;
        if (avail < len)
            return 0;
        cert_page_hdr h;
        if (off == 0 && cert_page_hdr_parse(p, &h) == 0)
            snprintf(buf, n, ".page_header index %u, length %u, next %u, ooo %u/%u", h.index, h.cur_len, h.next_len,
                     h.ooo_len1, h.ooo_len2);
        else
            snprintf(buf, n, ".page_header (+%u)", (unsigned)off);
        return (int)len;
    }
    if (avail < 1)
        return 0;
    if (p[0] == CERT_ALIGN_FILL) {
        snprintf(buf, n, ".align (0xA5 filler)");
        return 1;
    }
    cert_insn in;
    int r = cert_decode(p, avail, CERT_SPEC_LATEST, &in);
    if (r == 0)
        return 0;
    if (r < 0) {
        snprintf(buf, n, ".byte 0x%02X%s", p[0], r == -2 ? " (non-zero pad)" : "");
        return 1;
    }
    cert_format(&in, buf, n);
    return r;
}

/* ---- aiebu listing ------------------------------------------------------------------- */

typedef struct lmap { /* offset -> label number (and a word count for .long runs) */
    uint32_t *key, *num, *size;
    size_t n, cap;
} lmap;

typedef struct lst {
    FILE *out;
    const char *cur_label; /* the writer's current label, as the Python writer keeps it */
    int have_label;
    unsigned next_label, next_bd;
    lmap labels, local_ptrs, external;
    uint32_t pos;
    char lbuf[32];
    int oom;
} lst;

static long lmap_find(const lmap *m, uint32_t key)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->key[i] == key)
            return (long)i;
    return -1;
}

static void lmap_put(lst *L, lmap *m, uint32_t key, uint32_t num, uint32_t size)
{
    if (m->n == m->cap) {
        size_t nc = m->cap ? m->cap * 2 : 16;
        uint32_t *k = realloc(m->key, nc * sizeof *k);
        if (k)
            m->key = k;
        uint32_t *u = realloc(m->num, nc * sizeof *u);
        if (u)
            m->num = u;
        uint32_t *s = realloc(m->size, nc * sizeof *s);
        if (s)
            m->size = s;
        if (!k || !u || !s) {
            L->oom = 1;
            return;
        }
        m->cap = nc;
    }
    m->key[m->n] = key;
    m->num[m->n] = num;
    m->size[m->n++] = size;
}

static void lmap_free(lmap *m)
{
    free(m->key);
    free(m->num);
    free(m->size);
    memset(m, 0, sizeof *m);
}

/* The Python writer: indent when its current label equals the operation's label (both
 * "none" before the first label is printed), a tab after the name, and a space before each
 * argument otherwise. */
static void op_line(lst *L, const char *name, int nargs, char args[][40], int label_match)
{
    int same = label_match && !L->have_label;
    if (same)
        fputs("    ", L->out);
    fprintf(L->out, "%s\t", name);
    for (int i = 0; i < nargs; i++)
        fprintf(L->out, "%s%s%s", same ? "" : " ", args[i], i < nargs - 1 ? ", " : "");
    fputc('\n', L->out);
}

static void label_line(lst *L, const char *kind, unsigned num)
{
    fprintf(L->out, "%s%u:\n", kind, num);
    L->have_label = 1;
}

/* Text of one page: the instructions after the header. Returns -1 on a byte the table does
 * not know (the Python disassembler stops there with an assertion). */
static int list_text(lst *L, const uint8_t *p, size_t len, int spec, const char *sec, char *err, size_t errlen)
{
    size_t at = CERT_PAGE_HDR;
    while (at < len) {
        if (p[at] == CERT_ALIGN_FILL) {
            op_line(L, ".ALIGN 16", 0, NULL, 1);
            L->pos++;
            at++;
            continue;
        }
        cert_insn in;
        int r = cert_decode(p + at, len - at, spec, &in);
        if (r <= 0 && r != -2) {
            snprintf(err, errlen, "section '%s' offset %zu: %s 0x%02X", sec, at,
                     r == 0 ? "instruction cut short by the end of the section: opcode" : "illegal opcode", p[at]);
            return -1;
        }
        if (in.op->code == CERT_OP_EOF)
            fputs(".eop\n", L->out);
        char args[CERT_MAX_ARGS][40];
        int na = 0;
        for (int i = 0; i < in.op->nargs; i++) {
            const cert_arg *a = &in.op->args[i];
            uint32_t v = in.v[i];
            switch (a->kind) {
            case CK_PAD:
            case CK_JOBSIZE:
                continue;
            case CK_TILE: cert_tile_name(v, args[na], sizeof args[na]); break;
            case CK_ACTOR: cert_actor_name(v, args[na], sizeof args[na]); break;
            case CK_REG:
                if (v >= CERT_NREG) {
                    snprintf(err, errlen, "section '%s' offset %zu: register number %u out of range", sec, at, v);
                    return -1;
                }
                cert_reg_name(v, args[na], sizeof args[na]);
                break;
            case CK_LB: snprintf(args[na], sizeof args[na], "$lb%u", v); break;
            case CK_RB: snprintf(args[na], sizeof args[na], "$rb%d", (int)v - 1); break;
            case CK_PAGE:
                snprintf(args[na], sizeof args[na], "@label%u", L->next_label);
                lmap_put(L, &L->external, v, L->next_label++, 0);
                break;
            default:
                if (a->kind == CK_DESC && !strcmp(a->name, "descriptor_ptr")) {
                    long k = lmap_find(&L->labels, v);
                    if (k < 0) {
                        lmap_put(L, &L->labels, v, L->next_label, 0);
                        snprintf(args[na], sizeof args[na], "@label%u", L->next_label++);
                    } else
                        snprintf(args[na], sizeof args[na], "@label%u", L->labels.num[k]);
                } else
                    snprintf(args[na], sizeof args[na], "0x%X", v);
            }
            na++;
        }
        char name[40];
        snprintf(name, sizeof name, "%s", in.op->name);
        op_line(L, name, na, args, 1);
        L->pos += in.size;
        at += in.size;
    }
    return 0;
}

/* Data of one page: descriptor chains at the offsets text operands named, .long runs at the
 * offsets descriptors point at; filler bytes advance the position, zero bytes do not. */
static int list_data(lst *L, const uint8_t *p, size_t len, const char *sec, char *err, size_t errlen)
{
    size_t at = 0;
    while (at < len) {
        long k = lmap_find(&L->labels, L->pos);
        long lp = k < 0 ? lmap_find(&L->local_ptrs, L->pos) : -1;
        if (k >= 0) {
            if (L->pos % CERT_BD_SIZE) {
                snprintf(err, errlen, "section '%s' offset %zu: uC-DMA descriptor not 16-byte aligned", sec, at);
                return -1;
            }
            label_line(L, "label", L->labels.num[k]);
            int next = 1;
            while (next) {
                if (len - at < CERT_BD_SIZE) {
                    snprintf(err, errlen, "section '%s' offset %zu: uC-DMA descriptor cut short", sec, at);
                    return -1;
                }
                const uint8_t *b = p + at;
                uint32_t length = (uint32_t)b[0] | (uint32_t)b[1] << 8, flags = (uint32_t)b[2] | (uint32_t)b[3] << 8;
                int32_t local = (int32_t)((uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 | (uint32_t)b[7] << 24);
                uint32_t lo = (uint32_t)b[8] | (uint32_t)b[9] << 8 | (uint32_t)b[10] << 16 | (uint32_t)b[11] << 24;
                uint32_t hi = (uint32_t)b[12] | (uint32_t)b[13] << 8 | (uint32_t)b[14] << 16 | (uint32_t)b[15] << 24;
                uint32_t target = L->pos + (uint32_t)local;
                char args[6][40];
                snprintf(args[0], 40, "0x%08X", hi);
                snprintf(args[1], 40, "0x%08X", lo);
                long t = lmap_find(&L->local_ptrs, target);
                if (t < 0) {
                    lmap_put(L, &L->local_ptrs, target, L->next_bd, length);
                    snprintf(args[2], 40, "@label_bd%u", L->next_bd++);
                } else
                    snprintf(args[2], 40, "@label_bd%u", L->local_ptrs.num[t]);
                next = flags & 1;
                snprintf(args[3], 40, "%u", length);
                snprintf(args[4], 40, "%u", (flags & 2) ? 1u : 0u);
                snprintf(args[5], 40, "%d", next);
                L->pos += CERT_BD_SIZE;
                at += CERT_BD_SIZE;
                op_line(L, "UC_DMA_BD", 6, args, 0);
            }
        } else if (lp >= 0) {
            fputs(".align 4\n", L->out);
            label_line(L, "label_bd", L->local_ptrs.num[lp]);
            for (uint32_t i = 0; i < L->local_ptrs.size[lp]; i++) {
                if (len - at < 4) {
                    snprintf(err, errlen, "section '%s' offset %zu: .long run cut short", sec, at);
                    return -1;
                }
                char args[1][40];
                snprintf(args[0], 40, "0x%08X",
                         (uint32_t)p[at] | (uint32_t)p[at + 1] << 8 | (uint32_t)p[at + 2] << 16 | (uint32_t)p[at + 3] << 24);
                op_line(L, ".long", 1, args, 0);
                L->pos += 4;
                at += 4;
            }
        } else if (p[at] == CERT_ALIGN_FILL) {
            L->pos++;
            at++;
        } else if (p[at] == 0) {
            at++;
        } else {
            /* words no descriptor points at (an APPLY_OFFSET table, shim BDs): aiebu's tool
             * stops here ("Illegal state"); we list them as .long up to the next position a
             * descriptor or a text operand names */
            fprintf(L->out, "; data at offset %zu not reached through a uC-DMA descriptor\n", at);
            while (at < len && lmap_find(&L->labels, L->pos) < 0 && lmap_find(&L->local_ptrs, L->pos) < 0) {
                size_t w = len - at < 4 ? len - at : 4;
                uint32_t v = 0;
                for (size_t i = 0; i < w; i++)
                    v |= (uint32_t)p[at + i] << (8 * i);
                char args[1][40];
                snprintf(args[0], 40, "0x%08X", v);
                op_line(L, w == 4 ? ".long" : ".byte", 1, args, 0);
                L->pos += (uint32_t)w;
                at += w;
            }
        }
    }
    return 0;
}

static int name_numbers(const char *name, unsigned long *a, unsigned long *b)
{
    /* the Python tool takes the first and second all-digit dot-separated fields */
    int got = 0;
    const char *p = name;
    while (*p && got < 2) {
        const char *q = strchr(p, '.');
        size_t len = q ? (size_t)(q - p) : strlen(p);
        if (len && len < 10 && strspn(p, "0123456789") == len) {
            unsigned long v = strtoul(p, NULL, 10);
            *(got ? b : a) = v;
            got++;
        }
        if (!q)
            break;
        p = q + 1;
    }
    return got;
}

int cert_disasm_program(const ld_image *img, const sim_opts *opts, FILE *out, char *err, size_t errlen)
{
    (void)opts;
    enum { SHT_PROGBITS_ = 1, SHF_WRITE_ = 1, SHF_ALLOC_ = 2, SHF_EXECINSTR_ = 4 };
    if (!cert_probe_image(img)) {
        snprintf(err, errlen, "%s: not a CERT control-code ELF (e_machine 1 with a CERT OSABI)", img->path);
        return -1;
    }
    int spec = CERT_SPEC_LATEST;
    lst L = {.out = out, .next_label = 1, .next_bd = 1};
    int rc = 0;
    long current_col = -1;
    long current_label = -1;
    fputs(";Generated by ctrlcode disassembler\n", out);
    for (int i = 0; i < img->nsecs && !rc; i++) {
        const ld_section *s = &img->secs[i];
        if (s->type != SHT_PROGBITS_)
            continue;
        int text = !strncmp(s->name, ".ctrltext", 9);
        unsigned long col = 0, page = 0;
        int nums = name_numbers(s->name, &col, &page);
        if (text) {
            if (nums < 2) {
                snprintf(err, errlen, "%s: section '%s': expected .ctrltext.<uc>.<page>", img->path, s->name);
                rc = -1;
                break;
            }
            if ((long)col != current_col) {
                fprintf(out, ".attach_to_group %lu\n", col);
                current_col = (long)col;
                L.external.n = 0;
            }
        }
        fprintf(out, ".section %s,\"%s%s%s\"\n", s->name, (s->flags & SHF_ALLOC_) ? "a" : "",
                (s->flags & SHF_WRITE_) ? "w" : "", (s->flags & SHF_EXECINSTR_) ? "x" : "");
        fprintf(out, ".align %llu\n", (unsigned long long)s->align);
        if (text) {
            long e = lmap_find(&L.external, (uint32_t)page);
            if (e >= 0) {
                if (current_label >= 0)
                    fprintf(out, ".endl label%ld\n", current_label);
                label_line(&L, "label", L.external.num[e]);
                current_label = L.external.num[e];
            }
            if (s->size < CERT_PAGE_HDR) {
                snprintf(err, errlen, "%s: section '%s': %llu bytes, shorter than a page header", img->path, s->name,
                         (unsigned long long)s->size);
                rc = -1;
                break;
            }
            rc = list_text(&L, s->data, s->size, spec, s->name, err, errlen);
        } else if (!strncmp(s->name, ".pad.", 5) || !strncmp(s->name, ".dump", 5)) {
            continue;
        } else if (!strncmp(s->name, ".ctrldata", 9)) {
            rc = list_data(&L, s->data, s->size, s->name, err, errlen);
            L.pos = 0;
            L.labels.n = 0;
            L.local_ptrs.n = 0;
        } else {
            /* a control-packet blob (.ctrlpkt-N.M) or another payload: aiebu's tool stops with
             * "Invalid program section name"; we say what it is and go on */
            fprintf(out, "; %llu bytes that are not control code\n", (unsigned long long)s->size);
        }
    }
    if (!rc && L.oom) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    }
    lmap_free(&L.labels);
    lmap_free(&L.local_ptrs);
    lmap_free(&L.external);
    return rc;
}
