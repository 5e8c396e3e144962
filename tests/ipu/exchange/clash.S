/* tests/ipu/exchange/clash.S: receive clashes (exchange.t.sh). Assembled with SENDER, the
 * program of tile0: sync INTERNAL, delay 100, send one word. Otherwise tile1's: it sets up
 * a one-word receive into RBUF from tile0, syncs, and starts six workers that each load
 * LOADADDR 40 times in an rpt body, so that every cycle of the word's arrival (100 cycles
 * after the sync, when they all run) has a worker fetching its code from memory element 0
 * (0x4c000-0x4ffff) and loading from LOADADDR's element. */
#ifndef RBUF
#define RBUF 0x54000
#endif
#ifndef LOADADDR
#define LOADADDR 0x58000
#endif
.section .data
.align 8
.globl word
word: .word 0x600d

.section .text.worker, "ax"
.worker
.align 8
loader:
  setzi $m2, LOADADDR
  setzi $m3, 40
  nop
  .align 8
  { rpt $m3, 0
    fnop }
  { ld32 $a0, $m2, $mzero, 0
    fnop }
  exitz $mzero

.section .text.sup, "ax"
.supervisor
.globl _start
.type _start, @function
_start:
#ifdef SENDER
  sync 3
  delay 100
  send 0, word / 4, 1
#else
  setzi $m1, RBUF
  setzi $m2, 1
  setzi $m4, loader
  put $INCOMING_BASE, $m1
  put $INCOMING_DCOUNT, $m2
  put $INCOMING_MUX, $mzero
  sync 3
  runall $m4, $mzero, 0
  sync 2
  sync 0
#endif
  br $m10
.size _start, . - _start
