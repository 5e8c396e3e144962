#!/bin/sh
# tests/mccp/debug.t.sh: the debugger on an MCCP program, from a command file with asserts.
# Program (our power-4 kernel, default prologue = 77 slots): coreidx 77, load 78, mul 79,
# mul 80, store 81, int 82. Hand-derived in tests/mccp/test_timing.c: core c saves its
# store at cycle 247 + 4c and halts at 259 + 4c; with RAM[c] = c + 2 the results are x^4.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$X" isas 2>/dev/null | grep -q '^mccp' || { echo "SKIP: this build has no mccp ISA"; exit 0; }
printf 'coreidx reg1\nload reg0 reg1\nmul reg0 reg0\nmul reg0 reg0\nstore reg0 reg1\nint 1\n' > "$T/p4.mccp"
"$X" asm --isa mccp "$T/p4.mccp" -o "$T/p4.out" || fail "asm"
echo "2 3 4 5" > "$T/in.txt"
cat > "$T/cmds" <<'EOF2'
break 81
continue
assert stop breakpoint
assert cycle == 247
assert pc == 81
assert $reg0 == 16
assert $ip == 40
assert $half == 1
info arbiter
info stack
continue
assert cycle == 251
delete
continue
assert stop halted
assert cycle == 271
assert mem ram:3 == 625
assert mem ram:0 == 16
quit
EOF2
"$X" debug "$T/p4.out" --load ram:0="$T/in.txt" -x "$T/cmds" > "$T/out.txt" 2>&1 || fail "debugger script: $(cat "$T/out.txt")"
grep -q 'own stack \[0xf05f, 0xf447)' "$T/out.txt" || fail "info stack: $(cat "$T/out.txt")"
grep -q 'arbiter: pointer' "$T/out.txt" || fail "info arbiter: $(cat "$T/out.txt")"
echo PASS
