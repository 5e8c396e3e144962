// tests/nyuzi/probes/pend.S: RTL timing probe: CR 16 after reset and the cycles from a timer write of 100 to its pending bit.
// Prints CR 16 twice and two cycle differences in hex; the RTL's
// values are in expected.txt (rtl_probes.t.sh compares them as printed).
	.text
	.globl _start
_start:
	move s24, 2
	setcr s24, 14
	getcr s13, 16
	setcr s24, 15
	getcr s14, 16
	li s5, 0xffff0048
	li s25, 0xffff0240
	move s24, 100
	nop
	nop
	getcr s15, 6
	store_32 s24, (s25)
	getcr s16, 6
	setcr s24, 15
1:	getcr s17, 16
	bz s17, 1b
	getcr s18, 6
	sub_i s16, s16, s15
	sub_i s18, s18, s15
	move s12, s13
	call phex
	move s12, s14
	call phex
	move s12, s16
	call phex
	move s12, s18
	call phex
	move s4, 10
	store_32 s4, (s5)
	move s0, 1
	setcr s0, 20
9:	b 9b
#include "phex.h"
