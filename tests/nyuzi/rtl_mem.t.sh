#!/bin/sh
# tests/nyuzi/rtl_mem.t.sh: memory-system and multi-core timing regression against numbers
# measured on Verilator builds of the NyuziProcessor RTL with 1, 2 and 4 cores
# (tests/nyuzi/rtl/expected_mem.txt; how they were measured is in docs/validation/nyuzi.md).
# Each program comes from gen_mem.py (checked byte for byte against programs_mem.sha256,
# the programs the RTL ran), is turned into the elf2hex image the RTL ran and runs with
# -o cores=C; every thread prints the cycles of its timed body (first and second pass), and
# the second pass must equal the RTL's number within the stated tolerance: each thread's,
# or with `sum` in the fourth field the sum over the threads (bodies whose threads share a
# resource in an order the model does not reproduce thread for thread). Only bodies the
# model matches are listed; the others and their errors are in the docs.
set -u
command -v python3 >/dev/null || { echo "SKIP: python3 not found"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
D=tests/nyuzi/rtl
fail=0; n=0
while IFS='|' read -r prog want tol mode; do
    case "$prog" in '#'*|'') continue ;; esac
    prog=$(echo $prog); tol=$(echo $tol); mode=$(echo ${mode:-})
    name=${prog%.*}; cfg=${prog##*.}; cores=${cfg#c}; cores=${cores%t*}; threads=${cfg#*t}
    python3 $D/gen_mem.py "$name" "$cores" "$threads" > "$T/p.S" || { echo "FAIL gen $prog"; fail=1; continue; }
    sum=$(sha256sum "$T/p.S" | cut -d' ' -f1)
    ref=$(awk -v f="$prog.S" '$2 == f {print $1}' $D/programs_mem.sha256)
    [ "$sum" = "$ref" ] || { echo "FAIL $prog: gen_mem.py writes a different program than the one the RTL ran"; fail=1; continue; }
    "$XPUSIM" asm --isa nyuzi "$T/p.S" -o "$T/p.elf" && python3 tests/nyuzi/tools/elf2hex.py "$T/p.elf" "$T/p.hex" ||
        { echo "FAIL build $prog"; fail=1; continue; }
    got=$("$XPUSIM" run "$T/p.hex" --isa nyuzi -o cores=$cores --quiet --max-cycles 2000000 2>/dev/null | tr -d '\000' |
          sed -n 's/^.:[0-9a-f]\{8\} \([0-9a-f]\{8\}\)$/\1/p' | while read -r h; do printf '%d ' $((0x$h)); done)
    ok=1; i=0
    if [ "$mode" = sum ]; then # one number per thread, then the sums within tolerance
        [ $(echo $got | wc -w) = $(echo $want | wc -w) ] || ok=0
        w=0; for x in $want; do w=$((w + x)); done
        g=0; for x in $got; do g=$((g + x)); done
        d=$((g > w ? g - w : w - g))
        [ $((d * 100)) -le $((tol * w)) ] || ok=0
        got="$got(sum $g, RTL $w)"; want=""
    fi
    for w in $want; do
        i=$((i + 1))
        g=$(echo $got | cut -d' ' -f$i)
        [ -n "$g" ] || { ok=0; break; }
        d=$((g > w ? g - w : w - g))
        [ $((d * 100)) -le $((tol * w)) ] || ok=0
    done
    n=$((n + 1))
    if [ $ok = 1 ]; then echo "ok $prog ($got)"; else echo "FAIL $prog: got $got, RTL $want (tolerance $tol%)"; fail=1; fi
done < $D/expected_mem.txt
echo "$n programs"
exit $fail
