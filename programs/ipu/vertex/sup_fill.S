/* programs/ipu/vertex/sup_fill.S: a supervisor vertex: out[0..n) = value, one st32step
 * per element in a brnzdec loop. State (sup_fill.vertex): ptr out, u32 n (>= 1), u32 value.
 * The supervisor is entered with $mvertex_base = the state and returns with br $m10. */
.section .text.sup_fill, "ax"
.supervisor
.align 8
.globl sup_fill
.type sup_fill, @function
sup_fill:
  ld32 $m1, $mvertex_base, $mzero, 0
  ld32 $m2, $mvertex_base, $mzero, 1
  ld32 $m3, $mvertex_base, $mzero, 2
  add $m2, $m2, -1
1:
  st32step $m3, $mzero, $m1+=, 1
  brnzdec $m2, 1b
  br $m10
.size sup_fill, . - sup_fill
