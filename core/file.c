/* core/file.c: bounded, non-blocking input files and checked outputs (see file.h). The
 * open is O_NONBLOCK so that opening a FIFO without a writer returns at once; the stream
 * is switched back to blocking once fstat has shown a regular file. The size is checked
 * from fstat before reading and again while reading (a file that grows is cut at limit). */
#include "file.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void size_text(uint64_t n, char *buf, size_t len)
{
    if (n >= (1ULL << 30))
        snprintf(buf, len, "%.1f GiB", (double)n / (double)(1ULL << 30));
    else if (n >= (1ULL << 20))
        snprintf(buf, len, "%.1f MiB", (double)n / (double)(1ULL << 20));
    else
        snprintf(buf, len, "%llu bytes", (unsigned long long)n);
}

static int too_big(const char *path, uint64_t size, uint64_t limit, char *err, size_t errlen)
{
    char a[32], b[32];
    size_text(size, a, sizeof a);
    size_text(limit, b, sizeof b);
    snprintf(err, errlen, "%s: %s is over the %s limit for input files", path, a, b);
    return -1;
}

FILE *file_open_read(const char *path, uint64_t limit, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st)) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: not a regular file (%s): xpusim reads programs, data and scripts from files",
                 path, S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a pipe" :
                 S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "a special file");
        close(fd);
        return NULL;
    }
    if ((uint64_t)st.st_size > limit) {
        too_big(path, (uint64_t)st.st_size, limit, err, errlen);
        close(fd);
        return NULL;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        close(fd);
    }
    return f;
}

int file_read_all(const char *path, uint64_t limit, uint8_t **buf, size_t *len, char *err, size_t errlen)
{
    FILE *f = file_open_read(path, limit, err, errlen);
    if (!f)
        return -1;
    size_t cap = 1 << 16, n = 0;
    uint8_t *b = malloc(cap + 1);
    while (b) {
        size_t got = fread(b + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        if (n > limit) {    /* grew while we read it */
            free(b);
            fclose(f);
            return too_big(path, n, limit, err, errlen);
        }
        uint8_t *nb = realloc(b, cap * 2 + 1);
        if (!nb) {
            free(b);
            b = NULL;
            break;
        }
        b = nb;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (!b) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    if (bad || n > limit) {
        free(b);
        if (n > limit)
            return too_big(path, n, limit, err, errlen);
        snprintf(err, errlen, "%s: read error", path);
        return -1;
    }
    b[n] = 0; /* text parsers may rely on a terminator */
    *buf = b;
    *len = n;
    return 0;
}

/* The error a stream's buffered or earlier writes met, 0 if none. */
static int out_error(FILE *f)
{
    if (fflush(f))
        return errno ? errno : EIO;
    return ferror(f) ? EIO : 0;
}

int file_check_out(FILE *f, const char *name, char *err, size_t errlen)
{
    int e = out_error(f);
    if (e)
        snprintf(err, errlen, "%s: %s", name, strerror(e));
    return e ? -1 : 0;
}

int file_close_out(FILE *f, const char *path, char *err, size_t errlen)
{
    int e = out_error(f);
    if (fclose(f) && !e)
        e = errno;
    if (e)
        snprintf(err, errlen, "%s: %s", path, strerror(e));
    return e ? -1 : 0;
}

void file_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", *s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

void file_json_counts(FILE *f, const char *const *names, const uint64_t *values, int max)
{
    for (int i = 0; names && i < max && names[i]; i++) {
        fprintf(f, "%s", i ? ", " : "");
        file_json_str(f, names[i]);
        fprintf(f, ": %llu", (unsigned long long)values[i]);
    }
}

void file_line_put(file_line *l, const char *s)
{
    size_t k = strlen(s);
    while (l->n + k > sizeof l->b) { /* fill the buffer, write it, go on */
        size_t part = sizeof l->b - l->n;
        memcpy(l->b + l->n, s, part);
        l->n += part;
        s += part;
        k -= part;
        file_line_flush(l);
    }
    memcpy(l->b + l->n, s, k);
    l->n += k;
}

void file_line_u64(file_line *l, uint64_t v)
{
    char d[20]; /* 2^64 - 1 has 20 digits */
    size_t k = sizeof d;
    do
        d[--k] = (char)('0' + v % 10);
    while ((v /= 10) && k);
    if (l->n + (sizeof d - k) > sizeof l->b)
        file_line_flush(l);
    memcpy(l->b + l->n, d + k, sizeof d - k);
    l->n += sizeof d - k;
}

void file_line_flush(file_line *l)
{
    fwrite(l->b, 1, l->n, l->f);
    l->n = 0;
}

void file_line_counts(file_line *l, const char *lead, const char *const *names, const uint64_t *values, int max)
{
    for (int i = 0; names && i < max && names[i]; i++)
        if (values[i]) {
            file_line_put(l, lead);
            file_line_put(l, names[i]);
            file_line_put(l, " ");
            file_line_u64(l, values[i]);
        }
}

void file_text_counts(FILE *f, const char *lead, const char *const *names, const uint64_t *values, int max)
{
    file_line l = {.f = f};
    file_line_counts(&l, lead, names, values, max);
    file_line_flush(&l);
}
