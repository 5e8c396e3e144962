/* programs/ipu/vadd_f16.S: out = a + b over N f16 elements, six workers, four elements
 * per f16v4add (IEEE half, round to nearest even), a zero-overhead rpt loop of 4 bundles
 * per quad. Inputs and output are the symbols in_a, in_b, out (--set / --get). */
#define N 96
#include "common.h"

.section .data
.align 8
.globl in_a, in_b, out
in_a: .space N * 2
in_b: .space N * 2
out:  .space N * 2

.section .text.worker, "ax"
.worker
.align 8
.globl vaddh_worker
.type vaddh_worker, @function
vaddh_worker:
  WORKER_OFFSET 2
  setzi $m1, in_a
  add $m1, $m1, $m5
  setzi $m2, in_b
  add $m2, $m2, $m5
  setzi $m3, out
  add $m3, $m3, $m5
  setzi $m4, SLICE / 4
  { rpt $m4, 3
    fnop }
  { ld64step $a0:1, $mzero, $m1+=, 1
    fnop }
  { ld64step $a2:3, $mzero, $m2+=, 1
    fnop }
  { nop
    f16v4add $a4:5, $a0:1, $a2:3 }
  { st64step $a4:5, $mzero, $m3+=, 1
    fnop }
  exitz $mzero
.size vaddh_worker, . - vaddh_worker

SUPERVISOR vaddh_worker
