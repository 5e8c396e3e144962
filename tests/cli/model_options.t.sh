#!/bin/sh
# tests/cli/model_options.t.sh: every statistics report names the model it was computed
# with (issue 11, timing as data): the text report's `model:` line and the JSON "options"
# object hold each ISA option as the run used it (given, or its default) and the watchdog;
# the DPU's tasklets is the program's NR_TASKLETS when -o tasklets is not given.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
ok() { echo "ok $1"; }
bad() { echo "FAIL $1"; fail=1; }
"$X" asm --isa dpu programs/dpu/reduce.s -o "$T/r.elf" -o tasklets=16 -o lib=programs/dpu/rt || exit 1
"$X" run "$T/r.elf" -o dma_read_alpha=90 > "$T/t.txt" 2>&1
line=$(grep '^model:' "$T/t.txt")
case "$line" in
    *"tasklets=16 "*"dma_read_alpha=90 "*"dma_write_alpha=61 "*"watchdog=100000000"*) ok "dpu text: $line" ;;
    *) bad "dpu text: '$line'" ;;
esac
"$X" run "$T/r.elf" -o tasklets=20 --quiet --stats=json --stats-file "$T/j.json" -o watchdog=123456 >/dev/null 2>&1
python3 - "$T/j.json" <<'EOP' && ok "dpu json options" || bad "dpu json: $(head -c 300 "$T/j.json")"
import json, sys
o = json.load(open(sys.argv[1]))["options"]
assert o["tasklets"] == "20" and o["chip"] == "v1a" and o["watchdog"] == "123456" and "jobs" not in o, o
EOP
"$X" asm --isa nyuzi -o define=ITERATIONS=10 programs/nyuzi/bench/loop4.S -o "$T/l.elf" || exit 1
"$X" run "$T/l.elf" -o mem_latency=20 > "$T/n.txt" 2>&1
grep '^model:' "$T/n.txt" | grep -q 'mem_latency=20' && ok "nyuzi: $(grep '^model:' "$T/n.txt")" || bad "nyuzi: $(grep '^model:' "$T/n.txt")"
exit $fail
