#!/bin/sh
# tests/nyuzi/rtl_totals.t.sh: whole-program timing regression against the Verilator RTL
# (tests/nyuzi/rtl/totals.txt). Each program is assembled, turned into the elf2hex image the
# RTL ran (tests/nyuzi/tools/elf2hex.py) and run from that image, so start-up at word 0, cold
# instruction and data misses, serial output and the final halt all count; xpusim's end cycle
# must be within the listed tolerance of the RTL's "ran for" count.
set -u
command -v python3 >/dev/null || { echo "SKIP: python3 not found"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0; n=0
while IFS='|' read -r src want tol opt; do
    case "$src" in '#'*|'') continue ;; esac
    src=$(echo $src); want=$(echo $want); tol=$(echo $tol); opt=$(echo $opt)
    "$XPUSIM" asm --isa nyuzi -o include=tests/nyuzi/progs ${opt:+-o "$opt"} "tests/nyuzi/$src" -o "$T/p.elf" &&
        python3 tests/nyuzi/tools/elf2hex.py "$T/p.elf" "$T/p.hex" ||
        { echo "FAIL build $src"; fail=1; continue; }
    got=$("$XPUSIM" run "$T/p.hex" --isa nyuzi --max-cycles 1000000 2>&1 | sed -n 's/^cycles: \([0-9]*\).*/\1/p' | head -1)
    n=$((n + 1))
    [ -n "$got" ] || { echo "FAIL $src: no cycle count"; fail=1; continue; }
    d=$((got > want ? got - want : want - got))
    if [ $((d * 100)) -le $((tol * want)) ]; then echo "ok $src ($got, RTL $want)"
    else echo "FAIL $src: $got cycles, RTL $want (tolerance $tol%)"; fail=1; fi
done < tests/nyuzi/rtl/totals.txt
echo "$n programs"
exit $fail
