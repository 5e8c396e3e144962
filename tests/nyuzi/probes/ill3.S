// tests/nyuzi/probes/ill3.S: RTL timing probe: trap handler assert sequences (getcr, immediate move, compare, taken branch).
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
f1:
.long 0xcc000000
	call fail_test
h1:
	getcr s14, 6
	getcr s0, 3
	li s25, 10
	cmpeq_i s25, s0, s0
	bnz s25, 1f
	call fail_test
1:
	getcr s15, 6
	getcr s0, 4
	li s25, 4
	cmpeq_i s25, s0, s0
	bnz s25, 1f
	call fail_test
1:
	getcr s16, 6
	getcr s0, 5
	li s25, 0
	cmpeq_i s25, s0, s0
	bnz s25, 1f
	call fail_test
1:
	getcr s17, 6
	getcr s0, 2
	lea s1, f1
	cmpeq_i s0, s1, s1
	bnz s0, 1f
	call fail_test
1:
	getcr s18, 6
	b 2f
	fail_test: ret
2:
#include "probe_tail.h"
