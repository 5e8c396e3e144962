// tests/nyuzi/probes/dv.S: RTL timing probe: dinvalidate behind a pending store, membar, and a load of the
// invalidated line. Reads CR 6 (cycles) at each mark and prints the values in hex at the end; the
// RTL's values are in expected.txt (rtl_probes.t.sh compares the differences between marks).
	.text
	.globl _start
_start:
	lea s0, dv
	li s1, 0x12345678
	getcr s13, 6
	store_32 s1, (s0)
	getcr s14, 6
	dinvalidate s0
	getcr s15, 6
	membar
	getcr s16, 6
	load_32 s2, (s0)
	move s3, s2
	getcr s17, 6
	b 2f
.align 64
	dv: .long 0
2:
	li s5, 0xffff0048
	move s12, s13
	call phex
	move s12, s14
	call phex
	move s12, s15
	call phex
	move s12, s16
	call phex
	move s12, s17
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

