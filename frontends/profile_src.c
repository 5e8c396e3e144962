/* frontends/profile_src.c: the DWARF line tables of a program for --profile (see
 * profile_src.h). libdw (elfutils) reads them: it decodes every DWARF version's line program
 * (2 to 5, with DWARF 5's .debug_line_str and file-entry formats, compressed sections) and
 * dwarf_next_lines walks .debug_line even without .debug_info, which a reader of our own
 * would have to repeat; the loader already uses elfutils' libelf. Rows become (PC, file,
 * line), sorted by PC, and a PC takes the last row at or below it unless that row ends a
 * sequence. A program without .debug_line is not opened again; bad DWARF is a warning and a
 * profile without lines. */
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "profile_src.h"
#include "../isa/isa.h"

/* An ELF address as a PC, as cli_code_symbols places code symbols; -1 if not code. */
static int src_pc(cli_session *s, uint64_t addr, uint64_t *pc)
{
    const char *code = s->isa->code_space;
    if (!s->isa->symbol_location || !code) {
        *pc = addr;
        return 0;
    }
    ld_symbol sym = {.name = "", .value = addr, .type = 2, .shndx = 1};
    mem_space *sp = NULL;
    uint64_t a;
    size_t cl = strlen(code);
    if (s->isa->symbol_location(&s->m, 0, &sym, &sp, &a) || !sp || strncmp(sp->name, code, cl) ||
        (sp->name[cl] && sp->name[cl] != '.'))
        return -1;
    *pc = a;
    return 0;
}

static int src_file(prof_src *src, const char *name, uint32_t *idx)
{
    for (size_t i = 0; i < src->nfiles; i++)
        if (!strcmp(src->files[i], name)) {
            *idx = (uint32_t)i;
            return 0;
        }
    char **nf = realloc(src->files, (src->nfiles + 1) * sizeof *nf);
    if (!nf)
        return -1;
    src->files = nf;
    if (!(nf[src->nfiles] = strdup(name)))
        return -1;
    *idx = (uint32_t)src->nfiles++;
    return 0;
}

static int row_cmp(const void *a, const void *b)
{
    const prof_row *x = a, *y = b;
    if (x->pc != y->pc)
        return x->pc < y->pc ? -1 : 1;
    if (x->end != y->end) /* a sequence that starts where another ends covers that PC */
        return x->end ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Bad DWARF costs the profile its lines, not the run's profile. */
static void src_bad(const cli_session *s, const char *what)
{
    fprintf(stderr, "xpusim: --profile: %s: %s: %s; the profile has no source lines\n", s->img.path, what,
            dwarf_errmsg(-1));
}

int prof_src_load(cli_session *s, prof_src *src)
{
    memset(src, 0, sizeof *src);
    int have = 0;
    for (int i = 0; s->img.fmt == LD_ELF && i < s->img.nsecs; i++)
        have |= s->img.secs[i].name && !strcmp(s->img.secs[i].name, ".debug_line");
    if (!have)
        return 0; /* no line tables: the common case */
    int fd = open(s->img.path, O_RDONLY);
    if (fd < 0)
        return 0; /* the program was read; without its file there are no lines */
    Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);
    if (!dw) {
        src_bad(s, "DWARF");
        close(fd);
        return 0;
    }
    size_t cap = 0;
    int rc = 0;
    Dwarf_Off off = 0, next = 0;
    Dwarf_CU *cu = NULL;
    Dwarf_Lines *lines;
    size_t nlines;
    int r;
    while ((r = dwarf_next_lines(dw, off, &next, &cu, NULL, NULL, &lines, &nlines)) == 0) {
        for (size_t i = 0; i < nlines && !rc; i++) {
            Dwarf_Line *l = dwarf_onesrcline(lines, i);
            Dwarf_Addr addr;
            int ln = 0;
            bool end = false;
            const char *name;
            uint64_t pc;
            if (!l || dwarf_lineaddr(l, &addr) || dwarf_lineno(l, &ln) || dwarf_lineendsequence(l, &end) ||
                !(name = dwarf_linesrc(l, NULL, NULL)))
                continue; /* a row libdw cannot complete names no line */
            if (src_pc(s, addr, &pc))
                continue;
            if (src->nrows == cap) {
                cap = cap ? 2 * cap : 256;
                prof_row *nr = realloc(src->rows, cap * sizeof *nr);
                if (!nr) {
                    rc = -1;
                    break;
                }
                src->rows = nr;
            }
            prof_row *row = &src->rows[src->nrows];
            if (src_file(src, name, &row->file)) {
                rc = -1;
                break;
            }
            row->pc = pc;
            row->line = ln > 0 ? (uint32_t)ln : 0;
            row->end = end;
            row->seq = (uint32_t)src->nrows++;
        }
        if (rc)
            break;
        off = next;
    }
    if (rc)
        fprintf(stderr, "xpusim: --profile: out of memory\n");
    else if (r < 0)
        src_bad(s, ".debug_line");
    dwarf_end(dw);
    close(fd);
    if (rc || r < 0) {
        prof_src_free(src);
        return rc;
    }
    qsort(src->rows, src->nrows, sizeof *src->rows, row_cmp);
    return 0;
}

int prof_src_at(const prof_src *src, uint64_t pc, uint32_t *file, uint32_t *line)
{
    size_t lo = 0, hi = src->nrows; /* the first row above pc */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (src->rows[mid].pc <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (!lo || src->rows[lo - 1].end)
        return 0;
    *file = src->rows[lo - 1].file;
    *line = src->rows[lo - 1].line;
    return 1;
}

void prof_src_free(prof_src *src)
{
    for (size_t i = 0; i < src->nfiles; i++)
        free(src->files[i]);
    free(src->files);
    free(src->rows);
    memset(src, 0, sizeof *src);
}
