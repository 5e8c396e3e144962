/* isa/ipu/encode.c: one instruction word from a table row named by its LLVM encoding name
 * and its operand values, the inverse of ipu_decode_word + ipu_operand_value. Tests build
 * programs with it without an assembler, and an assembler can use it as its last step:
 * operand values are the numbers the disassembler prints (register numbers, immediates as
 * signed or unsigned values, top-placed `iz` immediates as the full 32-bit value, branch
 * targets as byte addresses), so encode(decode(w)) == w. Every value is checked against
 * its field: a value that does not fit is an error, never silently truncated. */
#include <string.h>
#include "ipu.h"

const ipu_opdef *ipu_row_by_name(const char *llvm_name)
{
    for (int i = 0; i < ipu_nops; i++)
        if (!strcmp(ipu_ops[i].name, llvm_name))
            return &ipu_ops[i];
    return NULL;
}

/* The raw field value for operand o holding v, or -1 if v does not fit. */
static int64_t field_of(const ipu_operand *o, int64_t v)
{
    unsigned w = ipu_operand_width(o);
    int64_t lim = (int64_t)1 << w;
    switch (o->kind) {
    case IPU_K_SIMM:
        if (v < -(lim / 2) || v >= lim / 2)
            return -1;
        return v & (lim - 1);
    case IPU_K_IZ: {
        if (v < 0 || v > 0xffffffffLL)
            return -1;
        uint32_t u = (uint32_t)v, low = w >= 32 ? 0 : 32 - w;
        if (low && (u & ((1u << low) - 1)))
            return -1;
        return (int64_t)(u >> low);
    }
    case IPU_K_BR:
        if (v < 0 || (v & 3) || (v >> 2) >= lim)
            return -1;
        return v >> 2;
    case IPU_K_MRP:
        return v >= 0 && v < 12 && !(v & 1) ? v : -1;
    case IPU_K_ARP:
        return v >= 0 && v < 16 && !(v & 1) ? v : -1;
    case IPU_K_ARQ:
        return v >= 0 && v < 16 && !(v & 3) ? v : -1;
    default:
        return v >= 0 && v < lim ? v : -1;
    }
}

int ipu_encode(const char *llvm_name, const int64_t *ops, uint32_t *word)
{
    const ipu_opdef *d = ipu_row_by_name(llvm_name);
    if (!d)
        return -1;
    uint32_t w = d->match;
    for (int i = 0; i < d->nops; i++) {
        const ipu_operand *o = &d->op[i];
        int64_t f = field_of(o, ops[i]);
        if (f < 0)
            return -(2 + i);
        for (int p = 0; p < o->npieces; p++) {
            const ipu_piece *pc = &o->p[p];
            uint32_t bits = (uint32_t)(f >> pc->shift) & (pc->width >= 32 ? 0xffffffffu : (1u << pc->width) - 1);
            w |= bits << pc->lo;
        }
    }
    *word = w;
    return 0;
}
