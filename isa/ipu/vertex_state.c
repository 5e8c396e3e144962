/* isa/ipu/vertex_state.c: the vertex state of a `--vertex` file (docs/isa/ipu.md "Running a
 * vertex"): its `state` lines, their layout and the bytes written into tile memory. Besides
 * numbers and plain 32-bit pointers, spans and sizes, it writes the compact field types
 * PopLibs' codelets read when the SDK declares them available (our AvailableVTypes.h does):
 * SCALED_PTR32 (u16: (address - TMEM_REGION0_BASE_ADDR) / 4, as unaryOps1DNonLinearity.S
 * expands it with `shl 2` and the region base), SCALED_PTR64 (u16: address / 8, expanded by
 * MultiUpdateOp.S with `shl 3` and used as it is), SCALED_PTR128 (u16: address / 16, the
 * scale pointer of ScaledAddSupervisor_fp.S, `shl SCALED_PTR128_SHIFTS`), ShortSpan (u32: address in the low 20
 * bits, element count above, ScaledAdd2D_float.S's SHORT_SPAN_PTR_SIZE) and a VectorList with
 * DeltaN (u32 base address | vector count << 20, then a u16 ScaledPtr32 to a table of u32
 * entries: byte offset from the base | element count << 18; unary2DNonLinearity.S's
 * DELTAN_BASE_PTR_BITS and DELTAN_*_OFFSET_BITS). The tables live after the fields, inside
 * the state. `ptrs` and `spans` write a u32 pointer to a table of addresses or of (address,
 * count) pairs, the layout of PopLibs' 2D vertices (Vector<Vector<T>>: Clamp.S, Fill.S's
 * Fill2d); `sspans` a table of ShortSpans (ScaledAdd2D_float.S's A operand). Every value is
 * checked against its field's width when addresses are known. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vertex.h"

/* Bit widths of the compact types (PopLibs' assembly, see above). */
#define SSPAN_ADDR_BITS 20
#define DELTAN_BASE_BITS 20
#define DELTAN_OFF_BITS 18

static const struct { const char *name; int kind; } kinds[] = {
    {"ptr", F_PTR}, {"span", F_SPAN}, {"size", F_SIZE}, {"sptr32", F_SPTR32}, {"sptr64", F_SPTR64}, {"sptr128", F_SPTR128},
    {"sspan", F_SSPAN}, {"deltan", F_DELTAN}, {"ptrs", F_PTRS}, {"spans", F_SPANS}, {"sspans", F_SSPANS}};

static int is_scaled(int kind) { return kind == F_SPTR32 || kind == F_SPTR64 || kind == F_SPTR128; }
static int is_list(int kind) { return kind == F_DELTAN || kind == F_PTRS || kind == F_SPANS || kind == F_SSPANS; }
static unsigned entry_size(int kind) { return kind == F_SPANS ? 8 : 4; }

void ipu_vstate_free(ipu_vertex *v)
{
    for (int i = 0; i < v->nf; i++)
        free(v->f[i].list);
    free(v->f);
    v->f = NULL;
    v->nf = 0;
}

/* NAME[+BYTES][:COUNT] (s is left as it was, for messages) */
static int parse_ref(const char *text, ipu_vref *r)
{
    char buf[V_NAME + 32], *s = buf;
    memset(r, 0, sizeof *r);
    if (strlen(text) >= sizeof buf)
        return -1;
    strcpy(buf, text);
    r->tensor = -1;
    char *colon = strchr(s, ':');
    if (colon) {
        *colon = 0;
        if (ipu_vparse_u32(colon + 1, V_MAX_COUNT, &r->count) || !r->count)
            return -1;
    }
    char *plus = strchr(s, '+');
    if (plus) {
        *plus = 0;
        if (ipu_vparse_u32(plus + 1, V_MAX_COUNT * 4, &r->off))
            return -1;
    }
    size_t len = strlen(s);
    if (!ipu_vis_name(s) || len >= sizeof r->name)
        return -1;
    memcpy(r->name, s, len + 1);
    return 0;
}

int ipu_vstate_parse(ipu_vertex *v, char *s, int line, char *err, size_t n)
{
    if (v->nf >= V_MAX_FIELDS)
        return ipu_verr(err, n, v, line, "more than %d state fields", V_MAX_FIELDS);
    ipu_vfield f = {.line = line, .ref.tensor = -1};
    char *kind = ipu_vword(&s);
    s = ipu_vskip_ws(s);
    if (!*s)
        return ipu_verr(err, n, v, line, "state %.20s: missing its value", kind);
    f.kind = -1;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        if (!strcmp(kind, kinds[k].name))
            f.kind = kinds[k].kind;
    if (is_list(f.kind)) {
        /* REF, REF, ... : the vectors of the list, in order */
        for (char *tok = s; tok;) {
            char *comma = strchr(tok, ',');
            if (comma)
                *comma = 0;
            char *x = ipu_vskip_ws(tok);
            size_t l = strlen(x);
            while (l && (x[l - 1] == ' ' || x[l - 1] == '\t'))
                x[--l] = 0;
            if (f.nlist >= V_MAX_LIST) {
                free(f.list);
                return ipu_verr(err, n, v, line, "state %s: more than %d vectors", kind, V_MAX_LIST - 1);
            }
            ipu_vref *nl = realloc(f.list, (size_t)(f.nlist + 1) * sizeof *nl);
            if (!nl) {
                free(f.list);
                return ipu_verr(err, n, v, line, "out of memory");
            }
            f.list = nl;
            if (parse_ref(x, &f.list[f.nlist])) {
                free(f.list);
                return ipu_verr(err, n, v, line, "state %s: expected NAME[+BYTES][:COUNT], got '%.40s'", kind, x);
            }
            f.nlist++;
            tok = comma ? comma + 1 : NULL;
        }
    } else if (f.kind >= 0) {
        char *arg = ipu_vword(&s);
        if (parse_ref(arg, &f.ref) || (f.ref.count && (f.kind == F_PTR || is_scaled(f.kind))))
            return ipu_verr(err, n, v, line, "state %s: expected NAME[+BYTES]%s, got '%.40s'", kind,
                            f.kind == F_PTR || is_scaled(f.kind) ? "" : "[:COUNT]", arg);
    } else if (!strcmp(kind, "align") || !strcmp(kind, "pad")) {
        f.kind = kind[0] == 'a' ? F_ALIGN : F_PAD;
        uint32_t x;
        if (ipu_vparse_u32(ipu_vword(&s), 4096, &x) || (f.kind == F_ALIGN && (!x || (x & (x - 1)))))
            return ipu_verr(err, n, v, line, "state %s: expected %s up to 4096", kind,
                            f.kind == F_ALIGN ? "a power of two" : "a byte count");
        f.bits = x;
    } else if ((f.type = ipu_vtype_of(kind)) >= 0) {
        f.kind = F_NUM;
        char *arg = ipu_vword(&s);
        if (ipu_vparse_value(arg, f.type, &f.bits))
            return ipu_verr(err, n, v, line, "state %s: '%.40s' is not a %s value", kind, arg, kind);
    } else {
        return ipu_verr(err, n, v, line, "state: unknown field kind '%.20s' (ptr, span, size, sptr32, sptr64, sptr128, sspan, "
                        "deltan, ptrs, spans, sspans, align, pad, or a type: f32 f16 i32 u32 i16 u16 i8 u8)", kind);
    }
    if (!is_list(f.kind) && *ipu_vskip_ws(s))
        return ipu_verr(err, n, v, line, "state %s: unexpected '%.40s'", kind, ipu_vskip_ws(s));
    ipu_vfield *nf = realloc(v->f, (size_t)(v->nf + 1) * sizeof *nf);
    if (!nf) {
        free(f.list);
        return ipu_verr(err, n, v, line, "out of memory");
    }
    v->f = nf;
    v->f[v->nf++] = f;
    return 0;
}

/* Resolve r; its element count (given, or to the tensor's end) in *count. */
static int resolve_ref(const ipu_vertex *v, const ipu_vfield *f, ipu_vref *r, char *err, size_t n)
{
    if ((r->tensor = ipu_vfind_tensor(v, r->name)) < 0)
        return ipu_verr(err, n, v, f->line, "state: no tensor '%s'", r->name);
    const ipu_vtensor *t = &v->t[r->tensor];
    unsigned es = ipu_vtypes[t->type].size;
    uint64_t bytes = (uint64_t)t->count * es;
    if (r->off > bytes || (uint64_t)r->off + (uint64_t)r->count * es > bytes)
        return ipu_verr(err, n, v, f->line, "state: %s+%u%s%.0u: past the end of the tensor (%llu bytes)", r->name,
                        r->off, r->count ? ":" : "", r->count, (unsigned long long)bytes);
    if (!r->count && f->kind != F_PTR && !is_scaled(f->kind))
        r->count = (uint32_t)((bytes - r->off) / es);
    return 0;
}

int ipu_vstate_resolve(ipu_vertex *v, char *err, size_t n)
{
    for (int i = 0; i < v->nf; i++) {
        ipu_vfield *f = &v->f[i];
        if (is_list(f->kind)) {
            for (int k = 0; k < f->nlist; k++)
                if (resolve_ref(v, f, &f->list[k], err, n))
                    return -1;
        } else if (f->ref.name[0] && resolve_ref(v, f, &f->ref, err, n)) {
            return -1;
        }
    }
    return 0;
}

/* Size and alignment of a field (the ABI: each aligned to its size; a DeltaN is a u32 then
 * a u16, so 4-aligned and 6 bytes). */
static void field_size(const ipu_vfield *f, uint64_t *size, uint64_t *align)
{
    switch (f->kind) {
    case F_NUM: *size = *align = ipu_vtypes[f->type].size; return;
    case F_SPAN: *size = 8, *align = 4; return;
    case F_ALIGN: *size = 0, *align = f->bits; return;
    case F_PAD: *size = f->bits, *align = 1; return;
    case F_SPTR32: case F_SPTR64: case F_SPTR128: *size = *align = 2; return;
    case F_DELTAN: *size = 6, *align = 4; return;
    default: *size = *align = 4; return;
    }
}

int ipu_vstate_layout(ipu_vertex *v, char *err, size_t n)
{
    uint64_t ss = 0;
    for (int i = 0; i < v->nf; i++) {
        uint64_t sz, al;
        field_size(&v->f[i], &sz, &al);
        ss = ((ss + al - 1) & ~(al - 1)) + sz;
        if (ss > V_MAX_STATE)
            return ipu_verr(err, n, v, v->f[i].line, "the vertex state grows past %u bytes", V_MAX_STATE);
    }
    for (int i = 0; i < v->nf; i++) /* the tables, 4-aligned (DeltaN's is read through a ScaledPtr32) */
        if (is_list(v->f[i].kind)) {
            ss = (ss + 3) & ~3ull;
            v->f[i].table = (uint32_t)ss;
            ss += (uint64_t)entry_size(v->f[i].kind) * (uint64_t)v->f[i].nlist;
            if (ss > V_MAX_STATE)
                return ipu_verr(err, n, v, v->f[i].line, "the vertex state grows past %u bytes", V_MAX_STATE);
        }
    v->state_size = (uint32_t)((ss + 3) & ~3u);
    return 0;
}

static uint32_t ref_addr(const ipu_vertex *v, const ipu_vref *r) { return v->t[r->tensor].addr + r->off; }

/* SCALED_PTR32/64/128 of address a; -1 if a is not aligned or out of the u16's reach. */
static int scaled(const ipu_machine *im, uint32_t a, int kind, uint64_t *out)
{
    unsigned al = kind == F_SPTR32 ? 4 : kind == F_SPTR64 ? 8 : 16;
    uint64_t x = kind == F_SPTR32 ? (uint64_t)(a - im->mem_base) / 4 : a / al;
    if (a < im->mem_base || (a & (al - 1)) || x > 0xffff)
        return -1;
    *out = x;
    return 0;
}

int ipu_vstate_write(const ipu_vertex *v, const ipu_machine *im, uint8_t *out, char *err, size_t n)
{
    uint64_t ss = 0;
    for (int i = 0; i < v->nf; i++) {
        const ipu_vfield *f = &v->f[i];
        const ipu_vref *r = &f->ref;
        uint64_t sz, al, x;
        field_size(f, &sz, &al);
        ss = (ss + al - 1) & ~(al - 1);
        uint8_t *p = out + ss;
        switch (f->kind) {
        case F_NUM: ipu_vput_le(p, f->bits, (unsigned)sz); break;
        case F_PTR: ipu_vput_le(p, ref_addr(v, r), 4); break;
        case F_SPAN: ipu_vput_le(p, ref_addr(v, r), 4), ipu_vput_le(p + 4, r->count, 4); break;
        case F_SIZE: ipu_vput_le(p, r->count, 4); break;
        case F_SPTR32:
        case F_SPTR64:
        case F_SPTR128:
            if (scaled(im, ref_addr(v, r), f->kind, &x))
                return ipu_verr(err, n, v, f->line, "state %s %s: address 0x%x is not %s", f->kind == F_SPTR32 ?
                                "sptr32" : f->kind == F_SPTR64 ? "sptr64" : "sptr128", r->name, ref_addr(v, r),
                                f->kind == F_SPTR32 ? "4-byte aligned within 256 KiB of the memory base"
                                : f->kind == F_SPTR64 ? "8-byte aligned below 512 KiB" : "16-byte aligned");
            ipu_vput_le(p, x, 2);
            break;
        case F_SSPAN:
            if (ref_addr(v, r) >> SSPAN_ADDR_BITS || r->count >> (32 - SSPAN_ADDR_BITS))
                return ipu_verr(err, n, v, f->line, "state sspan %s: address 0x%x or count %u does not fit (20 and 12 "
                                "bits)", r->name, ref_addr(v, r), r->count);
            ipu_vput_le(p, ref_addr(v, r) | (uint64_t)r->count << SSPAN_ADDR_BITS, 4);
            break;
        case F_DELTAN: {
            uint32_t base = 0xffffffffu;
            for (int k = 0; k < f->nlist; k++)
                if (ref_addr(v, &f->list[k]) < base)
                    base = ref_addr(v, &f->list[k]);
            if (base >> DELTAN_BASE_BITS || (uint32_t)f->nlist >> (32 - DELTAN_BASE_BITS) ||
                scaled(im, v->state + f->table, F_SPTR32, &x))
                return ipu_verr(err, n, v, f->line, "state deltan: base 0x%x or %d vectors do not fit (20 and 12 bits)",
                                base, f->nlist);
            ipu_vput_le(p, base | (uint64_t)f->nlist << DELTAN_BASE_BITS, 4);
            ipu_vput_le(p + 4, x, 2);
            for (int k = 0; k < f->nlist; k++) {
                uint32_t off = ref_addr(v, &f->list[k]) - base, cnt = f->list[k].count;
                if (off >> DELTAN_OFF_BITS || cnt >> (32 - DELTAN_OFF_BITS))
                    return ipu_verr(err, n, v, f->line, "state deltan: %s is %u bytes from the base with %u elements: "
                                    "does not fit (18 and 14 bits)", f->list[k].name, off, cnt);
                ipu_vput_le(out + f->table + 4 * (unsigned)k, off | (uint64_t)cnt << DELTAN_OFF_BITS, 4);
            }
            break;
        }
        case F_PTRS:
        case F_SPANS:
        case F_SSPANS:
            ipu_vput_le(p, v->state + f->table, 4);
            for (int k = 0; k < f->nlist; k++) {
                uint8_t *e = out + f->table + entry_size(f->kind) * (unsigned)k;
                uint32_t a = ref_addr(v, &f->list[k]), c = f->list[k].count;
                if (f->kind == F_SSPANS && (a >> SSPAN_ADDR_BITS || c >> (32 - SSPAN_ADDR_BITS)))
                    return ipu_verr(err, n, v, f->line, "state sspans %s: address 0x%x or count %u does not fit "
                                    "(20 and 12 bits)", f->list[k].name, a, c);
                ipu_vput_le(e, f->kind == F_SSPANS ? a | (uint64_t)c << SSPAN_ADDR_BITS : a, 4);
                if (f->kind == F_SPANS)
                    ipu_vput_le(e + 4, c, 4);
            }
            break;
        default: break;
        }
        ss += sz;
    }
    return 0;
}
