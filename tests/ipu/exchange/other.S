/* tests/ipu/exchange/other.S: a program for exchange.t.sh that never reaches a sync: with
 * FAULT defined its supervisor selects tile0's items (so it runs in step with the tiles
 * that wait for it), waits (put at 0, delay 48 at 1) and loads from address 0 at cycle 50
 * (outside tile memory: TEXCPT_INVALID_ADDR; with AHEAD too, without the put, so that it runs
 * ahead: delay 48 at 0, the load at 49), with BADFMT it puts 3 (TEXCH_IFMT_SPARE) into $INCOMING_FORMAT,
 * otherwise it returns to the host at once. */
.section .text.sup, "ax"
.supervisor
.globl _start
.type _start, @function
_start:
#ifdef FAULT
#ifndef AHEAD
  put $INCOMING_MUX, $mzero
#endif
  delay 48
  ld32 $m0, $mzero, $mzero, 0
#endif
#ifdef BADFMT
  setzi $m0, 3
  put $INCOMING_FORMAT, $m0
#endif
  br $m10
.size _start, . - _start
