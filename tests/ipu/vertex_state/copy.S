// tests/ipu/vertex_state/copy.S: a worker vertex that copies its vertex state, from byte 4
// on, word by word into the tensor whose address is the state's first field; so the test
// can read back exactly what the vertex file's `state` lines put in tile memory.
// State: ptr out, then the fields under test. Copies 6 words.
.section .text.copy, "ax"
.globl copy
.align 8
.worker
copy:
  ld32 $m1, $mvertex_base, $mzero, 0
  add $m4, $mvertex_base, 4
  setzi $m3, 5
1:
  ld32step $m5, $mzero, $m4+=, 1
  st32step $m5, $mzero, $m1+=, 1
  brnzdec $m3, 1b
  exitz $mzero
