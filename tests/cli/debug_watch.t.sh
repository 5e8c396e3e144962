#!/bin/sh
# tests/cli/debug_watch.t.sh: watchpoints narrowed to a hardware thread and to a register
# condition (issue 11 pt 3), and the waiting threads listed at a limit, in `xpusim debug`.
# The program: 4 DPU tasklets, each storing its id (r2) at result + 4 * id; tasklet 3 boots
# no other. A watch on the four words for thread 2 only stops once, at tasklet 2's store
# (tasklets 0 and 1 stored before it, 3 not yet); one with `if r2 == 3` stops at tasklet 3's.
# The run control passes over the other hits, which changes no timing: the session ends at
# the cycle of a plain run.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
"$X" isas | grep -q '^dpu' || { echo "SKIP: this build has no dpu ISA"; exit 0; }
fail=0
no() { echo "FAIL: $*"; fail=1; }
cat > "$T/wt.s" <<'EOS'
	.section	.text.__bootstrap,"ax",@progbits
	.globl	__bootstrap
__bootstrap:
	jeq	id, 3, .Lnoboot
	boot	id, 1
.Lnoboot:
	move	r2, id
	lsl	r1, r2, 2
	sw	r1, result, r2
	stop
	.section	.dpu_host,"aw",@progbits
	.globl	result
	.p2align	3
result:
	.long	7, 7, 7, 7
EOS
"$X" asm --isa dpu -o tasklets=4 "$T/wt.s" -o "$T/wt.elf" || { echo "FAIL: assembling"; exit 1; }
end=$("$X" run "$T/wt.elf" -o tasklets=4 2>&1 | awk '$1 == "cycles:" { print $2 }')
cat > "$T/s.x" <<'EOS'
watch result,16 thread 9
watch result,16 if nosuch == 1
watch result,16 sideways
watch result,16 thread 2
watch result,16 w if r2 == 3
info break
continue
assert stop watchpoint
assert $r2 == 2
x result 4
continue
assert stop watchpoint
assert $r2 == 3
x result 4
continue
assert stop halted
EOS
"$X" debug "$T/wt.elf" -o tasklets=4 -x "$T/s.x" > "$T/out" 2>&1 || no "session exit $?"
cat "$T/out"
has() { grep -qE -- "$1" "$T/out" || no "$2"; }
has 'error: watch: thread needs a thread number 0\.\.3' "a thread out of range is refused"
has "error: watch: .*nosuch" "a condition on an unknown register is refused"
has "error: watch: access kind must be r, w or rw, not 'sideways'" "a bad kind is refused"
has '^watchpoint 1: wram:0x0,16 w thread 2$' "watch thread 2"
has '^watchpoint 2: wram:0x0,16 w if r2 == 3$' "watch with a condition"
has '^w1   watch w     wram:0x0,16 thread 2$' "info break: the thread filter"
has '^w2   watch w     wram:0x0,16 if r2 == 3$' "info break: the condition"
has '^dpu0 thread 2 stopped at cycle [0-9]+: watchpoint 1 at wram 0x8$' "the first stop is tasklet 2's store"
has '^wram:0x00000000: 0x00000000 0x00000001 0x00000002 0x00000007$' "tasklets 0 and 1 stored before it, without a stop"
has '^dpu0 thread 3 stopped at cycle [0-9]+: watchpoint 2 at wram 0xc$' "the condition stops tasklet 3's store"
has '^wram:0x00000000: 0x00000000 0x00000001 0x00000002 0x00000003$' "all four stored then"
n=$(grep -c "assert ok" "$T/out"); [ "$n" -eq 5 ] || no "$n asserts passed, want 5"
has "^halted at cycle $end:" "the end cycle is a plain run's ($end)"

# a limit in the debugger lists each waiting thread and what it waits for (the ISA's view)
printf 'continue\n' > "$T/l.x"
"$X" debug "$T/wt.elf" -o tasklets=4 --max-cycles 30 -x "$T/l.x" > "$T/l" 2>&1
grep -q '^limit at cycle 30: cycle limit 30 reached$' "$T/l" && grep -q '^waiting threads:$' "$T/l" &&
    grep -qE '^  dpu0 thread 0: .+' "$T/l" || no "limit: no waiting threads listed: $(cat "$T/l")"
[ $fail -eq 0 ] && echo "debug_watch: all checks passed"
exit $fail
