#!/bin/sh
# tests/cli/instr_fast.t.sh: instrumentation changes nothing simulated (issue 9). Breakpoints
# and watchpoints that never hit keep the DPU, MCCP and Nyuzi fast paths (core/debug.h); a
# trace runs every instruction through the hooks. For one program of each ISA the full text
# statistics (every unit's and thread's cycles, instructions, issue cycles, stalls by cause,
# counters; the host-time line dropped) must be the same:
#   plain `run`; `debug` with an unhit breakpoint and unhit watchpoints; `run --trace`;
#   `run --trace --trace-window --trace-pc` (its run is cut at the window's ends).
# Breakpoints that hit stop at the same thread, pc and cycle on the fast path as with
# `history on` (every instruction through the hooks, the reference loops), conditional ones
# included, and the run continued from each stop ends with the same statistics.
# The window and pc range keep exactly the lines of the full trace whose cycle (first
# column) is in [FROM, TO) and whose pc (fourth column) is in [LO, HI).
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
checked=0
has() { "$X" isas | grep -q "^$1 " && checked=$((checked + 1)); }

# stats FILE: the statistics block of a transcript or a run's output, without host times
stats() { sed -n '/^== statistics/,$p' "$1" | grep -v '^host:\|^(xpusim)\|^[0-9]* *[a-z]*[0-9]* *t[0-9]' ; }

same() { # same WHAT A B: the two statistics blocks are equal and not empty
    stats "$2" >"$T/sa"; stats "$3" >"$T/sb"
    if [ ! -s "$T/sa" ]; then echo "FAIL: $1: no statistics"; fail=1; return; fi
    if ! cmp -s "$T/sa" "$T/sb"; then echo "FAIL: $1: statistics differ"; diff "$T/sa" "$T/sb" | head -10; fail=1; fi
}

# window_check NAME FULL WINDOWED FROM TO LO HI: the windowed trace is exactly the full
# trace's lines in the window and pc range, and not empty
window_check() {
    awk -v f="$4" -v t="$5" -v lo="$6" -v hi="$7" '$1 >= f && $1 < t {
        pc = 0; h = $4; for (i = 1; i <= length(h); i++) pc = pc * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1;
        if (pc >= lo && pc < hi) print }' "$2" >"$T/want"
    if [ ! -s "$T/want" ]; then echo "FAIL: $1: the window selects nothing (test set-up)"; fail=1; return; fi
    if ! cmp -s "$T/want" "$3"; then
        echo "FAIL: $1: --trace-window/--trace-pc kept other lines ($(wc -l <"$3") vs $(wc -l <"$T/want") expected)"
        diff "$T/want" "$3" | head -6; fail=1
    fi
}

# check ISA NAME PROG "RUN ARGS" "UNHIT BREAK AND WATCH COMMANDS" "HIT BREAK COMMAND" FROM TO LO HI
check() {
    isa=$1 name=$2 prog=$3 args=$4 unhit=$5 hit=$6 from=$7 to=$8 lo=$9 hi=${10}
    # shellcheck disable=SC2086
    "$X" run "$prog" $args --stats=text >"$T/plain" 2>&1
    printf '%s\nrun\ninfo break\nstats\n' "$unhit" >"$T/s_unhit"
    # shellcheck disable=SC2086
    "$X" debug "$prog" $args -x "$T/s_unhit" >"$T/unhit" 2>&1
    grep -q "halted at cycle" "$T/unhit" || { echo "FAIL: $name: the unhit breakpoint run did not end cleanly"; sed 's/^/  /' "$T/unhit" | head; fail=1; }
    same "$name: unhit breakpoint and watchpoints" "$T/plain" "$T/unhit"
    # shellcheck disable=SC2086
    "$X" run "$prog" $args --trace "$T/full.trace" --stats=text >"$T/traced" 2>&1
    same "$name: --trace" "$T/plain" "$T/traced"
    # shellcheck disable=SC2086
    "$X" run "$prog" $args --trace "$T/win.trace" --trace-window "$from:$to" --trace-pc "$lo:$hi" --stats=text >"$T/win" 2>&1
    same "$name: --trace-window" "$T/plain" "$T/win"
    window_check "$name" "$T/full.trace" "$T/win.trace" "$from" "$to" "$lo" "$hi"
    # a window alone (no pc range): the run is cut at FROM-1 and TO-1 and still the same
    # shellcheck disable=SC2086
    "$X" run "$prog" $args --trace "$T/w2.trace" --trace-window "$from:$to" --stats=text >"$T/w2" 2>&1
    same "$name: --trace-window alone" "$T/plain" "$T/w2"
    window_check "$name (window alone)" "$T/full.trace" "$T/w2.trace" "$from" "$to" 0 18446744073709551615
    # hit breakpoints: three stops, then to the end; fast path against the hooks
    for mode in fast hooks; do
        h=""; [ $mode = hooks ] && h="history on"
        printf '%s\n%s\nrun\ncontinue\ncontinue\ndelete\ncontinue\nstats\n' "$h" "$hit" >"$T/s_$mode"
        # shellcheck disable=SC2086
        "$X" debug "$prog" $args -x "$T/s_$mode" >"$T/hit_$mode" 2>&1
        grep 'stopped at cycle\|halted at cycle' "$T/hit_$mode" >"$T/stops_$mode"
    done
    n=$(grep -c 'stopped at cycle' "$T/stops_fast")
    [ "$n" = 3 ] || { echo "FAIL: $name: expected 3 breakpoint stops on the fast path, got $n"; sed 's/^/  /' "$T/hit_fast" | head -20; fail=1; }
    cmp -s "$T/stops_fast" "$T/stops_hooks" || { echo "FAIL: $name: breakpoint stops differ fast/hooks"; diff "$T/stops_fast" "$T/stops_hooks"; fail=1; }
    same "$name: after hit breakpoints" "$T/plain" "$T/hit_fast"
    same "$name: after hit breakpoints (hooks)" "$T/plain" "$T/hit_hooks"
}

if has dpu; then
    # alu_loop: 16 tasklets x 200 iterations of add, lsl_add, xor, sw, lw, add/branch (pcs
    # 5..10), then stop at pc 11: pc 12 is never reached. bench_iters is WRAM 0 (read once
    # per tasklet), bench_out 4..99 (tasklet k's word at 4 + 4k): write watches on 0 and on
    # 0x3000 are never hit and their span covers every access of the loop, which therefore
    # goes through the generic executor and its watch check. The hit breakpoint: the lw at
    # pc 9 for tasklet 3 only once its r0 (iterations left) is 150 or less.
    "$X" asm --isa dpu programs/dpu/bench/alu_loop.s -o "$T/dpu.elf" -o tasklets=16 || { echo "FAIL: dpu asm"; exit 1; }
    printf '\310\000\000\000' >"$T/iters"
    check dpu "DPU 16 tasklets" "$T/dpu.elf" "-o tasklets=16 --set bench_iters=$T/iters --headless" \
        "break 12
watch 0
watch 0x3000" "break 9 0 thread 3 if r0 <= 150" 1000 1300 6 9
fi

if has mccp; then
    # alu_loop.mccp on 4 cores, RAM[64] = 40 iterations. Slot 0x1f0 (ROM word 0xf8) holds
    # no code; RAM[64] is only read and RAM[100] never touched, so write watches on them do
    # not hit. The hit breakpoint is the loop's first slot on core 2 (its `add`), whose slot
    # the disassembly gives.
    "$X" asm --isa mccp programs/mccp/bench/alu_loop.mccp -o "$T/mccp.out" || { echo "FAIL: mccp asm"; exit 1; }
    echo 40 >"$T/iters.txt"
    word=$("$X" disasm "$T/mccp.out" | awk '$3 == "add" && $4 == "reg2" && $5 == "reg3" { split($1, a, "."); print a[1]; exit }')
    [ -n "$word" ] || { echo "FAIL: no add in the MCCP disassembly"; exit 1; }
    slot=$(printf '0x%x' $((2 * 0x$word)))
    check mccp "MCCP 4 cores" "$T/mccp.out" "--headless --load ram:64=$T/iters.txt" \
        "break 0x1f0
watch ram:64
watch ram:100" "break $slot 2" 200 600 $((slot)) $((slot + 6))
fi

if has nyuzi; then
    # loop4.S, 4 threads x 30 iterations. `buf` is data (never executed); each thread reads
    # its buf word 0 and writes word 1 (buf + 64 tid + 4): a write watch on buf+8 is never
    # hit. The hit breakpoint: the loop's load_32 (start + 0x30) on thread 1.
    "$X" asm --isa nyuzi -o define=ITERATIONS=30 programs/nyuzi/bench/loop4.S -o "$T/ny.elf" || { echo "FAIL: nyuzi asm"; exit 1; }
    ld=$("$X" disasm "$T/ny.elf" | awk '/load_32/ { print $1; exit }' | tr -d ':')
    [ -n "$ld" ] || { echo "FAIL: no load_32 in the Nyuzi disassembly"; exit 1; }
    check nyuzi "Nyuzi 4 threads" "$T/ny.elf" "--headless" \
        "break buf
watch buf+8" "break 0x$ld 0 thread 1" 100 400 $((0x$ld - 16)) $((0x$ld + 8))
fi

[ $checked = 0 ] && { echo "SKIP: this build has none of dpu, mccp, nyuzi"; exit 0; }
[ $fail = 0 ] && echo "instrumentation: same statistics with and without breakpoints, watchpoints and traces; windows exact"
exit $fail
