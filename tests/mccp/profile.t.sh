#!/bin/sh
# --profile writes a callgrind-format per-PC profile. Checked on vector_cube.mccp, whose
# per-core halt cycles are hand-derived and RTL-validated (programs/mccp/README.md: 633 637
# 559 563 at the default arbiter phase): each core's first instruction issues at cycle 5
# (cycle 1 is the dummy save, then 4 cycles per instruction), and every cycle from a core's
# first issue to its halt is charged to some PC, so the Cycles total must be
# (633-5)+(637-5)+(559-5)+(563-5) = 2372, and the Instructions total the run's instruction count.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$X" asm --isa mccp programs/mccp/vector_cube.mccp -o "$T/vc.out" || fail asm
"$X" run "$T/vc.out" --load ram:0=programs/mccp/vector_cube.txt --quiet --profile "$T/prof" \
    --stats=json --stats-file "$T/s.json" || fail run
insns=$(sed -n 's/^  "instructions": \([0-9]*\),/\1/p' "$T/s.json")
grep -q "^events: Instructions Cycles$" "$T/prof" || fail "no events line"
grep -q "^summary: $insns 2372$" "$T/prof" || fail "summary $(grep summary "$T/prof"), want $insns 2372"
# the per-PC lines add up to the summary
sum=$(awk '/^0x/ {i += $2; c += $3} END {print i, c}' "$T/prof")
[ "$sum" = "$insns 2372" ] || fail "lines add up to $sum"
# profiling does not change timing
"$X" run "$T/vc.out" --load ram:0=programs/mccp/vector_cube.txt --quiet --stats=json --stats-file "$T/p.json" || fail run2
[ "$(grep '"cycles"' "$T/s.json" | head -1)" = "$(grep '"cycles"' "$T/p.json" | head -1)" ] || fail "cycles differ with --profile"
# a DPU ELF's PCs are grouped by its code symbols
if "$X" isas | grep -q '^dpu'; then
    "$X" asm --isa dpu programs/dpu/vecadd.s programs/dpu/rt/*.s -o "$T/va.elf" || fail "dpu asm"
    "$X" run "$T/va.elf" --quiet --profile "$T/pd" || fail "dpu run"
    grep -q "^fn=main$" "$T/pd" || fail "no fn=main in the DPU profile"
fi
# the format's readers need a file name (fl=) before the first function (fn=);
# callgrind_annotate (valgrind) warns about an uninitialised file without one
[ "$(grep -m1 -n '^fl=' "$T/prof" | cut -d: -f1)" -lt "$(grep -m1 -n '^fn=' "$T/prof" | cut -d: -f1)" ] ||
    fail "no fl= line before the first fn="
if command -v callgrind_annotate > /dev/null; then
    callgrind_annotate "$T/prof" > "$T/ann" 2> "$T/ann.err" || fail "callgrind_annotate refused the profile"
    [ ! -s "$T/ann.err" ] || fail "callgrind_annotate: $(head -2 "$T/ann.err")"
    grep -q "PROGRAM TOTALS" "$T/ann" || fail "callgrind_annotate printed no totals"
fi
echo ok
