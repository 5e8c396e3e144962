/* frontends/profile_src.h: source lines for --profile. The program's DWARF line tables
 * (.debug_line, read with libdw), their addresses turned into PCs as the ISA places code
 * symbols, so a profile can name the file and line of each PC. */
#ifndef XPUSIM_PROFILE_SRC_H
#define XPUSIM_PROFILE_SRC_H
#include <stddef.h>
#include <stdint.h>
#include "cli.h"

typedef struct prof_row {
    uint64_t pc;
    uint32_t file, line; /* file: index in files[] */
    uint32_t seq;        /* order read: a later row at the same PC wins */
    uint8_t end;         /* end of a sequence: no line from here */
} prof_row;

typedef struct prof_src {
    prof_row *rows;      /* sorted by PC (an end row before a row at its PC) */
    size_t nrows;
    char **files;
    size_t nfiles;
} prof_src;

/* Read the line tables of the session's program; a program without them (or not an ELF)
 * gives nrows == 0. 0 ok, -1 on bad DWARF or no memory (message printed). */
int prof_src_load(cli_session *s, prof_src *src);
/* The file and line of pc: 1, or 0 when no line covers it. */
int prof_src_at(const prof_src *src, uint64_t pc, uint32_t *file, uint32_t *line);
void prof_src_free(prof_src *src);

#endif
