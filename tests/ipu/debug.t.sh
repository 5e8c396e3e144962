#!/bin/sh
# tests/ipu/debug.t.sh: `xpusim debug --vertex FILE -x SCRIPT` on the IPU tile: the
# supervisor and W0..W5 as threads, a breakpoint on the vertex entry symbol, $m13 =
# $mvertex_base = the vertex state, `info csr` ($WSR context ids, bases), bundles in the
# disassembly, the rpt state inside a body (`info rpt`), the accumulators (`info acc`), pairs
# and quads (`info pairs`), the csr register group, `info vertex`; then a worker's
# exception (a misaligned ld32) shown at the stop and in `info csr` with its cause.
R=${XPUSIM_ROOT:-.}; X=${XPUSIM:-build/xpusim}
export XPUSIM_ROOT=$R
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
V=$(cd "$R/programs/ipu/vertex" && pwd)
has() { grep -q -- "$1" "$T/s" || no "$2"; }
sed "s|^codelet = .*|codelet = $V/scaled_add.S|" "$V/scaled_add.vertex" >"$T/sa.vertex"
cat >"$T/s.x" <<'EOS'
break __runCodelet_popops__ScaledAdd___float_float
continue
threads
assert $m13 == vertex_state
info csr
delete
tbreak __runCodelet_popops__ScaledAdd___float_float+0x70
continue
disasm
info rpt
info acc
info pairs
regs csr
continue
info vertex
EOS
"$X" debug --vertex "$T/sa.vertex" -x "$T/s.x" >"$T/s" 2>&1 || no "session failed: $(grep -i 'error\|assert' "$T/s")"
has 'stopped at cycle 13: breakpoint 1 at 0x4c000 (__runCodelet_popops__ScaledAdd___float_float)' "break on the entry symbol: W1 first, at 13"
has '^   0    tile0       0    ready .*supervisor: waiting for a slot (all six held by workers)' "supervisor thread"
has '^\*  2    tile0       2    ready .*W1: running in slot 1, next bundle at cycle 13' "W1 thread"
has '^   6    tile0       6 .*W5: running in slot 5' "W5 thread"
has 'W3: \$WSR 0x00000003 (CTXTID 3, ETYPE 0 none, cause 0, ERPT 0)  \$VERTEX_BASE 0x4c0b8' "info csr: W3's \$WSR and vertex base"
has '\$CTXT_STS 0x1555' "info csr: \$CTXT_STS, all seven active"
has '{ ld64step \$a2:3, \$m15, \$m7+=, 1 ; fnop }' "a bundle in the disassembly"
has 'rpt body 0x4c060-0x4c088, [0-9]* repetition(s) left (\$REPEAT_COUNT), pc 0x4c070' "info rpt: the body and the count"
has '=>0x4c070  { nop ; f32v2axpy \$a14:15, \$a0:1, \$a2:3 }' "info rpt marks the pc in the body"
has '\[0\.\.7\]  ' "info acc"
has '\$a12:15 f32 (' "info pairs: quads"
has '\$m10:11 0x00000000fffffffc' "info pairs: the supervisor's link register (host return)"
has '^wsr    0x0000000' "regs csr"
has '^tensor data = f32\[100\] at 0x4c0c8:' "info vertex: the output tensor"
has '^  W0 *69 bundle(s), .* tile cycles 18-426, exit status 1' "info vertex: W0's cycles as a plain run"

# a worker exception: ld32 from the state's misaligned pointer
cat >"$T/bad.S" <<'EOS'
.section .text.bad, "ax"
.worker
.align 8
.globl bad
bad:
  ld32 $m1, $mvertex_base, $mzero, 0
  ld32 $m2, $m1, $mzero, 0
  exitz $mzero
EOS
printf 'codelet = bad.S\nentry = bad\nworkers = 2\ntensor t = u32[4]\nstate ptr t+2\n' >"$T/bad.vertex"
printf 'continue\nthreads\ninfo csr\nregs cause\n' >"$T/e.x"
"$X" debug --vertex "$T/bad.vertex" -x "$T/e.x" >"$T/s" 2>&1
has 'W0.*pc 0x4c004.*MISALIGNED\|W0.*0x4c004.*TEXCPT_INVALID_ADDR' "the stop names the context, the pc and the exception: $(grep stopped "$T/s")"
has 'W0: excepted at pc 0x4c004: TEXCPT_INVALID_ADDR, cause 58' "threads: W0's exception and cause"
has 'W0: \$WSR 0x00000080 (CTXTID 0, ETYPE 8 TEXCPT_INVALID_ADDR, cause 58' "info csr: \$WSR.ETYPE and the cause"
has "^cause *0x3a  58" "regs cause: $(grep -A2 "regs cause" "$T/s" | tail -1)"
[ $fail = 0 ] && echo "ok ipu debug: all checks"
exit $fail
