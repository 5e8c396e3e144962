/* programs/ipu/vertex/vadd.S: out = a + b as a worker vertex (vadd_f32.S rewritten for
 * `xpusim run --vertex vadd.vertex`): the tensors come from the vertex state, not from
 * symbols. State (vadd.vertex): ptr a, ptr b, ptr out, u32 n; n a multiple of 12. Each of
 * the six workers adds n / 6 elements, two per f32v2add, at (its $WSR context id) x n / 6. */
#include <poplar/TileConstants.hpp>

#define VOFF_A   0   /* word offsets into the vertex state */
#define VOFF_B   1
#define VOFF_OUT 2
#define VOFF_N   3

.section .text.vadd, "ax"
.worker
.align 8
.globl vadd
.type vadd, @function
vadd:
  ld32 $m0, $mvertex_base, $mzero, VOFF_N
  get $m5, $WSR
  and $m5, $m5, CSR_W_WSR__CTXTID_M1__MASK
  mul $m0, $m0, 21846            /* n / 6: x * 21846 >> 17 is exact for x < 32768 */
  shr $m0, $m0, 17
  mul $m5, $m5, $m0              /* first element of this worker */
  shl $m5, $m5, 2                /* in bytes */
  shr $m4, $m0, 1                /* pairs */
  ld32 $m1, $mvertex_base, $mzero, VOFF_A
  add $m1, $m1, $m5
  ld32 $m2, $mvertex_base, $mzero, VOFF_B
  add $m2, $m2, $m5
  ld32 $m3, $mvertex_base, $mzero, VOFF_OUT
  add $m3, $m3, $m5
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
.size vadd, . - vadd
