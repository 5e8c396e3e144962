#!/bin/sh
# programs/nyuzi/bench/reference.sh: run by scripts/bench.sh after the .bench lines. If the
# reference functional emulator of jbush001/NyuziProcessor is built (NYUZI_EMULATOR=path, or
# nyuzi_emulator on PATH; docs/validation/nyuzi.md section 1 builds it), runs it on the same
# benchmark programs (as elf2hex images) and prints its speed in the bench table's format:
# instructions per second only, since it counts instructions, not cycles. Prints nothing
# when the emulator is not there.
EMU=${NYUZI_EMULATOR:-$(command -v nyuzi_emulator 2>/dev/null)}
[ -n "$EMU" ] && [ -x "$EMU" ] || exit 0
command -v python3 >/dev/null || exit 0
out=build/bench
for p in loop1 loop4; do
    elf=$out/nyuzi-$p.elf
    [ -f "$elf" ] || continue
    python3 tests/nyuzi/tools/elf2hex.py "$elf" "$out/nyuzi-$p.hex" || continue
    best=""; n=0
    for i in 1 2 3; do
        t0=$(date +%s.%N)
        n=$("$EMU" -t 4 "$out/nyuzi-$p.hex" 2>&1 | sed -n 's/^\([0-9]*\) total instructions.*/\1/p')
        t1=$(date +%s.%N)
        s=$(awk "BEGIN{print $t1 - $t0}")
        if [ -z "$best" ] || awk "BEGIN{exit !($s < $best)}"; then best=$s; fi
    done
    [ -n "$n" ] || continue
    awk -v n="nyuzi $p, reference emulator" -v i="$n" -v s="$best" 'BEGIN{ if (s < 1e-9) s = 1e-9;
        printf "%-38s %12d %12s %8.3f %8.1f %10s %14s\n", n, i, "-", s, i/s/1e6, "-", "-" }'
done
