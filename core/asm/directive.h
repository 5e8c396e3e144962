/* core/asm/directive.h: the directive dispatcher of the assemblers. A directive goes first
 * to the ISA's own table (sections, symbols and anything only that ISA has), then to the
 * shared data and alignment directives (core/asm/data.c, sized with the ISA's rules and
 * handed back to the ISA to record), then to the list of directives that put nothing in the
 * image; anything else is an error naming it. An ISA adds a directive by adding a row.
 * Part of the shared assembler framework (core/asm/). */
#ifndef XPUSIM_ASM_DIRECTIVE_H
#define XPUSIM_ASM_DIRECTIVE_H
#include <stddef.h>
#include "data.h"

/* An ISA's handler: 0 ok, -1 error (recorded by the ISA with its file:line). */
typedef int (*asm_directive_fn)(void *ctx, const char *name, char *args);

typedef struct asm_directive {
    const char *name;       /* ".section"; a final '*' matches by prefix (".cfi_*") */
    asm_directive_fn fn;
} asm_directive;

/* Records a sized data statement in the ISA's current section: 0 ok, -1 recorded error. */
typedef int (*asm_data_fn)(void *ctx, const char *name, char *args, const asm_data *d);

typedef struct asm_directives {
    const asm_directive *table;     /* ends with {NULL, NULL} */
    const asm_data_rules *rules;
    asm_const_fn const_value;       /* values needed in pass 1 (sizes, fills, alignments) */
    asm_data_fn data;
} asm_directives;

/* Run directive name with its operand text. 0 ok; -1 error: either msg is set (an error of
 * the shared layer, for the ISA to prefix with file:line) or msg is empty (the ISA's handler
 * has recorded it). */
int asm_directive_run(const asm_directives *d, void *ctx, const char *name, char *args, char *msg, size_t msglen);

#endif
