// tests/nyuzi/probes/vd.S: RTL timing probe: scoreboard fields: move/add_i orderings that do and do not wait.
// Reads CR 6 (cycles) at each mark and prints the values in hex at the end; the RTL's
// values are in expected.txt (rtl_probes.t.sh compares the differences between marks).
	.text
	.globl _start
_start:
	move s20, 2
lp:
	getcr s13, 6
	nop
	nop
	move s0, 4
	move s25, 4
	add_i s26, s0, s0
	nop
	nop
	nop
	nop
	nop
	nop
	getcr s14, 6
	nop
	nop
	move s0, 4
	nop
	add_i s26, s0, s0
	nop
	nop
	nop
	nop
	nop
	nop
	getcr s15, 6
	nop
	nop
	move s0, 4
	add_i s26, s0, s0
	nop
	nop
	nop
	nop
	nop
	nop
	getcr s16, 6
	nop
	nop
	move s0, 4
	move s25, 4
	add_i s26, s25, s25
	nop
	nop
	nop
	nop
	nop
	nop
	getcr s17, 6
	nop
	nop
	move s0, 4
	move s25, 4
	move s27, 4
	add_i s26, s0, s0
	nop
	nop
	nop
	nop
	nop
	nop
	getcr s18, 6
	nop
	nop
	move s0, 4
	add_i s25, s24, 4
	add_i s26, s0, s0
	nop
	nop
	nop
	nop
	nop
	nop
	getcr s19, 6
	sub_i s20, s20, 1
	bnz s20, lp
#include "probe_tail.h"
