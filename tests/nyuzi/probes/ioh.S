// tests/nyuzi/probes/ioh.S: RTL timing probe: the io_interrupt handler body: device stores and control registers.
// Reads CR 6 (cycles) at each mark and prints the values in hex at the end; the RTL's
// values are in expected.txt (rtl_probes.t.sh compares the differences between marks).
	.text
	.globl _start
_start:
	move s20, 2
lp:
	getcr s13, 6
	getcr s24, 16
	and s24, s24, 2
	bnz s24, 1f
1:
	li s24, 0xffff0048
	move s25, 42
	store_32 s25, (s24)
	move s25, 2
	setcr s25, 15
	li s24, 1000
	li s25, 0xffff0240
	store_32 s24, (s25)
	getcr s14, 6
	li s1, 0xffff0048
	move s0, 48
	store_32 s0, (s1)
	add_i s0, s0, 1
	cmpgt_i s2, s0, 122
	bz s2, 3f
3:
	getcr s15, 6
	sub_i s20, s20, 1
	bnz s20, lp
#include "probe_tail.h"
