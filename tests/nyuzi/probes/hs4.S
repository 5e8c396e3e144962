// tests/nyuzi/probes/hs4.S: RTL timing probe: a cold store, then a byte load, a device read and a device store.
// Reads CR 6 (cycles) at each mark and prints the values in hex at the end; the RTL's
// values are in expected.txt (rtl_probes.t.sh compares the differences between marks).
	.text
	.globl _start
_start:
	move s10, 2
	li s6, 0x100000
	li s9, 0xffff0040
	lea s5, strg
	move s8, 32
lp:
	getcr s13, 6
	store_32 s7, (s6)
	getcr s14, 6
	load_u8 s2, (s5)
	getcr s15, 6
	load_32 s3, (s9)
	getcr s16, 6
	store_32 s8, 8(s9)
	getcr s17, 6
	nop
	getcr s18, 6
	add_i s6, s6, 64
	add_i s5, s5, 64
	sub_i s10, s10, 1
	bnz s10, lp
	b 2f
.align 64
	strg: .long 0x20202020
.align 64
.long 0x20202020
2:
#include "probe_tail.h"
