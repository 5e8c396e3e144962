// tests/nyuzi/probes/ill.S: RTL timing probe: illegal-instruction and syscall traps whose handlers follow them.
// Reads CR 6 (cycles) at each mark and prints the values in hex at the end; the RTL's
// values are in expected.txt (rtl_probes.t.sh compares the differences between marks).
	.text
	.globl _start
_start:
	getcr s13, 6
	lea s0, h1
	setcr s0, 1
	move s0, 0
	setcr s0, 4
	b 1f
1:
.long 0xc3000000
	nop
h1:
	getcr s14, 6
	getcr s0, 3
	getcr s0, 4
	getcr s0, 5
	lea s0, h2
	setcr s0, 1
	move s0, 4
	setcr s0, 4
	b 2f
2:
.long 0xc3000000
	nop
h2:
	getcr s15, 6
	getcr s0, 3
	lea s0, h3
	setcr s0, 1
	b 3f
3:
	syscall 7
	nop
h3:
	getcr s16, 6
	li s5, 0xffff0048
	move s12, s13
	call phex
	move s12, s14
	call phex
	move s12, s15
	call phex
	move s12, s16
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

