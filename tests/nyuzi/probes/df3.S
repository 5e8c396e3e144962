// tests/nyuzi/probes/df3.S: RTL timing probe: store+membar, dflush of dirty and clean lines, two flushes queued.
// Reads CR 6 (cycles) at each mark and prints the values in hex at the end; the RTL's
// values are in expected.txt (rtl_probes.t.sh compares the differences between marks).
	.text
	.globl _start
_start:
	lea s0, foo
	lea s1, bar
	load_32 s3, (s1)
	getcr s13, 6
	store_32 s0, (s0)
	membar
	getcr s14, 6
	dflush s0
	membar
	getcr s15, 6
	dflush s0
	membar
	getcr s16, 6
	dflush s1
	membar
	getcr s17, 6
	store_32 s0, (s0)
	dflush s0
	dflush s1
	membar
	getcr s18, 6
	b 2f
	foo: .long 0
.align 64
	bar: .long 0
2:
#include "probe_tail.h"
