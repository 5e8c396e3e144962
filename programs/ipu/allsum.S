/* programs/ipu/allsum.S: a BSP all-reduce over NTILES tiles (run with -o tiles=NTILES;
 * assemble with -o define=NTILES=n, 2..16, default 4). Every tile holds the same table
 * in[j] = j + 1 (j < 128); tile i sums its slice in[8i .. 8i + 7] (compute: one worker,
 * then sync LOCAL), and then the tiles exchange their partial sums in NTILES - 1 rounds:
 * in round r tile i receives the partial of tile (i - r) mod NTILES into recv[r]. A round
 * is statically timed the simplest way, so that it needs no cycle counting:
 *   - the receiver selects its source ($INCOMING_MUX), points the incoming pointer at
 *     recv[r] ($INCOMING_BASE) and expects one word ($INCOMING_DCOUNT) BEFORE the sync;
 *   - sync INTERNAL: every tile has set up its receive;
 *   - every tile sends its partial (one word, direction 1), and sync RECV waits until the
 *     expected word has landed.
 * Then $INCOMING_MUX selects no tile again (0x600, TILE_ID_NULL), and total = partial +
 * recv[1] + ... + recv[NTILES - 1]: every tile ends with sum in[0 .. 8 NTILES - 1] =
 * 4 NTILES (8 NTILES + 1) (528 for 4 tiles). */
#ifndef NTILES
#define NTILES 4
#endif
#define K 8

.section .data
.align 8
.globl in, partial, recv, total
in:
  .word 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16
  .word 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32
  .word 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48
  .word 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64
  .word 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80
  .word 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96
  .word 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112
  .word 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128
partial: .word 0
recv:    .space 16 * 4
total:   .word 0

/* the worker: partial = in[8 tile] + ... + in[8 tile + 7]; its $VERTEX_BASE is the
 * memory's base + 32 tile (run adds TMEM_REGION0_BASE_ADDR, whose low 10 bits are 0) */
.section .text.worker, "ax"
.worker
.align 8
.globl partial_worker
.type partial_worker, @function
partial_worker:
  and $m1, $mvertex_base, 0x3ff
  setzi $m2, in
  add $m2, $m2, $m1        /* &in[8 tile] */
  setzi $m0, 0
  setzi $m3, K - 1
1:
  ld32step $m4, $mzero, $m2+=, 1
  add $m0, $m0, $m4
  brnzdec $m3, 1b
  setzi $m2, partial
  st32 $m0, $m2, $mzero, 0
  exitz $mzero
.size partial_worker, . - partial_worker

.section .text.sup, "ax"
.supervisor
.globl _start
.type _start, @function
_start:
  get $m5, $TILE_ID
  mul $m1, $m5, K * 4
  setzi $m0, partial_worker
  run $m0, $m1, 0          /* one worker, $VERTEX_BASE = base + 32 tile */
  sync 2                   /* LOCAL: the partial is in memory */
  setzi $m6, 1             /* r */
round:
  add $m1, $m5, NTILES
  sub $m1, $m1, $m6
  cmpult $m2, $m1, NTILES
  brnz $m2, 1f
  add $m1, $m1, -NTILES    /* src = (tile - r) mod NTILES */
1:
  put $INCOMING_MUX, $m1
  setzi $m2, recv
  shl $m3, $m6, 2
  add $m2, $m2, $m3
  put $INCOMING_BASE, $m2  /* -> recv[r] */
  setzi $m3, 1
  put $INCOMING_DCOUNT, $m3
  sync 3                   /* INTERNAL: every receive is set up */
  send 0, partial / 4, 1
  sync 0                   /* RECV: the word has landed */
  add $m6, $m6, 1
  cmpult $m2, $m6, NTILES
  brnz $m2, round
  setzi $m1, 0x600
  put $INCOMING_MUX, $m1   /* TILE_ID_NULL: no tile */
  setzi $m2, partial
  ld32 $m0, $m2, $mzero, 0
  setzi $m6, NTILES - 1
  setzi $m2, recv
2:
  ld32 $m4, $m2, $mzero, $m6
  add $m0, $m0, $m4
  brnzdec $m6, 2b          /* (recv[0] is 0: it adds nothing) */
  setzi $m2, total
  st32 $m0, $m2, $mzero, 0
  br $m10
.size _start, . - _start
