// tests/nyuzi/probes/df2.S: RTL timing probe: membar and dflush with nothing pending, a clean line and a dirty line.
// Reads CR 6 (cycles) at each mark and prints the values in hex at the end; the RTL's
// values are in expected.txt (rtl_probes.t.sh compares the differences between marks).
	.text
	.globl _start
_start:
	lea s0, foo
	getcr s13, 6
	membar
	getcr s14, 6
	dflush s0
	getcr s15, 6
	membar
	getcr s16, 6
	store_32 s0, (s0)
	getcr s17, 6
	dflush s0
	getcr s18, 6
	membar
	getcr s19, 6
	b 2f
	foo: .long 0
2:
#include "probe_tail.h"
