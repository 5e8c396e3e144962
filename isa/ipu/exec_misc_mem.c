/* isa/ipu/exec_misc_mem.c: the memory instructions exec.c does not cover: the three-access
 * "sparse" loads (ld64a32, ldd16a32, ldd16a64, ldd16b16, ldd16v2a32, ldb16b16), the pace
 * loads with a narrow second access (ld64a32pace, ld64b16pace), ipu21's ldb8/ldb8step and
 * the MRF stores stm32/stm32step. Accesses go through exec.c's checked data access (natural
 * alignment, inside tile memory, watchpoints); an instruction's two accesses to one SRAM
 * element raise TEXCPT_CONFLICT as the pace forms do (-o mem_conflicts). Every source is read
 * and every fault raised before anything is written, so a faulting instruction leaves no
 * trace. The address layouts come from the help text, the deltas' unit (bytes) from PopLibs'
 * sparse matmul; what is left open (the mini-delta's unit, the narrow access's stride unit)
 * is decided in docs/isa/ipu.md "Other three-access loads". */
#include <string.h>
#include "exec_misc.h"

/* Two accesses of one instruction in one SRAM element (exec.c's rule for the pace forms). */
static int conflict(ipu_xs *x, const ipu_insn *in, uint32_t ea0, uint32_t ea1)
{
    if (!x->im->mem_conflicts || ipu_mem_elem(x->im, ea0) != ipu_mem_elem(x->im, ea1))
        return 0;
    return ipu_xfail(x, SIM_STOP_FAULT, IPU_TEXCPT_CONFLICT, IPU_CAUSE_CONFLICT_EA0 + 1,
                     "%s: memory conflict: accesses 0 (0x%x) and 1 (0x%x) hit one memory element "
                     "(-o mem_conflicts=ignore)", in->op->mnemonic, ea0, ea1);
}

static uint32_t ld(const uint8_t *p, unsigned n)
{
    return n == 1 ? p[0] : n == 2 ? mem_ld16le(p) : mem_ld32le(p);
}
static uint32_t bcast16(uint32_t h) { return (h & 0xffff) | h << 16; }

/* Two loads: a pointer-stream access p0 (n0 bytes) and a data access p1 (n1 bytes), checked
 * in that order, then the conflict between them. */
static int two(ipu_xs *x, const ipu_insn *in, uint32_t ea0, unsigned n0, uint32_t ea1, unsigned n1, uint8_t **p0,
               uint8_t **p1)
{
    if (!(*p0 = ipu_data_ptr(x, ea0, n0, MEM_R)) || !(*p1 = ipu_data_ptr(x, ea1, n1, MEM_R)))
        return -1;
    return conflict(x, in, ea0, ea1);
}

/* ld64a32 $aQ+1:Q+3, $mAddr++, $mBase, $mDelta: [Addr] (64 bits) to $aQ+2:Q+3, [Base +
 * Delta[15:0]] (32 bits) to $aQ+1, $aQ unchanged, Addr += 8 (help text). */
static int ld64a32(ipu_xs *x, const ipu_insn *in)
{
    uint32_t q = in->v[0], addr = ipu_rm(x, in->v[1]), ea1 = ipu_rm(x, in->v[2]) + (ipu_rm(x, in->v[3]) & 0xffff);
    uint8_t *p0, *p1;
    if (two(x, in, addr, 8, ea1, 4, &p0, &p1))
        return -1;
    uint64_t d = mem_ld64le(p0);
    uint32_t s = mem_ld32le(p1);
    ipu_wap(x, q + 2, d);
    ipu_wa(x, q + 1, s);
    ipu_wm(x, in->v[1], addr + 8);
    return 0;
}

/* ldd16a32 $a, $mAddr++, $mBase, $mDelta@ (and ldd16a64 into a pair, ldd16b16 a broadcast
 * half): [Addr] (16 bits) becomes the new Delta, [Base + Delta[15:0]] the data; Addr += 2.
 * ldd16v2a32: [Addr] (32 bits, a pair of 16-bit deltas) becomes the new Delta, the data is
 * at Base + Delta[31:16]; Addr += 4 (help text). The data address uses the old Delta. */
static int ldd16(ipu_xs *x, const ipu_insn *in, int msem)
{
    uint32_t addr = ipu_rm(x, in->v[1]), base = ipu_rm(x, in->v[2]), delta = ipu_rm(x, in->v[3]);
    if (in->v[1] == in->v[3] && in->v[1] != 15)
        return ipu_not_modelled(x, in, "whose pointer and delta are one register (which write wins is not public)");
    const int v2 = msem == M_LDD16V2A32;
    const unsigned n0 = v2 ? 4 : 2, n1 = msem == M_LDD16A64 ? 8 : msem == M_LDD16B16 ? 2 : 4;
    uint32_t ea1 = base + (v2 ? delta >> 16 : delta & 0xffff);
    uint8_t *p0, *p1;
    if (two(x, in, addr, n0, ea1, n1, &p0, &p1))
        return -1;
    uint32_t nd = ld(p0, n0);
    if (n1 == 8)
        ipu_wap(x, in->v[0], mem_ld64le(p1));
    else
        ipu_wa(x, in->v[0], n1 == 2 ? bcast16(ld(p1, 2)) : ld(p1, 4));
    ipu_wm(x, in->v[3], nd);
    ipu_wm(x, in->v[1], addr + n0);
    return 0;
}

/* ldb16b16 $aD:D+1, $mBase, $mDelta++, $mMiniD>>: $aD = the half at Base + Delta[15:0]
 * broadcast, $aD+1 the half at Base + Delta[31:16] broadcast; then Delta[15:0] += 2 bytes,
 * Delta[31:16] += MiniD[3:0] halves (each wrapping in 16 bits), MiniD >>= 4 (help text;
 * the mini-delta's unit and which delta takes which increment are decided). */
static int ldb16b16(ipu_xs *x, const ipu_insn *in)
{
    uint32_t base = ipu_rm(x, in->v[1]), delta = ipu_rm(x, in->v[2]), mini = ipu_rm(x, in->v[3]);
    if (in->v[2] == in->v[3] && in->v[2] != 15)
        return ipu_not_modelled(x, in, "whose delta and mini-delta are one register (which write wins is not public)");
    uint8_t *p0, *p1;
    if (two(x, in, base + (delta & 0xffff), 2, base + (delta >> 16), 2, &p0, &p1))
        return -1;
    ipu_wap(x, in->v[0], (uint64_t)bcast16(ld(p1, 2)) << 32 | bcast16(ld(p0, 2)));
    uint32_t lo = (delta + 2) & 0xffff, hi = ((delta >> 16) + 2 * (mini & 15)) & 0xffff;
    ipu_wm(x, in->v[2], hi << 16 | lo);
    ipu_wm(x, in->v[3], mini >> 4);
    return 0;
}

/* ld64a32pace $aD:D+1, $aE, $mA:A+1+=, $mS, 0bYYXX (and ld64b16pace, E a broadcast half):
 * the packed pair as tapack builds it; $aD:D+1 = [A0] (64 bits, select XX), $aE = [A1]
 * (select YY). Select 0 adds one element, 1-3 the signed 10-bit field k-1 of $mS, in
 * elements of the access's size (8 bytes for A0; 4 or 2 for A1: decided). A destination
 * register inside the pair raises TEXCPT_INVALID_OP (help text: "the two destination
 * register pairs are not distinct"). */
static int ld64pace(ipu_xs *x, const ipu_insn *in, int msem)
{
    const uint32_t d = in->v[0], e = in->v[1], pr = in->v[2], stride = ipu_rm(x, in->v[3]);
    const uint32_t imm = (uint32_t)ipu_operand_value(in, 4);
    const unsigned n1 = msem == M_LD64A32PACE ? 4 : 2;
    if (d < 14 && (e == d || e == d + 1))
        return ipu_xfail(x, SIM_STOP_FAULT, IPU_TEXCPT_INVALID_OP, IPU_CAUSE_ILLEGAL_INSTRUCTION,
                         "%s: the destinations $a%u:%u and $a%u are not distinct (TEXCPT_INVALID_OP)",
                         in->op->mnemonic, d, d + 1, e);
    uint32_t a[3];
    ipu_ta_unpack(ipu_rm(x, pr), ipu_rm(x, pr + 1), a);
    uint8_t *p0, *p1;
    if (two(x, in, a[0], 8, a[1], n1, &p0, &p1))
        return -1;
    uint64_t v0 = mem_ld64le(p0);
    uint32_t v1 = n1 == 4 ? mem_ld32le(p1) : bcast16(mem_ld16le(p1));
    ipu_wap(x, d, v0);
    ipu_wa(x, e, v1);
    const unsigned size[2] = {8, n1}, sel[2] = {imm & 3, imm >> 2 & 3};
    for (int i = 0; i < 2; i++) {
        int32_t n = sel[i] ? (int32_t)(stride << (32 - 10 * sel[i])) >> 22 : 1;
        a[i] = (a[i] + (uint32_t)n * size[i]) & 0x1fffffu;
    }
    uint32_t lo, hi;
    ipu_ta_pack(a, &lo, &hi);
    ipu_wm(x, pr, lo);
    ipu_wm(x, pr + 1, hi);
    return 0;
}

/* ldb8 $a, $mBase, $mDelta, $mOff|zimm12: the byte at Base + Delta + Off broadcast to all four
 * bytes of $a; ldb8step $a, $mBase, $mDelta+=, $mStride|simm8: at Base + Delta, then Delta +=
 * Stride (ipu21; the ldb16 rule at byte size: PopLibs reads it with f8v2tof16, which takes
 * two bytes). */
static int ldb8(ipu_xs *x, const ipu_insn *in, int step)
{
    uint32_t base = ipu_rm(x, in->v[1]), delta = ipu_rm(x, in->v[2]);
    uint32_t k = in->op->op[3].kind == IPU_K_MR ? ipu_rm(x, in->v[3]) : (uint32_t)ipu_operand_value(in, 3);
    uint8_t *p = ipu_data_ptr(x, step ? base + delta : base + delta + k, 1, MEM_R);
    if (!p)
        return -1;
    ipu_wa(x, in->v[0], p[0] * 0x01010101u);
    if (step)
        ipu_wm(x, in->v[2], delta + k);
    return 0;
}

/* stm32 $mSrc, $mBase, $mOff: [Base + Off x 4] = Src; stm32step $mSrc, $mBase+=, $mStride:
 * [Base] = Src, then Base += Stride x 4 (help text: the stride "scaled to atom size"). */
static int stm32(ipu_xs *x, const ipu_insn *in, int step)
{
    uint32_t v = ipu_rm(x, in->v[0]), base = ipu_rm(x, in->v[1]), k = ipu_rm(x, in->v[2]);
    uint8_t *p = ipu_data_ptr(x, step ? base : base + k * 4, 4, MEM_W);
    if (!p)
        return -1;
    mem_st32le(p, v);
    if (step)
        ipu_wm(x, in->v[1], base + k * 4);
    return 0;
}

int ipu_misc_mem(ipu_xs *x, const ipu_insn *in, int msem)
{
    switch (msem) {
    case M_LD64A32: return ld64a32(x, in);
    case M_LDD16A32: case M_LDD16A64: case M_LDD16B16: case M_LDD16V2A32: return ldd16(x, in, msem);
    case M_LDB16B16: return ldb16b16(x, in);
    case M_LD64A32PACE: case M_LD64B16PACE: return ld64pace(x, in, msem);
    case M_LDB8: case M_LDB8STEP: return ldb8(x, in, msem == M_LDB8STEP);
    case M_STM32: case M_STM32STEP: return stm32(x, in, msem == M_STM32STEP);
    default: return ipu_not_modelled(x, in, NULL);
    }
}
