/* programs/ipu/conv1x1_f16.S: a 1x1 convolution, 16 half input channels to 8 single
 * output channels, over N field positions: out[f][oc] = sum_ic w[oc][ic] x in[f][ic]. The
 * supervisor loads the 8 x 16 half weights into the common compute configuration space
 * with 32 ld64putcs ($CWEI_m_n = w[m][4n .. 4n + 3], CCCS index 4m + n) and starts six
 * workers; each streams its SLICE positions through f16v4sisoamp, one f16v4 chunk of
 * inputs per instruction, phases P0..P3 (docs/isa/ipu.md, "AMP and SLIC"). The AMP's
 * results for a position leave during the next position's four instructions, so the
 * worker warms the pipeline up with four instructions of zeros, feeds position 0 without
 * storing, then runs an rpt loop whose body (phases P1, P2, P3, P0) loads the next chunks
 * and stores the previous instruction's pair with ldst64pace: iteration j stores position
 * j. The partial sums fed in are zero ($azeros). The instructions after the last position
 * read up to 48 bytes past a worker's inputs (discarded groups), hence the padding. */
#define N 24
#include "common.h"

/* xpusim's AMP flag values (docs/isa/ipu.md): phase | log2(engines) << 3 */
#ifndef TAMP_F16V4_E4_P0
#define TAMP_F16V4_E4_P0 16
#define TAMP_F16V4_E4_P1 17
#define TAMP_F16V4_E4_P2 18
#define TAMP_F16V4_E4_P3 19
#endif

.section .data
.align 16
.globl weights, in, out
weights: .space 8 * 16 * 2
in:      .space N * 16 * 2
inpad:   .space 64
.balign 16384               /* out in another memory element than in: ldst64pace reads one */
out:     .space N * 8 * 4   /* and writes the other in the same instruction (no conflict) */

.section .text.worker, "ax"
.worker
.align 8
.globl conv_worker
.type conv_worker, @function
conv_worker:
  WORKER_OFFSET 32          /* 32 bytes of input and 32 of output per position */
  setzi $m1, in
  add $m1, $m1, $m5         /* this worker's first chunk */
  setzi $m6, out
  add $m6, $m6, $m5         /* its first output pair */
  add $m7, $m1, 48          /* the chunk the loop loads first (six loaded before it) */
  tapack $m2:3, $m7, $mzero, $m6
  setzi $m4, SLICE
  setzi $a7, 8              /* $FP_CLR.ZAACC (bit 3) */
  uput $FP_CLR, $a7
  /* warm-up: zeros through the pipeline */
  f16v4sisoamp $a4:5, $azeros, $azeros, TAMP_F16V4_E4_P0
  f16v4sisoamp $a4:5, $azeros, $azeros, TAMP_F16V4_E4_P1
  f16v4sisoamp $a4:5, $azeros, $azeros, TAMP_F16V4_E4_P2
  .align 8                  /* bundles are 8-byte aligned */
  { ld64step $a0:1, $mzero, $m1+=, 1
    f16v4sisoamp $a4:5, $azeros, $azeros, TAMP_F16V4_E4_P3 }
  /* position 0 goes in; what comes out is the warm-up's */
  { ld64step $a0:1, $mzero, $m1+=, 1
    f16v4sisoamp $a4:5, $a0:1, $azeros, TAMP_F16V4_E4_P0 }
  { ld64step $a0:1, $mzero, $m1+=, 1
    f16v4sisoamp $a4:5, $a0:1, $azeros, TAMP_F16V4_E4_P1 }
  { ld64step $a0:1, $mzero, $m1+=, 1
    f16v4sisoamp $a4:5, $a0:1, $azeros, TAMP_F16V4_E4_P2 }
  { ld64step $a0:1, $mzero, $m1+=, 1
    f16v4sisoamp $a4:5, $a0:1, $azeros, TAMP_F16V4_E4_P3 }
  /* position 1 starts; its P0 gives out position 0's channels 0, 1 */
  { ld64step $a0:1, $mzero, $m1+=, 1
    f16v4sisoamp $a4:5, $a0:1, $azeros, TAMP_F16V4_E4_P0 }
  { rpt $m4, 3
    fnop }
  { ldst64pace $a0:1, $a4:5, $m2:3+=, $mzero, 0
    f16v4sisoamp $a4:5, $a0:1, $azeros, TAMP_F16V4_E4_P1 }
  { ldst64pace $a0:1, $a4:5, $m2:3+=, $mzero, 0
    f16v4sisoamp $a4:5, $a0:1, $azeros, TAMP_F16V4_E4_P2 }
  { ldst64pace $a0:1, $a4:5, $m2:3+=, $mzero, 0
    f16v4sisoamp $a4:5, $a0:1, $azeros, TAMP_F16V4_E4_P3 }
  { ldst64pace $a0:1, $a4:5, $m2:3+=, $mzero, 0
    f16v4sisoamp $a4:5, $a0:1, $azeros, TAMP_F16V4_E4_P0 }
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
  ld64putcs 0
  ld64putcs 1
  ld64putcs 2
  ld64putcs 3
  ld64putcs 4
  ld64putcs 5
  ld64putcs 6
  ld64putcs 7
  ld64putcs 8
  ld64putcs 9
  ld64putcs 10
  ld64putcs 11
  ld64putcs 12
  ld64putcs 13
  ld64putcs 14
  ld64putcs 15
  ld64putcs 16
  ld64putcs 17
  ld64putcs 18
  ld64putcs 19
  ld64putcs 20
  ld64putcs 21
  ld64putcs 22
  ld64putcs 23
  ld64putcs 24
  ld64putcs 25
  ld64putcs 26
  ld64putcs 27
  ld64putcs 28
  ld64putcs 29
  ld64putcs 30
  ld64putcs 31
  runall $m0, $m15, 0
  br $m10
.size _start, . - _start
