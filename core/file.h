/* core/file.h: files the user names, read with bounds and written with every error seen.
 * A simulator reads programs, data and scripts nobody vetted: every input file is opened
 * without blocking (a FIFO with no writer must not hang the run), must be a regular file
 * (a device like /dev/zero never ends), and is refused with its size when it is over the
 * limit. Every output is closed through file_close_out, which reports a failed write,
 * flush or close (a full disk, /dev/full) as "PATH: reason" instead of losing it. */
#ifndef XPUSIM_FILE_H
#define XPUSIM_FILE_H
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>

/* The largest program, data or script file xpusim reads (documented in docs/user-guide.md). */
#define FILE_MAX_INPUT (1ULL << 30)

/* Open a regular file for reading, checked as above. NULL with err filled. */
FILE *file_open_read(const char *path, uint64_t limit, char *err, size_t errlen);
/* Read a whole file (plus a NUL terminator not counted in *len). 0 ok, -1 with err. */
int file_read_all(const char *path, uint64_t limit, uint8_t **buf, size_t *len, char *err, size_t errlen);
/* Flush, check and close an output stream. 0 ok, -1 with "PATH: reason" in err. */
int file_close_out(FILE *f, const char *path, char *err, size_t errlen);
/* Flush and check a stream that stays open (stdout). 0 ok, -1 with "NAME: reason". */
int file_check_out(FILE *f, const char *name, char *err, size_t errlen);
/* Write s as a JSON string: quoted, with '"', '\\' and control characters escaped (the
 * statistics and task writers; names and messages may hold anything a program printed). */
void file_json_str(FILE *f, const char *s);
/* Write the members "names[i]": values[i] of a JSON object's body, comma-separated, for i up
 * to max or the first NULL name (names may be NULL: nothing); stalls by cause everywhere. */
void file_json_counts(FILE *f, const char *const *names, const uint64_t *values, int max);
/* Text built in a buffer and written with one fwrite, numbers in decimal without a format
 * parsed: what fprintf's "%s" and "%llu" write, at a tenth of the host instructions (the
 * text statistics of 2,560 DPUs are ~50,000 lines, written after the parallel part of the
 * run: issue 9 pt 5). Start with file_line l = {.f = stream}; end with file_line_flush
 * (a full buffer is flushed on the way, so any length fits). */
typedef struct {
    FILE *f;
    size_t n;
    char b[256];
} file_line;
void file_line_put(file_line *l, const char *s);
void file_line_u64(file_line *l, uint64_t v);
void file_line_flush(file_line *l);
/* file_text_counts (below) into a line. */
void file_line_counts(file_line *l, const char *lead, const char *const *names, const uint64_t *values, int max);
/* The same in text: ", stall NAME VALUE" (lead before each name) for the non-zero values,
 * i up to max or the first NULL name: the statistics' and tasks' stall lists. */
void file_text_counts(FILE *f, const char *lead, const char *const *names, const uint64_t *values, int max);

#endif
