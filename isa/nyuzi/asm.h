/* isa/nyuzi/asm.h: internal interfaces of the Nyuzi assembler (asm.c, asm_expr.c,
 * asm_elf.c). */
#ifndef XPUSIM_NYUZI_ASM_H
#define XPUSIM_NYUZI_ASM_H
#include <stdint.h>
#include <stddef.h>

enum { OPK_SREG = 1, OPK_VREG, OPK_SMEM, OPK_VMEM, OPK_EXPR };
typedef struct nyz_operand {
    int kind, reg, has_off;
    char *text;          /* expression text (offset for memory operands) */
} nyz_operand;

typedef int (*nyz_asm_lookup_fn)(void *ctx, const char *name, int64_t *val);
int nyz_asm_reg(const char *s, int *is_vector);
int nyz_asm_eval(const char *text, nyz_asm_lookup_fn look, void *ctx, int64_t *out, int *unresolved, char *err,
                 size_t errlen);
int nyz_asm_operand(char *s, nyz_operand *o);

/* ELF output: sections text/data (bytes) and bss (size) at given addresses. */
typedef struct nyz_elf_sym {
    const char *name;
    uint32_t value;
    int section;        /* 0 abs, 1 text, 2 data, 3 bss */
    int global;
} nyz_elf_sym;
typedef struct nyz_elf_out {
    const uint8_t *text; uint32_t text_addr, text_size;
    const uint8_t *data; uint32_t data_addr, data_size;
    uint32_t bss_addr, bss_size;
    uint32_t entry;
    const nyz_elf_sym *syms; int nsyms;
} nyz_elf_out;
int nyz_write_elf(const char *path, const nyz_elf_out *o, char *err, size_t errlen);

#endif
