// tests/nyuzi/probes/start.S: RTL timing probe: the first instructions after reset: entry issue time, a cold load and its use, device stores.
// Reads CR 6 (cycles) at each mark and prints the values in hex at the end; the RTL's
// values are in expected.txt (rtl_probes.t.sh compares the differences between marks).
	.text
	.globl _start
_start:
	getcr s13, 6
	nop
	getcr s14, 6
	lea s10, buf
	load_32 s1, (s10)
	add_i s2, s1, 1
	getcr s15, 6
	li s5, 0xffff0048
	store_32 s4, (s5)
	getcr s16, 6
	store_32 s4, (s5)
	store_32 s4, (s5)
	store_32 s4, (s5)
	store_32 s4, (s5)
	getcr s17, 6
#include "probe_tail.h"
