/* isa/ipu/fop.h: one fast-path operation (an ipu_fop record, exec.h) executed on a context's
 * register array, shared by the cycle model's fast loop (fast.c) and the functional loop
 * (func.c) so both run exactly the same semantics. Included by those two files only; it
 * has no state of its own. */
#ifndef XPUSIM_IPU_FOP_H
#define XPUSIM_IPU_FOP_H
#include "exec.h"

#define FP_SHIFT 8 /* 256 words (1 KiB of code) a page of records */
#define FP_WORDS (1u << FP_SHIFT)

typedef struct ipu_fpage {
    ipu_frec e[FP_WORDS];
} ipu_fpage;

/* The record of the worker bundle at tile-memory offset off (4-byte aligned), built or
 * rebuilt when the words in memory are not the ones it was built from; NULL out of memory
 * (the bundle then goes through the generic executor). fast.c. */
ipu_frec *ipu_frec_miss(ipu_tile *tl, uint32_t off);

/* Is the record still the decode of the words in memory? */
static inline int frec_valid(const ipu_frec *r, const uint8_t *code)
{
    return r->kind != IPU_FR_NONE && r->w0 == mem_ld32le(code) && (r->n == 1 || r->w1 == mem_ld32le(code + 4));
}

/* One half of a bundle at pc (len bytes), on the context's registers R. Returns 0 done, 1
 * when it must go through the generic executor (nothing changed). */
static inline __attribute__((always_inline)) int ipu_xop(const ipu_fop *f, ipu_ctx *c, uint32_t *R, uint8_t *mem,
                                                         uint32_t base, uint32_t msize, uint32_t rmask, uint32_t pc,
                                                         uint32_t len, uint32_t *npc)
{
    const uint32_t a = R[f->a];
    const uint32_t b = f->bimm ? f->imm : R[f->b];
    uint32_t r, ea, off;
    switch (f->op) {
    case IPU_FOP_ADD: r = a + b; break;
    case IPU_FOP_SUB: r = a - b; break;
    case IPU_FOP_MUL: r = (uint32_t)((int64_t)(int32_t)a * (int32_t)b); break;
    case IPU_FOP_AND: r = a & b; break;
    case IPU_FOP_ANDC: r = a & ~b; break;
    case IPU_FOP_OR: case IPU_FOP_MOV: r = a | b; break;
    case IPU_FOP_XOR: r = a ^ b; break;
    case IPU_FOP_XNOR: r = ~(a ^ b); break;
    case IPU_FOP_MIN: r = (int32_t)a < (int32_t)b ? a : b; break;
    case IPU_FOP_MAX: r = (int32_t)a > (int32_t)b ? a : b; break;
    case IPU_FOP_SHL: if (b > 31) return 1; r = a << b; break;
    case IPU_FOP_SHR: if (b > 31) return 1; r = a >> b; break;
    case IPU_FOP_SHRS: if (b > 31) return 1; r = (uint32_t)((int32_t)a >> b); break;
    case IPU_FOP_CMPEQ: r = a == b; break;
    case IPU_FOP_CMPNE: r = a != b; break;
    case IPU_FOP_CMPSLT: r = (int32_t)a < (int32_t)b; break;
    case IPU_FOP_CMPULT: r = a < b; break;
    case IPU_FOP_ABS: r = (int32_t)a < 0 ? 0u - a : a; break;
    case IPU_FOP_CLZ: r = a ? (uint32_t)__builtin_clz(a) : 32; break;
    case IPU_FOP_CMS: {
        uint32_t v = (a ^ (uint32_t)((int32_t)a >> 31)) << 1 | 1;
        r = (uint32_t)__builtin_clz(v);
        break;
    }
    case IPU_FOP_POPC: r = (uint32_t)__builtin_popcount(a); break;
    case IPU_FOP_BITREV8:
        r = 0;
        for (int i = 0; i < 32; i++)
            if (a >> i & 1)
                r |= 1u << ((i & ~7) | (7 - (i & 7)));
        break;
    case IPU_FOP_NOT: r = ~a; break;
    case IPU_FOP_AND64: case IPU_FOP_ANDC64: case IPU_FOP_OR64: case IPU_FOP_NOT64: {
        const uint64_t x = (uint64_t)R[f->a + 1] << 32 | R[f->a], y = (uint64_t)R[f->b + 1] << 32 | R[f->b];
        const uint64_t v = f->op == IPU_FOP_AND64 ? x & y : f->op == IPU_FOP_ANDC64 ? x & ~y
                           : f->op == IPU_FOP_OR64 ? x | y : ~x;
        R[f->d] = (uint32_t)v;
        R[f->d + 1] = (uint32_t)(v >> 32);
        return 0;
    }
    case IPU_FOP_LD32: case IPU_FOP_LDZ8: case IPU_FOP_LDS8: case IPU_FOP_LDZ16: case IPU_FOP_LDS16:
    case IPU_FOP_LDB16: case IPU_FOP_LD64: case IPU_FOP_ST32: case IPU_FOP_ST64: {
        const uint32_t delta = R[f->b];
        const uint32_t k = f->bimm ? f->imm : R[f->c] << f->shift;
        ea = a + delta + (f->step ? 0 : k);
        off = ea - base;
        const uint32_t n = 1u << f->shift;
        if (off > msize - n || (ea & (n - 1)))
            return 1; /* the generic executor raises */
        uint8_t *p = mem + off;
        switch (f->op) {
        case IPU_FOP_LD32: R[f->d] = mem_ld32le(p); break;
        case IPU_FOP_LDZ8: R[f->d] = p[0]; break;
        case IPU_FOP_LDS8: R[f->d] = (uint32_t)(int32_t)(int8_t)p[0]; break;
        case IPU_FOP_LDZ16: R[f->d] = mem_ld16le(p); break;
        case IPU_FOP_LDS16: R[f->d] = (uint32_t)(int32_t)(int16_t)mem_ld16le(p); break;
        case IPU_FOP_LDB16: { uint32_t h = mem_ld16le(p); R[f->d] = h << 16 | h; break; }
        case IPU_FOP_LD64: { uint64_t v = mem_ld64le(p); R[f->d] = (uint32_t)v; R[f->d + 1] = (uint32_t)(v >> 32); break; }
        case IPU_FOP_ST32: mem_st32le(p, R[f->d]); break;
        default: mem_st64le(p, (uint64_t)R[f->d + 1] << 32 | R[f->d]); break;
        }
        if (f->step)
            R[f->e] = delta + k;
        return 0;
    }
    case IPU_FOP_BR: *npc = a + f->imm2; return 0;
    case IPU_FOP_BRZ: if (a == 0) *npc = f->imm2; return 0;
    case IPU_FOP_BRNZ: if (a != 0) *npc = f->imm2; return 0;
    case IPU_FOP_BRNEG: if ((int32_t)a < 0) *npc = f->imm2; return 0;
    case IPU_FOP_BRPOS: if ((int32_t)a >= 0) *npc = f->imm2; return 0;
    case IPU_FOP_BRNZDEC:
        if (a != 0) {
            R[f->d] = a - 1;
            *npc = f->imm2;
        }
        return 0;
    case IPU_FOP_CALL:
        R[f->d] = pc + len;
        *npc = f->imm2;
        return 0;
    case IPU_FOP_MOVZ: /* movnz: d = b when the gate a != 0 (exec.c) */
        if (a != 0)
            R[f->d] = R[f->b];
        return 0;
    case IPU_FOP_RPT: {
        const uint32_t count = a + f->imm;
        if (count > rmask)
            return 1;
        const uint32_t first = pc + len, end = first + f->imm2;
        c->rpt_first = first;
        c->rpt_end = end;
        if (!count)
            *npc = end;
        else
            c->rpt_count = count;
        return 0;
    }
    default:
        __builtin_unreachable(); /* ipu_frec_build stores only IPU_FOP_* */
    }
    R[f->d] = r;
    return 0;
}

#endif
