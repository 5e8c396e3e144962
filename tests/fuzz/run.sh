#!/bin/sh
# tests/fuzz/run.sh MODE SECONDS NAME...: run libFuzzer harnesses (built by tests/fuzz/fuzz.mk).
#   corpus: each harness once over its committed corpus tests/fuzz/corpus/NAME (make test);
#   long:   each harness for SECONDS, starting from its corpus, new inputs in build/fuzz/corpus.
#   replay: the corpus mode's inputs through the replay drivers in $REPLAY_DIR (fuzz.mk's
#           fuzz-replay: no libFuzzer, the library of the build being tested).
# A crash, leak, timeout or sanitizer report fails the run; the harness's last lines and the
# reproducer's path are printed. Logs: build/fuzz/logs/NAME.MODE.log ($REPLAY_DIR/logs in replay mode).
# Each harness runs in a scratch directory of its own, removed after it: inputs may name
# files (a debugger script's `trace FILE`), which must not land in the source tree.
mode=$1; secs=$2; shift 2
root=$(pwd)
B=build/fuzz
[ "$mode" = replay ] && B=$REPLAY_DIR
case $B in /*) ;; *) B=$root/$B ;; esac
mkdir -p "$B/logs"
fail=0
for n in "$@"; do
    bin="$B/fuzz_$n"
    [ "$mode" = replay ] && bin="$B/replay_$n"
    corpus="$root/tests/fuzz/corpus/$n"
    log="$B/logs/$n.$mode.log"
    [ -x "$bin" ] || { echo "FAIL $n: $bin not built"; fail=1; continue; }
    mkdir -p "$corpus"
    # the assemblers' seeds are the project's own sources, read where they are (not copied)
    case $n in
        asm_dpu) seeds="programs/dpu programs/dpu/rt programs/dpu/bench" ;;
        asm_nyuzi) seeds="tests/nyuzi/progs programs/nyuzi/bench tests/nyuzi/probes" ;;
        asm_mccp) seeds="programs/mccp programs/mccp/bench" ;;
        asm_ipu) seeds="programs/ipu programs/ipu/bench" ;;
        *) seeds="" ;;
    esac
    s=; for d in $seeds; do s="$s $root/$d"; done; seeds=$s
    work=$B/cwd/$n
    rm -rf "$work" && mkdir -p "$work" || { echo "FAIL $n: cannot make $work"; fail=1; continue; }
    if [ "$mode" = replay ]; then
        (cd "$work" && exec "$bin" "$corpus" $seeds) >"$log" 2>&1
    elif [ "$mode" = corpus ]; then
        (cd "$work" && exec "$bin" -runs=0 -timeout=20 -rss_limit_mb=2048 "$corpus" $seeds) >"$log" 2>&1
    else
        mkdir -p "$B/corpus/$n" "$B/crashes"
        (cd "$work" && exec "$bin" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 -max_len=8192 \
            -artifact_prefix="$B/crashes/$n-" -print_final_stats=1 "$B/corpus/$n" "$corpus" $seeds) >"$log" 2>&1
    fi
    rc=$?
    rm -rf "$work"
    if [ $rc -eq 0 ]; then
        echo "ok $n: $(grep -Eo '(cov|ft|exec/s|stat::number_of_executed_units): *[0-9]+|replay: [0-9]+ inputs' "$log" | tail -4 | tr '\n' ' ')"
    else
        echo "FAIL $n (exit $rc, log $log)"; tail -n 25 "$log" | sed 's/^/    /'; fail=1
    fi
done
exit $fail
