#!/bin/sh
# tests/nyuzi/rtl_probes.t.sh: timing probes against the Verilator RTL (tests/nyuzi/probes).
# Each probe marks points of a short program with CR 6 reads and prints them; the program is
# assembled, turned into the elf2hex image the RTL ran and run from it, and the cycles between
# marks must match the RTL's (probes/expected.txt). They pin down the rules of the pipeline
# model one at a time: cold instruction lines, traps, scoreboard register fields, stores and
# the store queue, flushes, synchronized accesses, device accesses and the timer interrupt.
set -u
command -v python3 >/dev/null || { echo "SKIP: python3 not found"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0; n=0
while IFS='|' read -r name want mode tol; do
    case "$name" in '#'*|'') continue ;; esac
    name=$(echo $name); mode=$(echo $mode); tol=$(echo $tol)
    "$XPUSIM" asm --isa nyuzi -o include=tests/nyuzi/probes "tests/nyuzi/probes/$name.S" -o "$T/p.elf" &&
        python3 tests/nyuzi/tools/elf2hex.py "$T/p.elf" "$T/p.hex" ||
        { echo "FAIL build $name"; fail=1; continue; }
    got=$("$XPUSIM" run "$T/p.hex" --isa nyuzi --max-cycles 1000000 2>/dev/null | tr -d '\000' |
          grep -o '\b[0-9a-f]\{8\}\b' | while read -r h; do printf '%d ' $((0x$h)); done)
    n=$((n + 1))
    ok=1; i=0; pw=""; pg=""
    for w in $want; do
        i=$((i + 1))
        g=$(echo $got | cut -d' ' -f$i)
        [ -n "$g" ] || { ok=0; break; }
        if [ "$mode" = value ]; then a=$w; b=$g
        elif [ -n "$pw" ]; then a=$((w - pw)); b=$((g - pg))
        else a=0; b=0; fi
        d=$((a > b ? a - b : b - a))
        [ $d -le $tol ] || ok=0
        pw=$w; pg=$g
    done
    if [ $ok = 1 ]; then echo "ok $name ($got)"; else echo "FAIL $name: got $got, RTL $want ($mode, tolerance $tol)"; fail=1; fi
done < tests/nyuzi/probes/expected.txt
echo "$n probes"
exit $fail
