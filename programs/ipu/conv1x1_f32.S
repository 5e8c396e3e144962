/* programs/ipu/conv1x1_f32.S: a 1x1 convolution in single precision, 8 input channels to
 * 8 output channels, over N field positions: out[f][oc] = sum_ic w[oc][ic] x in[f][ic].
 * The supervisor loads the 8 x 8 weights into the common compute configuration space with
 * 16 ld128putcs ($CWEI_m_n = (w[m][2n], w[m][2n + 1]), CCCS index 4m + n; ld128putcs reads
 * the interleaved region, so the weights sit at 0x80000) and starts six workers. Each worker
 * streams its SLICE positions through f32sisoamp, one f32 input per instruction, phases
 * P0..P7 (docs/isa/ipu.md, "AMP and SLIC"): even phases give out two results, odd phases
 * leave the destination alone, so an odd bundle loads the next input pair and an even one
 * stores the pair the previous even phase gave out. The partial sums are zero, so no
 * warm-up group is needed ($FP_CLR.ZAACC zeroes what the first group starts from). A
 * position's results leave during the next position's group: the first group and the
 * start of the second run without stores, then an rpt loop whose body runs phases P2..P7
 * of one group and P0, P1 of the next stores one position per iteration. The last
 * iteration's inputs lie past the worker's slice (discarded), hence the padding. */
#define N 24
#include "common.h"

#ifndef TAMP_F32_E4_P0
#define TAMP_F32_E4_P0 16 /* xpusim's AMP flags: phase | log2(engines) << 3 */
#define TAMP_F32_E4_P1 17
#define TAMP_F32_E4_P2 18
#define TAMP_F32_E4_P3 19
#define TAMP_F32_E4_P4 20
#define TAMP_F32_E4_P5 21
#define TAMP_F32_E4_P6 22
#define TAMP_F32_E4_P7 23
#endif

.section .data
.align 8
.globl in, out
in:    .space N * 8 * 4
inpad: .space 64
out:   .space N * 8 * 4

.section .bss            /* up to the interleaved region (ipu2/ipu21: 0x80000): .data */
.balign 65536               /* ends below 0x50000, so this reaches 0x50000 ... */
.space 0x30000              /* ... and this 0x80000 */

.section .rodata
.align 16
.globl weights
weights: .space 8 * 8 * 4

.section .text.worker, "ax"
.worker
.align 8
.globl conv_worker
.type conv_worker, @function
conv_worker:
  WORKER_OFFSET 32          /* 32 bytes of input and 32 of output per position */
  setzi $m1, in
  add $m1, $m1, $m5         /* this worker's first input pair */
  setzi $m2, out
  add $m2, $m2, $m5         /* its first output pair */
  setzi $m4, SLICE
  setzi $a7, 8              /* $FP_CLR.ZAACC (bit 3) */
  uput $FP_CLR, $a7
  ld64step $a0:1, $mzero, $m1+=, 1
  .align 8                  /* bundles are 8-byte aligned */
  /* position 0: its group, no results yet */
  { nop
    f32sisoamp $a4:5, $a0, $azeros, TAMP_F32_E4_P0 }
  { ld64step $a0:1, $mzero, $m1+=, 1
    f32sisoamp $a4:5, $a1, $azeros, TAMP_F32_E4_P1 }
  { nop
    f32sisoamp $a4:5, $a0, $azeros, TAMP_F32_E4_P2 }
  { ld64step $a0:1, $mzero, $m1+=, 1
    f32sisoamp $a4:5, $a1, $azeros, TAMP_F32_E4_P3 }
  { nop
    f32sisoamp $a4:5, $a0, $azeros, TAMP_F32_E4_P4 }
  { ld64step $a0:1, $mzero, $m1+=, 1
    f32sisoamp $a4:5, $a1, $azeros, TAMP_F32_E4_P5 }
  { nop
    f32sisoamp $a4:5, $a0, $azeros, TAMP_F32_E4_P6 }
  { ld64step $a0:1, $mzero, $m1+=, 1
    f32sisoamp $a4:5, $a1, $azeros, TAMP_F32_E4_P7 }
  /* position 1 starts; its P0 gives out position 0's channels 0, 1 */
  { nop
    f32sisoamp $a4:5, $a0, $azeros, TAMP_F32_E4_P0 }
  { ld64step $a0:1, $mzero, $m1+=, 1
    f32sisoamp $a4:5, $a1, $azeros, TAMP_F32_E4_P1 }
  { rpt $m4, 7
    fnop }
  { st64step $a4:5, $mzero, $m2+=, 1
    f32sisoamp $a4:5, $a0, $azeros, TAMP_F32_E4_P2 }
  { ld64step $a0:1, $mzero, $m1+=, 1
    f32sisoamp $a4:5, $a1, $azeros, TAMP_F32_E4_P3 }
  { st64step $a4:5, $mzero, $m2+=, 1
    f32sisoamp $a4:5, $a0, $azeros, TAMP_F32_E4_P4 }
  { ld64step $a0:1, $mzero, $m1+=, 1
    f32sisoamp $a4:5, $a1, $azeros, TAMP_F32_E4_P5 }
  { st64step $a4:5, $mzero, $m2+=, 1
    f32sisoamp $a4:5, $a0, $azeros, TAMP_F32_E4_P6 }
  { ld64step $a0:1, $mzero, $m1+=, 1
    f32sisoamp $a4:5, $a1, $azeros, TAMP_F32_E4_P7 }
  { st64step $a4:5, $mzero, $m2+=, 1
    f32sisoamp $a4:5, $a0, $azeros, TAMP_F32_E4_P0 }
  { ld64step $a0:1, $mzero, $m1+=, 1
    f32sisoamp $a4:5, $a1, $azeros, TAMP_F32_E4_P1 }
  exitz $mzero
.size conv_worker, . - conv_worker

/* The supervisor: the weights into the CCCS, then the six workers. */
.section .text.sup, "ax"
.supervisor
.globl _start
.type _start, @function
_start:
  setzi $m1, weights
  setzi $m0, conv_worker
  put $CCCSLOAD, $m1
  ld128putcs 0
  ld128putcs 2
  ld128putcs 4
  ld128putcs 6
  ld128putcs 8
  ld128putcs 10
  ld128putcs 12
  ld128putcs 14
  ld128putcs 16
  ld128putcs 18
  ld128putcs 20
  ld128putcs 22
  ld128putcs 24
  ld128putcs 26
  ld128putcs 28
  ld128putcs 30
  runall $m0, $m15, 0
  br $m10
.size _start, . - _start
