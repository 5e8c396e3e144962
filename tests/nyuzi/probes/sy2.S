// tests/nyuzi/probes/sy2.S: RTL timing probe: load_sync/store_sync and plain accesses to one line, warm.
// Reads CR 6 (cycles) at each mark and prints the values in hex at the end; the RTL's
// values are in expected.txt (rtl_probes.t.sh compares the differences between marks).
	.text
	.globl _start
_start:
	move s20, 2
	lea s0, sbuf
	li s2, 5
lp:
	getcr s13, 6
	load_sync s1, (s0)
	getcr s14, 6
	store_sync s2, (s0)
	getcr s15, 6
	load_32 s1, (s0)
	getcr s16, 6
	load_sync s1, (s0)
	getcr s17, 6
	store_32 s4, 4(s0)
	getcr s18, 6
	store_sync s2, (s0)
	getcr s19, 6
	load_32 s1, (s0)
	move s5, s1
	getcr s21, 6
	sub_i s20, s20, 1
	bnz s20, lp
	b 2f
.align 64
sbuf:
.long 0, 0, 0, 0
2:
#include "probe_tail.h"
