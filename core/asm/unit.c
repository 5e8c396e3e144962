/* core/asm/unit.c: the steps the object-writing assemblers (Nyuzi, IPU) take alike on one
 * assembly run's state (unit.h): messages with their place, symbols made on first use,
 * statements added where the run is, local labels, the labels in front of a statement, a
 * named symbol's value and cpp's lines. What differs between the ISAs (sections,
 * directives, the value of "." and of a label in each pass) stays in their drivers. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "limits.h"
#include "text.h"
#include "unit.h"

int asm_unit_fail(asm_unit *u, const char *fmt, ...)
{
    if (u->err[0])
        return -1;
    char msg[420];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(u->err, sizeof u->err, "%s:%d:%d: error: %s", asm_files_name(&u->files, u->cur_file), u->cur_line,
             u->cur_col > 0 ? u->cur_col : 1, msg);
    return -1;
}

asm_symbol *asm_unit_sym(asm_unit *u, const char *name)
{
    asm_symbol *s = asm_sym_get(&u->syms, name, 0);
    if (!s)
        asm_unit_fail(u, "out of memory in the symbol table");
    return s;
}

int asm_unit_rename(asm_unit *u, const char *in, char *out, size_t n)
{
    if (asm_local_rename(&u->locals, in, out, n))
        return asm_unit_fail(u, "line too long once local labels are renamed");
    return 0;
}

asm_stmt *asm_unit_add(asm_unit *u, const asm_stmt *proto, const char *mn, const char *text)
{
    asm_stmt p = *proto;
    p.file = u->cur_file;
    p.line = u->cur_line;
    p.col = u->cur_col;
    int too_big;
    asm_stmt *s = asm_stmt_add(&u->stmts, &u->secs, u->sec, &p, mn, text, &too_big);
    if (!s)
        asm_unit_fail(u, too_big ? "section grows past %u bytes" : "out of memory", u->secs.max_size);
    return s;
}

int asm_unit_labels(asm_unit *u, char **p, char **name)
{
    for (;;) {
        char *s;
        int k = asm_take_label(p, &s);
        if (k < 0)
            return asm_unit_fail(u, "label longer than %d characters", ASM_MAX_IDENT);
        if (k == 2) {
            *name = s;
            return 1;
        }
        if (k == 0)
            return 0;
        char full[ASM_MAX_IDENT + 32];
        if (isdigit((unsigned char)*s)) {
            int r = asm_local_define(&u->locals, s, full, sizeof full);
            if (r == -2)
                return asm_unit_fail(u, "label '%s' starts with a digit: a local label is digits only", s);
            if (r)
                return asm_unit_fail(u, "local label %s too large", s);
        } else
            snprintf(full, sizeof full, "%s", s);
        if (u->pass == 1) {
            asm_symbol *y = asm_unit_sym(u, full);
            if (!y)
                return -1;
            if (y->defined)
                return asm_unit_fail(u, "symbol '%s' defined twice", full);
            y->defined = 1;
            y->section = u->sec;
            y->value = u->secs.v[u->sec].size;
        }
    }
}

int asm_unit_symbol(asm_unit *u, const char *name, int64_t *val, int *base, const asm_symbol **label)
{
    *base = 0;
    asm_symbol *s = asm_sym_find(&u->syms, name, 0);
    if ((!s || !s->defined) && u->object && u->pass == 2) { /* left to the linker */
        asm_symbol *x = asm_sym_get(&u->ext, name, 0);
        if (!x)
            return -1;
        *val = 0;
        *base = u->ext_base + (int)(x - u->ext.v);
        return 0;
    }
    if (!s || !s->defined)
        return -1;
    if (!s->expr) {
        *label = s;
        return 1;
    }
    if (s->busy)
        return -1;
    s->busy = 1;
    int unres;
    int64_t v;
    int r = u->eval(u, s->expr, &v, base, &unres);
    s->busy = 0; /* (the table does not move: expressions only look symbols up) */
    if (r < 0 || unres)
        return -1;
    *val = v;
    return 0;
}

int asm_unit_source_line(void *ctx, const char *file, int line, char *text, const char *lerr)
{
    asm_unit *u = ctx;
    if (strcmp(file, asm_files_name(&u->files, u->cur_file)) &&
        (u->cur_file = asm_files_index(&u->files, file)) < 0)
        return asm_unit_fail(u, "out of memory");
    u->cur_line = line;
    u->cur_col = 1;
    if (!text)
        return asm_unit_fail(u, "%s", lerr);
    return u->line(u, text) < 0 ? -1 : 0;
}

void asm_unit_free(asm_unit *u)
{
    asm_stmts_free(&u->stmts);
    asm_sections_free(&u->secs);
    asm_symtab_free(&u->syms);
    asm_symtab_free(&u->ext);
    asm_relocs_free(&u->relocs);
    asm_macros_free(&u->macros);
    asm_files_free(&u->files);
}
