/* programs/ipu/tanh_f32.S: out = tanh(in) over N f32 elements, six workers, one f32tanh
 * per element in a zero-overhead rpt loop of 3 bundles. */
#define N 96
#include "common.h"

.section .data
.align 8
.globl in, out
in:  .space N * 4
out: .space N * 4

.section .text.worker, "ax"
.worker
.align 8
.globl tanh_worker
.type tanh_worker, @function
tanh_worker:
  WORKER_OFFSET 4
  setzi $m1, in
  add $m1, $m1, $m5
  setzi $m3, out
  add $m3, $m3, $m5
  setzi $m4, SLICE
  { rpt $m4, 2
    fnop }
  { ld32step $a0, $mzero, $m1+=, 1
    fnop }
  { nop
    f32tanh $a1, $a0 }
  { st32step $a1, $mzero, $m3+=, 1
    fnop }
  exitz $mzero
.size tanh_worker, . - tanh_worker

SUPERVISOR tanh_worker
