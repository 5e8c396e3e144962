// tests/nyuzi/probes/ill.S: RTL timing probe: illegal-instruction and syscall traps whose handlers follow them.
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
.long 0xc3000000
	nop
h1:
	getcr s14, 6
	getcr s0, 3
	getcr s0, 4
	getcr s0, 5
	lea s0, h2
	setcr s0, 1
	move s0, 4
	setcr s0, 4
	b 2f
2:
.long 0xc3000000
	nop
h2:
	getcr s15, 6
	getcr s0, 3
	lea s0, h3
	setcr s0, 1
	b 3f
3:
	syscall 7
	nop
h3:
	getcr s16, 6
#include "probe_tail.h"
