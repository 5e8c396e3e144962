#!/bin/sh
# tests/cli/break_timing.t.sh: stopping at a breakpoint never changes simulated timing
# (issue 16). A run that stops and resumes many times must end with exactly the statistics
# (cycles, instructions, every thread's stalls) of the same run without breakpoints. Before
# the fix the DPU tasklet stopped at a breakpoint lost its revolver slot on resume: the
# 16-tasklet reduce ended 7 cycles early with different per-tasklet counts. Covered: DPU
# (reduce, breakpoints on main and in the barrier), Nyuzi (4 threads, a breakpoint in the
# loop every thread runs), MCCP (4 cores, a breakpoint in the program they all run).
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
stats() { # PROGRAM SCRIPT -> the stop line and every statistics line of the final `stats`
    "$X" debug "$1" -x "$2" 2>&1 | grep -E '^(stop|cycles|instructions|  thread|dpu[0-9]|core[0-9]|  stall)' |
        grep -v 'stopped at'
}
check() { # NAME PROGRAM BREAKPOINT CONTINUES
    printf 'continue\nstats\n' > "$T/plain.x"
    { echo "break $3"; i=0; while [ $i -lt "$4" ]; do echo continue; i=$((i + 1)); done; echo stats; } > "$T/bp.x"
    stats "$2" "$T/plain.x" > "$T/a"
    stats "$2" "$T/bp.x" > "$T/b"
    hits=$("$X" debug "$2" -x "$T/bp.x" 2>&1 | grep -c 'stopped at cycle')
    if ! grep -q '^stop: halted' "$T/a"; then echo "FAIL $1: the plain run did not halt: $(head -2 "$T/a")"; fail=1
    elif [ "$hits" -lt 4 ]; then echo "FAIL $1: breakpoint $3 hit only $hits times"; fail=1
    elif cmp -s "$T/a" "$T/b"; then echo "ok $1: $hits stops at $3, same statistics ($(grep '^cycles' "$T/a"))"
    else echo "FAIL $1: statistics differ after $hits stops at $3:"; diff "$T/a" "$T/b" | head -6; fail=1; fi
}
"$X" asm --isa dpu programs/dpu/reduce.s -o "$T/r.elf" -o tasklets=16 -o lib=programs/dpu/rt || exit 1
check "dpu main" "$T/r.elf" main 40
check "dpu barrier" "$T/r.elf" __rt_bar_sleep 200
"$X" asm --isa nyuzi -o define=ITERATIONS=50 programs/nyuzi/bench/loop4.S -o "$T/l4.elf" || exit 1
loop=$("$X" disasm "$T/l4.elf" | grep 'add_i s2, s2, s1' | head -1 | awk '{print $1}' | tr -d ':')
check "nyuzi loop" "$T/l4.elf" "0x$loop" 300
"$X" asm --isa mccp programs/mccp/sum4.mccp -o "$T/s.out" || exit 1
check "mccp" "$T/s.out" 0x10 300
exit $fail
