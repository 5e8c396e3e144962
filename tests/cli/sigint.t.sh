#!/bin/sh
# tests/cli/sigint.t.sh: Ctrl-C (SIGINT) stops `xpusim run` with correct statistics (issue 8).
# A long run is interrupted after a second; the summary must say "interrupted", exit 1, and
# its cycles must agree with its instructions. Before the fix the summary said cycles: 0
# beside hundreds of millions of instructions: a unit runs in bursts ahead of the event
# time, and the machine reported the burst's start. The bounds come from the ISAs' issue
# rules: a DPU issues at most one instruction per cycle (cycles >= instructions, and with 16
# tasklets on this loop one per cycle, so cycles <= instructions + 100); an MCCP core takes
# 4 cycles per ALU instruction (cycles >= 4 x instructions - 4).
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
"$X" asm --isa dpu programs/dpu/bench/alu_loop.s -o "$T/dpu.elf" -o tasklets=16 || exit 1
sh scripts/bench/le32.sh 2000000000 "$T/iters.bin"
"$X" asm --isa mccp programs/mccp/bench/alu_loop.mccp -o "$T/mccp.out" || exit 1
echo 2000000000 > "$T/mccp_iters.txt"
interrupt() { # NAME ARGS...: run, SIGINT after 1 s; leaves cycles and instructions in C and I
    name=$1; shift
    "$X" run "$@" --quiet --stats=json --stats-file "$T/$name.json" >"$T/$name.stdout" 2>"$T/$name.err" &
    pid=$!
    sleep 1
    kill -INT $pid
    wait $pid; rc=$?
    C=$(sed -n 's/^  "cycles": \([0-9]*\),/\1/p' "$T/$name.json")
    I=$(sed -n 's/^  "instructions": \([0-9]*\),/\1/p' "$T/$name.json")
    if [ $rc -ne 1 ] || ! grep -q '"kind": "interrupted"' "$T/$name.json" || [ -z "$C" ] || [ "$C" -eq 0 ] || [ "$I" -eq 0 ]; then
        echo "FAIL $name: exit $rc, cycles '$C', instructions '$I': $(cat "$T/$name.err")"; fail=1; return 1
    fi
    return 0
}
if interrupt dpu "$T/dpu.elf" --set bench_iters="$T/iters.bin"; then
    if [ "$C" -ge "$I" ] && [ "$C" -le $((I + 100)) ]; then echo "ok dpu: $C cycles, $I instructions"
    else echo "FAIL dpu: $C cycles for $I instructions (expected I <= C <= I + 100)"; fail=1; fi
fi
if interrupt mccp "$T/mccp.out" -o cores=0 --headless --load ram:64="$T/mccp_iters.txt"; then
    if [ "$C" -ge $((4 * I - 4)) ]; then echo "ok mccp: $C cycles, $I instructions"
    else echo "FAIL mccp: $C cycles for $I instructions (expected C >= 4 I - 4)"; fail=1; fi
fi
# several DPUs on two host threads: every DPU's own count is bounded by the machine's cycles
if interrupt dpus "$T/dpu.elf" -o dpus=4 -o jobs=2 -o mram=1 --set bench_iters="$T/iters.bin"; then
    maxu=$(sed -n 's/^    {"name": "dpu[0-9]*".*"instructions": \([0-9]*\),.*/\1/p' "$T/dpus.json" | sort -n | tail -1)
    if [ "$C" -ge "$maxu" ]; then echo "ok 4 dpus, jobs=2: $C cycles, busiest DPU $maxu instructions"
    else echo "FAIL 4 dpus: $C cycles but one DPU retired $maxu instructions"; fail=1; fi
fi
exit $fail
