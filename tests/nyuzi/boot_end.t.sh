#!/bin/sh
# tests/nyuzi/boot_end.t.sh: a run's first issue and its end are at the RTL's cycles (issue 15,
# session 30). Two instructions, `move s0, 1` and `setcr s0, 20` (halt thread 0); derived by
# hand from the rules (isa/nyuzi/timing.c, devices.c, pipeline.c):
# - the first code line: the fetch starts at cycle 0, ifetch_data sees the miss at 1, the
#   request's bus time is 1 + 3 = 4 (pipeline.c ICACHE_REQ), it reaches the SDRAM controller
#   at 4 + SD_PATH 8 = 12, which finishes its start-up sequence at SD_INIT 15: 3 cycles more,
#   then opens the closed bank's row (SD_ACT 2): the read starts at 9, the line is there
#   mem_latency 45 later at 54, the fetch resumes ICACHE_HIDE 10 before it, at 44, and the
#   instruction issues FE_DEPTH 4 later: 48 (RTL trace of every program: ifetch miss at 1,
#   grant 2, address phase 8, restart 37, response 41, first issue 48; at 13deb04: 50);
# - the setcr reads s0 int_latency 5 after the move: issue 53;
# - the run ends 4 cycles after the halting setcr issues (RTL trace of cycles.S: the setcr
#   issues at 757, "ran for 761"): 57 (at 13deb04 the end was the setcr + 1: 56).
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
printf '    .text\n    .globl _start\n_start:\n    move s0, 1\n    setcr s0, 20\n' > "$T/p.S"
"$X" asm --isa nyuzi "$T/p.S" -o "$T/p.elf" || { echo "FAIL: asm"; exit 1; }
"$X" run "$T/p.elf" --isa nyuzi --trace "$T/tr" > "$T/out" 2>&1 || { echo "FAIL: run"; cat "$T/out"; exit 1; }
fail=0
first=$(awk 'NR == 1 {print $1}' "$T/tr"); second=$(awk 'NR == 2 {print $1}' "$T/tr")
end=$(sed -n 's/^cycles: \([0-9]*\).*/\1/p' "$T/out")
[ "$first" = 48 ] && echo "ok: first issue 48" || { echo "FAIL: first issue $first, expected 48"; fail=1; }
[ "$second" = 53 ] && echo "ok: setcr issues at 53" || { echo "FAIL: setcr at $second, expected 53"; fail=1; }
[ "$end" = 57 ] && echo "ok: the run ends at 57" || { echo "FAIL: the run ends at $end, expected 57"; fail=1; }
exit $fail
