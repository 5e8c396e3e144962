#!/bin/sh
# `make bench`: speed of the simulator, not of the simulated program. Each line of
# programs/*/bench/*.bench is "NAME: SETUP-COMMAND ;; XPUSIM-RUN-ARGUMENTS" (SETUP may be
# empty; it runs from the repository root with $X set, e.g. to assemble the program). Every
# benchmark runs 3 times and the best host time is reported with the simulated instructions
# and cycles, host MIPS, simulated Mcycles/s of the machine, and the sum over units (for
# many independent DPUs, the aggregate simulated cycles per second). Then each
# programs/*/bench/reference.sh adds rows for a reference simulator if it is built.
X=${1:-build/xpusim}
export X
out=build/bench; mkdir -p $out
printf '%-38s %12s %12s %8s %8s %10s %14s\n' benchmark instructions cycles seconds MIPS Mcycles/s unit-Mcycles/s
for f in programs/*/bench/*.bench; do
    [ -f "$f" ] || continue
    while IFS= read -r line; do
        case "$line" in ''|'#'*) continue ;; esac
        name=${line%%:*}; rest=${line#*:}
        setup=${rest%%;;*}; args=${rest#*;;}
        if [ -n "$(echo "$setup" | tr -d ' ')" ]; then
            sh -c "$setup" >$out/setup.log 2>&1 || { echo "$name: setup failed (see $out/setup.log)"; continue; }
        fi
        best=""
        for i in 1 2 3; do
            sh -c "\"$X\" run $args --quiet --stats=json --stats-file $out/s.json" >/dev/null 2>$out/err.log
            rc=$?
            [ $rc -eq 0 ] || { echo "$name: run failed (exit $rc): $(head -c 300 $out/err.log)"; best=""; break; }
            s=$(sed -n 's/.*"host": {"seconds": \([0-9.]*\).*/\1/p' $out/s.json)
            if [ -z "$best" ] || awk "BEGIN{exit !($s < $best)}"; then best=$s; cp $out/s.json $out/best.json; fi
        done
        [ -n "$best" ] || continue
        insns=$(sed -n 's/^  "instructions": \([0-9]*\),/\1/p' $out/best.json)
        cycles=$(sed -n 's/^  "cycles": \([0-9]*\),/\1/p' $out/best.json)
        ucycles=$(sed -n 's/^    {"name": .*"enabled": true, "cycles": \([0-9]*\),.*/\1/p' $out/best.json | awk '{t += $1} END {print t + 0}')
        awk -v n="$name" -v i="$insns" -v c="$cycles" -v u="$ucycles" -v s="$best" 'BEGIN{ if (s < 1e-9) s = 1e-9;
            printf "%-38s %12d %12d %8.3f %8.1f %10.1f %14.1f\n", n, i, c, s, i/s/1e6, c/s/1e6, u/s/1e6 }'
    done < "$f"
done
# Reference simulators, where a benchmark directory has a script for them (they print rows
# in the same format, or nothing when the reference is not built).
for r in programs/*/bench/reference.sh; do
    [ -x "$r" ] && sh "$r"
done
