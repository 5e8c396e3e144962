// tests/nyuzi/probes/hs5.S: RTL timing probe: a cold load alone and right behind a cold store (one memory bus).
// Reads CR 6 (cycles) at each mark and prints the values in hex at the end; the RTL's
// values are in expected.txt (rtl_probes.t.sh compares the differences between marks).
	.text
	.globl _start
_start:
	li s6, 0x100000
	li s5, 0x200000
	load_32 s1, (s5)
	load_32 s1, 64(s5)
	load_32 s1, 128(s5)
	load_32 s1, 192(s5)
	dflush s5
	li s4, 0x200040
	dflush s4
	li s4, 0x200080
	dflush s4
	li s4, 0x2000c0
	dflush s4
	dinvalidate s5
	li s4, 0x200040
	dinvalidate s4
	li s4, 0x200080
	dinvalidate s4
	li s4, 0x2000c0
	dinvalidate s4
	membar
	move s10, 2
lp:
	getcr s13, 6
	load_u8 s2, (s5)
	move s3, s2
	getcr s14, 6
	store_32 s7, (s6)
	getcr s15, 6
	load_u8 s2, 64(s5)
	move s3, s2
	getcr s16, 6
	add_i s6, s6, 64
	add_i s5, s5, 128
	sub_i s10, s10, 1
	bnz s10, lp
#include "probe_tail.h"
