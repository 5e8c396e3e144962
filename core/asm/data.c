/* core/asm/data.c: data and alignment directives (see data.h). Operand text is copied into
 * bounded buffers before it is split; a text longer than a renamed line is refused rather
 * than cut. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "data.h"
#include "limits.h"
#include "text.h"

#define DATA_TEXT (4 * ASM_MAX_LINE) /* operand text after local-label renaming */

static int width_of(const char *d, int *kind)
{
    static const struct { const char *name; int width, kind; } t[] = {
        {".byte", 1, ASM_DATA_VALUES},   {".short", 2, ASM_DATA_VALUES}, {".hword", 2, ASM_DATA_VALUES},
        {".2byte", 2, ASM_DATA_VALUES},  {".long", 4, ASM_DATA_VALUES},  {".word", 4, ASM_DATA_VALUES},
        {".int", 4, ASM_DATA_VALUES},    {".4byte", 4, ASM_DATA_VALUES}, {".quad", 8, ASM_DATA_VALUES},
        {".8byte", 8, ASM_DATA_VALUES},  {".float", 4, ASM_DATA_FLOATS}, {".single", 4, ASM_DATA_FLOATS},
        {".double", 8, ASM_DATA_FLOATS},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (!strcmp(d, t[i].name)) {
            *kind = t[i].kind;
            return t[i].width;
        }
    return 0;
}

/* Split a copy of args into ops (at most max). Returns the count or -1 (err set). */
static int split_copy(const char *dir, const char *args, char *buf, size_t cap, char **ops, int max, char *err,
                      size_t errlen)
{
    if (snprintf(buf, cap, "%s", args) >= (int)cap) {
        snprintf(err, errlen, "%s: operands longer than %zu characters", dir, cap - 1);
        return -1;
    }
    int n = asm_split_operands(buf, ops, max);
    if (n > max) {
        snprintf(err, errlen, "%s takes at most %d operands", dir, max);
        return -1;
    }
    return n;
}

static int log2_of(uint32_t v)
{
    int k = 0;
    while ((1u << k) < v)
        k++;
    return k;
}

static int size_align(const asm_data_rules *r, const char *dir, const char *args, asm_const_fn cval, void *ctx,
                      asm_data *d, char *err, size_t errlen)
{
    char buf[ASM_MAX_LINE + 1], *ops[3];
    int n = split_copy(dir, args, buf, sizeof buf, ops, 3, err, errlen);
    if (n < 0)
        return -1;
    if (n == 0 || !ops[0][0]) {
        snprintf(err, errlen, "%s needs an alignment", dir);
        return -1;
    }
    int64_t v;
    if (cval(ctx, ops[0], &v, err, errlen))
        return -1;
    int pow2 = !strcmp(dir, ".p2align") || (!strcmp(dir, ".align") && r->align_is_pow2);
    int maxexp = log2_of(r->max_align);
    if (pow2) {
        if (v < 0 || v > maxexp) {
            snprintf(err, errlen, "%s %lld: expected 0..%d (alignment up to %u bytes)", dir, (long long)v, maxexp,
                     r->max_align);
            return -1;
        }
        d->align = 1u << v;
    } else {
        if (v < 0 || v > r->max_align || (v & (v - 1))) {
            snprintf(err, errlen, "%s %lld: the alignment must be a power of two up to %u bytes", dir, (long long)v,
                     r->max_align);
            return -1;
        }
        d->align = v ? (uint32_t)v : 1;
    }
    int64_t fill = 0, max = 0;
    if (n > 1 && ops[1][0] && cval(ctx, ops[1], &fill, err, errlen))
        return -1;
    if (n > 2 && ops[2][0] && cval(ctx, ops[2], &max, err, errlen))
        return -1;
    if (max < 0 || max > r->max_align) {
        snprintf(err, errlen, "%s: the most to skip, %lld, is not in 0..%u", dir, (long long)max, r->max_align);
        return -1;
    }
    d->kind = ASM_DATA_ALIGN;
    d->fill = (uint8_t)fill;
    d->max_skip = (uint32_t)max;
    return 0;
}

int asm_data_size(const asm_data_rules *r, const char *dir, const char *args, asm_const_fn cval, void *ctx,
                  asm_data *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    int kind = 0, width = width_of(dir, &kind);
    if (width) {
        d->kind = kind;
        d->width = width;
        d->size = (uint32_t)asm_count_operands(args) * (uint32_t)width;
        return 0;
    }
    if (!strcmp(dir, ".ascii") || !strcmp(dir, ".asciz") || !strcmp(dir, ".string")) {
        size_t len;
        d->kind = ASM_DATA_STRING;
        d->nul_each = strcmp(dir, ".ascii") != 0;
        if (asm_string_list(args, d->nul_each, NULL, 0, &len, err, errlen))
            return -1;
        if (len > UINT32_MAX / 2) {
            snprintf(err, errlen, "%s: string too long", dir);
            return -1;
        }
        d->size = (uint32_t)len;
        return 0;
    }
    if (!strcmp(dir, ".zero") || !strcmp(dir, ".space") || !strcmp(dir, ".skip")) {
        char buf[ASM_MAX_LINE + 1], *ops[2];
        int n = split_copy(dir, args, buf, sizeof buf, ops, 2, err, errlen);
        if (n < 0)
            return -1;
        if (n == 0) {
            snprintf(err, errlen, "%s needs a size", dir);
            return -1;
        }
        int64_t size, fill = 0;
        if (cval(ctx, ops[0], &size, err, errlen) || (n > 1 && cval(ctx, ops[1], &fill, err, errlen)))
            return -1;
        if (size < 0 || size > r->max_fill) {
            snprintf(err, errlen, "%s %lld: the size must be 0..%u", dir, (long long)size, r->max_fill);
            return -1;
        }
        d->kind = ASM_DATA_FILL;
        d->size = (uint32_t)size;
        d->fill = (uint8_t)fill;
        return 0;
    }
    if (!strcmp(dir, ".align") || !strcmp(dir, ".balign") || !strcmp(dir, ".p2align"))
        return size_align(r, dir, args, cval, ctx, d, err, errlen);
    return 1;
}

uint32_t asm_data_pad(const asm_data *d, uint32_t off)
{
    uint32_t pad = (uint32_t)(-off) & (d->align - 1);
    return d->max_skip && pad > d->max_skip ? 0 : pad;
}

static void store_le(uint8_t *p, uint64_t v, int width)
{
    for (int k = 0; k < width; k++)
        p[k] = (uint8_t)(v >> (8 * k));
}

/* A relocatable value x (from base) in a width-byte field at byte at of the statement. */
static int relocate(const asm_data_rules *r, const asm_reloc_site *site, int width, uint32_t at, int base, int64_t x,
                    const char *text, char *err, size_t errlen)
{
    uint32_t type = width > 0 && width <= 8 ? r->reloc_abs[width] : 0;
    if (!site || !type) {
        snprintf(err, errlen, "'%.60s' needs a relocation, and there is none for a %d-byte value", text, width);
        return -1;
    }
    asm_reloc x_rel = {site->sec, site->off + at, type, base, x};
    if (asm_reloc_add(site->relocs, &x_rel)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

static int emit_items(const asm_data_rules *r, const asm_data *d, const char *args, asm_value_fn val, void *ctx,
                      const asm_reloc_site *site, uint8_t *out, uint32_t size, char *err, size_t errlen)
{
    char buf[DATA_TEXT];
    char *local_ops[ASM_MAX_OPERANDS];
    int n = split_copy("data", args, buf, sizeof buf, local_ops, ASM_MAX_OPERANDS, err, errlen);
    if (n < 0)
        return -1;
    if ((uint32_t)n * (uint32_t)d->width != size) {
        snprintf(err, errlen, "internal: %d items do not fill %u bytes", n, size);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        uint64_t bits;
        if (d->kind == ASM_DATA_FLOATS) {
            char *end;
            /* strtof for single precision: no double rounding through a double */
            float g = d->width == 4 ? strtof(local_ops[i], &end) : 0;
            double f = d->width == 8 ? strtod(local_ops[i], &end) : 0;
            if (end == local_ops[i] || *end) {
                snprintf(err, errlen, "bad floating-point number '%.60s'", local_ops[i]);
                return -1;
            }
            if (d->width == 4) {
                uint32_t u;
                memcpy(&u, &g, 4);
                if (isnan(g) && r->nan32)
                    u = r->nan32;
                bits = u;
            } else
                memcpy(&bits, &f, 8);
        } else {
            int64_t x;
            int base = 0;
            if (val(ctx, local_ops[i], &x, &base, err, errlen))
                return -1;
            if (base) { /* the field holds 0, the linker adds the value (RELA) */
                if (relocate(r, site, d->width, (uint32_t)i * (uint32_t)d->width, base, x, local_ops[i], err, errlen))
                    return -1;
                x = 0;
            }
            if (r->check_range && d->width < 8 &&
                (x < -(1ll << (d->width * 8 - 1)) || x >= (1ll << (d->width * 8)))) {
                snprintf(err, errlen, "value %lld does not fit in %d byte(s)", (long long)x, d->width);
                return -1;
            }
            bits = (uint64_t)x;
        }
        store_le(out + (size_t)i * (size_t)d->width, bits, d->width);
    }
    return 0;
}

int asm_data_emit(const asm_data_rules *r, const asm_data *d, const char *args, uint32_t size, asm_value_fn val,
                  void *ctx, const asm_reloc_site *site, uint8_t *out, char *err, size_t errlen)
{
    switch (d->kind) {
    case ASM_DATA_VALUES:
    case ASM_DATA_FLOATS:
        return emit_items(r, d, args, val, ctx, site, out, size, err, errlen);
    case ASM_DATA_STRING: {
        size_t len;
        return asm_string_list(args, d->nul_each, (char *)out, size, &len, err, errlen);
    }
    case ASM_DATA_FILL:
    case ASM_DATA_ALIGN:
        memset(out, d->fill, size);
        return 0;
    }
    snprintf(err, errlen, "internal: unknown data statement %d", d->kind);
    return -1;
}
