/* core/asm/symtab.h: the assemblers' symbol table. A symbol is a name in a scope (a source
 * file's own names, or ASM_SCOPE_GLOBAL for names every file sees, such as linker-defined
 * ones); it is a label (a section and an offset), an absolute value, or a `.set` expression
 * kept as text and evaluated when asked. Lookup is hashed on the name; every symbol of one
 * name is reachable from the first, so an ISA can apply its own linking rules (a file's own
 * definition first, strong over weak). Names and expressions are copied whole: no length
 * limit beyond the assembler's line limit. Part of the shared assembler framework. */
#ifndef XPUSIM_ASM_SYMTAB_H
#define XPUSIM_ASM_SYMTAB_H
#include <stdint.h>

#define ASM_SCOPE_GLOBAL (-1)

typedef struct asm_symbol {
    char *name;
    char *expr;             /* `.set NAME, EXPR` still to evaluate (NULL otherwise) */
    int scope;              /* file index, or ASM_SCOPE_GLOBAL */
    int section;            /* -1: absolute (value), else the ISA's section index */
    int64_t value;          /* offset in the section, or the absolute value */
    uint32_t size;          /* .size */
    unsigned defined : 1, global : 1, weak : 1, busy : 1;
    int next_same;          /* next symbol with this name (index), -1 at the end */
} asm_symbol;

typedef struct asm_symtab {
    asm_symbol *v;
    int n, cap;
    int *heads;             /* hash slot -> first symbol index with that name, -1 empty */
    int nheads;             /* power of two */
} asm_symtab;

void asm_symtab_free(asm_symtab *t);
/* The first symbol named name (any scope), -1 if none; follow .next_same for the others. */
int asm_sym_first(const asm_symtab *t, const char *name);
/* The symbol name in exactly this scope, NULL if none. */
asm_symbol *asm_sym_find(const asm_symtab *t, const char *name, int scope);
/* The same, created (undefined, section -1) if missing; NULL only when out of memory.
 * Pointers stay valid until the next asm_sym_get. */
asm_symbol *asm_sym_get(asm_symtab *t, const char *name, int scope);
/* Replace a symbol's expression with a copy of expr (NULL clears it). 0 ok, -1 no memory. */
int asm_sym_set_expr(asm_symbol *y, const char *expr);

#endif
