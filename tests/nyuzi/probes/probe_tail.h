// tests/nyuzi/probes/probe_tail.h: the end of every probe program: prints the probe
// registers s13-s19 and s21-s24 (the CR 6 values read at the marks, in mark order) in hex on
// the serial port, then suspends the thread. Registers not used by a probe print as whatever
// they hold; rtl_probes.t.sh reads only as many values as the probe has marks.
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
	move s12, s18
	call phex
	move s12, s19
	call phex
	move s12, s21
	call phex
	move s12, s22
	call phex
	move s12, s23
	call phex
	move s12, s24
	call phex
	move s4, 10
	store_32 s4, (s5)
	move s0, 1
	setcr s0, 20
9:	b 9b
#include "phex.h"
	.data
	.align 64
buf:	.space 4096
