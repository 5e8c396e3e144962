/* core/asm/data.h: the data and alignment directives every assembler shares, in two steps
 * that match a two-pass assembler. Pass 1 (asm_data_size) recognises the directive and
 * sizes it: .byte .short/.hword/.2byte .long/.word/.int/.4byte .quad/.8byte (one item per
 * comma-separated expression), .float/.single .double, .ascii .asciz/.string (one or more
 * strings), .zero/.space/.skip SIZE[, FILL], and .align/.balign/.p2align ALIGN[, FILL[, MAX]]
 * (whose size depends on where it lands: the caller asks asm_data_pad). Pass 2
 * (asm_data_emit) writes the bytes once every symbol has its value. What differs between
 * ISAs is data, not code: asm_data_rules. Part of the shared assembler framework. */
#ifndef XPUSIM_ASM_DATA_H
#define XPUSIM_ASM_DATA_H
#include <stddef.h>
#include <stdint.h>
#include "expr.h"
#include "reloc.h"

typedef struct asm_data_rules {
    int align_is_pow2;      /* `.align N` is 2^N bytes (as on the DPU) rather than N bytes */
    uint32_t max_align;     /* largest alignment in bytes, a power of two */
    uint32_t max_fill;      /* largest .zero/.space size */
    int check_range;        /* a value must fit its width; otherwise its low bytes are kept */
    uint32_t nan32;         /* .float nan: these bits (0: the host's quiet NaN) */
    uint32_t reloc_abs[9];  /* object files: the relocation type of an absolute value of
                             * each width in bytes (0: none, a relocatable value is an error) */
} asm_data_rules;

enum { ASM_DATA_VALUES = 1, ASM_DATA_FLOATS, ASM_DATA_STRING, ASM_DATA_FILL, ASM_DATA_ALIGN };

typedef struct asm_data {
    int kind;               /* ASM_DATA_* */
    int width;              /* bytes per item (values, floats) */
    int nul_each;           /* strings: a 0 after each (.asciz) */
    uint32_t size;          /* bytes (not for ALIGN: see asm_data_pad) */
    uint32_t align;         /* ALIGN: the alignment in bytes */
    uint32_t max_skip;      /* ALIGN: no padding if more than this would be needed (0: any) */
    uint8_t fill;           /* FILL and ALIGN: the byte */
} asm_data;

/* A value needed now (sizes, fills, alignments): 0 and *v, or -1 with err set. */
typedef int (*asm_const_fn)(void *ctx, const char *text, int64_t *v, char *err, size_t errlen);
/* A value in pass 2: 0 and *v, or -1 with err set. *base is 0 (absolute) or, in an object
 * file, the relocatable base *v is an offset from (core/asm/expr.h). */
typedef int (*asm_value_fn)(void *ctx, const char *text, int64_t *v, int *base, char *err, size_t errlen);

/* Pass 1. 1: not a data directive; 0: *d filled; -1: err set. */
int asm_data_size(const asm_data_rules *r, const char *dir, const char *args, asm_const_fn cval, void *ctx,
                  asm_data *d, char *err, size_t errlen);
/* Padding an ALIGN statement needs at offset off (honouring max_skip). */
uint32_t asm_data_pad(const asm_data *d, uint32_t off);
/* Pass 2: the d->size bytes (or the pad for ALIGN, given as size) into out. A relocatable
 * value becomes a relocation at site (its field holds 0; the constant is the addend); site
 * is NULL for a linked image. 0 ok, -1 err. */
int asm_data_emit(const asm_data_rules *r, const asm_data *d, const char *args, uint32_t size, asm_value_fn val,
                  void *ctx, const asm_reloc_site *site, uint8_t *out, char *err, size_t errlen);

#endif
