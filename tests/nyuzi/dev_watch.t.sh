#!/bin/sh
# tests/nyuzi/dev_watch.t.sh: a watchpoint on a device register (issue 11 pt 3). A store to
# the device page goes to the device, not to RAM, so the debugger's RAM watch check never
# sees it; exec_ops.inc checks it at the device access instead. A program writes three
# characters to the serial port's transmit register (0xffff0048); `watch 0xffff0048` must
# stop once per character, each stop named as a device register write of that thread, after
# the character went out (the write happens, as a watched RAM store's does), in the cycle
# model and in the functional mode; a watch filtered to another thread never stops, and one
# on another register neither.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat > "$T/p.S" <<'ASM'
    .text
    .globl _start
_start:
    li s1, 0xffff0048
    move s2, 65
    store_32 s2, (s1)
    move s2, 66
    store_32 s2, (s1)
    move s2, 10
    store_32 s2, (s1)
    li s0, 0xffffffff
    setcr s0, 20
1:  b 1b
ASM
"$XPUSIM" asm --isa nyuzi "$T/p.S" -o "$T/p.elf" || { echo "FAIL: assemble"; exit 1; }
fail=0
dbg() { # OUT OPTIONS COMMANDS...: run the debugger with these commands
    out=$1; opts=$2; shift 2
    printf '%s\n' "$@" quit > "$T/cmd"
    "$XPUSIM" debug "$T/p.elf" $opts -x "$T/cmd" > "$T/$out" 2>&1 < /dev/null
}
for opts in "" "-o timing=none"; do
    dbg out "$opts" "watch 0xffff0048" run continue continue continue
    n=$(grep -c "watchpoint 1: device register write of mem:0xffff0048 (4 units) for core0 thread 0" "$T/out")
    [ "$n" = 3 ] && echo "ok: three stops ${opts:-(cycle model)}" || { echo "FAIL: $n stops ${opts:-(cycle model)}"; cat "$T/out"; fail=1; }
    # each stop comes after its character: A before the first stop, B before the second
    tr -d '\n' < "$T/out" | grep -q "(xpusim) run\s*Acore0 thread 0 stopped.*(xpusim) continue\s*Bcore0 thread 0 stopped" &&
        echo "ok: each stop after its write" || { echo "FAIL: stops and characters out of order"; cat "$T/out"; fail=1; }
    grep -q "halted at cycle" "$T/out" && echo "ok: runs to the end" || { echo "FAIL: did not finish"; fail=1; }
done
dbg out2 "" "watch 0xffff0048 thread 1" run
[ "$(grep -c 'stopped at' "$T/out2")" = 0 ] && echo "ok: a watch for another thread does not stop" ||
    { echo "FAIL: a watch for thread 1 stopped"; cat "$T/out2"; fail=1; }
dbg out3 "" "watch 0xffff0040" run
[ "$(grep -c 'stopped at' "$T/out3")" = 0 ] && echo "ok: a watch on another register does not stop" ||
    { echo "FAIL: a watch on 0xffff0040 stopped"; cat "$T/out3"; fail=1; }
exit $fail
