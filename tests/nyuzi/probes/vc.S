// tests/nyuzi/probes/vc.S: RTL timing probe: scoreboard fields: an immediate move after another waits for s[4:0].
// Reads CR 6 (cycles) at each mark and prints the values in hex at the end; the RTL's
// values are in expected.txt (rtl_probes.t.sh compares the differences between marks).
	.text
	.globl _start
_start:
	move s20, 2
lp:
	getcr s13, 6
	move s0, 4
	move s25, 4
	cmpeq_i s26, s0, s0
	bnz s26, 1f
	call fail_test
1:
	getcr s14, 6
	move s0, 4
	move s25, 4
	cmpeq_i s25, s24, s24
	bnz s25, 1f
	call fail_test
1:
	getcr s15, 6
	move s0, 4
	move s25, 4
	cmpeq_i s26, s0, s0
	nop
	nop
	nop
	nop
	nop
	nop
	getcr s16, 6
	move s0, 4
	move s25, 4
	add_i s26, s0, s0
	nop
	nop
	nop
	nop
	nop
	nop
	getcr s17, 6
	sub_i s20, s20, 1
	bnz s20, lp
	b 2f
	fail_test: ret
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

