#!/bin/sh
# tests/mccp/cli.t.sh: the xpusim CLI with MCCP: asm, run with --load/--dump, disasm, and
# clear errors (assembler file:line, malformed .out, bad option, stack fault stop = exit 2).
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$X" isas 2>/dev/null | grep -q '^mccp' || { echo "SKIP: this build has no mccp ISA"; exit 0; }

# vector cube: cubes of 1..10 at RAM[48..57]
"$X" asm --isa mccp programs/mccp/vector_cube.mccp -o "$T/vc.out" || fail "asm vector_cube"
[ "$(wc -l < "$T/vc.out")" -gt 10 ] || fail "short .out"
grep -qv '^[01]\{32\}$' "$T/vc.out" && fail ".out lines must be 32 binary digits"
"$X" run "$T/vc.out" --load ram:0=programs/mccp/vector_cube.txt --dump ram:48:10 --quiet > "$T/o.txt" 2>&1 || fail "run vector_cube: $(cat "$T/o.txt")"
grep -q '00000001 00000008 0000001b 00000040 0000007d 000000d8 00000157 00000200' "$T/o.txt" || fail "cubes: $(cat "$T/o.txt")"
grep -q '000002d9 000003e8' "$T/o.txt" || fail "cubes 9, 10: $(cat "$T/o.txt")"

# statistics: 4 cores halt, stall causes named
"$X" run "$T/vc.out" --load ram:0=programs/mccp/vector_cube.txt > "$T/s.txt" 2>&1 || fail "run with stats"
[ "$(grep -c 'halted at' "$T/s.txt")" -ge 4 ] || fail "expected 4 halted cores: $(cat "$T/s.txt")"
grep -q 'arbiter_wait' "$T/s.txt" || fail "stall cause arbiter_wait missing"

# one core only
"$X" run "$T/vc.out" -o cores=1 --load ram:0=programs/mccp/vector_cube.txt --dump ram:48:4 --quiet > "$T/o1.txt" 2>&1 || fail "cores=1"
grep -q '00000000 00000008 00000000 00000000' "$T/o1.txt" || fail "core 1 alone cubes element 1 only: $(cat "$T/o1.txt")"

# disassembly of the image
"$X" disasm "$T/vc.out" --isa mccp > "$T/d.txt" 2>&1 || fail "disasm"
grep -q 'coreidx reg3' "$T/d.txt" || fail "disasm text: $(head -5 "$T/d.txt")"

# an output name ending in .prep gets the preprocessed text (the original's -p)
"$X" asm --isa mccp programs/mccp/vector_cube.mccp -o "$T/vc.prep" || fail "asm to .prep"
grep -q '^coreidxal reg3$' "$T/vc.prep" || fail ".prep text: $(head -3 "$T/vc.prep")"
grep -q '^load1al reg0 reg5$' "$T/vc.prep" || fail ".prep load1al"

# assembler errors name file:line
printf 'stack_size\nfrob reg1\n' > "$T/bad.mccp"
if "$X" asm --isa mccp "$T/bad.mccp" -o "$T/bad.out" > "$T/e.txt" 2>&1; then fail "bad source assembled"; fi
grep -q 'bad.mccp:2:.*unknown instruction' "$T/e.txt" || fail "asm error text: $(cat "$T/e.txt")"

# malformed .out
printf '0101\n' > "$T/m.out"
if "$X" run "$T/m.out" --isa mccp > "$T/e2.txt" 2>&1; then fail "malformed .out ran"; fi
grep -q 'm.out:1' "$T/e2.txt" || fail "malformed .out message: $(cat "$T/e2.txt")"

# bad option value
if "$X" run "$T/vc.out" -o semantics=arm > "$T/e3.txt" 2>&1; then fail "bad option accepted"; fi
grep -q 'semantics' "$T/e3.txt" || fail "option error: $(cat "$T/e3.txt")"

# a store outside the core's stack window stops at the fault (exit 2) with the reason
printf 'movimm reg1 65535\nstore reg1 reg1\nint 1\n' > "$T/f.mccp"
"$X" asm --isa mccp "$T/f.mccp" -o "$T/f.out" || fail "asm fault program"
"$X" run "$T/f.out" -o cores=0 > "$T/e4.txt" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "stack fault exit code $rc: $(cat "$T/e4.txt")"
grep -q 'stack protection fault' "$T/e4.txt" || fail "fault message: $(cat "$T/e4.txt")"
# with fault_stop=0 the dump happens and the core continues at stack_exc_addr (0): it
# runs the program again and faults forever, so bound it
"$X" run "$T/f.out" -o cores=0 -o fault_stop=0 --max-cycles 20000 > "$T/e5.txt" 2>&1
[ $? -eq 3 ] || fail "fault_stop=0 should run to the cycle limit: $(cat "$T/e5.txt")"
grep -q 'stack_faults' "$T/e5.txt" || fail "stack_faults counter: $(cat "$T/e5.txt")"
echo "PASS"
