/* isa/dpu/cond.h: the DPU's condition meanings, shared by the generic executor
 * (exec.c) and the specialised run loop (fast.c) so both read one definition.
 * Condition meanings follow uPIMulator's Set*Cc rules (reference §1.7), with comparisons
 * read from the subtraction flags (docs/isa/dpu.md). */
#ifndef XPUSIM_DPU_COND_H
#define XPUSIM_DPU_COND_H
#include "dpu.h"

typedef struct cc_in {
    uint32_t res, a, b;
    int carry, ov, zprev;
    uint32_t shamt;
} cc_in;

static inline int cond_true(int c, const cc_in *x)
{
    int32_t r = (int32_t)x->res;
    switch (c) {
    case DPU_C_NONE: case DPU_C_FALSE: return 0;
    case DPU_C_TRUE: return 1;
    case DPU_C_Z: return x->res == 0;
    case DPU_C_NZ: return x->res != 0;
    case DPU_C_XZ: return x->res == 0 && x->zprev;
    case DPU_C_XNZ: return !(x->res == 0 && x->zprev);
    case DPU_C_PL: return r >= 0;
    case DPU_C_MI: return r < 0;
    case DPU_C_SZ: return x->a == 0;
    case DPU_C_SNZ: return x->a != 0;
    case DPU_C_SPL: return (int32_t)x->a >= 0;
    case DPU_C_SMI: return (int32_t)x->a < 0;
    case DPU_C_OV: return x->ov;
    case DPU_C_NOV: return !x->ov;
    case DPU_C_C: return x->carry;
    case DPU_C_NC: return !x->carry;
    /* comparisons read the flags of the subtraction (carry = borrow), so that subc with
     * ltu/geu/lts... compares the whole 64-bit chain, as the runtime's __udiv64 expects;
     * for a plain sub they are the comparisons of the two operands */
    case DPU_C_LTU: return x->carry;
    case DPU_C_GEU: return !x->carry;
    case DPU_C_LEU: return x->carry || x->res == 0;
    case DPU_C_GTU: return !x->carry && x->res != 0;
    case DPU_C_LTS: return (r < 0) != x->ov;
    case DPU_C_GES: return (r < 0) == x->ov;
    case DPU_C_LES: return ((r < 0) != x->ov) || x->res == 0;
    case DPU_C_GTS: return ((r < 0) == x->ov) && x->res != 0;
    case DPU_C_XLEU: return x->carry || (x->res == 0 && x->zprev);
    case DPU_C_XGTU: return !(x->carry || (x->res == 0 && x->zprev));
    case DPU_C_XLES: return ((r < 0) != x->ov) || (x->res == 0 && x->zprev);
    case DPU_C_XGTS: return !(((r < 0) != x->ov) || (x->res == 0 && x->zprev));
    case DPU_C_E: return !(x->res & 1);
    case DPU_C_O: return x->res & 1;
    case DPU_C_SE: return !(x->a & 1);
    case DPU_C_SO: return x->a & 1;
    case DPU_C_NSH32: return x->shamt < 32;
    case DPU_C_SH32: return x->shamt >= 32;
    case DPU_C_SMALL: return x->res < 256;
    case DPU_C_LARGE: return x->res >= 256;
    case DPU_C_MAX: return x->res == 32;
    case DPU_C_NMAX: return x->res != 32;
    case DPU_C_ACQ_Z: return x->res == 0;
    case DPU_C_ACQ_NZ: return x->res != 0;
    default:
        if (c >= DPU_C_NC5 && c <= DPU_C_NC14) {
            /* no carry out of bit k (5..14) of the addition: address-wrap loops */
            int k = 5 + (c - DPU_C_NC5);
            uint32_t m = (2u << k) - 1;
            return (((x->a & m) + (x->b & m)) >> (k + 1)) == 0;
        }
        return 0;
    }
}

#endif
