// tests/nyuzi/probes/phex.h: phex prints s12 as eight hex digits and a space on the serial
// port (s5 = 0xffff0048); clobbers s4, s9, s10 and s12. Shared by every probe program.
phex:	move s9, 8
4:	shr s4, s12, 28
	cmplt_u s10, s4, 10
	bz s10, 5f
	add_i s4, s4, 48
	b 6f
5:	add_i s4, s4, 87
6:	store_32 s4, (s5)
	shl s12, s12, 4
	sub_i s9, s9, 1
	bnz s9, 4b
	move s4, 32
	store_32 s4, (s5)
	ret
