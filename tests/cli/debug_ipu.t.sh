#!/bin/sh
# tests/cli/debug_ipu.t.sh: thread-aware debugging on the IPU tile (issue 11 pt 3), with
# programs/ipu/vadd_f32.S (the supervisor `runall`s six workers; each worker's loop body is
# bundles of a main-pipe and an aux instruction, 8 bytes each).
# - `step` counts issues: stepping W0 from the `{ rpt ; fnop }` bundle moves its pc by one
#   bundle (8 bytes, two instructions retired) per step, and the history shows one line
#   per bundle;
# - disassembly by thread context (isa_ops.disasm_thread): the supervisor (thread 0)
#   decodes in the supervisor context, so the worker's `{ nop ; f32v2add }` is `nop` and a
#   word it cannot execute (.long 0xd8002043, f32v2add being a worker instruction), while a
#   worker shows the bundle; the supervisor's `runall` is `.long 0x1500f000` to a worker;
#   the trace shows each thread's instructions as that thread decodes them.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
"$X" isas | grep -q '^ipu' || { echo "SKIP: this build has no ipu ISA"; exit 0; }
fail=0
no() { echo "FAIL: $*"; fail=1; }
"$X" asm --isa ipu -I programs/ipu programs/ipu/vadd_f32.S -o "$T/vadd.elf" || { echo "FAIL: assembling vadd_f32.S"; exit 1; }
cat > "$T/s.x" <<'EOS'
break vadd_worker+40 thread 1
continue
delete
threads
step
assert pc == vadd_worker+48
threads
step
assert pc == vadd_worker+56
history 12
thread 0.0
disasm vadd_worker+64 2
disasm _start 3
thread 0.1
disasm _start 3
disasm vadd_worker+64 1
x/i vadd_worker+64 1
help step
EOS
"$X" debug "$T/vadd.elf" -x "$T/s.x" > "$T/out" 2>&1 || no "session exit $?"
cat "$T/out"
has() { grep -qE -- "$1" "$T/out" || no "$2"; }
has '^tile0 thread 1 stopped at cycle [0-9]+: breakpoint 1 at 0x4c4a8' "W0 (thread 1) stops at the rpt bundle"
n=$(grep -c "assert ok" "$T/out"); [ "$n" -eq 2 ] || no "$n asserts passed, want 2"
# W0's instructions retired, from `threads` (the 6th column of its row): before the first
# step, after it (+2: one bundle), in the order the two listings come
cnt=$(awk '$3 == "1" && $2 == "tile0" { print $6 } $4 == "1" && $3 == "tile0" { print $7 }' "$T/out" | head -2 | tr '\n' ' ')
set -- $cnt
[ $# -eq 2 ] && [ $(( $2 - $1 )) -eq 2 ] || no "one step retires the two instructions of a bundle (W0 counts: $cnt)"
# the history (every thread's issues, the last 12): W0's two steps are one line each, the
# rpt bundle and the ld64step bundle, and nothing else of W0's
sed -n '/^(xpusim) history 12/,/^(xpusim) thread 0.0/p' "$T/out" | grep ' tile0\.1 ' > "$T/h1"
[ "$(wc -l < "$T/h1")" -eq 2 ] && grep -q '0x0004c4a8 <vadd_worker+40> { rpt \$m4, 3 ; fnop }' "$T/h1" &&
    grep -q '0x0004c4b0 <vadd_worker+48> { ld64step' "$T/h1" || no "history: W0's two bundles as two entries: $(cat "$T/h1")"
# the supervisor's view and a worker's view of the same words
grep -A2 '^(xpusim) disasm vadd_worker+64 2' "$T/out" | grep -q '0x0004c4c0 <vadd_worker+64> nop$' ||
    no "supervisor: the bundle's main half alone (nop)"
grep -A2 '^(xpusim) disasm vadd_worker+64 2' "$T/out" | grep -q '0x0004c4c4 <vadd_worker+68> .long 0xd8002043' ||
    no "supervisor: f32v2add is not a supervisor instruction"
sed -n '/^(xpusim) thread 0.0/,/^(xpusim) thread 0.1/p' "$T/out" | grep -q 'runall \$m0, \$m15, 0' ||
    no "supervisor: runall"
sed -n '/^(xpusim) thread 0.1/,$p' "$T/out" | grep -q '<_start+4> *.long 0x1500f000' || no "worker: runall is no worker instruction"
[ "$(grep -c '<vadd_worker+64> { nop ; f32v2add \$a4:5, \$a0:1, \$a2:3 }' "$T/out")" -eq 2 ] ||
    no "worker: the bundle, by disasm and by x/i"
has 'one bundle where the ISA issues several together' "help step says a bundle is one step"
# the trace: thread 0's instructions decoded as the supervisor's, the workers' as theirs;
# a machine with groups names each unit by its path (ipu0.tile0)
"$X" run "$T/vadd.elf" --trace "$T/trace" --quiet > /dev/null 2>&1 || no "traced run failed"
grep -qE '^ +[0-9]+ ipu0.tile0 t0  0004c4d8  runall \$m0, \$m15, 0$' "$T/trace" || no "trace: the supervisor's runall"
grep -qE '^ +[0-9]+ ipu0.tile0 t1  0004c4c0  \{ nop ; f32v2add' "$T/trace" || no "trace: W0's bundle"
[ $fail -eq 0 ] && echo "debug_ipu: all checks passed"
exit $fail
