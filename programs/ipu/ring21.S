/* programs/ipu/ring21.S: a ring all-reduce over NTILES tiles with ipu21's exchange
 * instructions (assemble and run with -o arch=ipu21; -o define=NTILES=n, 2..16, default 4;
 * run with -o tiles=NTILES). Tile i holds v = i + 1 and, in NTILES - 1 rounds, passes a
 * carry to the right: in round r it sends its carry (v of tile i - r + 1) to tile i + 1 and
 * receives tile i - 1's, adds it to its sum and sends it on in the next round. Every tile
 * ends with total = 1 + 2 + ... + NTILES = NTILES (NTILES + 1) / 2.
 *
 * One sendpicp does a round's whole exchange: it sends the carry (one word, direction 1)
 * and, at the same first event, selects the left neighbour as the incoming source (XPIC)
 * and points the incoming pointer at rbuf (PIC). Its payload (XPIC << 18 | PIC) differs per
 * tile, so each tile writes it into the instruction's second word before the first round,
 * as a loader patches a row. The word leaves at the release R of sync INTERNAL and arrives
 * at R + -o exchange_latency (10); sync RECV waits for it ($INCOMING_DCOUNT 1), so the load
 * of rbuf issues at R + 11, as it would after a statically timed `delay 9` -- which the
 * functional loop (-o timing=none), where a delay does not wait, would not honour. */
#ifndef NTILES
#define NTILES 4
#endif

.section .data
.align 8
.globl carry, rbuf, total
carry: .word 0
rbuf:  .word 0
total: .word 0

.section .text.sup, "ax"
.supervisor
.globl _start
.type _start, @function
_start:
  get $m5, $TILE_ID
  add $m3, $m5, NTILES - 1
  cmpult $m2, $m3, NTILES
  brnz $m2, 1f
  add $m3, $m3, -NTILES      /* left = (tile - 1) mod NTILES */
1:
  shl $m3, $m3, 18           /* XPIC [31:18]: the left neighbour, ordinary mux */
  setzi $m4, rbuf / 4
  or $m3, $m3, $m4           /* PIC [17:0]: rbuf's word address, selector 0: the pointer */
  setzi $m4, xround + 4
  st32 $m3, $m4, $mzero, 0   /* the payload of this tile's sendpicp */
  add $m0, $m5, 1            /* sum = v = tile + 1 */
  setzi $m1, carry
  st32 $m0, $m1, $mzero, 0   /* carry = v */
  setzi $m8, rbuf
  setzi $m6, NTILES - 2      /* NTILES - 1 rounds (brnzdec) */
  setzi $m9, 1
round:
  put $INCOMING_DCOUNT, $m9  /* one word to come */
  sync 3
.align 8
xround:
  sendpicp 0, carry / 4, 1, 0, 0x640, 0
  sync 0                     /* RECV: until it has come */
  ld32 $m7, $m8, $mzero, 0   /* the left neighbour's carry */
  add $m0, $m0, $m7
  st32 $m7, $m1, $mzero, 0   /* sent on in the next round */
  brnzdec $m6, round
  setzi $m2, total
  st32 $m0, $m2, $mzero, 0
  br $m10
.size _start, . - _start
