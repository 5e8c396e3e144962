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

/* Symbol values: *base 0 (absolute; always in a linked image) or, in an object file, the
 * relocatable base the value is an offset from (asm.c's numbering; core/asm/expr.h). */
typedef int (*nyz_asm_lookup_fn)(void *ctx, const char *name, int64_t *val, int *base);
int nyz_asm_reg(const char *s, int *is_vector);
int nyz_asm_eval(const char *text, nyz_asm_lookup_fn look, void *ctx, int64_t *out, int *base, int *unresolved,
                 char *err, size_t errlen);

/* Nyuzi relocation types (LLVM: include/llvm/BinaryFormat/ELFRelocs/Nyuzi.def). */
enum { R_NYUZI_NONE, R_NYUZI_ABS32, R_NYUZI_BRANCH20, R_NYUZI_BRANCH25, R_NYUZI_HI19, R_NYUZI_IMM_LO13 };
/* A field an instruction leaves to the linker (object files): type 0 = none. */
typedef struct nyz_fixup {
    int type, base;
    int64_t addend;
} nyz_fixup;
/* Encode one instruction at pc (an offset from pc_base in an object file). A relocatable
 * operand in a field with a relocation fills *fx (the field holds 0); in any other field it
 * is an error. 0 ok, -1 with err set. */
int nyz_encode(const char *mn, nyz_operand *ops, int nops, uint32_t pc, int pc_base, nyz_asm_lookup_fn look,
               void *ctx, uint32_t *word, nyz_fixup *fx, char *err, size_t errlen);
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

/* Object file output: sections at address 0, symbols (section 0 abs, 1-3 as above, -1
 * undefined), relocations per section (sym: index into syms, or -(1 + section) for the
 * section's own symbol). */
typedef struct nyz_obj_rela {
    int sec;            /* 1 text, 2 data */
    uint32_t off, type;
    int sym;
    int32_t addend;
} nyz_obj_rela;
typedef struct nyz_obj_out {
    const uint8_t *text; uint32_t text_size, text_align;
    const uint8_t *data; uint32_t data_size, data_align;
    uint32_t bss_size, bss_align;
    const nyz_elf_sym *syms; int nsyms;
    const nyz_obj_rela *relas; int nrelas;
} nyz_obj_out;
int nyz_write_object(const char *path, const nyz_obj_out *o, char *err, size_t errlen);

#endif
