// tests/nyuzi/probes/nop16.S: RTL timing probe: straight-line code across one cold instruction line.
// Reads CR 6 (cycles) at each mark and prints the values in hex at the end; the RTL's
// values are in expected.txt (rtl_probes.t.sh compares the differences between marks).
	.text
	.globl _start
_start:
	getcr s13, 6
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	getcr s14, 6
#include "probe_tail.h"
