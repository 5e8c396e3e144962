#!/bin/sh
# tests/nyuzi/debugger.t.sh: the debugger on a Nyuzi program: breakpoint on a symbol,
# hardware threads listed as threads, scalar and 512-bit vector registers, the cache, TLB
# and performance-counter views (isa_ops.views) and single stepping.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$XPUSIM" asm --isa nyuzi tests/nyuzi/progs/alu.S -o "$T/alu.elf" || exit 1
printf 'break pass\nrun\ninfo threads\nregs\ninfo cache\ninfo tlb\ninfo perf\nstep\nquit\n' > "$T/cmd"
"$XPUSIM" debug "$T/alu.elf" -x "$T/cmd" > "$T/out" 2>&1
fail=0
check() { grep -q -- "$1" "$T/out" && echo "ok: $1" || { echo "FAIL: missing '$1'"; fail=1; }; }
check "breakpoint 1 at 0x[0-9a-f]* <pass>"
check "stopped at cycle [0-9]*: breakpoint 1"
check "core0 .* 3 .*halted"
# v1 holds the lane numbers 0..15 loaded by the program (two rows of 8 lanes)
check "^v1 *00000000 00000001 00000002 00000003 00000004 00000005 00000006 00000007"
check "^ *00000008 00000009 0000000a 0000000b 0000000c 0000000d 0000000e 0000000f"
check "s1 *0x00000007"
check "L1I   16384 bytes, 64 sets x 4 ways x 64 B"
check "L2   131072 bytes, 256 sets x 8 ways"
check "DTLB:"
check "instr_retire"
check "step done"
exit $fail
