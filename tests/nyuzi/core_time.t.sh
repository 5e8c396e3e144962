#!/bin/sh
# tests/nyuzi/core_time.t.sh: on several cores every core simulates each cycle once, in
# order. The instruction trace (--trace, one line per executed instruction, printed as its
# core runs) must show each core's cycles never going back and at most one issue per core
# and cycle (thread_select_stage issues one instruction a cycle). Session 37 found the model
# breaking it in every 4-core x 4-thread configuration of gen_mem.py: in readers.c4t4 core
# 0's settle at cycle 648 answered core 1's code line (a collided miss) at 614 instead of
# 709 once its lead's grant was final, core 1 was woken at 614 and ran 614-648 a second
# time (its threads 2, 3, 0 issued at 618-647 after thread 1 had issued at 643-648). The
# fix: timing.c nyz_l2_ready; and bus_retime.c nyz_core_sooner stops such a run with the
# reason (tests/nyuzi/test_core_time.c). Also: the run ends normally, with the same cycles
# as without the trace.
set -u
command -v python3 >/dev/null || { echo "SKIP: python3 not found"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
for prog in readers.c4t4 llsc.c4t4 gather_miss.c4t4; do
    name=${prog%.*}
    python3 tests/nyuzi/rtl/gen_mem.py "$name" 4 4 > "$T/$prog.S" || { echo "FAIL gen $prog"; fail=1; continue; }
    "$XPUSIM" asm --isa nyuzi "$T/$prog.S" -o "$T/$prog.elf" || { echo "FAIL asm $prog"; fail=1; continue; }
    python3 tests/nyuzi/tools/elf2hex.py "$T/$prog.elf" "$T/$prog.hex" || { echo "FAIL elf2hex $prog"; fail=1; continue; }
    "$XPUSIM" run "$T/$prog.hex" --isa nyuzi -o cores=4 --quiet --stats=json --stats-file "$T/plain.json" \
        > "$T/plain.out" 2> "$T/plain.err" || { echo "FAIL $prog: run: $(head -1 "$T/plain.err")"; fail=1; continue; }
    "$XPUSIM" run "$T/$prog.hex" --isa nyuzi -o cores=4 --quiet --trace "$T/trace" --stats=json \
        --stats-file "$T/traced.json" > "$T/traced.out" 2> "$T/traced.err" ||
        { echo "FAIL $prog: traced run: $(head -1 "$T/traced.err")"; fail=1; continue; }
    # "CYCLE coreN tM PC ...": per core, the cycle never smaller than the last one, never equal
    bad=$(awk '{ c = $2; n = $1 + 0
                 if (c in last && n <= last[c]) { printf "%s cycle %d after %d\n", c, n, last[c]; exit }
                 last[c] = n }' "$T/trace")
    if [ -n "$bad" ]; then
        echo "FAIL $prog: $bad (a core simulated cycles again, or issued twice in one)"
        fail=1
    elif ! cmp -s "$T/plain.out" "$T/traced.out"; then
        echo "FAIL $prog: the traced run printed other numbers"
        fail=1
    else
        echo "ok $prog ($(wc -l < "$T/trace") instructions traced)"
    fi
done
exit $fail
