// tests/nyuzi/probes/i_ser2.S: RTL timing probe: timer interrupt handler entries while the main loop stores to the serial port.
// The handler records CR 6 at entry; the times are printed in hex at the end; the RTL's
// values are in expected.txt (rtl_probes.t.sh compares the differences between marks).
	.text
	.globl _start
_start:
	lea s0, handler
	setcr s0, 1
	move s24, 2
	setcr s24, 14
	lea s20, times
	move s21, 0
	li s5, 0xffff0048
	li s25, 0xffff0240
	move s24, 100
	store_32 s24, (s25)
	getcr s22, 6
	move s0, 5
	setcr s0, 4
	move s6, 2000
	move s4, 48
1:
store_32 s4, (s5)
	add_i s4, s4, 1
	cmpgt_i s2, s4, 8000
	bz s2, 1b
	move s0, 1
	setcr s0, 4
	move s7, 0
	lea s20, times
2:	load_32 s12, (s20)
	sub_i s12, s12, s22
	call phex
	add_i s20, s20, 4
	add_i s7, s7, 1
	cmplt_i s8, s7, 8
	bnz s8, 2b
	move s4, 10
	store_32 s4, (s5)
	move s0, 1
	setcr s0, 20
9:	b 9b
handler:
	getcr s23, 6
	store_32 s23, (s20)
	add_i s20, s20, 4
	add_i s21, s21, 1
	cmplt_i s23, s21, 8
	move s26, 2
	setcr s26, 15
	bz s23, 3f
	move s26, 100
	li s27, 0xffff0240
	store_32 s26, (s27)
3:	eret
#include "phex.h"
	.data
	.align 64
times:	.space 64
