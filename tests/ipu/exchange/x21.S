/* tests/ipu/exchange/x21.S: ipu21's exchange instructions, cycle by cycle (-o arch=ipu21;
 * exchange.t.sh derives every cycle). Assembled with SENDER, tile0's program: sync
 * INTERNAL, then send 3 (sbuf[0..3]), sendoff 1, 2 (skips two words of the stream:
 * sbuf[6..7]) and sendpic 1 (sbuf[8..9], on with the stream's send control; its control
 * sets tile0's own $INCOMING_FORMAT to 0). Otherwise tile1's: the incoming pointer at rbuf,
 * sync INTERNAL, then delayxpic selects tile0 at a terminal event, delaypic moves the
 * pointer to rbuf2 at another, delayxpic selects no tile (0x640), and rtime = $SCOUNT_L.
 * The pad puts the code (placed after the data) in the second memory element, so that no
 * fetch clashes with an item landing in the first. WIDEBAD and BADFMT: two faults. ROWS: a
 * receiver for -o exchange_timing=rows that expects four words and waits for them with sync
 * RECV. */
.section .data
.align 8
.globl sbuf, rbuf, rbuf2, rtime
sbuf:  .word 0x100, 0x101, 0x102, 0x103, 0x104, 0x105, 0x106, 0x107, 0x108, 0x109, 0x10a, 0x10b
rbuf:  .word 0, 0, 0, 0, 0
rbuf2: .word 0, 0
rtime: .word 0
pad:   .space 0x4000

.section .text.sup, "ax"
.supervisor
.globl _start
.type _start, @function
_start:
#if defined(WIDEBAD)
  .align 8
  nop
  .long 0xf6600000, 0x19000000  /* sendpicp 51, 0, 0, 0, 0x640, 0 at 4 mod 8 */
#elif defined(BADFMT)
  delaypic 2, 1, 3              /* PIC selector 1 ($INCOMING_FORMAT): 3 is no format */
#elif defined(ROWS)
  setzi $m2, rbuf
  setzi $m3, 4
  put $INCOMING_BASE, $m2
  put $INCOMING_DCOUNT, $m3
  sync 3
  delayxpic 11, 0, 0
  delayxpic 3, 0, 0x640
  sync 0
  get $m6, $SCOUNT_L
  setzi $m7, rtime
  st32 $m6, $m7, $mzero, 0
  br $m10
#elif defined(SENDER)
  sync 3
  send 3, sbuf / 4, 1
  sendoff 1, 2, 1
  sendpic 1, 3, 0
  br $m10
#else
  setzi $m2, rbuf
  put $INCOMING_BASE, $m2
  sync 3
  delayxpic 11, 0, 0
  delaypic 3, 0, rbuf2 / 4
  delayxpic 0, 0, 0x640
  get $m6, $SCOUNT_L
  setzi $m7, rtime
  st32 $m6, $m7, $mzero, 0
  br $m10
#endif
.size _start, . - _start
