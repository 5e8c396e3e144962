#!/bin/sh
# scripts/bench/hostinsns.sh: where the time goes, as host instructions per simulated
# instruction, counted by `valgrind --tool=callgrind` (exact and unaffected by the machine's
# load, unlike times; perf counters are not available on this VM). Each row runs twice at two
# small sizes and the difference of host instructions is divided by the difference of
# simulated instructions, so start-up and loading cancel out. Prints one line per row, then
# the same by source function (scripts/bench/parts.awk), and writes the line-by-line
# annotation of the larger run to DIR/ROW.txt (the breakdown by part in docs/performance.md). Run after `make bench` (it uses the programs and tools that
# make bench built): sh scripts/bench/hostinsns.sh [XPUSIM [DIR]]; the Nyuzi reference rows
# need NYUZI_EMULATOR (or nyuzi_emulator on PATH).
X=${1:-build/xpusim}
D=${2:-build/bench/callgrind}
B=build/bench
command -v valgrind >/dev/null || { echo "hostinsns.sh: valgrind is not installed" >&2; exit 2; }
for f in "$X" "$B/ceiling" "$B/dpu_alu16.elf" "$B/mccp_alu.out" "$B/mccp_draw.out"; do
    [ -e "$f" ] || { echo "hostinsns.sh: $f is missing: run make bench first" >&2; exit 2; }
done
mkdir -p "$D" || exit 2
EMU=${NYUZI_EMULATOR:-$(command -v nyuzi_emulator 2>/dev/null)}

# One callgrind run: prints "host-instructions simulated-instructions" (the simulated ones
# from xpusim's JSON statistics, the ceiling's, or the emulator's "N total instructions").
measure() { # name kind command...
    name=$1; kind=$2; shift 2
    case "$kind" in
    json) valgrind --tool=callgrind --callgrind-out-file="$D/$name.out" "$@" --stats-file "$D/s.json" \
              >/dev/null 2>"$D/$name.err" || { echo "hostinsns.sh: $name failed (see $D/$name.err)" >&2; return 1; }
          n=$(sed -n 's/^  "instructions": \([0-9]*\),*/\1/p' "$D/s.json") ;;
    *)    valgrind --tool=callgrind --callgrind-out-file="$D/$name.out" "$@" \
              >"$D/$name.log" 2>"$D/$name.err" || { echo "hostinsns.sh: $name failed (see $D/$name.err)" >&2; return 1; }
          n=$(sed -n 's/^\([0-9]*\) total instructions.*/\1/p' "$D/$name.log") ;;
    esac
    ir=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$D/$name.err")
    echo "$ir $n"
}

# row name, then the two runs (kind and command separated by ";;")
row() { # name label small-run ;; large-run
    name=$1; label=$2; shift 2
    a=""; b=""; cur=a
    for w in "$@"; do
        if [ "$w" = ";;" ]; then cur=b; continue; fi
        if [ $cur = a ]; then a="$a '$w'"; else b="$b '$w'"; fi
    done
    r1=$(eval "measure $name-1 $a") && r2=$(eval "measure $name-2 $b") || return
    echo "$r1 $r2" | awk -v l="$label" '{ printf "%-46s %8.1f host instructions per simulated instruction\n", l, ($3 - $1) / ($4 - $2) }'
    callgrind_annotate --auto=yes "$D/$name-1.out" > "$D/$name-1.txt" 2>/dev/null
    callgrind_annotate --auto=yes "$D/$name-2.out" > "$D/$name.txt" 2>/dev/null
    awk -v d="$(echo "$r1 $r2" | awk '{ print $4 - $2 }')" -f scripts/bench/parts.awk "$D/$name-1.txt" "$D/$name.txt"
}

sh scripts/bench/le32.sh 20000 "$D/i20k.bin" && sh scripts/bench/le32.sh 40000 "$D/i40k.bin" || exit 2
echo 100000 > "$D/m100k.txt"; echo 200000 > "$D/m200k.txt"
for p in 1:50000 1:100000 4:20000 4:40000; do
    l=${p%%:*}; n=${p#*:}
    "$X" asm --isa nyuzi -o define=ITERATIONS=$n programs/nyuzi/bench/loop$l.S -o "$D/loop$l-$n.elf" &&
        sh scripts/bench/elf2hex.sh "$D/loop$l-$n.elf" "$D/loop$l-$n.hex" || exit 2
done
S="--quiet --stats=json"
row ceiling "ceiling interpreter" json "$B/ceiling" 1000000 ";;" json "$B/ceiling" 2000000
row dpu16 "DPU alu loop, 16 tasklets" json "$X" run "$B/dpu_alu16.elf" -o tasklets=16 --set bench_iters="$D/i20k.bin" $S ";;" \
    json "$X" run "$B/dpu_alu16.elf" -o tasklets=16 --set bench_iters="$D/i40k.bin" $S
row mccp1 "MCCP alu loop, 1 core" json "$X" run "$B/mccp_alu.out" -o cores=0 --headless --load ram:64="$D/m100k.txt" $S ";;" \
    json "$X" run "$B/mccp_alu.out" -o cores=0 --headless --load ram:64="$D/m200k.txt" $S
row mccp-mem "MCCP draw (memory bound), 4 cores" json "$X" run "$B/mccp_draw.out" --headless -o warm_restart=1 $S ";;" \
    json "$X" run "$B/mccp_draw.out" --headless -o warm_restart=3 $S
row nyuzi1 "Nyuzi loop1, 1 thread" json "$X" run "$D/loop1-50000.hex" --isa nyuzi $S ";;" json "$X" run "$D/loop1-100000.hex" --isa nyuzi $S
row nyuzi4 "Nyuzi loop4, 4 threads" json "$X" run "$D/loop4-20000.hex" --isa nyuzi $S ";;" json "$X" run "$D/loop4-40000.hex" --isa nyuzi $S
if [ -n "$EMU" ] && [ -x "$EMU" ]; then
    row nyuzi1-ref "Nyuzi loop1, reference emulator" emu "$EMU" -t 4 "$D/loop1-50000.hex" ";;" emu "$EMU" -t 4 "$D/loop1-100000.hex"
    row nyuzi4-ref "Nyuzi loop4, reference emulator" emu "$EMU" -t 4 "$D/loop4-20000.hex" ";;" emu "$EMU" -t 4 "$D/loop4-40000.hex"
fi
echo "annotations (callgrind_annotate --auto=yes of the larger run): $D/*.txt"
