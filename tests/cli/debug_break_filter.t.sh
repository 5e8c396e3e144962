#!/bin/sh
# Breakpoints narrowed to a hardware thread and to a register condition (issue 11, thread-
# aware debugging), on programs/dpu/vecadd.s with 4 tasklets: every tasklet runs main, and
# the DPU's `id` register is the tasklet number. Expected stops follow from that alone:
#  - `break main thread 2` stops tasklet 2 (never 0, 1 or 3) and counts one hit;
#  - `break main if id == 3` stops tasklet 3 only: the other tasklets pass without a hit;
#  - `break main thread 1 if id == 3` can never hold (tasklet 1 has id 1): no stop at all,
#    the run ends halted.
# Bad filters are refused with the usage: a thread past the unit's 4, an unknown register,
# a missing operator, a vector-free DPU still refuses a non-number.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
"$X" isas | grep -q '^dpu' || { echo "SKIP: this build has no dpu ISA"; exit 0; }
R=programs/dpu/rt
"$X" asm --isa dpu -o tasklets=4 $R/crt0.s $R/mutex.s $R/barrier.s $R/perfcounter.s $R/mram.s \
    programs/dpu/vecadd.s -o "$T/vecadd.elf" || { echo "FAIL: assembling vecadd"; exit 1; }
fail=0
check() { grep -qF -- "$1" "$T/out" || { echo "FAIL: transcript lacks: $1"; fail=1; }; }
lacks() { ! grep -qF -- "$1" "$T/out" || { echo "FAIL: transcript has: $1"; fail=1; }; }
run() { "$X" debug "$T/vecadd.elf" -o tasklets=4 -x "$T/s" >"$T/out" 2>&1; rc=$?; cat "$T/out"; }

cat >"$T/s" <<EOF
break main thread 2
continue
assert stop breakpoint
assert \$id == 2
info break
delete
continue
assert stop halted
EOF
run
[ $rc -eq 0 ] || { echo "FAIL: thread filter: exit $rc"; fail=1; }
check "breakpoint 1 at"
check "<main> thread 2"
check "dpu0 thread 2 stopped at cycle"
lacks "dpu0 thread 0 stopped"
grep -Eq '^1 +breakpoint .*thread 2 +1$' "$T/out" || { echo "FAIL: info break does not show thread 2 with 1 hit"; fail=1; }

cat >"$T/s" <<EOF
break main if id == 3
continue
assert stop breakpoint
assert \$id == 3
info break
continue
assert stop halted
EOF
run
[ $rc -eq 0 ] || { echo "FAIL: condition: exit $rc"; fail=1; }
check "dpu0 thread 3 stopped at cycle"
grep -Eq '^1 +breakpoint .* if id == 3 +1$' "$T/out" || { echo "FAIL: info break does not show the condition with 1 hit"; fail=1; }

cat >"$T/s" <<EOF
break main thread 1 if id==3
continue
assert stop halted
EOF
run
[ $rc -eq 0 ] || { echo "FAIL: impossible filter: exit $rc"; fail=1; }
lacks "stopped at cycle"

cat >"$T/s" <<EOF
break main thread 4
break main if nosuch == 1
break main if id 3
break main if id == three
break main thread 1 extra
EOF
"$X" debug "$T/vecadd.elf" -o tasklets=4 -x "$T/s" >"$T/out" 2>&1
cat "$T/out"
check "break: thread needs a thread number 0..3"
check "break: condition 'nosuch == 1': no register 'nosuch'"
check "break: condition 'id 3': expected == != < <= > or >= after 'id'"
check "break: condition 'id == three': expected a number after the operator"
check "break: unexpected 'extra' (usage: break ADDRESS [UNIT] [thread N] [if REG OP VALUE])"
[ $fail -eq 0 ] && echo "ok: thread and condition filters"
exit $fail
