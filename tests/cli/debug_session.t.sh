#!/bin/sh
# `xpusim debug` as a script-driven session on a real ISA (MCCP: 4 cores, one thread each,
# word-addressed RAM "ram"). The program stores 7 into RAM words 100..103 on every core:
#     movl reg1 100; movl reg3 104; movl reg2 7
#     loop: store reg2 reg1; inc reg1; cmp reg1 reg3; jne loop; int 0
# The assembler adds a stack prologue, so the store's address is read from `xpusim disasm`
# (WORD.h -> slot 2*WORD, the unit the MCCP PC counts in). Checked: breakpoint on one core,
# registers, step, history, threads and `thread N` (one thread per unit: N is the core),
# a watchpoint on word 103, x, running to the end, asserts, the exit statuses (0 at a clean
# end, 1 after a failed assert, 3 when --max-cycles stops the run) and the echo of commands.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
"$X" isas | grep -q '^mccp' || { echo "SKIP: this build has no mccp ISA"; exit 0; }
fail=0
cat >"$T/w.asm" <<'EOF'
movl reg1 100
movl reg3 104
movl reg2 7
loop:
store reg2 reg1
inc reg1
cmp reg1 reg3
jne loop
int 0
EOF
"$X" asm --isa mccp "$T/w.asm" -o "$T/w.out" || { echo "FAIL: assembling"; exit 1; }
word=$("$X" disasm "$T/w.out" | awk '$3 == "store" && $4 == "reg2" && $5 == "reg1" { split($1, a, "."); print a[1] }')
[ -n "$word" ] || { echo "FAIL: no store in the disassembly"; exit 1; }
store=$(printf '0x%x' $((2 * 0x$word)))
echo "store at ROM word 0x$word = slot $store"

check() { # check PATTERN: the transcript must contain the line fragment (fixed string)
    if ! grep -qF -- "$1" "$T/out"; then echo "FAIL: transcript lacks: $1"; fail=1; fi
}

cat >"$T/s1" <<EOF
break $store 0
continue
assert stop breakpoint
assert pc == $store
assert \$reg1 == 100
assert \$reg2 == 7
regs
delete 1
step 2
# store, then inc: reg1 moves on to 101
assert \$reg1 == 101
assert stop step
history 3
threads
thread 2
assert \$reg2 == 7
thread 0
watch ram:103
continue
assert stop watchpoint
assert mem ram:103 == 7
x ram:100 4
delete
continue
assert stop halted
assert mem ram:100 == 7
stats
EOF
"$X" debug "$T/w.out" -x "$T/s1" >"$T/out" 2>&1; rc=$?
cat "$T/out"
[ $rc -eq 0 ] || { echo "FAIL: session exit $rc (want 0)"; fail=1; }
check "(xpusim) break $store 0"
check "breakpoint 1 at $store on core0"
check "core0 thread 0 stopped at cycle"
check ": breakpoint 1 at $store"
check "=>*$(printf '0x%08x' $store)                  store reg2 reg1"
check "reg0   0x00000000   reg1   0x00000064   reg2   0x00000007"
check "step done"
check "core0.0 $(printf '0x%08x' $store)                  store reg2 reg1"
check "*  0    core0       0    ready"
check "   3    core3       0    "
check "thread #2: core2 thread 0"
check "watchpoint 1: ram:0x67,1 w"
check "watchpoint 1: write of ram:0x67 by core 0"
check "ram:0x00000064: 0x00000007 0x00000007 0x00000007 0x00000007"
check "halted at cycle"
check "== statistics (mccp) =="
if grep -q "^error:" "$T/out"; then echo "FAIL: an error in the clean session"; fail=1; fi

# a failed assert: reported, the script goes on, exit status 1
printf 'assert $reg1 == 5\necho after\ncontinue\nassert stop halted\n' >"$T/s2"
"$X" debug "$T/w.out" -x "$T/s2" >"$T/out" 2>&1; rc=$?
cat "$T/out"
[ $rc -eq 1 ] || { echo "FAIL: failed assert gives exit $rc (want 1)"; fail=1; }
check "error: assert failed: 0 (0x0) == 5 (0x5) is false"
check "after"
check "assert ok: stop is halted"

# --max-cycles ends `continue` with a limit stop; the end of the script reports it (3)
printf 'continue\nassert stop limit\n' | "$X" debug "$T/w.out" --max-cycles 40 >"$T/out" 2>&1; rc=$?
cat "$T/out"
[ $rc -eq 3 ] || { echo "FAIL: limit stop gives exit $rc (want 3)"; fail=1; }
check "limit at cycle 40: cycle limit 40 reached"
check "(xpusim) continue"

# until CYCLE reports a step at that cycle; `quit` ends with 0 even after a limit
printf 'until 40\nassert cycle == 40\nassert stop step\ncontinue\nquit\n' | "$X" debug "$T/w.out" --max-cycles 50 >"$T/out" 2>&1; rc=$?
cat "$T/out"
[ $rc -eq 0 ] || { echo "FAIL: quit gives exit $rc (want 0)"; fail=1; }
check "reached cycle 40"
check "cycle limit 50 reached"
exit $fail
