/* isa/dpu/table.c: access to the one DPU instruction table (table.inc): field
 * extraction and insertion, form matching with the decoding rules of the reference
 * (register escapes, most specific form first, condition class decides between forms that
 * share their bits), and encoding with range checks. Decoder, disassembler, assembler and
 * predecoder all go through here. */
#include <string.h>
#include <stdio.h>
#include "dpu.h"

#include "table.inc"

const dpu_form *dpu_form_at(int i) { return i >= 0 && i < DPU_NFORMS ? &dpu_forms[i] : NULL; }
const dpu_field *dpu_field_at(int i) { return &dpu_fields[i]; }
const dpu_cc_class *dpu_class_at(int i) { return i >= 0 && i < DPU_NCLASSES ? &dpu_cc_classes[i] : NULL; }
uint64_t dpu_field_mask(int f) { return dpu_fields[f].mask; }
uint64_t dpu_form_fixed(int i) { return dpu_forms[i].fixed; }

uint32_t dpu_field_get(int f, uint64_t w)
{
    const dpu_field *d = &dpu_fields[f];
    uint32_t v = 0;
    for (int i = 0; i < d->nslices; i++)
        v |= (uint32_t)((w >> d->s[i].dst) & ((1u << d->s[i].width) - 1)) << d->s[i].src;
    return v;
}

uint64_t dpu_field_put(int f, uint32_t v)
{
    const dpu_field *d = &dpu_fields[f];
    uint64_t w = 0;
    for (int i = 0; i < d->nslices; i++)
        w |= (uint64_t)((v >> d->s[i].src) & ((1u << d->s[i].width) - 1)) << d->s[i].dst;
    return w;
}

int dpu_field_bits(int f)
{
    const dpu_field *d = &dpu_fields[f];
    int b = 0;
    for (int i = 0; i < d->nslices; i++)
        if (d->s[i].src + d->s[i].width > b)
            b = d->s[i].src + d->s[i].width;
    return b;
}

/* Immediates and address offsets are two's complement; registers, conditions, PCs, shift
 * amounts, DMA lengths and the endian bit are unsigned. */
int dpu_field_signed(int f)
{
    int r = dpu_fields[f].role;
    return r == DPU_R_IMM || r == DPU_R_OFF;
}

int32_t dpu_field_value(int f, uint64_t w)
{
    uint32_t v = dpu_field_get(f, w);
    int b = dpu_field_bits(f);
    if (dpu_field_signed(f) && b < 32 && (v >> (b - 1)) & 1)
        v |= ~0u << b;
    return (int32_t)v;
}

const char *dpu_cc_name(int cls, int v)
{
    if (cls < 0 || cls >= DPU_NCLASSES)
        return NULL;
    const dpu_cc_class *c = &dpu_cc_classes[cls];
    for (int i = 0; i < 32 && c->v[i].name; i++)
        if (c->v[i].value == v)
            return c->v[i].name;
    return NULL;
}

int dpu_cc_value(int cls, const char *name)
{
    if (cls < 0 || cls >= DPU_NCLASSES)
        return -1;
    const dpu_cc_class *c = &dpu_cc_classes[cls];
    for (int i = 0; i < 32 && c->v[i].name; i++)
        if (!strcmp(c->v[i].name, name))
            return c->v[i].value;
    return -1;
}

int dpu_form_matches(int i, uint64_t w)
{
    const dpu_form *f = &dpu_forms[i];
    if ((w & f->fixed) != f->base)
        return 0;
    for (int k = 0; k < f->nops; k++) {
        int fi = f->ops[k];
        uint32_t v = dpu_field_get(fi, w);
        switch (dpu_fields[fi].role) {
        case DPU_R_RA:
            if ((f->flags & DPU_F_KREG) && v < 24) return 0;
            break;
        case DPU_R_RB: case DPU_R_RC:
            if (v >= 24) return 0; /* 24..31 here is how other formats are encoded */
            break;
        case DPU_R_DC: case DPU_R_DB:
            if (v >= 24 || (v & 1)) return 0;
            break;
        case DPU_R_CC:
            if (f->cls >= 0 && !dpu_cc_name(f->cls, (int)v)) return 0;
            break;
        default:
            break;
        }
        /* replicated bits (sign copies) must agree */
        if (dpu_field_put(fi, v) != (w & dpu_fields[fi].mask))
            return 0;
    }
    return 1;
}

static int popcount64(uint64_t x) { return __builtin_popcountll(x); }

static int decode_best(uint64_t w, int allow_alias)
{
    int best = -1, bestbits = -1, bestalias = 0;
    if (w >> 48)
        return -1;
    for (int i = 0; i < DPU_NFORMS; i++) {
        const dpu_form *f = &dpu_forms[i];
        if ((w & f->fixed) != f->base)
            continue;
        int alias = (f->flags & DPU_F_ALIAS) != 0;
        if (alias && !allow_alias)
            continue;
        if (!dpu_form_matches(i, w))
            continue;
        int bits = popcount64(f->fixed);
        /* most fixed bits wins; on a tie the alias (jump, move, jeq) reads better */
        if (bits > bestbits || (bits == bestbits && alias && !bestalias)) {
            best = i;
            bestbits = bits;
            bestalias = alias;
        }
    }
    return best;
}

int dpu_decode(uint64_t w) { return decode_best(w, 1); }
int dpu_decode_exec(uint64_t w) { return decode_best(w, 0); }

int dpu_encode(int form, const int64_t *vals, uint64_t *w, char *err, size_t errlen)
{
    const dpu_form *f = dpu_form_at(form);
    if (!f) {
        snprintf(err, errlen, "no such form %d", form);
        return -1;
    }
    uint64_t word = f->base;
    for (int k = 0; k < f->nops; k++) {
        int fi = f->ops[k];
        int b = dpu_field_bits(fi);
        int64_t v = vals[k];
        int64_t lo = dpu_field_signed(fi) ? -((int64_t)1 << (b - 1)) : 0;
        int64_t hi = ((int64_t)1 << b) - 1;
        int role = dpu_fields[fi].role;
        if (b == 32)
            lo = -((int64_t)1 << 31);
        if (v < lo || v > hi) {
            snprintf(err, errlen, "operand %d of %s (%s) out of range: %lld not in [%lld, %lld]", k + 1,
                     f->mnem, f->form, (long long)v, (long long)lo, (long long)hi);
            return -1;
        }
        if ((role == DPU_R_RB || role == DPU_R_RC || role == DPU_R_DC || role == DPU_R_DB) && v >= 24) {
            snprintf(err, errlen, "operand %d of %s must be a work register r0..r23", k + 1, f->mnem);
            return -1;
        }
        if (role == DPU_R_RA && (f->flags & DPU_F_KREG) && v < 24) {
            snprintf(err, errlen, "operand %d of %s (%s) must be a constant register (zero, one, lneg, mneg, id...)",
                     k + 1, f->mnem, f->form);
            return -1;
        }
        if ((role == DPU_R_DC || role == DPU_R_DB) && (v & 1)) {
            snprintf(err, errlen, "operand %d of %s must be an even register pair d0..d22", k + 1, f->mnem);
            return -1;
        }
        word |= dpu_field_put(fi, (uint32_t)v);
    }
    *w = word;
    return 0;
}
