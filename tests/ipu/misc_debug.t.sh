#!/bin/sh
# tests/ipu/misc_debug.t.sh: what the debugger shows of exec_misc.c's state: a supervisor
# waiting in `sync 2` (LOCAL) for its worker, and `info csr` with a worker's PRNG state after
# `uput $PRNG_SEED`. Cycles, derived by hand from the barrel rules (docs/isa/ipu.md): setzi
# $m0 at 0, run at 6 ($m0 ready 6 after its setzi) in slot 0 -> W0 first issues at
# 12; sync 2 at 7; W0's three bundles at 12, 18, 24 (exitz); the breakpoint on the exitz stops
# at 24 with the supervisor still in the sync; br $m10 then issues at 25.
R=${XPUSIM_ROOT:-.}; X=${XPUSIM:-build/xpusim}
export XPUSIM_ROOT=$R
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
has() { grep -q -- "$1" "$T/s" || no "$2"; }
cat >"$T/p.S" <<'EOS'
.section .text
.globl _start
.supervisor
_start:
  setzi $m0, wrk
  run $m0, $m15, 0
  sync 2
  br $m10
.worker
.align 8
wrk:
  setzi $a1, 0x12345
  uput $PRNG_SEED, $a1
exit_here:
  exitz $m15
EOS
"$X" asm --isa ipu "$T/p.S" -o "$T/p.elf" >"$T/a" 2>&1 || no "assembly failed: $(cat "$T/a")"
cat >"$T/s.x" <<'EOS'
break exit_here
continue
threads
info csr
continue
EOS
"$X" debug "$T/p.elf" -x "$T/s.x" >"$T/s" 2>&1 || no "session failed: $(tail -3 "$T/s")"
has 'stopped at cycle 24: breakpoint 1' "the worker reaches its exitz at 24"
has 'supervisor: in sync LOCAL, waiting for 1 worker(s) to exit' "the supervisor waits in sync LOCAL"
# $PRNG_SEED = v = 0x12345: $PRNG_0 = ~v:v = 0xfffedcba00012345,
# $PRNG_1 = (~v << 13 | v >> 19):(v << 13 | ~v >> 19) = 0xdb974000:(0x2468a000 | 0x1fff)
has 'PRNG_0 0xfffedcba00012345  \$PRNG_1 0xdb9740002468bfff' "info csr: the seeded PRNG state"
exit $fail
