/* isa/cert/asm_enc.c: the CERT assembler's encoder: operands as aiebu-asm reads them
 * (registers, barriers, TILE_c_r, actor names per target and release, numbers, @labels and
 * @pads, argument names that become host patches), instructions from their table rows
 * (cert_ops via the statement's row: no second table), UC_DMA_BD descriptors, and whole
 * pages: the 16-byte header, text, data, the pad patches of APPLY_OFFSET_57, zeros to 8192.
 * Where the aiebu releases differ, a cert_writer field says which rule applies. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "asm.h"


static int parse_uint(const char *s, int base, uint32_t *v)
{
    if (!*s || !isxdigit((unsigned char)*s))
        return -1;
    char *end;
    unsigned long long x = strtoull(s, &end, base);
    if (*end || x > 0xFFFFFFFFull)
        return -1;
    *v = (uint32_t)x;
    return 0;
}

int cert_parse_barrier(const char *a, uint32_t *v)
{
    if (a[0] != '$')
        return parse_uint(a, 10, v);
    if (strncmp(a, "$lb", 3) && strncmp(a, "$rb", 3))
        return -1;
    if (parse_uint(a + 3, 10, v))
        return -1;
    if (a[1] == 'r')
        return ++*v > 65 ? -1 : 0; /* aiebu accepts $rb0..$rb64 */
    return *v >= CERT_MAX_LB ? -1 : 0;
}

static int parse_reg(const char *a, uint32_t *v)
{
    if ((strncmp(a, "$r", 2) && strncmp(a, "$g", 2)) || parse_uint(a + 2, 10, v))
        return -1;
    if (a[1] == 'g') {
        if (*v >= 16)
            return -1;
        *v += CERT_NLOCAL_REG;
    }
    return *v >= CERT_NREG ? -1 : 0;
}

/* Actor names: prefix, base id, per target (aie2ps: aiebu Feb-2025; aie4: newer aiebu). */
typedef struct actor_name { const char *prefix; uint32_t base; } actor_name;
static const actor_name actors_aie2ps[] = {
    {"s2mm_", 0}, {"mm2s_", 6}, {"tile_s2mm_", 0}, {"tile_mm2s_", 6}, {"shim_s2mm_", 0},
    {"shim_mm2s_", 6}, {"mem_s2mm_", 0}, {"mem_mm2s_", 6}, {NULL, 0}};
static const actor_name actors_aie4[] = {
    {"tile_s2mm_", 0}, {"tile_mm2s_", 6}, {"shim_s2mm_", 0}, {"shim_mm2s_", 6}, {"mem_s2mm_", 0},
    {"mem_mm2s_", 16}, {"shim_ctrl_mm2s_", 15}, {NULL, 0}};

/* The newest aiebu looks actor names up in a fixed map per target (it refuses names it does
 * not list; on aie4 SHIM_S2MM_1 is 2, as 1 is the trace channel, and MEM_MM2S_5.. skip 21). */
typedef struct actor_id { const char *name; uint8_t id; } actor_id;
static const actor_id actor_map_aie2ps[] = {
    {"shim_s2mm_0", 0}, {"shim_s2mm_1", 1}, {"shim_mm2s_0", 6}, {"shim_mm2s_1", 7},
    {"mem_s2mm_0", 0}, {"mem_s2mm_1", 1}, {"mem_s2mm_2", 2}, {"mem_s2mm_3", 3}, {"mem_s2mm_4", 4},
    {"mem_s2mm_5", 5}, {"mem_mm2s_0", 6}, {"mem_mm2s_1", 7}, {"mem_mm2s_2", 8}, {"mem_mm2s_3", 9},
    {"mem_mm2s_4", 10}, {"mem_mm2s_5", 11}, {"tile_s2mm_0", 0}, {"tile_s2mm_1", 1}, {"tile_mm2s_0", 6},
    {"tile_mm2s_1", 7}, {NULL, 0}};
static const actor_id actor_map_aie4[] = {
    {"shim_s2mm_0", 0}, {"shim_s2mm_1", 2}, {"shim_mm2s_0", 6}, {"shim_mm2s_1", 7}, {"shim_mm2s_2", 8},
    {"shim_mm2s_3", 9}, {"shim_ctrl_mm2s_0", 16}, {"shim_ctrl_mm2s_1", 17}, {"mem_s2mm_0", 0},
    {"mem_s2mm_1", 1}, {"mem_s2mm_2", 2}, {"mem_s2mm_3", 3}, {"mem_s2mm_4", 4}, {"mem_s2mm_5", 5},
    {"mem_s2mm_6", 6}, {"mem_s2mm_7", 7}, {"mem_mm2s_0", 16}, {"mem_mm2s_1", 17}, {"mem_mm2s_2", 18},
    {"mem_mm2s_3", 19}, {"mem_mm2s_4", 20}, {"mem_mm2s_5", 22}, {"mem_mm2s_6", 23}, {"mem_mm2s_7", 24},
    {"mem_mm2s_8", 25}, {"mem_mm2s_9", 26}, {"tile_s2mm_0", 0}, {"tile_s2mm_1", 1}, {"tile_mm2s_0", 6},
    {NULL, 0}};
/* 1: a is an actor name of the newest aiebu's (value in *v), 0: not one. */
static int actor_lookup(const cert_state *s, const char *a, uint32_t *v)
{
    for (const actor_id *m = s->a->target == 0 ? actor_map_aie2ps : actor_map_aie4; m->name; m++)
        if (!strcmp(a, m->name)) {
            *v = m->id;
            return 1;
        }
    return 0;
}

/* aiebu's parse_num_arg: 0 a value, 1 a patch symbol (the host fills it in), -1 error. */
static int num_arg(cert_state *s, const cert_item *it, const char *a, uint32_t *v)
{
    if (a[0] == '@') {
        const cert_col *c = s->c;
        for (int i = 0; i < c->npads; i++)
            if (!strcmp(c->pads[i].name, a + 1)) {
                *v = c->pads[i].base + c->pads[i].offset;
                return 0;
            }
        asm_symbol *y = asm_sym_find(&s->labelmap, a + 1, 0);
        if (!y)
            return cert_st_fail(s, it, "label %s is not in this page's data (or not defined)", a + 1);
        *v = s->labels[y->value].pos;
        return 0;
    }
    if (s->a->w->actor_map) {
        int r = actor_lookup(s, a, v);
        if (r > 0)
            return 0;
    }
    /* Feb-2025's names (S2MM_n, MM2S_n, ...): the newest aiebu refuses those it does not
     * list; we read them as before (a superset: nothing aiebu accepts reads differently) */
    const actor_name *t = s->a->target == 0 ? actors_aie2ps : actors_aie4;
    for (int i = 0; t[i].prefix; i++) {
        size_t l = strlen(t[i].prefix);
        if (!strncmp(a, t[i].prefix, l)) {
            if (parse_uint(a + l, 10, v) || *v > 255)
                return cert_st_fail(s, it, "expected an actor name with a channel number, got %s", a);
            *v += t[i].base;
            return 0;
        }
    }
    if (!strncmp(a, "s2mm_", 5) || !strncmp(a, "mm2s_", 5))
        return cert_st_fail(s, it, "%s: aie4 targets name actors TILE_/SHIM_/MEM_", a);
    if (!strncmp(a, "tile_", 5)) {
        const char *us = strchr(a + 5, '_');
        uint32_t col, row;
        char cbuf[16];
        size_t cl = us ? (size_t)(us - (a + 5)) : 0;
        if (!us || cl == 0 || cl >= sizeof cbuf)
            return cert_st_fail(s, it, "expected TILE_<col>_<row>, got %s", a);
        memcpy(cbuf, a + 5, cl);
        cbuf[cl] = 0;
        if (parse_uint(cbuf, 10, &col) || parse_uint(us + 1, 10, &row))
            return cert_st_fail(s, it, "expected TILE_<col>_<row>, got %s", a);
        *v = (col & 0x7F) << 5 | (row & 0x1F);
        return 0;
    }
    if (!strncmp(a, "0x", 2)) {
        if (parse_uint(a + 2, 16, v))
            return cert_st_fail(s, it, "expected a 32-bit hex number, got %s", a);
        return 0;
    }
    if (isdigit((unsigned char)a[0])) {
        if (parse_uint(a, 10, v))
            return cert_st_fail(s, it, "expected a 32-bit number, got %s", a);
        return 0;
    }
    if (!isalpha((unsigned char)a[0]) && a[0] != '_')
        return cert_st_fail(s, it, "expected a number, @label, actor, tile or argument name, got %s", a);
    return 1;
}

static int add_sym(cert_state *s, const cert_item *it, const char *name, uint32_t pos, uint32_t type, int page)
{
    cert_col *c = s->c;
    cert_sym *p = realloc(c->syms, sizeof *p * (size_t)(c->nsyms + 1));
    if (!p)
        return cert_st_fail(s, it, "out of memory%s", "");
    c->syms = p;
    p[c->nsyms] = (cert_sym){strdup(name), pos, type, page};
    if (!p[c->nsyms].name)
        return cert_st_fail(s, it, "out of memory%s", "");
    c->nsyms++;
    return 0;
}

/* A patch of a shim BD's 57-bit address by a pad's place (APPLY_OFFSET_57 ..., @pad):
 * the pad and the descriptor's position after the page header. */
typedef struct pad_patch { const char *pad; uint32_t lpos; } pad_patch;
typedef struct pad_patches { pad_patch *v; int n, cap; } pad_patches;

static int pp_push(pad_patches *l, const char *pad, uint32_t lpos)
{
    if (l->n == l->cap) {
        int c = l->cap ? 2 * l->cap : 8;
        pad_patch *p = realloc(l->v, sizeof *p * (size_t)c);
        if (!p)
            return -1;
        l->v = p;
        l->cap = c;
    }
    l->v[l->n++] = (pad_patch){pad, lpos};
    return 0;
}

/* The descriptors an APPLY_OFFSET_57 patches: the newest aiebu takes num_entries labels
 * from @table on, in the page's label order; Feb-2025 only the table's own position. */
static int ao57_tables(cert_state *s, const cert_item *it, uint32_t num_entries, int *first, uint32_t *count,
                       uint32_t *one)
{
    if (!s->a->w->ao57_entries) {
        *first = -1;
        *count = 1;
        return num_arg(s, it, it->args[0], one) != 0 ? -1 : 0;
    }
    asm_symbol *y = it->args[0][0] == '@' ? asm_sym_find(&s->labelmap, it->args[0] + 1, 0) : NULL;
    if (!y)
        return cert_st_fail(s, it, "APPLY_OFFSET_57: %s is not a label of this page's data", it->args[0]);
    *first = (int)y->value;
    *count = num_entries;
    if (num_entries > (uint32_t)(s->nlabels - *first))
        return cert_st_fail(s, it, "APPLY_OFFSET_57 %s: fewer labels from there on than num_entries", it->args[0]);
    return 0;
}

/* One instruction from its table row. pos: its offset after the page header. */
static int encode_op(cert_state *s, const cert_item *it, uint32_t pos, int page, uint8_t *out, pad_patches *pp)
{
    const cert_opdef *op = it->op;
    int want = 0;
    for (int i = 0; i < op->nargs; i++)
        want += op->args[i].kind != CK_PAD && op->args[i].kind != CK_JOBSIZE;
    int is_ao57 = op->code == 0x0e;
    if (it->nargs != want && op->code == 0x19 && s->a->w->preempt_injects && !s->a->preempt_dir)
        return cert_st_fail(s, it,
                            "PREEMPT without its two page operands: the newest aiebu-asm supplies them from "
                            "save/restore programs built into aiebu; give -o preempt_asm=DIR (DIR holding aiebu's "
                            "specification/aie4/preemption_asm files) to insert them, or write PREEMPT id, @save, "
                            "@restore%s", "");
    /* PREEMPT id, @save, @restore, @hintmap (-o preempt_asm): aiebu encodes the first three */
    int hint = op->code == 0x19 && s->a->preempt_dir && it->nargs == want + 1 && it->args[want][0] == '@';
    if (it->nargs != want && !hint && !(is_ao57 && it->nargs == want + 1 && it->args[want][0] == '@'))
        return cert_asm_fail(s->a, it->file, it->line, "%s: expected %d operand%s", op->name, want, want == 1 ? "" : "s");
    out[0] = op->code;
    out[1] = 0;
    uint32_t at = 2, val = 0, num_entries = 0;
    int ai = 0;
    for (int i = 0; i < op->nargs; i++) {
        const cert_arg *ar = &op->args[i];
        const char *a = NULL;
        int sym = 0;
        switch (ar->kind) {
        case CK_PAD: val = 0; break;
        case CK_JOBSIZE: {
            int j = cert_job_lookup(s, it->args[0], 0);
            if (j < 0)
                return cert_st_fail(s, it, "job %s is not on this page", it->args[0]);
            val = s->jobs[j].end - s->jobs[j].start;
            break;
        }
        case CK_PAGE: {
            a = it->args[ai++];
            asm_symbol *y = a[0] == '@' ? asm_sym_find(&s->c->page_of, a + 1, 0) : NULL;
            if (!y)
                return cert_st_fail(s, it, "expected @label of a label scope (code label closed by .endl), got %s", a);
            val = (uint32_t)y->value;
            break;
        }
        case CK_REG:
            a = it->args[ai++];
            if (parse_reg(a, &val))
                return cert_st_fail(s, it, "expected a register $r0..$r7 or $g0..$g15, got %s", a);
            out[at++] = (uint8_t)val;
            continue;
        case CK_LB:
        case CK_RB:
            a = it->args[ai++];
            if (cert_parse_barrier(a, &val))
                return cert_st_fail(s, it, "expected a barrier $lb0..$lb15 or $rb0..$rb64, got %s", a);
            out[at++] = (uint8_t)val;
            continue;
        default:
            a = it->args[ai++];
            sym = num_arg(s, it, a, &val);
            if (sym < 0)
                return -1;
            /* an argument name: the host patches the field; aiebu leaves the previous
             * operand's value in it */
            if (sym && add_sym(s, it, a, pos + at, 3 /* scaler_32 */, page))
                return -1;
            break;
        }
        /* aiebu Feb-2025 treats 0xFFFFFFFF as "no value" and writes 0 */
        if (val == 0xFFFFFFFFu && s->a->w->ffffffff_zero)
            val = 0;
        if (is_ao57 && ar->name && !strcmp(ar->name, "num_entries"))
            num_entries = val;
        if (is_ao57 && ar->name && !strcmp(ar->name, "offset")) {
            uint32_t one = 0, count = 0;
            int first = -1;
            if (ao57_tables(s, it, num_entries, &first, &count, &one))
                return -1;
            char name[300];
            if (val == 0xFFFF)
                snprintf(name, sizeof name, "control-code-%d", s->c->col);
            else
                snprintf(name, sizeof name, "%s", a);
            const char *pad = NULL;
            if (it->nargs == want + 1)
                for (int p = 0; p < s->c->npads && !pad; p++)
                    if (!strcmp(s->c->pads[p].name, it->args[want] + 1))
                        pad = s->c->pads[p].name;
            /* schema shim_dma_57 (2), on aie4 shim_dma_57_aie4 (6): the descriptor layouts differ */
            for (uint32_t m = 0; m < count; m++) {
                uint32_t tpos = first < 0 ? one : s->labels[first + (int)m].pos;
                if (add_sym(s, it, name, tpos, s->a->target ? 6 : 2, page))
                    return -1;
                if (pad && pp_push(pp, pad, tpos))
                    return cert_st_fail(s, it, "out of memory%s", "");
            }
            if (val != 0xFFFF)
                val *= 2;
        }
        for (unsigned b = 0; b < ar->bytes; b++)
            out[at++] = (uint8_t)(val >> (8 * b));
    }
    return (int)at;
}

/* UC_DMA_BD high, low, @local, length, external, next_bd (16 bytes, local pointer relative
 * to the descriptor itself). */
static int encode_bd(cert_state *s, const cert_item *it, uint32_t pos, uint8_t *out)
{
    if (it->nargs != 6)
        return cert_st_fail(s, it, "UC_DMA_BD: expected 6 operands (addr_high, addr_low, @local, length, external, next_bd)%s", "");
    uint32_t v[6];
    for (int i = 0; i < 6; i++) {
        int r = num_arg(s, it, it->args[i], &v[i]);
        if (r)
            return r < 0 ? -1 : cert_st_fail(s, it, "UC_DMA_BD: expected a number, got %s", it->args[i]);
    }
    uint32_t local = v[2] - pos;
    uint8_t flags = (uint8_t)((v[5] ? 1 : 0) | (v[4] ? 2 : 0) | 4);
    uint8_t b[16] = {(uint8_t)v[3], (uint8_t)((v[3] >> 8) & 0x7F), flags, 0};
    for (int i = 0; i < 4; i++) {
        b[4 + i] = (uint8_t)(local >> (8 * i));
        b[8 + i] = (uint8_t)(v[1] >> (8 * i));
        b[12 + i] = (uint8_t)(v[0] >> (8 * i));
    }
    b[15] &= 0x1F;
    memcpy(out, b, 16);
    return 16;
}

/* Bytes of one statement at pos (after the header) into out (room for 64). */
static int encode_item(cert_state *s, const cert_item *it, uint32_t pos, int page, uint8_t *out, pad_patches *pp)
{
    uint32_t v;
    switch (it->kind) {
    case CI_OP: return encode_op(s, it, pos, page, out, pp);
    case CI_BD: return encode_bd(s, it, pos, out);
    case CI_LONG: {
        int r = it->nargs == 1 ? num_arg(s, it, it->args[0], &v) : -2;
        if (r)
            return r == -1 ? -1 : cert_st_fail(s, it, ".long: expected one number or @label%s", "");
        for (int i = 0; i < 4; i++)
            out[i] = (uint8_t)(v >> (8 * i));
        return 4;
    }
    case CI_ALIGN: {
        uint32_t n;
        if (cert_item_size(s, (cert_item *)it, pos, &n))
            return -1;
        memset(out, CERT_ALIGN_FILL, n); /* aiebu fills with the ALIGN pseudo-opcode, in data too */
        return (int)n;
    }
    case CI_LABEL: return 0;
    default: return cert_st_fail(s, it, ".eop inside a job or a data block%s", "");
    }
}

/* ---- pages to bytes -------------------------------------------------------------------- */

static void put16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static uint32_t get32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

int cert_encode_page(cert_asm *a, cert_col *c, int pi)
{
    cert_page *pg = &c->pages[pi];
    int n = pg->ntext + pg->ndata, rc = -1;
    cert_item **all = malloc(sizeof *all * (size_t)(n + 1));
    uint8_t *text = calloc(1, CERT_PAGE_SIZE), *data = calloc(1, CERT_PAGE_SIZE);
    pad_patches pp = {0};
    cert_state s = {.a = a, .c = c};
    if (!all || !text || !data) {
        cert_asm_fail(a, 0, 0, "out of memory");
        goto out;
    }
    if (pg->ntext) /* (memcpy from NULL is undefined even for 0 bytes) */
        memcpy(all, pg->text, sizeof *all * (size_t)pg->ntext);
    if (pg->ndata)
        memcpy(all + pg->ntext, pg->data, sizeof *all * (size_t)pg->ndata);
    if (cert_process(&s, all, n, 0))
        goto out;
    text[0] = text[1] = 0xFF;
    put16(text + 2, pg->index);
    if (a->w->ooo_header) {
        put16(text + 4, pg->ooo_len1);
        put16(text + 6, pg->ooo_len2);
    }
    put16(text + 8, pg->cur_len);
    put16(text + 10, pg->next_len);
    uint32_t tl = CERT_PAGE_HDR, dl = 0;
    uint8_t buf[CERT_PAGE_SIZE];
    for (int i = 0; i < n; i++) {
        cert_item *it = all[i];
        int is_data = i >= pg->ntext;
        if (is_data && it->is_eof)
            continue; /* the EOF aiebu adds at .attach_to_group: sized, never written */
        if (!is_data && it->kind == CI_LABEL) {
            cert_asm_fail(a, it->file, it->line, "label %s inside a job", it->name);
            goto out;
        }
        uint32_t pos = tl - CERT_PAGE_HDR + dl;
        int k = encode_item(&s, it, pos, pi, buf, &pp);
        if (k < 0)
            goto out;
        if (tl + dl + (uint32_t)k > CERT_PAGE_SIZE) {
            cert_asm_fail(a, it->file, it->line, "page %d is longer than 8192 bytes", pi);
            goto out;
        }
        memcpy(is_data ? data + dl : text + tl, buf, (size_t)k);
        *(is_data ? &dl : &tl) += (uint32_t)k;
    }
    for (int i = 0; i < pp.n; i++) {
        uint32_t lpos = pp.v[i].lpos, base = 0;
        for (int p = 0; p < c->npads; p++)
            if (!strcmp(c->pads[p].name, pp.v[i].pad))
                base = c->pads[p].base + c->pads[p].offset;
        uint32_t off = lpos + CERT_PAGE_HDR - tl;
        uint32_t need = a->target ? 8 : 36; /* the descriptor words the address is spread over */
        if (lpos + CERT_PAGE_HDR < tl || off + need > dl) {
            cert_asm_fail(a, 0, 0, "APPLY_OFFSET_57 with a pad: the table must be a shim descriptor in data (%u bytes)",
                          need);
            goto out;
        }
        if (a->target) { /* aie4 shim BD: address bits 56..32 in word 0 (low 25 bits), 31..0 in word 1 */
            uint32_t w0 = get32(data + off), w1 = get32(data + off + 4);
            uint64_t v = ((uint64_t)(w0 & 0x1FFFFFF) << 32) + w1 + base;
            put32(data + off + 4, (uint32_t)v);
            put32(data + off, (uint32_t)((v >> 32) & 0x1FFFFFF) | (w0 & 0xFE000000u));
            continue;
        }
        /* aie2ps shim BD: bits 31..0 in word 1, 47..32 in word 2, 56..48 in word 8 */
        uint32_t w1 = get32(data + off + 4), w2 = get32(data + off + 8), w8 = get32(data + off + 32);
        uint64_t v = ((uint64_t)(w8 & 0x1FF) << 48) + ((uint64_t)(w2 & 0xFFFF) << 32) + w1 + base;
        put32(data + off + 4, (uint32_t)v);
        put32(data + off + 8, (uint32_t)((v >> 32) & 0xFFFF) | (w2 & 0xFFFF0000u));
        put32(data + off + 32, (uint32_t)((v >> 48) & 0x1FF) | (w8 & 0xFFFFFE00u));
    }
    for (int l = 0; a->symbols && l < s.nlabels; l++) /* data labels: pc = page + header + position */
        if (cert_add_lsym(c, all[s.labels[l].index]->name, pi, 0,
                          (uint32_t)pi * CERT_PAGE_SIZE + CERT_PAGE_HDR + s.labels[l].pos)) {
            cert_asm_fail(a, 0, 0, "out of memory");
            goto out;
        }
    c->text[pi] = text;
    c->data[pi] = data;
    c->text_len[pi] = tl;
    c->data_len[pi] = CERT_PAGE_SIZE - tl; /* zeros to the end of the page */
    text = data = NULL;
    rc = 0;
out:
    cert_state_free(&s);
    free(all);
    free(text);
    free(data);
    free(pp.v);
    return rc;
}
