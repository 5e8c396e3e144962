/* isa/nyuzi/exec_ops.h: what the two Nyuzi executors share besides the instruction bodies
 * (exec_ops.inc). Each predecoded instruction carries a fine-grained operation number
 * (nyz_insn.fop, enum nyz_fop) that splits the decoder's kinds by ALU operation, operand form
 * (scalar, immediate, vector-scalar, vector-immediate, vector-vector), mask and access
 * width, so that an executor dispatches once per instruction: exec.c's nyz_exec (the cycle
 * model and the functional mode's slow paths) with a switch, func.c's functional loop with
 * computed gotos. The ALU operations are listed once here (X-macros: the operation's name
 * and its result as an expression of the operands a and b); the lists make the operation
 * numbers, the generic per-lane nyz_alu(), and the bodies of the specialised handlers.
 * Nothing here decides timing. */
#ifndef XPUSIM_NYUZI_EXEC_OPS_H
#define XPUSIM_NYUZI_EXEC_OPS_H
#include <math.h>
#include <string.h>
#include "nyuzi.h"

static inline float nyz_f_of(uint32_t v) { float f; memcpy(&f, &v, 4); return f; }
static inline uint32_t nyz_i_of(float f) { uint32_t v; memcpy(&v, &f, 4); return v; }

/* The RTL's FP pipeline returns the canonical NaN 0x7FFFFFFF for any NaN result (the
 * emulator returns the host's NaN); followed here, see docs/isa/nyuzi.md. */
static inline uint32_t nyz_fnan(float f) { return isnan(f) ? 0x7fffffffu : nyz_i_of(f); }

static inline uint32_t nyz_ftoi(uint32_t v)
{
    float f = nyz_f_of(v);
    /* Out of range and NaN give the x86 "integer indefinite" value, as the emulator does
     * on its host; in range truncates toward zero. */
    if (isnan(f) || f >= 2147483648.0f || f < -2147483648.0f)
        return 0x80000000u;
    return (uint32_t)(int32_t)f;
}

static inline uint32_t nyz_reciprocal(uint32_t v)
{
    /* 6-bit estimate: 1/x of the input truncated to 6 fraction bits, result truncated to
     * its top 15 bits (sign, exponent, 6 fraction bits), NaN left as computed. */
    float r = 1.0f / nyz_f_of(v & 0xfffe0000u);
    uint32_t ir = nyz_i_of(r);
    if (!isnan(r))
        ir &= 0xfffe0000u;
    return ir;
}

/* ALU operations with handlers of their own in every form, scalar and vector:
 * X(T, name, result) with name the NYZ_OP_ suffix; T is passed through. */
#define NYZ_ALU_VEC(X, T)                                                                  \
    X(T, OR, a | b) X(T, AND, a & b) X(T, XOR, a ^ b) X(T, ADD_I, a + b) X(T, SUB_I, a - b)   \
    X(T, MULL_I, a * b) X(T, ASHR, (uint32_t)((int32_t)a >> (b & 31)))                      \
    X(T, SHR, a >> (b & 31)) X(T, SHL, a << (b & 31)) X(T, MOVE, b)                          \
    X(T, ADD_F, nyz_fnan(nyz_f_of(a) + nyz_f_of(b)))                                         \
    X(T, SUB_F, nyz_fnan(nyz_f_of(a) - nyz_f_of(b)))                                         \
    X(T, MUL_F, nyz_fnan(nyz_f_of(a) * nyz_f_of(b)))
/* ALU operations with scalar handlers of their own; their vector forms go through
 * nyz_alu() lane by lane (rare in code) */
#define NYZ_ALU_ONE(X, T)                                                                  \
    X(T, MULH_U, (uint32_t)(((uint64_t)a * b) >> 32))                                        \
    X(T, CLZ, b == 0 ? 32u : (uint32_t)__builtin_clz(b))                                     \
    X(T, CTZ, b == 0 ? 32u : (uint32_t)__builtin_ctz(b))                                     \
    X(T, FTOI, nyz_ftoi(b)) X(T, RECIPROCAL, nyz_reciprocal(b))                              \
    X(T, SEXT8, (uint32_t)(int32_t)(int8_t)b) X(T, SEXT16, (uint32_t)(int32_t)(int16_t)b)    \
    X(T, MULH_I, (uint32_t)(((int64_t)(int32_t)a * (int32_t)b) >> 32))                       \
    X(T, ITOF, nyz_i_of((float)(int32_t)b))
/* Comparisons (true or false; a scalar compare writes 0xFFFF or 0, a vector compare one
 * bit per lane) */
#define NYZ_CMP(X, T)                                                                      \
    X(T, CMPEQ_I, a == b) X(T, CMPNE_I, a != b)                                              \
    X(T, CMPGT_I, (int32_t)a > (int32_t)b) X(T, CMPGE_I, (int32_t)a >= (int32_t)b)           \
    X(T, CMPLT_I, (int32_t)a < (int32_t)b) X(T, CMPLE_I, (int32_t)a <= (int32_t)b)           \
    X(T, CMPGT_U, a > b) X(T, CMPGE_U, a >= b) X(T, CMPLT_U, a < b) X(T, CMPLE_U, a <= b)    \
    X(T, CMPGT_F, nyz_f_of(a) > nyz_f_of(b)) X(T, CMPGE_F, nyz_f_of(a) >= nyz_f_of(b))       \
    X(T, CMPLT_F, nyz_f_of(a) < nyz_f_of(b)) X(T, CMPLE_F, nyz_f_of(a) <= nyz_f_of(b))       \
    X(T, CMPEQ_F, nyz_f_of(a) == nyz_f_of(b)) X(T, CMPNE_F, nyz_f_of(a) != nyz_f_of(b))

/* The operation numbers of each list's entries, in an order nyz_fop() relies on: the forms
 * of one operation are consecutive (SS, SI, VS, VI, VV, then the masked VS, VI, VV). */
#define NYZ_FOPS_VEC_(T, n, e) T(F_SS_##n) T(F_SI_##n) T(F_VS_##n) T(F_VI_##n) T(F_VV_##n) \
    T(F_VSM_##n) T(F_VIM_##n) T(F_VVM_##n)
#define NYZ_FOPS_ONE_(T, n, e) T(F_SS_##n) T(F_SI_##n)
#define NYZ_FOPS_CMP_(T, n, e) T(F_CSS_##n) T(F_CSI_##n) T(F_CVS_##n) T(F_CVI_##n) T(F_CVV_##n)

/* Every operation number: T(name). F_UNSET: decoded by nyz_decode alone (nyz_exec finds the
 * number itself). The _GEN forms take any ALU operation (nyz_alu), the vector ones with the
 * mask tested at run time. */
#define NYZ_FOPS(T)                                                                        \
    T(F_UNSET) T(F_ILLEGAL) T(F_NOP) T(F_MAGIC) T(F_SHUFFLE) T(F_GETLANE_R) T(F_GETLANE_I)   \
    T(F_SYSCALL) T(F_BREAK) T(F_LOAD_32) T(F_LOAD_U16) T(F_LOAD_S16) T(F_LOAD_U8)            \
    T(F_LOAD_S8) T(F_LOAD_SYNC) T(F_STORE_32) T(F_STORE_16) T(F_STORE_8) T(F_STORE_SYNC)     \
    T(F_GETCR) T(F_SETCR) T(F_LOAD_V) T(F_STORE_V) T(F_LOAD_GATH) T(F_STORE_SCAT)            \
    T(F_DTLBINSERT) T(F_ITLBINSERT) T(F_DINVALIDATE) T(F_DFLUSH) T(F_IINVALIDATE)           \
    T(F_MEMBAR) T(F_TLBINVAL) T(F_TLBINVALALL) T(F_B_REG) T(F_BZ) T(F_BNZ) T(F_B) T(F_CALL)  \
    T(F_CALL_REG) T(F_ERET)                                                                \
    T(F_SS_GEN) T(F_SI_GEN) T(F_VS_GEN) T(F_VI_GEN) T(F_VV_GEN)                              \
    T(F_CSS_GEN) T(F_CSI_GEN) T(F_CVS_GEN) T(F_CVI_GEN) T(F_CVV_GEN)                         \
    NYZ_ALU_VEC(NYZ_FOPS_VEC_, T) NYZ_ALU_ONE(NYZ_FOPS_ONE_, T) NYZ_CMP(NYZ_FOPS_CMP_, T)

#define NYZ_FOP_ENUM_(f) f,
typedef enum nyz_fop { NYZ_FOPS(NYZ_FOP_ENUM_) NYZ_NFOPS } nyz_fop_t;
#undef NYZ_FOP_ENUM_

/* Any ALU operation on one pair of operands (the generic handlers); 0 for an operation
 * that is none of the lists. */
static inline uint32_t nyz_alu(int op, uint32_t a, uint32_t b)
{
    switch (op) {
#define NYZ_ALU_CASE_(T, n, e) case NYZ_OP_##n: return (e);
    NYZ_ALU_VEC(NYZ_ALU_CASE_, _)
    NYZ_ALU_ONE(NYZ_ALU_CASE_, _)
#undef NYZ_ALU_CASE_
#define NYZ_CMP_CASE_(T, n, e) case NYZ_OP_##n: return (e) ? 1u : 0u;
    NYZ_CMP(NYZ_CMP_CASE_, _)
#undef NYZ_CMP_CASE_
    default: return 0;
    }
}

/* exec.c: the out-of-line parts of the bodies */
int nyz_bad_access(nyz_machine *nm, nyz_core *c, nyz_thread *t, uint32_t pc, uint32_t pa, const char *what);
void nyz_invalidate_sync(nyz_machine *nm, uint32_t pa);
void nyz_tlb_insert(nyz_core *c, nyz_thread *t, int data, uint32_t va, uint32_t paf);

/* Register writes. `cosim`: the cosimulation stream is open (a constant 0 in the functional
 * loop, which leaves cosimulation to nyz_exec). */
static inline void nyz_set_s(nyz_machine *nm, nyz_thread *t, uint32_t pc, int r, uint32_t v, int cosim)
{
    if (cosim)
        nyz_cosim_swb(nm, pc, t->gid, r, v);
    t->s[r] = v;
}

static inline void nyz_set_v(nyz_machine *nm, nyz_thread *t, uint32_t pc, int r, uint32_t mask,
                             const uint32_t *vals, int cosim)
{
    if (cosim)
        nyz_cosim_vwb(nm, pc, t->gid, r, mask & 0xffff, vals);
    if ((mask & 0xffff) == 0xffff) {
        memcpy(t->v[r], vals, sizeof t->v[r]);
        return;
    }
    for (int l = 0; l < NYZ_LANES; l++)
        if (mask & (1u << l))
            t->v[r][l] = vals[l];
}

/* RAM pointer for nbytes at pa, NULL after stopping on an out-of-range access. */
static inline uint8_t *nyz_ram(nyz_machine *nm, nyz_core *c, nyz_thread *t, uint32_t pc, uint32_t pa,
                               unsigned nbytes, unsigned kind)
{
    if ((uint64_t)pa + nbytes > nm->ram_size) {
        nyz_bad_access(nm, c, t, pc, pa,
                       pa >= NYZ_DEVICE_BASE ? "invalid device access width" : "memory access out of range");
        return NULL;
    }
    if (nm->mem->nwatch)
        mem_watch_check(nm->mem, pa, nbytes, kind);
    return nm->ram + pa;
}

#endif
