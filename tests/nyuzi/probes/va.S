// tests/nyuzi/probes/va.S: RTL timing probe: compare-and-branch sequences, cold code.
// Reads CR 6 (cycles) at each mark and prints the values in hex at the end; the RTL's
// values are in expected.txt (rtl_probes.t.sh compares the differences between marks).
	.text
	.globl _start
_start:
	getcr s13, 6
	getcr s0, 4
	move s25, 4
	cmpeq_i s25, s0, s0
	bnz s25, 1f
	call fail_test
1:
	getcr s14, 6
	move s0, 4
	move s25, 4
	cmpeq_i s25, s0, s0
	bnz s25, 1f
	call fail_test
1:
	getcr s15, 6
	move s25, 4
	cmpeq_i s25, s0, s0
	bnz s25, 1f
	call fail_test
1:
	getcr s16, 6
	cmpeq_i s25, s0, s0
	nop
	nop
	nop
	nop
	nop
	bnz s25, 1f
	call fail_test
1:
	getcr s17, 6
	nop
	nop
	nop
	b 1f
	call fail_test
1:
	getcr s18, 6
	b 2f
	fail_test: ret
2:
#include "probe_tail.h"
