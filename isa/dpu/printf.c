/* isa/dpu/printf.c: the DPU runtime's printf records, formatted on the host.
 * A DPU program's printf does not format: it appends to the MRAM buffer __stdout_buffer a
 * record made of the format (literal text already turned into %s arguments), a NUL, then the
 * raw arguments; the SDK host library (dpulog_read_*) formats them afterwards. The format
 * and the arguments are guest data, so the guest text never reaches a host printf: each
 * conversion is parsed here, checked against the conversions the SDK host reader formats,
 * and printed with a format string built by this file. Argument sizes follow the SDK
 * reader: 8 bytes for d/i/u/o/x/X/p with an 'l' in the spec, else 4; 8 (a double) for
 * f/e/E; 1 for c; a NUL-terminated string inline for s; 4 for the SDK's own %b (32 bits,
 * least significant first). Anything else (%n, %g, '*' widths, unknown letters) is printed
 * as its literal text and skips 4 bytes, as the SDK reader does for unsupported formats, so
 * a guest cannot write host memory, read host varargs or ask for unbounded output. */
#include <stdio.h>
#include <string.h>
#include "dpu.h"
#include "../../core/mem.h"

/* widths and precisions above this are not formatted (a guest could ask for gigabytes) */
#define DPU_PRINTF_MAX_WIDTH 4096

typedef struct spec {
    char flags[6];
    int nflags;
    int width, prec;     /* -1: not given */
    int l;               /* an 'l' in the length modifier: 8-byte integer argument */
    int h;               /* 1: h, 2: hh (the host narrows the value) */
    char conv;
} spec;

/* Decimal digits at s[*i] into *v (none: 0); -1 past the width limit. */
static int parse_count(const char *s, size_t n, size_t *i, int *v)
{
    *v = 0;
    while (*i < n && s[*i] >= '0' && s[*i] <= '9') {
        *v = *v * 10 + (s[(*i)++] - '0');
        if (*v > DPU_PRINTF_MAX_WIDTH)
            return -1;
    }
    return 0;
}

/* Parse s[0..n) (without the leading '%', ending with the conversion). 0 ok, -1 if it is
 * not a conversion we format. */
static int parse_spec(const char *s, size_t n, spec *sp)
{
    memset(sp, 0, sizeof *sp);
    sp->width = sp->prec = -1;
    size_t i = 0;
    while (i < n && strchr("-+ #0", s[i]) && s[i]) {
        if (sp->nflags < 5 && !memchr(sp->flags, s[i], (size_t)sp->nflags))
            sp->flags[sp->nflags++] = s[i];
        i++;
    }
    if (i < n && s[i] >= '0' && s[i] <= '9' && parse_count(s, n, &i, &sp->width))
        return -1;
    if (i < n && s[i] == '.' && (i++, parse_count(s, n, &i, &sp->prec)))
        return -1;
    if (i < n && s[i] == 'h') {
        sp->h = 1, i++;
        if (i < n && s[i] == 'h')
            sp->h = 2, i++;
    } else if (i < n && s[i] == 'l') {
        sp->l = 1, i++;
        if (i < n && s[i] == 'l')
            i++;
    } else if (i < n && (s[i] == 'z' || s[i] == 'j' || s[i] == 't')) {
        i++;            /* 32-bit on the DPU: read as int, as the SDK reader does */
    }
    if (i + 1 != n)
        return -1;
    sp->conv = s[i];
    if (!strchr("diuoxXpcsfeEb", sp->conv) || !sp->conv)
        return -1;
    if ((sp->h || sp->l) && strchr("csbp", sp->conv) && !(sp->l && sp->conv == 'p'))
        return -1;
    return 0;
}

/* "%<flags><width>.<prec><len><conv>" built from parsed fields only */
static void host_format(const spec *sp, const char *len, char conv, char *out, size_t n)
{
    int k = snprintf(out, n, "%%%.*s", sp->nflags, sp->flags);
    if (sp->width >= 0)
        k += snprintf(out + k, n - (size_t)k, "%d", sp->width);
    if (sp->prec >= 0)
        k += snprintf(out + k, n - (size_t)k, ".%d", sp->prec);
    snprintf(out + k, n - (size_t)k, "%s%c", len, conv);
}

/* Format one spec with its argument from *pp (advanced). Returns -1 if the arguments end
 * before the spec's argument (the record is cut: stop). */
static int format_one(FILE *out, const char *text, size_t tn, const uint8_t **pp, const uint8_t *end)
{
    const uint8_t *p = *pp;
    spec sp;
    char f[48];
    if (tn < 2 || parse_spec(text + 1, tn - 1, &sp)) {
        fwrite(text, 1, tn, out);           /* literal, never a format */
        if (end - p < 4)
            return -1;
        *pp = p + 4;
        return 0;
    }
    switch (sp.conv) {
    case 's': {
        const uint8_t *s = p;
        while (p < end && *p)
            p++;
        if (p >= end)
            return -1;
        {
            /* width/precision apply to the string: pad by hand around the bytes */
            size_t len = (size_t)(p - s);
            if (sp.prec >= 0 && (size_t)sp.prec < len)
                len = (size_t)sp.prec;
            int left = memchr(sp.flags, '-', (size_t)sp.nflags) != NULL;
            size_t pad = sp.width > 0 && (size_t)sp.width > len ? (size_t)sp.width - len : 0;
            for (size_t k = 0; !left && k < pad; k++)
                fputc(' ', out);
            fwrite(s, 1, len, out);
            for (size_t k = 0; left && k < pad; k++)
                fputc(' ', out);
        }
        *pp = p + 1;
        return 0;
    }
    case 'c':
        if (p >= end)
            return -1;
        host_format(&sp, "", 'c', f, sizeof f);
        fprintf(out, f, (int)*p);
        *pp = p + 1;
        return 0;
    case 'b': {
        if (end - p < 4)
            return -1;
        uint32_t v = mem_ld32le(p);
        for (int b = 0; b < 32; b++)
            fputc('0' + (int)((v >> b) & 1), out);
        *pp = p + 4;
        return 0;
    }
    case 'f': case 'e': case 'E': {
        if (end - p < 8)
            return -1;
        double d;
        uint64_t bits = mem_ld64le(p);
        memcpy(&d, &bits, sizeof d);
        host_format(&sp, "", sp.conv, f, sizeof f);
        fprintf(out, f, d);
        *pp = p + 8;
        return 0;
    }
    default: {  /* d i u o x X p */
        unsigned n = sp.l ? 8 : 4;
        if ((size_t)(end - p) < n)
            return -1;
        uint64_t v = n == 8 ? mem_ld64le(p) : mem_ld32le(p);
        *pp = p + n;
        if (sp.conv == 'p') {
            if (!v) {
                fputs("(nil)", out);
                return 0;
            }
            spec hx = sp;
            hx.nflags = 0;
            hx.flags[hx.nflags++] = '#';
            host_format(&hx, "ll", 'x', f, sizeof f);
            fprintf(out, f, (unsigned long long)v);
            return 0;
        }
        host_format(&sp, "ll", sp.conv, f, sizeof f);
        int is_signed = sp.conv == 'd' || sp.conv == 'i';
        if (sp.h == 1)
            v = is_signed ? (uint64_t)(int64_t)(int16_t)v : (uint16_t)v;
        else if (sp.h == 2)
            v = is_signed ? (uint64_t)(int64_t)(int8_t)v : (uint8_t)v;
        else if (n == 4 && is_signed)
            v = (uint64_t)(int64_t)(int32_t)v;
        if (is_signed)
            fprintf(out, f, (long long)v);
        else
            fprintf(out, f, (unsigned long long)v);
        return 0;
    }
    }
}

void dpu_printf_buffer(FILE *out, const uint8_t *buf, size_t len)
{
    const uint8_t *p = buf, *end = buf + len;
    while (p < end) {
        /* a record: from its first '%' to the NUL, then its arguments */
        while (p < end && *p != '%')
            p++;
        const uint8_t *fmt = p;
        while (p < end && *p)
            p++;
        if (p >= end)
            return;
        const uint8_t *fend = p++;
        /* each spec runs from a '%' to the next '%' or the end of the format */
        for (const uint8_t *s = fmt; s < fend;) {
            const uint8_t *e = s + 1;
            while (e < fend && *e != '%')
                e++;
            if (format_one(out, (const char *)s, (size_t)(e - s), &p, end))
                return;
            s = e;
        }
    }
}
