#!/bin/sh
# tests/ipu/couple.t.sh: IPU tiles are event-coupled in the cycle model (isa/ipu/tile.c;
# docs/architecture.md "Coupling"): with several tiles, the full JSON statistics (every tile,
# context, stall cause; the stop with its unit, thread and cycle; only the host-time and the
# options lines left out) and the tiles' memory hashes are byte-identical for -o jobs=1, 2
# and 4 and from run to run, for a run to completion, one stopped by --max-cycles and one by
# --max-insns; a never-hit breakpoint's debugger hooks (here: --trace) change nothing; and
# the functional mode (tiles cycle-coupled there) is the same for every jobs= too.
R=${XPUSIM_ROOT:-.}; X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
"$X" asm --isa ipu "$R/programs/ipu/bench/loop6.S" -o "$T/loop6.elf" || exit 1
# iterations per tile (--scatter: 4 bytes to each): 300, 301, ..., 305, so the tiles end apart
for k in 0 1 2 3 4 5; do printf "\\$(printf %o $((44 + k)))\\001\\000\\000"; done >"$T/iters" 
run() { # OUT ARGS...: the statistics and memory hashes without the host-dependent lines
    out=$1; shift
    "$X" run "$T/loop6.elf" --scatter bench_iters="$T/iters":4 -o tiles=6 "$@" --quiet --mem-hash "$out.hash" \
        --stats=json --stats-file "$out.json" >"$out.txt" 2>&1
    echo "exit $?" >>"$out.txt"
    grep -v -e '"host":' -e '"options":' "$out.json" >>"$out.txt"
    cat "$out.hash" >>"$out.txt"
}
set_of() { # NAME ARGS...: jobs=1 is the reference; jobs=2, 4 and jobs=2 again must equal it
    name=$1; shift
    run "$T/$name.1" -o jobs=1 "$@"
    grep -q '"stop"' "$T/$name.1.txt" || { echo "FAIL $name: no statistics"; fail=1; return; }
    for j in 2 4 2; do
        run "$T/$name.$j" -o jobs=$j "$@"
        cmp -s "$T/$name.1.txt" "$T/$name.$j.txt" ||
            { echo "FAIL $name: jobs=$j differs from jobs=1:"; diff "$T/$name.1.txt" "$T/$name.$j.txt" | head -6; fail=1; return; }
    done
    echo "ok $name: identical for jobs=1,2,4 ($(grep -m1 '"stop"' "$T/$name.1.txt" | cut -c1-70))"
}
set_of halt
set_of max-cycles --max-cycles 4321
set_of max-insns --max-insns 23456
set_of functional -o timing=none
# the debugger's hooks change no burst of an event-coupled tile, so no result
run "$T/trace" -o jobs=2 --trace "$T/trace.log"
cmp -s "$T/halt.1.txt" "$T/trace.txt" || { echo "FAIL: --trace changed the statistics:"; diff "$T/halt.1.txt" "$T/trace.txt" | head -6; fail=1; }
[ -s "$T/trace.log" ] || { echo "FAIL: empty trace"; fail=1; }
[ "$fail" = 0 ] && echo "ok --trace: same statistics"
exit $fail
