/* core/asm/unit.h: one assembly run of an assembler that writes objects (Nyuzi, IPU): its
 * statements, sections, symbols (and, for an object, the undefined ones it refers to),
 * macros, local labels, relocations and source files, the place messages point at, and
 * the steps those assemblers take alike: a message with file:line:col, a symbol made on
 * first use, a statement added at the current point, local labels renamed, the labels in
 * front of a statement, a named symbol's value, one line of cpp's output. An ISA's context
 * holds an asm_unit as its FIRST member (so the unit and the context are one address) and
 * keeps its own rules around it: its sections, directives, pseudo-instructions and what
 * "." and a label are worth in each pass. Part of the shared assembler framework
 * (docs/assembler.md). */
#ifndef XPUSIM_ASM_UNIT_H
#define XPUSIM_ASM_UNIT_H
#include <stddef.h>
#include <stdint.h>
#include "macro.h"
#include "reloc.h"
#include "section.h"
#include "source.h"
#include "symtab.h"

typedef struct asm_unit asm_unit;
/* The ISA's handling of one source line (after cpp): 0 or -1 with the message set. */
typedef int (*asm_unit_line_fn)(asm_unit *u, char *text);
/* The ISA's expression evaluator (its register names reserved): as asm_expr_eval. */
typedef int (*asm_unit_eval_fn)(asm_unit *u, const char *text, int64_t *val, int *base, int *unresolved);

struct asm_unit {
    asm_stmts stmts;
    asm_sections secs;
    asm_symtab syms;        /* one scope (0) */
    asm_symtab ext;         /* object files: symbols used but not defined here */
    asm_macros macros;
    asm_locals locals;
    asm_relocs relocs;
    asm_files files;
    int sec;                /* the current section */
    int pass;               /* 1: size and place; 2: evaluate and encode */
    int object;             /* a relocatable object: values left to the linker */
    uint32_t dot;           /* pass 2: the address of the statement being encoded */
    int cur_file, cur_line, cur_col;    /* where messages point (cur_col 1-based) */
    int ext_base;           /* the relocatable base of the first undefined symbol */
    asm_unit_line_fn line;
    asm_unit_eval_fn eval;
    char err[600];          /* the first error, with its place */
};

/* Record "FILE:LINE:COL: error: MSG" unless an error is already recorded; always -1. */
int asm_unit_fail(asm_unit *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The symbol name, made undefined on first use; NULL (with the error) only when out of memory. */
asm_symbol *asm_unit_sym(asm_unit *u, const char *name);
/* Numeric local label references (1b, 2f) in in renamed into out (n bytes). 0 or -1. */
int asm_unit_rename(asm_unit *u, const char *in, char *out, size_t n);
/* A statement like proto (kind, size, data) at the current section and place. NULL with
 * the error when the section would grow past secs.max_size or memory runs out. */
asm_stmt *asm_unit_add(asm_unit *u, const asm_stmt *proto, const char *mn, const char *text);
/* Take the labels at *p (NAME: and numeric N:), defining each at the current place in pass
 * 1 (a name defined twice is an error). 0: *p is the statement that follows (or NULL); 1:
 * `NAME = EXPR`, *name is NAME and *p the expression; -1: an error. */
int asm_unit_labels(asm_unit *u, char **p, char **name);
/* The value of a named symbol other than ".": 0 with *val and *base (0 absolute, else its
 * relocatable base); 1 for a label, *label set: its section and offset, whose value in this
 * pass the ISA decides; -1 unknown. In an object's pass 2 an undefined name is left to the
 * linker (base ext_base + its index in ext, value 0). A `.set` expression is evaluated with
 * u->eval; one that needs itself is unknown. */
int asm_unit_symbol(asm_unit *u, const char *name, int64_t *val, int *base, const asm_symbol **label);
/* An asm_source_line_fn for asm_source_read (ctx: the unit): follows cpp's file changes,
 * then hands the line to u->line. */
int asm_unit_source_line(void *ctx, const char *file, int line, char *text, const char *lerr);
/* Free everything the unit holds (not the unit). */
void asm_unit_free(asm_unit *u);

#endif
