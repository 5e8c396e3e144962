#!/bin/sh
# tests/nyuzi/rtl_cycles.t.sh: timing regression against numbers measured on the Verilator
# build of the NyuziProcessor RTL (tests/nyuzi/rtl/expected.txt; how they were measured is
# in docs/validation/nyuzi.md). Each program prints, per thread, the cycle count of its
# loop body (first and second pass); the second (I-cache warm) pass must equal the RTL's
# number, or be within the stated tolerance for the few known deviations.
set -u
command -v python3 >/dev/null || { echo "SKIP: python3 not found"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0; n=0
# every program the RTL ran must still come out of gen.py byte for byte
for p in $(awk '!/^#/ {sub(/\.S$/, "", $2); print $2}' tests/nyuzi/rtl/programs.sha256); do
    sh tests/nyuzi/rtl/make_program.sh "$p" "$T/gen.S" || fail=1
done
while IFS='|' read -r name want tol; do
    case "$name" in '#'*|'') continue ;; esac
    name=$(echo $name); tol=$(echo $tol)
    sh tests/nyuzi/rtl/make_program.sh "$name" "$T/p.S" &&
        "$XPUSIM" asm --isa nyuzi "$T/p.S" -o "$T/p.elf" || { echo "FAIL build $name"; fail=1; continue; }
    got=$("$XPUSIM" run "$T/p.elf" --quiet --max-cycles 200000 | awk '{print $2}' | tr '\n' ' ')
    ok=1; i=0
    for w in $want; do
        i=$((i + 1))
        g=$(echo $got | cut -d' ' -f$i)
        [ -n "$g" ] || { ok=0; break; }
        wd=$((0x$w)); gd=$((0x$g))
        d=$((gd > wd ? gd - wd : wd - gd))
        [ $((d * 100)) -le $((tol * wd)) ] || ok=0
    done
    n=$((n + 1))
    if [ $ok = 1 ]; then echo "ok $name ($got)"; else echo "FAIL $name: got $got want $want (tolerance $tol%)"; fail=1; fi
done < tests/nyuzi/rtl/expected.txt
echo "$n programs"
exit $fail
