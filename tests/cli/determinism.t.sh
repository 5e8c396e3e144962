#!/bin/sh
# tests/cli/determinism.t.sh: same program and options, same results, whatever -o jobs= says
# and however often it runs (issue 8). For each ISA, full JSON statistics (every unit and
# thread: cycles, instructions, stalls, counters, the stop with its unit, thread and cycle;
# only the host-time line is left out) and memory dumps must be byte-identical across
# -o jobs=1,2,4 and across repeated runs, for a run to completion, a run stopped by
# --max-insns and one stopped by --max-cycles. Before the fix, --max-insns with jobs=2 on
# several DPUs stopped at a different point on every run (the limit read other host
# threads' counters while they ran).
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
"$X" asm --isa dpu programs/dpu/bench/alu_loop.s -o "$T/dpu.elf" -o tasklets=16 || exit 1
sh scripts/bench/le32.sh 3000 "$T/iters.bin"
"$X" asm --isa mccp programs/mccp/bench/alu_loop.mccp -o "$T/mccp.out" || exit 1
echo 20000 > "$T/mccp_iters.txt"
"$X" asm --isa nyuzi -o define=ITERATIONS=2000 programs/nyuzi/bench/loop4.S -o "$T/nyuzi.elf" || exit 1
run_set() { # NAME ARGS...: run with jobs=1,2,4 and jobs=2 again; all outputs must be identical
    name=$1; shift
    ref=""
    for j in 1 2 4 2 1; do
        out="$T/$name.j$j.$$"
        "$X" run "$@" -o jobs=$j --quiet --stats=json --stats-file "$out.json" >"$out.txt" 2>"$out.err"
        echo "exit $?" >> "$out.txt"
        grep -v '"host":' "$out.json" >> "$out.txt"
        if [ -z "$ref" ]; then
            ref="$out.txt"
        elif ! cmp -s "$ref" "$out.txt"; then
            echo "FAIL $name: jobs=$j differs from jobs=1:"; diff "$ref" "$out.txt" | head -8; fail=1; return
        fi
        rm -f "$out.json"
        out="$out.again"
    done
    echo "ok $name: identical for jobs=1,2,4 and repeated ($(grep -m1 '"stop"' "$ref" | cut -c1-90))"
}
D="$T/dpu.elf -o dpus=8 -o mram=1 --set bench_iters=$T/iters.bin --dump wram.5:0:64 --dump wram.7:0:64"
run_set dpu-halt $D
run_set dpu-max-insns $D --max-insns 200000
run_set dpu-max-insns-small $D --max-insns 1234
run_set dpu-max-cycles $D --max-cycles 20000
M="$T/mccp.out --headless --load ram:64=$T/mccp_iters.txt --dump ram:0:8"
run_set mccp-halt $M
run_set mccp-max-insns $M --max-insns 100001
run_set mccp-max-cycles $M --max-cycles 150000
N="$T/nyuzi.elf -o cores=2"
run_set nyuzi-halt $N
run_set nyuzi-max-insns $N --max-insns 7777
run_set nyuzi-max-cycles $N --max-cycles 9999
exit $fail
