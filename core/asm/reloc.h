/* core/asm/reloc.h: relocations of an object file (relocatable output), collected in pass 2.
 * A value an assembler cannot finish because it depends on where the linker puts a section,
 * or on a symbol defined elsewhere, leaves its field for the linker: the encoder (or the
 * shared data writer) records where the field is, the ISA's relocation type, the value's
 * relocatable base (see core/asm/expr.h: the caller's numbering of sections and symbols) and
 * the constant part, which the ELF writer stores as the RELA addend. Part of the shared
 * assembler framework. */
#ifndef XPUSIM_ASM_RELOC_H
#define XPUSIM_ASM_RELOC_H
#include <stdint.h>

typedef struct asm_reloc {
    int sec;            /* the section the field lies in */
    uint32_t off;       /* where in that section */
    uint32_t type;      /* the ISA's relocation type (R_<ISA>_*) */
    int base;           /* the value's base, in the caller's numbering */
    int64_t addend;     /* the constant part (the offset from the base) */
} asm_reloc;

typedef struct asm_relocs {
    asm_reloc *v;
    int n, cap;
} asm_relocs;

/* Where a field is being written: the relocations to add to, and the field's section and
 * offset. NULL wherever a linked image is written (no value is relocatable there). */
typedef struct asm_reloc_site {
    asm_relocs *relocs;
    int sec;
    uint32_t off;
} asm_reloc_site;

/* Append one relocation; -1 out of memory (or more than INT_MAX of them). */
int asm_reloc_add(asm_relocs *r, const asm_reloc *x);
void asm_relocs_free(asm_relocs *r);

#endif
