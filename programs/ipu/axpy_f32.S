/* programs/ipu/axpy_f32.S: out = alpha x x + y over N f32 elements, six workers. alpha
 * (the symbol alpha) goes into $TAS; f32v2axpy leaves a x x + y in the accumulators and
 * hands out the previous accumulator pair, so each pair is pushed in and then drained by
 * a second f32v2axpy of zeros: an rpt loop of 5 bundles per pair. */
#define N 96
#include "common.h"

.section .data
.align 8
.globl in_x, in_y, out, alpha
in_x:  .space N * 4
in_y:  .space N * 4
out:   .space N * 4
alpha: .word 0

.section .text.worker, "ax"
.worker
.align 8
.globl axpy_worker
.type axpy_worker, @function
axpy_worker:
  WORKER_OFFSET 4
  setzi $m1, in_x
  add $m1, $m1, $m5
  setzi $m2, in_y
  add $m2, $m2, $m5
  setzi $m3, out
  add $m3, $m3, $m5
  setzi $m6, alpha
  ld32 $a6, $m6, $mzero, 0
  uput $TAS, $a6
  setzi $m4, SLICE / 2
  .align 8                  /* the rpt body must be 8-byte aligned */
  { rpt $m4, 4
    fnop }
  { ld64step $a0:1, $mzero, $m1+=, 1
    fnop }
  { ld64step $a2:3, $mzero, $m2+=, 1
    fnop }
  { nop
    f32v2axpy $azeros, $a0:1, $a2:3 }
  { nop
    f32v2axpy $a4:5, $azeros, $azeros }
  { st64step $a4:5, $mzero, $m3+=, 1
    fnop }
  exitz $mzero
.size axpy_worker, . - axpy_worker

SUPERVISOR axpy_worker
