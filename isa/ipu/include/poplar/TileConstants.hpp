/* isa/ipu/include/poplar/TileConstants.hpp: xpusim's own stand-in for the Poplar SDK header
 * of the same name, so PopLibs' hand-written codelets (`#include "poplar/TileConstants.hpp"`)
 * assemble without the SDK. Written by us from public facts; each group names its source.
 * Values the public material gives only for ipu1 are used for every generation unless a
 * source says otherwise (docs/isa/ipu.md, "Assembler"). __IPU_ARCH_VERSION__ (1, 2, 21) is
 * defined by the assembler from -o arch. */
#ifndef XPUSIM_IPU_TILECONSTANTS_HPP
#define XPUSIM_IPU_TILECONSTANTS_HPP

/* Worker contexts, memory: Saghetti0/graphcore-ipu-research research/ipu1/ipu1_consts.c
 * (CTXT_WORKERS, TMEM_*); the region-0 base per generation and the repeat-count width from
 * josemonsalve2/llvm-project llvm/lib/Target/Colossus/ipu_arch_info/ipuArchInfo.cpp. */
#define CTXT_WORKERS 6
/* ipu1_consts.c gives TMEM_ELEMSIZE = 0x10 in KiB (its TMEM_REGION0_SIZE 0x80 is the 128 KiB
 * of 0x40000-0x60000; TMEM_ELEM_DEPTH 2048 x 64 bits = 16 KiB). PopLibs compares it with
 * byte distances (binaryOps1D.S: "32k (1 interleaved element-pair) apart" is
 * 2 * TMEM_ELEMSIZE), so the SDK header's value is in bytes: 16 KiB (xpusim's -o mem_element
 * default). Assumed the same on ipu2/ipu21. */
#define TMEM_ELEMSIZE 0x4000
#define TMEM_BYTE_MAX_ADDRESS_WIDTH 21
#define TMEM_FULL_ADDRESS_MASK 0x1fffff
#if defined(__IPU_ARCH_VERSION__) && __IPU_ARCH_VERSION__ == 1
#define TMEM_REGION0_BASE_ADDR 0x40000
#define CSR_W_REPEAT_COUNT__VALUE__MASK 0xfff
#else
#define TMEM_REGION0_BASE_ADDR 0x4c000
#define CSR_W_REPEAT_COUNT__VALUE__MASK 0xffff
#endif
#define CSR_W_REPEAT_COUNT__VALUE__SHIFT 0

/* Sync zones (the `sync` operand): ipu1_consts.c TEXCH_SYNCZONE_*. */
#define TEXCH_SYNCZONE_RECV 0
#define TEXCH_SYNCZONE_ANS 1
#define TEXCH_SYNCZONE_LOCAL 2
#define TEXCH_SYNCZONE_INTERNAL 3
#define TEXCH_SYNCZONE_EXTERNAL0_SLV 4
#define TEXCH_SYNCZONE_EXTERNAL1_SLV 5
#define TEXCH_SYNCZONE_EXTERNAL2_SLV 6
#define TEXCH_SYNCZONE_EXTERNAL3_SLV 7
#define TEXCH_SYNCZONE_EXTERNAL0_MSR 12
#define TEXCH_SYNCZONE_EXTERNAL1_MSR 13
#define TEXCH_SYNCZONE_EXTERNAL2_MSR 14
#define TEXCH_SYNCZONE_EXTERNAL3_MSR 15

/* CSR indices and fields: ipu1_consts.c (CSR_C_*, CSR_S_*, CSR_W_*). Upper-space worker CSRs
 * (0x100 and up) are read and written with uget/uput, whose operand is the low 8 bits. */
#define CSR_C_PC__INDEX 0x0
#define CSR_C_DBG_DATA__INDEX 0x70
#define CSR_S_SSR__INDEX 0x1
#define CSR_S_CR__INDEX 0x2
#define CSR_S_TILE_ID__INDEX 0x3
#define CSR_S_FP_ICTL__INDEX 0x20
#define CSR_S_FP_ICTL__OFLO__SHIFT 2
#define CSR_S_FP_ICTL__OFLO__MASK 0x1
#define CSR_S_FP_ICTL__ESR__SHIFT 19
#define CSR_S_FP_ICTL__ESR__MASK 0x1
#define CSR_S_FP_ICTL__NANOO__SHIFT 20
#define CSR_S_FP_ICTL__NANOO__MASK 0x1
#define CSR_S_WORKER0_BASE__INDEX 0x21
#define CSR_S_CCCSLOAD__INDEX 0x50
#define CSR_S_SCOUNT_L__INDEX 0x60
#define CSR_S_SCOUNT_U__INDEX 0x61
#define CSR_S_CTXT_STS__INDEX 0x72
#define CSR_W_WSR__INDEX 0x1
#define CSR_W_WSR__CTXTID_M1__SHIFT 0
#define CSR_W_WSR__CTXTID_M1__MASK 0x7
#define CSR_W_VERTEX_BASE__INDEX 0x2
#define CSR_W_WORKER_BASE__INDEX 0x3
#define CSR_W_REPEAT_COUNT__INDEX 0x4
#define CSR_W_COUNT_L__INDEX 0x60
#define CSR_W_COUNT_U__INDEX 0x61
#define CSR_W_FP_STS__INDEX 0x100
#define CSR_W_FP_CLR__INDEX 0x101
#define CSR_W_FP_CLR__ZAACC__SHIFT 3
#define CSR_W_FP_CLR__ZAACC__MASK 0x1
#define CSR_W_FP_CTL__INDEX 0x102
#define CSR_W_FP_CTL__RND__SHIFT 16
#define CSR_W_FP_CTL__RND__MASK 0x7
#define CSR_W_FP_CTL__ESR__SHIFT 19
#define CSR_W_FP_CTL__ESR__MASK 0x1
#define CSR_W_FP_CTL__NANOO__SHIFT 20
#define CSR_W_FP_CTL__NANOO__MASK 0x1
#define CSR_W_PRNG_0_0__INDEX 0x103
#define CSR_W_PRNG_SEED__INDEX 0x107
#define CSR_W_TAS__INDEX 0x108

/* $CR (supervisor control register) and its ZCWEI field (zero the AMP weights):
 * ipu1_consts.c CSR_S_CR__ZCWEI__SHIFT. */
#define CSR_S_CR__ZCWEI__SHIFT 2
#define CSR_S_CR__ZCWEI__MASK 0x1

/* The AMP and SLIC flag immediates (the last operand of f16v4hihoamp, f32sisoamp,
 * f16v4sisoslic ...). No public source gives the SDK's values: these are xpusim's own
 * encoding, the one its AMP/SLIC execution decodes (docs/isa/ipu.md "AMP and SLIC"): AMP
 * phase | log2(engines) << 3; SLIC weight column | 1x3 kernel << 2. A binary assembled with
 * them runs on xpusim, not on an IPU. TSTACC_P0/P1 and TISTACC_P0/P1 (f16v4stacc,
 * f16v4istacc: the 4x4 half transposition) are 0 and 1: P0 = 0 is the literal PopLibs'
 * ReductionSpecial01Acc gives f16v4stacc. */
#define TAMP_PE(phase, engines_log2) ((phase) | ((engines_log2) << 3))
#define TAMP_F16V4_E1_P0 TAMP_PE(0, 0)
#define TAMP_F16V4_E2_P0 TAMP_PE(0, 1)
#define TAMP_F16V4_E2_P1 TAMP_PE(1, 1)
#define TAMP_F16V4_E4_P0 TAMP_PE(0, 2)
#define TAMP_F16V4_E4_P1 TAMP_PE(1, 2)
#define TAMP_F16V4_E4_P2 TAMP_PE(2, 2)
#define TAMP_F16V4_E4_P3 TAMP_PE(3, 2)
#define TAMP_F32_E1_P0 TAMP_PE(0, 0)
#define TAMP_F32_E1_P1 TAMP_PE(1, 0)
#define TAMP_F32_E1_P2 TAMP_PE(2, 0)
#define TAMP_F32_E2_P0 TAMP_PE(0, 1)
#define TAMP_F32_E2_P1 TAMP_PE(1, 1)
#define TAMP_F32_E2_P2 TAMP_PE(2, 1)
#define TAMP_F32_E2_P3 TAMP_PE(3, 1)
#define TAMP_F32_E4_P0 TAMP_PE(0, 2)
#define TAMP_F32_E4_P1 TAMP_PE(1, 2)
#define TAMP_F32_E4_P2 TAMP_PE(2, 2)
#define TAMP_F32_E4_P3 TAMP_PE(3, 2)
#define TAMP_F32_E4_P4 TAMP_PE(4, 2)
#define TAMP_F32_E4_P5 TAMP_PE(5, 2)
#define TAMP_F32_E4_P6 TAMP_PE(6, 2)
#define TAMP_F32_E4_P7 TAMP_PE(7, 2)
#define TAMP_F8V8_E4_P0 TAMP_PE(0, 2)
#define TAMP_F8V8_E4_P1 TAMP_PE(1, 2)
#define TAMP_F8V8_E4_P2 TAMP_PE(2, 2)
#define TAMP_F8V8_E4_P3 TAMP_PE(3, 2)
#define TSLIC_F16V4_1x4_W0 0
#define TSLIC_F16V4_1x4_W1 1
#define TSLIC_F16V4_1x3_W0 4
#define TSLIC_F16V4_1x3_W1 5
#define TSTACC_P0 0
#define TSTACC_P1 1
#define TISTACC_P0 0
#define TISTACC_P1 1

/* The section flags PopLibs give worker functions (`.section .text.X, FUNCTION_IS_WORKER`).
 * The SDK's value is not public; ours is the plain code flags, and the mode of the code
 * comes from `.worker` / `.supervisor` instead. */
#ifndef FUNCTION_IS_WORKER
#define FUNCTION_IS_WORKER "ax"
#endif

#endif
