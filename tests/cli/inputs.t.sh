#!/bin/sh
# tests/cli/inputs.t.sh: every file the user names is bounded (issue 8). An endless input
# (/dev/zero) as a program, a --load/--set/--scatter file, an assembler source or a debugger
# script used to be read until memory ran out; a FIFO with no writer blocked forever. Each
# must now fail at once (well inside the 20 s timeout) with exit 1 and a message naming the
# file and why; a file over the 1 GiB input limit (a sparse file: no disk used) is refused
# with its size. A hang shows up here as exit 124 from timeout.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
mkfifo "$T/fifo"
truncate -s 1100M "$T/big.bin"
"$X" asm --isa mccp programs/mccp/demo.mccp -o "$T/d.out" || { echo "FAIL asm"; exit 1; }
"$X" asm --isa dpu programs/dpu/vecadd.s programs/dpu/rt/*.s -o "$T/va.elf" || { echo "FAIL asm dpu"; exit 1; }
check() { # WHAT PATTERN COMMAND...
    what=$1; pat=$2; shift 2
    timeout 20 "$@" >"$T/out" 2>"$T/err" </dev/null; rc=$?
    if [ $rc -eq 1 ] && grep -q -- "$pat" "$T/err"; then ok "$what"; else bad "$what: exit $rc: $(head -c 300 "$T/err")"; fi
}
check "program /dev/zero" "/dev/zero: not a regular file (a device)" "$X" run /dev/zero
check "program FIFO without writer" "fifo: not a regular file (a pipe)" "$X" run "$T/fifo"
check "program is a directory" "not a regular file (a directory)" "$X" run "$T"
check "program over the limit" "big.bin: 1.1 GiB is over the 1.0 GiB limit" "$X" run "$T/big.bin"
check "--load /dev/zero" "/dev/zero: not a regular file" "$X" run "$T/d.out" --load ram:0=/dev/zero
check "--load FIFO" "fifo: not a regular file (a pipe)" "$X" run "$T/d.out" --load "ram:0=$T/fifo"
check "--set /dev/zero" "/dev/zero: not a regular file" "$X" run "$T/va.elf" --set vecadd_n=/dev/zero
check "--scatter /dev/zero" "/dev/zero: not a regular file" "$X" run "$T/va.elf" --scatter vecadd_n=/dev/zero
for isa in mccp dpu nyuzi; do
    check "asm --isa $isa /dev/zero" "/dev/zero: not a regular file" "$X" asm --isa $isa /dev/zero -o "$T/x.o"
    check "asm --isa $isa FIFO" "fifo: not a regular file" "$X" asm --isa $isa "$T/fifo" -o "$T/x.o"
done
check "debugger -x FIFO" "fifo: not a regular file" "$X" debug "$T/d.out" -x "$T/fifo"
printf 'source /dev/zero\nsource %s\nquit\n' "$T/fifo" > "$T/script"
timeout 20 "$X" debug "$T/d.out" -x "$T/script" >"$T/out" 2>&1; rc=$?
if [ $rc -ne 124 ] && grep -q "/dev/zero: not a regular file" "$T/out" && grep -q "fifo: not a regular file" "$T/out"; then
    ok "debugger source of a device and a FIFO"
else
    bad "debugger source: exit $rc: $(head -c 400 "$T/out")"
fi
exit $fail
