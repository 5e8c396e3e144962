// tests/nyuzi/probes/nop32.S: RTL timing probe: straight-line code across two cold instruction lines.
// Reads CR 6 (cycles) at each mark and prints the values in hex at the end; the RTL's
// values are in expected.txt (rtl_probes.t.sh compares the differences between marks).
	.text
	.globl _start
_start:
	getcr s13, 6
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
	getcr s14, 6
	li s5, 0xffff0048
	move s12, s13
	call phex
	move s12, s14
	call phex
	move s4, 10
	store_32 s4, (s5)
	move s0, 1
	setcr s0, 20
9:	b 9b
phex:	move s6, 8
2:	shr s4, s12, 28
	cmplt_u s7, s4, 10
	bz s7, 3f
	add_i s4, s4, 48
	b 4f
3:	add_i s4, s4, 87
4:	store_32 s4, (s5)
	shl s12, s12, 4
	sub_i s6, s6, 1
	bnz s6, 2b
	move s4, 32
	store_32 s4, (s5)
	ret
	.data
	.align 64
buf:	.space 4096

