/* core/asm/section.h: sections and deferred statements, shared by the two-pass assemblers.
 * Pass 1 creates sections by name (per source file when sections behave as in object files,
 * or shared), grows them statement by statement with the size checked before each addition
 * (never wrapping), and records every statement whose bytes need final symbol values: the
 * fix-ups. The ISA then lays the sections out (its vendor linker's rules), the sections'
 * bytes are allocated (or the ISA keeps its own memory images, as the DPU's linker places
 * sections into memories), and pass 2 runs asm_stmts_emit: data statements are written by
 * core/asm/data.c, instructions by the ISA's encoder, each at the place the ISA names. Part of the shared assembler framework. */
#ifndef XPUSIM_ASM_SECTION_H
#define XPUSIM_ASM_SECTION_H
#include <stdint.h>
#include "data.h"

typedef struct asm_section {
    char *name;
    int scope;          /* source file, or -1 when every file shares it */
    uint32_t size;      /* bytes so far (pass 1), final after it */
    uint32_t align;     /* the largest alignment asked for */
    uint64_t base;      /* the address the ISA's layout gives it */
    int tag, rank;      /* the ISA's: memory region, order inside it */
    unsigned flags;     /* the ISA's */
    uint8_t *bytes;     /* pass 2: the contents (asm_sections_alloc), NULL for no-bits sections */
} asm_section;

typedef struct asm_sections {
    asm_section *v;
    int n, cap;
    uint32_t max_size;  /* a section may not grow past this */
} asm_sections;

/* The section name in scope, created (size 0, align 1) if new; -1 out of memory. */
int asm_section_get(asm_sections *s, const char *name, int scope, int *created);
/* Grow section i by n bytes; -1 if it would pass max_size (nothing changes then). */
int asm_section_grow(asm_sections *s, int i, uint64_t n);
/* After pass 1: zeroed contents for every section whose bit in nobits_mask is clear (bit i
 * for section i; bits past 31 are taken as clear). -1 out of memory (name_of_failed set). */
int asm_sections_alloc(asm_sections *s, uint32_t nobits_mask, const char **name_of_failed);
void asm_sections_free(asm_sections *s);

enum { ASM_STMT_DATA = 0 }; /* other kinds are the ISA's (instructions, pseudo-instructions) */

typedef struct asm_stmt {
    int kind;           /* ASM_STMT_DATA or the ISA's */
    int sec, file, line, col; /* col: 1-based column of the statement in its line */
    uint32_t off, size; /* where in its section, bytes */
    char *text;         /* the operands (data) or the whole instruction (the ISA's) */
    char *mn;           /* the ISA's mnemonic, if it keeps one (may be NULL) */
    asm_data data;      /* ASM_STMT_DATA */
} asm_stmt;

typedef struct asm_stmts {
    asm_stmt *v;
    int n, cap;
} asm_stmts;

/* Add a statement at the current end of section sec (proto gives kind, file, line, size,
 * data; off is set here, and the section grows by proto->size). NULL: out of memory or the
 * section would grow too large (*too_big set). */
asm_stmt *asm_stmt_add(asm_stmts *t, asm_sections *s, int sec, const asm_stmt *proto, const char *mn,
                       const char *text, int *too_big);
void asm_stmts_free(asm_stmts *t);

/* Pass 2 callbacks: where statement st's bytes go (NULL: nowhere, e.g. a dropped section or
 * .bss), and the ISA's encoder for its own statement kinds (0 ok, -1 with err). */
typedef uint8_t *(*asm_place_fn)(void *ctx, const asm_stmt *st);
typedef int (*asm_encode_fn)(void *ctx, const asm_stmt *st, uint8_t *out, char *err, size_t errlen);
/* Pass 2 over every statement in order; data values that need relocations go to relocs
 * (NULL when a linked image is written). 0 ok; -1 with *failed the statement and err set. */
int asm_stmts_emit(const asm_stmts *t, const asm_data_rules *rules, asm_place_fn place, asm_encode_fn encode,
                   asm_value_fn value, void *ctx, asm_relocs *relocs, const asm_stmt **failed, char *err,
                   size_t errlen);

#endif
