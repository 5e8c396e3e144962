#!/bin/sh
# tests/dpu/parked.t.sh: a DPU whose tasklets all stopped is only a clean halt when each
# stopped at the runtime's exit (__sys_end); issue 16: a program built for 16 tasklets
# (NR_TASKLETS) run with -o tasklets=12 used to "halt" with 12 tasklets parked in the
# barrier, which waits for 16 arrivals that can never come. Expected: a deadlock stop (exit
# status 3) naming 12 parked tasklets and the tasklet mismatch; with 16 tasklets, a clean
# halt (exit 0); a hand-written program without __sys_end keeps the old rule.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
"$X" asm --isa dpu programs/dpu/reduce.s -o "$T/r.elf" -o tasklets=16 -o lib=programs/dpu/rt || exit 1
"$X" run "$T/r.elf" -o tasklets=12 >"$T/out12" 2>&1; rc=$?
if [ $rc -eq 3 ] && grep -q "stop: deadlock: dpu0: 12 tasklet(s) stopped outside the exit path (__sys_end)" "$T/out12" &&
   grep -q "built for 16 tasklets (NR_TASKLETS) and runs with 12" "$T/out12"; then
    echo "ok: 12 of 16 tasklets: $(grep '^stop:' "$T/out12")"
else echo "FAIL: 12 tasklets: exit $rc: $(head -3 "$T/out12")"; fail=1; fi
"$X" run "$T/r.elf" >"$T/out16" 2>&1; rc=$?
if [ $rc -eq 0 ] && grep -q "^stop: halted" "$T/out16"; then echo "ok: 16 tasklets halt cleanly"
else echo "FAIL: 16 tasklets: exit $rc: $(head -3 "$T/out16")"; fail=1; fi
printf '.section .text.__bootstrap,"ax",@progbits\n__bootstrap:\n\tstop\n' > "$T/bare.s"
"$X" asm --isa dpu "$T/bare.s" -o "$T/bare.elf" && "$X" run "$T/bare.elf" >"$T/outb" 2>&1; rc=$?
if [ $rc -eq 0 ] && grep -q "^stop: halted" "$T/outb"; then echo "ok: no __sys_end, plain halt"
else echo "FAIL: bare program: exit $rc: $(head -3 "$T/outb")"; fail=1; fi
exit $fail
