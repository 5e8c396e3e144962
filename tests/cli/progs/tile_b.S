/* tests/cli/progs/tile_b.S: the second tile's program of the multi-tile CLI tests: stores
 * 20 + 2 = 22 at its own `res`, 64 bytes after its `pad` (0x4c040). Five instructions: setzi,
 * add, setzi, st32, br. */
.section .data
.align 8
.globl pad, res
pad: .space 64
res: .long 0
.section .text.sup, "ax"
.supervisor
.globl start_b
.type start_b, @function
start_b:
  setzi $m0, 20
  add $m0, $m0, 2
  setzi $m1, res
  st32 $m0, $m1, $m15, 0
  br $m10
.size start_b, . - start_b
