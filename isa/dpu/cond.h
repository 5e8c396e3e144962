/* isa/dpu/cond.h: the DPU's condition meanings and the results of the instructions every
 * run loop executes inline, one definition for all of them: the generic executor (exec.c),
 * the inline case blocks (fastops.inc, which the reference loop, the cycle model's burst
 * and the functional loop include) and the functional records' handlers (func_rec_loop.h).
 * An edit to one of these instructions' semantics is made here, once (tests/dpu/test_drift.c
 * runs every inline form through each loop's text on random operands and compares).
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

/* ---- the semantics of the inline forms (DPU_SEM_*): statement macros that write their
 * first arguments and read each operand once (no comma outside parentheses: they pass
 * through other macros' arguments) ---- */

/* ALU: the 32-bit result res and the carry cy (a borrow for the subtractions, as
 * uPIMulator: subc subtracts it again) of a op b, cin the Carry flag; shift amounts are the
 * low 5 bits of b (bit 5 only feeds the sh32/nsh32 conditions). The overflow the
 * conditions read is the generic executor's (exec.c): the inline forms test no overflow. */
/* (the carry of an add as the sum below an operand: the host's add and its carry flag,
 * where a 64-bit sum and a shift took three instructions more per add in the round replay) */
#define DPU_SEM_ADD(res, cy, a, b, cin)                                                                  \
    do {                                                                                                 \
        const uint32_t a_ = (a);                                                                         \
        const uint32_t s_ = a_ + (uint32_t)(b);                                                          \
        (res) = s_;                                                                                      \
        (cy) = s_ < a_;                                                                                  \
    } while (0)
#define DPU_SEM_ADDC(res, cy, a, b, cin)                                                                 \
    do {                                                                                                 \
        const uint64_t s_ = (uint64_t)(a) + (b) + (cin);                                                 \
        (res) = (uint32_t)s_;                                                                            \
        (cy) = (int)(s_ >> 32);                                                                          \
    } while (0)
#define DPU_SEM_SUBC(res, cy, a, b, cin)                                                                 \
    do {                                                                                                 \
        const uint32_t a_ = (a);                                                                         \
        const uint32_t b_ = (b);                                                                         \
        const uint32_t w_ = (cin);                                                                       \
        (res) = a_ - b_ - w_;                                                                            \
        (cy) = (uint64_t)b_ + w_ > a_;                                                                   \
    } while (0)
#define DPU_SEM_SUB(res, cy, a, b, cin) DPU_SEM_SUBC(res, cy, a, b, 0u)
/* the signed overflow of res = a + b and of res = a - b (the ov, nov, lts... conditions) */
#define DPU_SEM_ADD_OV(a, b, res) ((int)((~((a) ^ (b)) & ((a) ^ (res))) >> 31))
#define DPU_SEM_SUB_OV(a, b, res) ((int)((((a) ^ (b)) & ((a) ^ (res))) >> 31))
#define DPU_SEM_LOGIC(res, cy, v) ((res) = (v), (cy) = 0)
#define DPU_SEM_AND(res, cy, a, b, cin) DPU_SEM_LOGIC(res, cy, (a) & (b))
#define DPU_SEM_OR(res, cy, a, b, cin) DPU_SEM_LOGIC(res, cy, (a) | (b))
#define DPU_SEM_XOR(res, cy, a, b, cin) DPU_SEM_LOGIC(res, cy, (a) ^ (b))
#define DPU_SEM_LSL(res, cy, a, b, cin) DPU_SEM_LOGIC(res, cy, (a) << ((b) & 31))
#define DPU_SEM_LSR(res, cy, a, b, cin) DPU_SEM_LOGIC(res, cy, (a) >> ((b) & 31))
#define DPU_SEM_ASR(res, cy, a, b, cin) DPU_SEM_LOGIC(res, cy, (uint32_t)((int32_t)(a) >> ((b) & 31)))
/* the two-operand ALU forms with an inline path (DPU_FAST_<name>, DPU_SEM_<name>) */
#define DPU_SEM_ALU_OPS(X) X(ADD) X(SUB) X(AND) X(OR) X(XOR) X(LSL) X(LSR) X(ASR) X(ADDC) X(SUBC)

/* lsl_add rc, rb, ra, shift: rc = rb + (ra << shift), the ra field the one shifted; the
 * inline form has shift < 32 (predecode.c) */
#define DPU_SEM_LSLADD(res, cy, sh, b, shift) DPU_SEM_ADD(res, cy, b, (uint32_t)((sh) << (shift)), 0)

/* compare and branch (a sub without destination): whether it jumps; the flags are those
 * of the subtraction (DPU_SEM_CMP_FLAGS), so for a plain sub the comparison conditions
 * (cond_true's ltu, geu, ...) are the comparisons of the two operands */
#define DPU_SEM_JEQ(a, b) ((a) == (b))
#define DPU_SEM_JNEQ(a, b) ((a) != (b))
#define DPU_SEM_JLTU(a, b) ((a) < (b))
#define DPU_SEM_JGEU(a, b) ((a) >= (b))
#define DPU_SEM_JLEU(a, b) ((a) <= (b))
#define DPU_SEM_JGTU(a, b) ((a) > (b))
#define DPU_SEM_JLTS(a, b) ((int32_t)(a) < (int32_t)(b))
#define DPU_SEM_JGES(a, b) ((int32_t)(a) >= (int32_t)(b))
#define DPU_SEM_JLES(a, b) ((int32_t)(a) <= (int32_t)(b))
#define DPU_SEM_JGTS(a, b) ((int32_t)(a) > (int32_t)(b))
#define DPU_SEM_JCMP_OPS(X) X(JEQ) X(JNEQ) X(JLTU) X(JGEU) X(JLEU) X(JGTU) X(JLTS) X(JGES) X(JLES) X(JGTS)
#define DPU_SEM_CMP_FLAGS(zf, cf, a, b) ((zf) = (a) == (b), (cf) = (b) > (a))

/* WRAM: an access of n bytes at addr (WRAM of wlim bytes) runs inline when it is in range
 * and aligned to n (else the executor faults); the loaded values (p: its first byte;
 * little-endian; a pair's even register gets the high word) */
#define DPU_SEM_ADDR_OK(addr, n, wlim) ((uint64_t)(addr) + (n) <= (wlim) && !((addr) & ((n) - 1)))
#define DPU_SEM_LW(p) mem_ld32le(p)
#define DPU_SEM_LBU(p) ((uint32_t)*(p))
#define DPU_SEM_LBS(p) ((uint32_t)(int32_t)(int8_t)*(p))
#define DPU_SEM_LHU(p) ((uint32_t)mem_ld16le(p))
#define DPU_SEM_LHS(p) ((uint32_t)(int32_t)(int16_t)mem_ld16le(p))
#define DPU_SEM_SW(p, v) mem_st32le(p, v)
#define DPU_SEM_SB(p, v) (*(p) = (uint8_t)(v))
#define DPU_SEM_SH(p, v) mem_st16le(p, (uint16_t)(v))
#define DPU_SEM_LD_HI(v) ((uint32_t)((v) >> 32))
#define DPU_SEM_PAIR(hi, lo) ((uint64_t)(hi) << 32 | (lo))

/* the atomic bit an acquire/release names */
#define DPU_SEM_ATOMIC_BIT(a, imm) (((a) + (uint32_t)(imm)) & 0xff)

/* clz/clo: leading zeros/ones, 32 for none */
#define DPU_SEM_CLZ(a) ((a) ? (uint32_t)__builtin_clz(a) : 32u)
#define DPU_SEM_CLO(a) (~(a) ? (uint32_t)__builtin_clz(~(a)) : 32u)

/* the runtime's multiply and divide steps on the pair (be, bo) = (even, odd register) of
 * db, sh the other operand ra << shift (0 from 32 on), keep the destination pair's odd
 * register as it was: mul_step shifts the multiplier (even) right and adds sh to the
 * product (odd) when its low bit is set; div_step shifts the quotient (even) left, a 1 in
 * when the step subtracts sh from the remainder (odd). res is what the condition tests. */
#define DPU_SEM_SHIFTED(a, shift) ((shift) < 32 ? (a) << (shift) : 0u)
#define DPU_SEM_MUL_STEP(hi, lo, res, be, bo, sh, keep)                                                  \
    do {                                                                                                 \
        const uint32_t be_ = (be);                                                                       \
        (lo) = (be_ & 1) ? (bo) + (sh) : (keep);                                                         \
        (res) = (hi) = be_ >> 1;                                                                         \
    } while (0)
/* the same step when the kept half is the source pair's odd register (__mulsi3's form:
 * keep == bo): bo gains sh when be's low bit is set, as a mask instead of a branch */
#define DPU_SEM_MUL_STEP_SAME(hi, lo, res, be, bo, sh)                                                   \
    do {                                                                                                 \
        const uint32_t be_ = (be);                                                                       \
        (lo) = (bo) + ((sh) & (0u - (be_ & 1)));                                                         \
        (res) = (hi) = be_ >> 1;                                                                         \
    } while (0)
#define DPU_SEM_DIV_STEP(hi, lo, res, be, bo, sh, keep)                                                  \
    do {                                                                                                 \
        const uint32_t bo_ = (bo), sh_ = (sh);                                                           \
        const int ge_ = bo_ >= sh_;                                                                      \
        (hi) = (be) << 1 | (uint32_t)ge_;                                                                \
        (lo) = ge_ ? bo_ - sh_ : (keep);                                                                 \
        (res) = bo_ - sh_;                                                                               \
    } while (0)

#endif
