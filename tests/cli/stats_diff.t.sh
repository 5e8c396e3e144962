#!/bin/sh
# tests/cli/stats_diff.t.sh: `xpusim stats diff A.json B.json` (issue 10, compare runs).
# Hand-written statistics give exact expected lines: cycles 1000 -> 1250 is +250, +25.00%;
# a stall 0 -> 7 has no percentage; a unit or thread on one side only is named; options that
# differ are listed; the host block is never compared, and builds that differ
# (host.xpusim) are a note, not a difference. Exit status as diff(1). Then two real MCCP
# runs: the same run twice is identical (0), arbiter_phase 2 vs 0 differs (1), and each
# file names the build that made it, as `xpusim --version` does.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
check() { grep -qF -- "$1" "$T/out" || { echo "FAIL: output lacks: $1"; fail=1; }; }
cat > "$T/a.json" <<'EOF'
{"schema": 1, "isa": "toy", "stop": {"kind": "halted"}, "options": {"ways": "4", "mode": "rtl"},
 "cycles": 1000, "instructions": 400,
 "units": [{"name": "u0", "cycles": 1000, "instructions": 400, "counters": {"loads": 10},
            "threads": [{"index": 0, "cycles": 1000, "instructions": 200, "issue_cycles": 200, "stalls": {"dma": 0}},
                        {"index": 1, "cycles": 900, "instructions": 200, "issue_cycles": 200, "stalls": {"dma": 5}}]},
           {"name": "u1", "cycles": 10, "instructions": 0, "counters": {}, "threads": []}],
 "host": {"seconds": 1.0, "mips": 1.0}}
EOF
cat > "$T/b.json" <<'EOF'
{"schema": 1, "isa": "toy", "stop": {"kind": "limit"}, "options": {"ways": "8", "mode": "rtl"},
 "cycles": 1250, "instructions": 400,
 "units": [{"name": "u0", "cycles": 1250, "instructions": 400, "counters": {"loads": 10},
            "threads": [{"index": 0, "cycles": 1250, "instructions": 200, "issue_cycles": 200, "stalls": {"dma": 7}}]},
           {"name": "u2", "cycles": 10, "instructions": 0, "counters": {}, "threads": []}],
 "host": {"seconds": 9.0, "mips": 0.1}}
EOF
"$X" stats diff "$T/a.json" "$T/b.json" > "$T/out" 2>&1; rc=$?
cat "$T/out"
[ $rc -eq 1 ] || { echo "FAIL: exit $rc with differences (want 1)"; fail=1; }
check "stats diff (toy): A = $T/a.json, B = $T/b.json"
check "  option ways: 4 -> 8"
check "  stop: halted -> limit"
check "  cycles: 1000 -> 1250 (+250, +25.00%)"
check "  u0 cycles: 1000 -> 1250 (+250, +25.00%)"
check "    thread 0 stall dma: 0 -> 7 (+7)"
check "  u0 thread 1: only in A"
check "  u1: only in A"
check "  u2: only in B"
grep -q "instructions\|loads\|mode\|seconds\|mips" "$T/out" && { echo "FAIL: unchanged or host values listed"; fail=1; }
"$X" stats diff "$T/a.json" "$T/a.json" > "$T/out" 2>&1; rc=$?
[ $rc -eq 0 ] || { echo "FAIL: identical files exit $rc (want 0)"; fail=1; }
check "no differences (host timings are not compared)"
grep -q "note:" "$T/out" && { echo "FAIL: a note without builds"; fail=1; }
sed 's/"mips": 1.0}/"mips": 1.0, "xpusim": "abc1234"}/' "$T/a.json" > "$T/a1.json"
sed 's/"mips": 1.0}/"mips": 1.0, "xpusim": "def5678-dirty"}/' "$T/a.json" > "$T/a2.json"
"$X" stats diff "$T/a1.json" "$T/a2.json" > "$T/out" 2>&1; rc=$?
[ $rc -eq 0 ] || { echo "FAIL: builds alone differing exit $rc (want 0)"; fail=1; }
check "  note: made by xpusim abc1234 (A) and def5678-dirty (B)"
check "no differences (host timings are not compared)"
"$X" stats diff "$T/a1.json" "$T/a1.json" > "$T/out" 2>&1
grep -q "note:" "$T/out" && { echo "FAIL: a note for the same build"; fail=1; }
# trouble: exit 2 with the file and what is wrong
printf '{"isa": "toy",\n "units": [1,}\n' > "$T/bad.json"
"$X" stats diff "$T/a.json" "$T/bad.json" > "$T/out" 2>&1; rc=$?
[ $rc -eq 2 ] || { echo "FAIL: bad JSON exit $rc (want 2)"; fail=1; }
grep -q "$T/bad.json:2:" "$T/out" || { echo "FAIL: no line number: $(cat "$T/out")"; fail=1; }
printf '{"hello": 1}\n' > "$T/other.json"
"$X" stats diff "$T/other.json" "$T/a.json" > "$T/out" 2>&1; rc=$?
[ $rc -eq 2 ] || { echo "FAIL: non-statistics exit $rc (want 2)"; fail=1; }
check "not xpusim statistics"
sed 's/"isa": "toy"/"isa": "dpu"/' "$T/a.json" > "$T/dpu.json"
"$X" stats diff "$T/a.json" "$T/dpu.json" > "$T/out" 2>&1; rc=$?
[ $rc -eq 2 ] || { echo "FAIL: other ISA exit $rc (want 2)"; fail=1; }
check "is a toy run and"
"$X" stats diff "$T/a.json" "$T/nonexistent.json" > "$T/out" 2>&1; rc=$?
[ $rc -eq 2 ] || { echo "FAIL: missing file exit $rc (want 2)"; fail=1; }
"$X" stats frob > "$T/out" 2>&1; rc=$?
[ $rc -eq 2 ] || { echo "FAIL: bad usage exit $rc (want 2)"; fail=1; }
check "usage: xpusim stats diff A.json B.json"
# real runs
if "$X" isas | grep -q '^mccp'; then
    "$X" asm --isa mccp programs/mccp/sum4.mccp -o "$T/sum4.out" || { echo "FAIL: asm"; exit 1; }
    for k in 1 2; do "$X" run "$T/sum4.out" --quiet --stats=json --stats-file "$T/r$k.json" > /dev/null; done
    "$X" run "$T/sum4.out" --quiet -o arbiter_phase=0 --stats=json --stats-file "$T/r3.json" > /dev/null
    "$X" stats diff "$T/r1.json" "$T/r2.json" > "$T/out" 2>&1 || { echo "FAIL: the same run twice differs: $(cat "$T/out")"; fail=1; }
    "$X" stats diff "$T/r1.json" "$T/r3.json" > "$T/out" 2>&1; rc=$?
    cat "$T/out"
    [ $rc -eq 1 ] || { echo "FAIL: arbiter_phase 2 vs 0 exit $rc (want 1)"; fail=1; }
    check "option arbiter_phase: 2 -> 0"
    grep -q '"schema": 3' "$T/r1.json" || { echo "FAIL: no schema version in the JSON"; fail=1; }
    v=$("$X" --version | sed 's/^xpusim //')
    grep -qF "\"xpusim\": \"$v\"}" "$T/r1.json" || { echo "FAIL: the JSON does not name the build $v: $(grep '"host"' "$T/r1.json")"; fail=1; }
fi
[ $fail -eq 0 ] && echo "ok: stats diff"
exit $fail
