/* tests/ipu/exchange/pair.S: two tiles, the same code: each sends W items (SCTL: direction
 * 1, | 4 for 64-bit items) from sbuf = {its $TILE_ID, 0xabcd, 7, 8} to the other, which
 * receives them into rbuf (RBUF: another address, for the receive-error test), waits for
 * them with sync RECV ($INCOMING_DCOUNT = DCOUNT 32-bit words) and stores the cycle it
 * went on at ($SCOUNT_L) in rtime. tests/ipu/exchange.t.sh derives every cycle. */
#ifndef W
#define W 2
#endif
#ifndef SCTL
#define SCTL 1
#endif
#ifndef DCOUNT
#define DCOUNT 2
#endif
#ifndef RBUF
#define RBUF rbuf
#endif
.section .data
.align 8
.globl sbuf, rbuf, rtime
sbuf:  .word 0, 0xabcd, 7, 8
rbuf:  .word 0, 0, 0, 0
rtime: .word 0

.section .text.sup, "ax"
.supervisor
.globl _start
.type _start, @function
_start:
  get $m5, $TILE_ID
  setzi $m1, sbuf
  setzi $m2, RBUF
  setzi $m3, DCOUNT
  sub $m4, 1, $m5
  st32 $m5, $m1, $mzero, 0
  put $INCOMING_BASE, $m2
  put $INCOMING_DCOUNT, $m3
  put $INCOMING_MUX, $m4
  sync 3
  send W - 1, sbuf / 4, SCTL
  sync 0
  get $m6, $SCOUNT_L
  setzi $m7, rtime
  st32 $m6, $m7, $mzero, 0
  br $m10
.size _start, . - _start
