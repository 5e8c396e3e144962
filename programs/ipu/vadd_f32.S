/* programs/ipu/vadd_f32.S: out = a + b over N f32 elements, six workers, two elements
 * per f32v2add, a zero-overhead rpt loop of 4 bundles per pair. Inputs and output are
 * the symbols in_a, in_b, out (placed and read with --set / --get). */
#define N 96
#include "common.h"

.section .data
.align 8
.globl in_a, in_b, out
in_a: .space N * 4
in_b: .space N * 4
out:  .space N * 4

.section .text.worker, "ax"
.worker
.align 8
.globl vadd_worker
.type vadd_worker, @function
vadd_worker:
  WORKER_OFFSET 4
  setzi $m1, in_a
  add $m1, $m1, $m5
  setzi $m2, in_b
  add $m2, $m2, $m5
  setzi $m3, out
  add $m3, $m3, $m5
  setzi $m4, SLICE / 2
  { rpt $m4, 3
    fnop }
  { ld64step $a0:1, $mzero, $m1+=, 1
    fnop }
  { ld64step $a2:3, $mzero, $m2+=, 1
    fnop }
  { nop
    f32v2add $a4:5, $a0:1, $a2:3 }
  { st64step $a4:5, $mzero, $m3+=, 1
    fnop }
  exitz $mzero
.size vadd_worker, . - vadd_worker

SUPERVISOR vadd_worker
