/* tests/cli/progs/tile_a.S: an IPU tile's supervisor program for the multi-tile CLI tests
 * (image_unit.t.sh, profile_paths.t.sh): stores 11 at its `res` (0x4c000) and leaves `tag`
 * (0x5a5a5a5a, 256 bytes after res) for a test to see that another tile's image did not
 * overwrite it. Four instructions: setzi, setzi, st32, br. */
.section .data
.align 8
.globl res, tag
res: .long 0
.space 252
tag: .long 0x5a5a5a5a
.section .text.sup, "ax"
.supervisor
.globl _start
.type _start, @function
_start:
  setzi $m0, 11
  setzi $m1, res
  st32 $m0, $m1, $m15, 0
  br $m10
.size _start, . - _start
