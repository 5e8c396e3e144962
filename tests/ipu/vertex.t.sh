#!/bin/sh
# tests/ipu/vertex.t.sh: `xpusim run --vertex FILE`, the IPU host protocol (docs/isa/ipu.md
# "Running a vertex"), on the codelets of programs/ipu/vertex/: vadd (worker vertex, runall,
# inputs from files), scaled_add (a PopLibs-style MultiVertex worker, uneven split), sup_fill
# (a supervisor vertex), ids (run on 3 workers). Results are compared byte for byte with the
# C reference tests/ipu/vertex_ref.c; the cycles are derived by hand from the barrel rules
# (derivations next to each check); then the strict parser's file:line errors.
R=${XPUSIM_ROOT:-.}; X=${XPUSIM:-build/xpusim}
export XPUSIM_ROOT=$R
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
V=$(cd "$R/programs/ipu/vertex" && pwd)
${CC:-cc} -std=c11 -O2 -o "$T/ref" "$R/tests/ipu/vertex_ref.c" || { echo "FAIL: cannot build the C reference"; exit 1; }
"$T/ref" "$T" || { echo "FAIL: reference"; exit 1; }

# run NAME: the vertex file $T/NAME.vertex, its output on $T/NAME.out, the stats in $T/NAME.st
run() { "$X" run --vertex "$T/$1.vertex" --stats=text --stats-file "$T/$1.st" >"$T/$1.out" 2>"$T/$1.err" ||
        no "$1: exit $?: $(cat "$T/$1.err")"; }
# line NAME REGEX: the report has a matching line
line() { grep -q -- "$2" "$T/$1.out" || no "$1: no line /$2/ in: $(cat "$T/$1.out")"; }
same() { if cmp -s "$T/$2" "$T/$3"; then echo "ok $1: every element equals the C reference"
         else no "$1: output differs from the C reference"; cmp -l "$T/$2" "$T/$3" | head -3; fi; }

# 1. vadd: 96 f32 from files. The stub: setzi $m1 (state) at 0, setzi $m0 (entry) at 1,
# runall reads $m0, ready 6 later: 7 (slot 1). Wk starts at the first cycle >= 13 in slot
# k: W1 13 ... W5 17, W0 18. B = 14 solo + rpt + 4 x 8 + exitz = 48 bundles: W1's last at
# 13 + 6 x 47 = 295, W0's at 300. The supervisor's br $m10 waits for a slot: slot 1 comes
# back after W1's exit, at 301; the tile halts after W0's exit and the br: cycle 302.
cat >"$T/vadd.vertex" <<EOV
codelet = $V/vadd.S
entry = vadd
kind = worker
workers = 6
tensor a = f32[96] @ a
tensor b = f32[96] @ b
tensor out = f32[96]
state ptr a
state ptr b
state ptr out
state u32 96
output out @ vadd_got
EOV
run vadd && same vadd vadd_got vadd_want
line vadd '^cycles: tile 302$'
line vadd '^  W0 *48 bundle(s), 81 instruction(s) = thread cycles, tile cycles 18-300, exit status 1$'
line vadd '^  W1 *48 bundle(s), .* tile cycles 13-295,'
line vadd '^  supervisor 4 bundle(s), .* returned to the host at cycle 301$'
line vadd '^tensor out = f32\[96\] at 0x[0-9a-f]*: written to '
# the tensors are symbols: --get reads them back
"$X" run --vertex "$T/vadd.vertex" --quiet --get out:384="$T/vadd_get" >/dev/null 2>&1 && same "vadd --get" vadd_get vadd_want

# 2. scaled_add, the PopLibs-style worker: 100 f32 = 50 pairs, 50 = 6 x 8 + 2, so W0 and
# W1 run 9 pairs and W2..W5 8. B = 21 solo + 1 .align nop + rpt + 5 x count + exitz: 69
# for W0, W1 and 64 for the others. W0: 18 + 6 x 68 = 426, the last bundle of the tile
# (W1: 13 + 6 x 68 = 421; W2: 14 + 6 x 63 = 392, and slot 2 takes the supervisor's br at
# 398). The tile halts at 427.
sed "s|^codelet = .*|codelet = $V/scaled_add.S|; s|^tensor data .*|tensor data = f32[100] @ data|;
     s|^tensor deltas .*|tensor deltas = f32[100] @ deltas|; s|^output data|output data @ sa_got|" \
    "$V/scaled_add.vertex" >"$T/sa.vertex"
run sa && same scaled_add sa_got sa_want
line sa '^cycles: tile 427$'
line sa '^  W0 *69 bundle(s), .* tile cycles 18-426, exit status 1$'
line sa '^  W2 *64 bundle(s), .* tile cycles 14-392, exit status 1$'
line sa '^  supervisor .* returned to the host at cycle 398$'

# 3. the supervisor vertex: $m13 = the state. ld32 x 3 at 0, 1, 2; add $m2 needs the load's
# $m2 (ready 1 + 6 = 7): 7; st32step needs $m3 (ready 8): 8; brnzdec needs the add's $m2
# (ready 13): 13, taken; each later st32step issues 6 after the taken branch and its brnzdec
# the next cycle (its $m2 is ready: 6 after the previous brnzdec): st k at 19 + 7(k - 2),
# brnzdec at 20 + 7(k - 2); the 8th brnzdec (62) falls through, br $m10 at 63, halt at 64.
cp "$V/sup_fill.vertex" "$T/sf.vertex"; sed -i "s|^codelet = .*|codelet = $V/sup_fill.S|" "$T/sf.vertex"
run sf
line sf '^  \[0\] 2882343476 2882343476 2882343476 2882343476 2882343476 2882343476 2882343476 2882343476$'
line sf '^cycles: tile 64$'
line sf '^  supervisor 21 bundle(s), 21 instruction(s), stalls: barrel 0, dependency 8, branch 35; returned to the host at cycle 63$'

# 4. workers = 3: setzi $m0 at 0, run x 3 at 6, 7, 8 (slots 0, 1, 2: W0, W1, W2), br at 9.
# Wk first issues at 12 + k; 9 bundles: exits at 60, 61, 62; halt at 63. W0's exitnz of
# its id 0 gives status 0, the others 1.
cp "$V/ids.vertex" "$T/ids.vertex"; sed -i "s|^codelet = .*|codelet = $V/ids.S|" "$T/ids.vertex"
run ids
line ids '^  \[0\] 100 101 102 0 0 0$'
line ids '^cycles: tile 63$'
line ids '^  W0 *9 bundle(s), .* tile cycles 12-60, exit status 0$'
line ids '^  W2 *9 bundle(s), .* tile cycles 14-62, exit status 1$'
grep -q '^  W3' "$T/ids.out" && no "ids: W3 reported though it never ran"

# 5. strict parsing: each error names the file and line
bad() { # bad N TEXT REGEX: a vertex file whose line N is TEXT fails with REGEX
    printf 'codelet = %s\nentry = ids\n%s\n' "$V/ids.S" "$2" >"$T/bad.vertex"
    if "$X" run --vertex "$T/bad.vertex" >"$T/bad.out" 2>&1; then no "accepted: $2"
    elif ! grep -q -- "bad.vertex:$1: .*$3" "$T/bad.out"; then no "'$2': expected line $1 /$3/, got: $(cat "$T/bad.out")"
    else echo "ok error: $2"; fi
}
bad 3 'tensor x = f64[4]' "unknown type"
bad 3 'tensor x = f32[0]' "COUNT must be 1..1048576"
bad 3 'tensor x = f32[99999999999]' "COUNT must be"
bad 3 'tensor x = f32[3] 1, 2' "2 value(s) for f32\[3\]"
bad 3 'tensor x = f32[1] 1, 2' "more than 1 values"
bad 3 'tensor x = u8[2] 1, 256' "not a u8 value"
bad 3 'tensor x = i16[1] fill -32769' "not a i16 value"
bad 3 'tensor x = f32[4] @ a' "holds more than 16 bytes"
bad 3 'tensor x = f32[1000] @ a' "holds 384 bytes"
bad 3 'tensor x = f32[4] @ nonexistent' "No such file"
bad 3 'tensor x = f32[262144]' "does not fit in tile memory"
bad 3 'state ptr nothing' "no tensor 'nothing'"
bad 3 'state f16 1e9x' "not a f16 value"
bad 3 'state u64 1' "unknown field kind"
bad 3 'workers = 7' "workers: expected 1..6"
bad 3 'kind = both' "kind: expected worker or supervisor"
bad 3 'colour = blue' "unknown key 'colour'"
bad 3 'output out' "no tensor 'out'"
bad 3 'tensor %s%n = f32[1]' "expected a name"
bad 3 'entry = nosuch' "no symbol 'nosuch'"
printf 'tensor a = f32[2] 1,\n   2,\n  3\n' >"$T/cont.vertex"
"$X" run --vertex "$T/cont.vertex" 2>&1 | grep -q 'cont.vertex:1: tensor a: more than 2 values' ||
    no "a continued line keeps its first line's number"
printf 'entry = x\n' >"$T/nocod.vertex"
"$X" run --vertex "$T/nocod.vertex" 2>&1 | grep -q 'nocod.vertex: no `codelet = FILE` line' || no "missing codelet"
"$X" run "$T/x.elf" --vertex "$T/vadd.vertex" 2>&1 | grep -q 'give no PROGRAM' || no "PROGRAM and --vertex together"
[ $fail = 0 ] && echo "ok vertex: all checks"
exit $fail
