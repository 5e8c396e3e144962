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
#include "probe_tail.h"
