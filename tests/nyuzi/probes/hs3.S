// tests/nyuzi/probes/hs3.S: RTL timing probe: a store that misses the L2, device stores, a store behind a pending store (warm code).
// Reads CR 6 (cycles) at each mark and prints the values in hex at the end; the RTL's
// values are in expected.txt (rtl_probes.t.sh compares the differences between marks).
	.text
	.globl _start
_start:
	move s10, 2
	li s6, 0x100000
	li s9, 0xffff0048
	move s8, 32
lp:
	getcr s13, 6
	store_32 s7, (s6)
	getcr s14, 6
	store_32 s8, (s9)
	getcr s15, 6
	store_32 s8, (s9)
	getcr s16, 6
	add_i s6, s6, 64
	store_32 s7, (s6)
	getcr s17, 6
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	getcr s18, 6
	store_32 s8, (s9)
	getcr s19, 6
	add_i s6, s6, 64
	sub_i s10, s10, 1
	bnz s10, lp
	b 2f
.align 64
	tms: .long 0
2:
#include "probe_tail.h"
