#!/bin/sh
# tests/cli/progress.t.sh: the progress line of long runs (issue 10). --progress prints a
# line every half second wherever stderr goes; without it nothing is printed when stderr is
# not a terminal (as here), so logs stay clean. Reports come between events, and with them on
# no burst runs more than 2^22 cycles: the statistics must be identical with and without
# --progress (burst ends change nothing simulated), checked on a DPU, a Nyuzi and an MCCP run.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
stats() { grep -v '^host:' "$1" | grep -v '^xpusim: cycle'; }
same() { # NAME ARGS...: text statistics with and without --progress
    name=$1; shift
    "$X" run "$@" --stats-file "$T/a" > /dev/null 2> "$T/a.err"
    "$X" run "$@" --progress --stats-file "$T/b" > /dev/null 2> "$T/b.err"
    if [ "$(stats "$T/a")" != "$(stats "$T/b")" ]; then
        echo "FAIL: $name: statistics differ with --progress"; diff "$T/a" "$T/b" | head; fail=1
    else
        echo "ok: $name: same statistics ($(grep '^cycles:' "$T/a"))"
    fi
    if grep -q 'xpusim: cycle' "$T/a.err"; then echo "FAIL: $name: progress without --progress on a non-terminal"; fail=1; fi
}
if "$X" isas | grep -q '^dpu'; then
    "$X" asm --isa dpu programs/dpu/bench/alu_loop.s -o "$T/alu.elf" -o tasklets=16 || exit 1
    sh scripts/bench/le32.sh 400000 "$T/iters.bin"
    same dpu "$T/alu.elf" -o tasklets=16 --set bench_iters="$T/iters.bin"
    # a longer run (4M iterations x 16 tasklets: 384M cycles; over a second of host time
    # here): at least one line, naming the cycle and MIPS; with a cycle limit, the share of it
    # and an estimate. A machine that runs it in under 0.6 s has nothing to report.
    sh scripts/bench/le32.sh 4000000 "$T/long.bin"
    "$X" run "$T/alu.elf" -o tasklets=16 --set bench_iters="$T/long.bin" --progress --max-cycles 4000000000 \
        --stats-file "$T/s" 2> "$T/p.err" > /dev/null
    host=$(awk '/^host:/ { print ($2 > 0.6) }' "$T/s")
    if [ "$host" = 1 ]; then
        grep -Eq '^xpusim: cycle [0-9]+, [0-9.]+ MIPS, [0-9.]+ s, [0-9]+% of the limit, about [0-9]+ s left$' "$T/p.err" ||
            { echo "FAIL: no progress line with the share of the limit: $(cat "$T/p.err")"; fail=1; }
    else
        echo "note: the long run took $(awk '/^host:/ { print $2 }' "$T/s") s: too fast for a report"
    fi
    "$X" run "$T/alu.elf" -o tasklets=16 --set bench_iters="$T/iters.bin" --quiet 2> "$T/q.err" > /dev/null
    [ ! -s "$T/q.err" ] || { echo "FAIL: --quiet printed: $(cat "$T/q.err")"; fail=1; }
fi
if "$X" isas | grep -q '^nyuzi'; then
    "$X" asm --isa nyuzi programs/nyuzi/bench/loop4.S -o "$T/loop4.elf" || exit 1
    same nyuzi "$T/loop4.elf"
fi
if "$X" isas | grep -q '^mccp'; then
    "$X" asm --isa mccp programs/mccp/demo.mccp -o "$T/demo.out" || exit 1
    same mccp "$T/demo.out" --load ram:0=programs/mccp/demo-input.txt
fi
[ $fail -eq 0 ] && echo "ok: progress"
exit $fail
