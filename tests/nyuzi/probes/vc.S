// tests/nyuzi/probes/vc.S: RTL timing probe: scoreboard fields: an immediate move after another waits for s[4:0].
// Reads CR 6 (cycles) at each mark and prints the values in hex at the end; the RTL's
// values are in expected.txt (rtl_probes.t.sh compares the differences between marks).
	.text
	.globl _start
_start:
	move s20, 2
lp:
	getcr s13, 6
	move s0, 4
	move s25, 4
	cmpeq_i s26, s0, s0
	bnz s26, 1f
	call fail_test
1:
	getcr s14, 6
	move s0, 4
	move s25, 4
	cmpeq_i s25, s24, s24
	bnz s25, 1f
	call fail_test
1:
	getcr s15, 6
	move s0, 4
	move s25, 4
	cmpeq_i s26, s0, s0
	nop
	nop
	nop
	nop
	nop
	nop
	getcr s16, 6
	move s0, 4
	move s25, 4
	add_i s26, s0, s0
	nop
	nop
	nop
	nop
	nop
	nop
	getcr s17, 6
	sub_i s20, s20, 1
	bnz s20, lp
	b 2f
	fail_test: ret
2:
#include "probe_tail.h"
