/* core/asm/source.h: the assemblers' line reader. A source is read directly or through the
 * C preprocessor (core/asm/cpp.c); either way the caller gets one line at a time, without
 * its newline, with the file name and line number it came from (cpp's `# N "file"` line
 * markers are followed, so messages point into included files). Every input is bounded: the
 * file is opened through core/file.c (regular files, FILE_MAX_INPUT) and a line longer than
 * ASM_MAX_LINE is an error, never split into two. Part of the shared assembler framework. */
#ifndef XPUSIM_ASM_SOURCE_H
#define XPUSIM_ASM_SOURCE_H
#include <stdio.h>
#include "cpp.h"
#include "limits.h"

typedef struct asm_source {
    FILE *f;                        /* the file, or cpp's output */
    asm_cpp cpp;
    int use_cpp;
    char file[ASM_MAX_LINE + 1];    /* where the current line comes from */
    int line;                       /* its number there */
    int file_changed;               /* the last line marker named another file */
    char buf[ASM_MAX_LINE + 2];
    char cpp_error[512];            /* the first "error:" line cpp printed */
} asm_source;

/* Open path; cpp_args NULL reads it directly, else through cpp with these arguments
 * (NULL-terminated, see asm_cpp_open). 0 ok, -1 with err. */
int asm_source_open(asm_source *s, const char *path, const char *const *cpp_args, char *err, size_t errlen);
/* The next line in *line (valid until the next call). 1: a line; 0: the end; -1: a line
 * longer than ASM_MAX_LINE (err says so; s->line is its number). */
int asm_source_next(asm_source *s, char **line, char *err, size_t errlen);
/* Close; with cpp, read its output to the end and wait for it. 0 ok; -1 if cpp failed (err
 * holds cpp's own message when it printed one). */
int asm_source_close(asm_source *s, char *err, size_t errlen);

/* Read a whole source: open (through cpp when cpp_args is not NULL), call fn for each line
 * with where it comes from, close. fn gets text NULL and lerr set for a line that is too
 * long; it returns 0 to go on, -1 to stop (having written its message into err). When cpp
 * fails, its own message replaces err unless a line's error is already there and cpp said
 * nothing: cpp's words explain a failure better than what its output led to. 0 or -1. */
typedef int (*asm_source_line_fn)(void *ctx, const char *file, int line, char *text, const char *lerr);
int asm_source_read(const char *path, const char *const *cpp_args, asm_source_line_fn fn, void *ctx, char *err,
                    size_t errlen);

/* The names of the files an assembly's lines came from (its sources and what they include),
 * each once: messages and pass-2 statements name a file by its index here, so a statement
 * holds an int, not a copy of the name. Zero-initialised is empty. */
typedef struct asm_files {
    char **v;
    int n, cap;
} asm_files;
/* name's index, added if new; -1 out of memory. */
int asm_files_index(asm_files *t, const char *name);
/* The name at index i, "?" when i is none (a message about no file in particular). */
const char *asm_files_name(const asm_files *t, int i);
void asm_files_free(asm_files *t);

/* cpp arguments from the user's options: defines "NAME[=VALUE],..." (letters, digits and
 * _ . - + only) and one include directory, after the fixed ones (e.g. "-D__NYUZI__=1") and
 * the source's own directory. */
typedef struct asm_cpp_args {
    const char *argv[ASM_CPP_MAX_ARGS + 1];
    char store[ASM_CPP_MAX_ARGS][256];
    char srcdir[4096 + 2], incdir[4096 + 2];
} asm_cpp_args;
int asm_cpp_args_build(asm_cpp_args *a, const char *src, const char *const *fixed, const char *defines,
                       const char *include, char *err, size_t errlen);

#endif
