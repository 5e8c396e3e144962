/* loaders/image.c: file reading, format detection and the plain word formats.
 * .out lines must be exactly 32 '0'/'1' characters (MCCP ROM words, MSB first); .txt holds
 * whitespace-separated decimal words (negative values wrap to 32 bits); .hex one hex word
 * per line (elf2hex). Errors name the file, the line and what was expected. */
#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ld_internal.h"
#include "../core/file.h"
#include "../core/grow.h"



static int read_file(const char *path, uint8_t **buf, size_t *len, char *err, size_t errlen)
{
    return file_read_all(path, FILE_MAX_INPUT, buf, len, err, errlen);
}

static int push_word(ld_image *img, size_t *cap, uint32_t w)
{
    uint32_t *p = grow_array(img->words, cap, img->nwords + 1, sizeof *p, 256);
    if (!p)
        return -1;
    img->words = p;
    img->words[img->nwords++] = w;
    return 0;
}

/* Word `at` of the image becomes w; words skipped by an '@' address are zero. */
static int put_word_at(ld_image *img, size_t *cap, size_t at, uint32_t w)
{
    while (img->nwords < at)
        if (push_word(img, cap, 0))
            return -1;
    if (at < img->nwords) {
        img->words[at] = w;
        return 0;
    }
    return push_word(img, cap, w);
}

/* Iterate over lines; strips '\r' and trailing blanks. */
static int parse_lines(ld_image *img, ld_format fmt, char *err, size_t errlen)
{
    size_t cap = 0, lineno = 0, at = 0;
    char *p = (char *)img->file, *end = p + img->file_size;
    while (p < end) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        char *le = nl ? nl : end;
        lineno++;
        char *q = le;
        while (q > p && isspace((unsigned char)q[-1]))
            q--;
        char *s = p, *line = p;
        while (s < q && isspace((unsigned char)s[0]))
            s++;
        size_t len = (size_t)(q - s);
        p = nl ? nl + 1 : end;
        if (fmt == LD_OUT) {
            if (len == 0)
                continue;
            if (len != 32)
                return ld_err(err, errlen, "%s:%zu: expected 32 binary digits, found %zu characters", img->path, lineno, len);
            uint32_t w = 0;
            for (size_t i = 0; i < 32; i++) {
                if (s[i] != '0' && s[i] != '1')
                    return ld_err(err, errlen, "%s:%zu: column %zu: expected '0' or '1', found '%c'", img->path, lineno,
                                  (size_t)(s - line) + i + 1,
                                  isprint((unsigned char)s[i]) ? s[i] : '?');
                w = w << 1 | (uint32_t)(s[i] - '0');
            }
            if (push_word(img, &cap, w))
                return ld_err(err, errlen, "%s: out of memory", img->path);
        } else if (fmt == LD_HEX) {
            if (len == 0 || *s == '#' || (len >= 2 && s[0] == '/' && s[1] == '/'))
                continue;
            int addr = *s == '@'; /* "@hhhhhhhh": the next word's address, in words ($readmemh) */
            s += addr, len -= (size_t)addr;
            if (len == 0 || len > 8)
                return ld_err(err, errlen, "%s:%zu: expected 1 to 8 hex digits%s, found %zu characters", img->path, lineno,
                              addr ? " after '@'" : "", len);
            uint32_t w = 0;
            for (size_t i = 0; i < len; i++) {
                int c = tolower((unsigned char)s[i]);
                int v = isdigit(c) ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
                if (v < 0)
                    return ld_err(err, errlen, "%s:%zu: column %zu: expected a hex digit, found '%c'", img->path, lineno,
                                  (size_t)(s - line) + i + 1,
                                  isprint(c) ? c : '?');
                w = w << 4 | (uint32_t)v;
            }
            if (addr) {
                if (w >= LD_HEX_MAX_WORDS)
                    return ld_err(err, errlen, "%s:%zu: address @%x is beyond word %u (the largest image is %u MiB)",
                                  img->path, lineno, w, LD_HEX_MAX_WORDS - 1, LD_HEX_MAX_WORDS / (1u << 18));
                at = w;
                continue;
            }
            if (at >= LD_HEX_MAX_WORDS)
                return ld_err(err, errlen, "%s:%zu: the image grows past word %u", img->path, lineno, LD_HEX_MAX_WORDS - 1);
            if (put_word_at(img, &cap, at++, w))
                return ld_err(err, errlen, "%s: out of memory", img->path);
        } else { /* LD_TXT: several words per line allowed */
            while (s < q) {
                char *e2;
                errno = 0;
                long long v = strtoll(s, &e2, 10);
                if (e2 == s || (e2 < q && !isspace((unsigned char)*e2)))
                    return ld_err(err, errlen, "%s:%zu: column %zu: expected a decimal integer", img->path, lineno,
                                  (size_t)(s - line) + 1);
                if (errno || v < -2147483648LL || v > 4294967295LL)
                    return ld_err(err, errlen, "%s:%zu: value out of 32-bit range", img->path, lineno);
                if (push_word(img, &cap, (uint32_t)v))
                    return ld_err(err, errlen, "%s: out of memory", img->path);
                s = e2;
                while (s < q && isspace((unsigned char)*s))
                    s++;
            }
        }
    }
    if (img->nwords == 0 && fmt == LD_OUT)
        return ld_err(err, errlen, "%s: empty ROM image: expected lines of 32 binary digits", img->path);
    return 0;
}

static ld_format guess_format(const char *path, const uint8_t *buf, size_t len)
{
    if (len >= 4 && buf[0] == 0x7f && buf[1] == 'E' && buf[2] == 'L' && buf[3] == 'F')
        return LD_ELF;
    const char *dot = strrchr(path, '.');
    if (dot && strcmp(dot, ".out") == 0)
        return LD_OUT;
    if (dot && strcmp(dot, ".txt") == 0)
        return LD_TXT;
    if (dot && strcmp(dot, ".hex") == 0)
        return LD_HEX;
    if (dot && (strcmp(dot, ".elf") == 0 || strcmp(dot, ".o") == 0))
        return LD_ELF; /* will fail with a clear "not an ELF" message */
    return LD_RAW;
}

static int ld_finish(ld_image *img, ld_format fmt, char *err, size_t errlen)
{
    if (fmt == LD_NONE)
        fmt = guess_format(img->path, img->file, img->file_size);
    img->fmt = fmt;
    int rc = 0;
    switch (fmt) {
    case LD_ELF:
        if (img->file_size < 4 || memcmp(img->file, "\177ELF", 4) != 0)
            rc = ld_err(err, errlen, "%s: offset 0: expected the ELF magic 7f 45 4c 46", img->path);
        else
            rc = ld_elf_parse(img, err, errlen);
        break;
    case LD_OUT:
    case LD_TXT:
    case LD_HEX:
        rc = parse_lines(img, fmt, err, errlen);
        break;
    case LD_RAW:
        if (img->file_size == 0)
            rc = ld_err(err, errlen, "%s: empty file", img->path);
        break;
    default:
        rc = ld_err(err, errlen, "%s: unknown format", img->path);
    }
    if (rc)
        ld_free(img);
    return rc;
}

int ld_load_as(const char *path, ld_format fmt, ld_image *img, char *err, size_t errlen)
{
    memset(img, 0, sizeof *img);
    snprintf(img->path, sizeof img->path, "%s", path);
    if (read_file(path, &img->file, &img->file_size, err, errlen))
        return -1;
    return ld_finish(img, fmt, err, errlen);
}

int ld_load(const char *path, ld_image *img, char *err, size_t errlen) { return ld_load_as(path, LD_NONE, img, err, errlen); }

int ld_parse(const char *name, const void *buf, size_t len, ld_format fmt, ld_image *img, char *err, size_t errlen)
{
    memset(img, 0, sizeof *img);
    snprintf(img->path, sizeof img->path, "%s", name);
    img->file = malloc(len + 1);
    if (!img->file)
        return ld_err(err, errlen, "%s: out of memory", name);
    memcpy(img->file, buf, len);
    img->file[len] = 0;
    img->file_size = len;
    return ld_finish(img, fmt, err, errlen);
}

void ld_free(ld_image *img)
{
    free(img->file);
    free(img->segs);
    free(img->secs);
    free(img->syms);
    free(img->strings);
    free(img->words);
    char path[sizeof img->path];
    memcpy(path, img->path, sizeof path);
    memset(img, 0, sizeof *img);
    memcpy(img->path, path, sizeof path);
}

const ld_symbol *ld_symbol_find(const ld_image *img, const char *name)
{
    const ld_symbol *weak = NULL;
    for (int i = 0; img && i < img->nsyms; i++)
        if (strcmp(img->syms[i].name, name) == 0) {
            if (img->syms[i].bind != 0 /* not STB_LOCAL */)
                return &img->syms[i];
            if (!weak)
                weak = &img->syms[i];
        }
    return weak;
}

const ld_symbol *ld_symbol_at(const ld_image *img, uint64_t addr, uint64_t *offset)
{
    const ld_symbol *best = NULL;
    for (int i = 0; img && i < img->nsyms; i++) {
        const ld_symbol *s = &img->syms[i];
        if ((s->type != 1 && s->type != 2 && s->type != 0) || s->value > addr || s->shndx == 0)
            continue; /* objects, functions and labels only */
        if (!best || s->value > best->value)
            best = s;
    }
    if (best && offset)
        *offset = addr - best->value;
    return best;
}

const ld_section *ld_section_find(const ld_image *img, const char *name)
{
    for (int i = 0; img && i < img->nsecs; i++)
        if (strcmp(img->secs[i].name, name) == 0)
            return &img->secs[i];
    return NULL;
}

const char *ld_format_name(ld_format f)
{
    static const char *const n[] = {"none", "ELF", "MCCP ROM (.out)", "decimal words (.txt)", "hex words (.hex)", "raw binary"};
    return (unsigned)f < sizeof n / sizeof n[0] ? n[f] : "?";
}

int ld_read_data(const char *path, uint8_t **buf, size_t *len, char *err, size_t errlen)
{
    const char *dot = strrchr(path, '.');
    if (dot && strcmp(dot, ".txt") == 0) {
        ld_image img;
        if (ld_load_as(path, LD_TXT, &img, err, errlen))
            return -1;
        *len = img.nwords * 4;
        *buf = malloc(*len ? *len : 1);
        if (!*buf) {
            ld_free(&img);
            return ld_err(err, errlen, "%s: out of memory", path);
        }
        for (size_t i = 0; i < img.nwords; i++) {
            uint32_t w = img.words[i];
            (*buf)[4 * i] = (uint8_t)w;
            (*buf)[4 * i + 1] = (uint8_t)(w >> 8);
            (*buf)[4 * i + 2] = (uint8_t)(w >> 16);
            (*buf)[4 * i + 3] = (uint8_t)(w >> 24);
        }
        ld_free(&img);
        return 0;
    }
    return read_file(path, buf, len, err, errlen);
}
