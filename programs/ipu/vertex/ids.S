/* programs/ipu/vertex/ids.S: each worker that runs writes base + its context id to
 * out[id]; which entries change shows which workers ran (`workers = N` starts W0..WN-1
 * with one run each). State (ids.vertex): ptr out, u32 base. */
#include <poplar/TileConstants.hpp>
.section .text.ids, "ax"
.worker
.align 8
.globl ids
.type ids, @function
ids:
  get $m0, $WSR
  and $m0, $m0, CSR_W_WSR__CTXTID_M1__MASK
  ld32 $m1, $mvertex_base, $mzero, 0
  ld32 $m2, $mvertex_base, $mzero, 1
  add $m2, $m2, $m0
  shl $m3, $m0, 2
  add $m1, $m1, $m3
  st32 $m2, $m1, $mzero, 0
  exitnz $m0
.size ids, . - ids
