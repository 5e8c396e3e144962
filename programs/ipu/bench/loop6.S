/* programs/ipu/bench/loop6.S: host-speed benchmark (`make bench`, ipu.bench). The supervisor
 * starts six workers with runall and returns; every worker runs bench_iters iterations
 * (default 1,000,000; host-settable with --set) of a 6-instruction integer loop: add,
 * shift, xor, a store and a load of its own word, and brnzdec back, then exits. The tile
 * halts when the last worker has exited. Instructions: per worker 6 x iterations + 8
 * (get, and, shl, setzi, add, setzi, ld32 before the loop; exitz after it), plus the supervisor's 3.
 *   xpusim asm --isa ipu programs/ipu/bench/loop6.S -o loop6.elf
 *   xpusim run loop6.elf */
.section .data
.align 8
.globl bench_iters, bench_out
bench_iters: .long 1000000
.align 8
bench_out: .space 48

.section .text.worker, "ax"
.worker
.align 8
.globl loop_worker
.type loop_worker, @function
loop_worker:
  get $m0, $WSR
  and $m0, $m0, 7
  shl $m5, $m0, 3
  setzi $m6, bench_out
  add $m5, $m5, $m6
  setzi $m6, bench_iters
  ld32 $m0, $m6, $m15, 0
.Lloop:
  add $m1, $m1, $m2
  shl $m3, $m1, 1
  xor $m2, $m1, $m3
  st32 $m2, $m5, $m15, 0
  ld32 $m4, $m5, $m15, 0
  brnzdec $m0, .Lloop
  exitz $mzero
.size loop_worker, . - loop_worker

.section .text.sup, "ax"
.supervisor
.globl _start
.type _start, @function
_start:
  setzi $m0, loop_worker
  runall $m0, $m15, 0
  br $m10
.size _start, . - _start
