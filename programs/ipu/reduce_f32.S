/* programs/ipu/reduce_f32.S: each of the six workers sums its SLICE f32 elements of in
 * through the accumulators, as PopLibs' reductions do: $FP_CLR.ZAACC clears them,
 * f32v4acc adds four elements to accumulator chain entries 0..3, two f32v2gina read the
 * chain back (entries 0,1 then 2,3), and two adds finish the sum, stored to out[worker].
 * The order of the additions is the accumulator model's (docs/isa/ipu.md). */
#define N 192
#include "common.h"

.section .data
.align 8
.globl in, out
in:  .space N * 4
out: .space WORKERS * 4

.section .text.worker, "ax"
.worker
.align 8
.globl reduce_worker
.type reduce_worker, @function
reduce_worker:
  WORKER_OFFSET 4
  setzi $m1, in
  add $m1, $m1, $m5
  setzi $m3, out
  shl $m6, $m0, 2
  add $m3, $m3, $m6         /* &out[worker] */
  setzi $a7, 8              /* $FP_CLR.ZAACC (bit 3) */
  uput $FP_CLR, $a7
  setzi $m4, SLICE / 4
  .align 8                  /* the rpt body must be 8-byte aligned */
  { rpt $m4, 2
    fnop }
  { ld64step $a0:1, $mzero, $m1+=, 1
    fnop }
  { ld64step $a2:3, $mzero, $m1+=, 1
    fnop }
  { nop
    f32v4acc $a0:3 }
  f32v2gina $a0:1, $azeros, 0
  f32v2gina $a2:3, $azeros, 0
  f32v2add $a0:1, $a0:1, $a2:3
  f32add $a0, $a0, $a1
  st32 $a0, $m3, $mzero, 0  /* out[worker] */
  exitz $mzero
.size reduce_worker, . - reduce_worker

SUPERVISOR reduce_worker
