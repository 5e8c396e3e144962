#!/bin/sh
# tests/ipu/tasks.t.sh: IPU vertex runs as tasks (issue 11 pt 5, core/task.h): a task on the
# worker's thread from its `run` to its exit. tests/ipu/tasks/two_runs.S derives its timing by
# hand: W0 (thread 1) runs wa over [6, 43) and wb over [48, 85), each 37 cycles, 6
# instructions, 30 barrel stalls. Checked: the JSON (members and sums against the thread's
# counts: tests/cert/tasks_json.py), the derived numbers, the same tasks through the
# reference loop (a trace: the debugger's hooks) as through the fast loop, on three tiles
# with -o jobs=1 and 2 (each tile its own list), in the functional model, after a
# fast-forward, the trace's markers, the timeline's events, and `info tasks` at a breakpoint inside the second run.
set -u
X=${XPUSIM:-build/xpusim}
D=$(dirname "$0")
C=$D/../cert/tasks_json.py
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 0; }
"$X" asm --isa ipu "$D/tasks/two_runs.S" -o "$T/t.elf" || { echo "FAIL: assembling two_runs.S"; exit 1; }

"$X" run "$T/t.elf" --quiet --stats=json --stats-file "$T/s.json" >"$T/out" 2>&1 || no "run: $(tail -3 "$T/out")"
python3 "$C" "$T/s.json" >"$T/tasks" || no "tasks JSON: $(cat "$T/tasks")"
printf 'tile0 1 0 ended 6 43 6 | wa\ntile0 1 1 ended 48 85 6 | wb\n' >"$T/want"
cmp -s "$T/tasks" "$T/want" || no "tasks: $(cat "$T/tasks"), expected $(cat "$T/want")"
grep -q '"name": "wa", "id": [0-9]*, "state": "ended", "begin": 6, "end": 43, "cycles": 37, "instructions": 6, "issue_cycles": 6, "stalls": {"barrel": 30, ' "$T/s.json" ||
    no "wa's counts: $(grep '"wa"' "$T/s.json")"

# the reference loop (the trace turns the debugger's hooks on) gives the same tasks
"$X" run "$T/t.elf" --quiet --stats=json --stats-file "$T/tr.json" --trace "$T/trace" >/dev/null 2>&1
python3 "$C" "$T/tr.json" >"$T/tasks.tr" && cmp -s "$T/tasks" "$T/tasks.tr" || no "traced run: $(cat "$T/tasks.tr")"
grep -q '^ *6 ipu0.tile0 t1  -- task 0 begins: wa$' "$T/trace" || no "trace: begin marker of wa: $(grep 'task 0' "$T/trace")"
grep -q '^ *85 ipu0.tile0 t1  -- task 1 ends: wb (6 instructions, 37 cycles)$' "$T/trace" ||
    no "trace: end marker of wb: $(grep 'task 1' "$T/trace")"

# the timeline: an instant event at each begin and end, on W0's track (tid 1)
"$X" run "$T/t.elf" --quiet --timeline "$T/tl.json" >/dev/null 2>&1
got=$(grep -o '"name":"task [a-z]*","ph":"i","s":"t","pid":0,"tid":1,"ts":[0-9.e-]*,"args":{"cycle":[0-9]*' "$T/tl.json" |
      sed 's/"name":"task \([a-z]*\)".*"cycle":\([0-9]*\)/\1 \2/' | tr '\n' ' ')
[ "$got" = "begin 6 end 43 begin 48 end 85 " ] || no "timeline task events: '$got'"

# three tiles, each its own tasks; the same statistics on one host thread and on two
for j in 1 2; do
    "$X" run "$T/t.elf" --quiet -o tiles=3 -o jobs=$j --stats=json --stats-file "$T/j$j.json" >/dev/null 2>&1
    grep -v '"host"' "$T/j$j.json" >"$T/j$j"
done
cmp -s "$T/j1" "$T/j2" || no "tiles=3: jobs=1 and jobs=2 differ: $(diff "$T/j1" "$T/j2" | head -5)"
python3 "$C" "$T/j2.json" >"$T/tasks3" || no "tiles=3 JSON: $(cat "$T/tasks3")"
for u in 0 1 2; do
    sed "s/^tile0 /tile$u /" "$T/want"
done >"$T/want3"
cmp -s "$T/tasks3" "$T/want3" || no "tiles=3: $(cat "$T/tasks3")"

# functional model: the same two runs, 6 instructions each (no timing)
"$X" run "$T/t.elf" --quiet -o timing=none --stats=json --stats-file "$T/f.json" >/dev/null 2>&1
python3 "$C" "$T/f.json" >"$T/tasks.f" || no "functional JSON: $(cat "$T/tasks.f")"
[ "$(awk '$2 == 1 && $7 == 6' "$T/tasks.f" | wc -l)" = 2 ] || no "functional tasks: $(cat "$T/tasks.f")"

# a fast-forward of 16 instructions (the supervisor's first four and wa's six, functionally,
# then into the second run): wa ended in the functional part and is left out, wb's six
# instructions and the worker's timed counts agree (tasks_json.py)
"$X" run "$T/t.elf" --quiet --fast-forward insns:16 --stats=json --stats-file "$T/ff.json" >/dev/null 2>&1
python3 "$C" "$T/ff.json" >"$T/tasks.ff" || no "fast-forward JSON: $(cat "$T/tasks.ff")"
[ "$(cut -d'|' -f2 "$T/tasks.ff" | tr -d ' \n')" = wb ] && awk '{ exit !($7 == 6) }' "$T/tasks.ff" ||
    no "fast-forward tasks: $(cat "$T/tasks.ff")"

# the debugger: inside wb, wa has ended and wb runs on thread 1 since its run at 48; the ids
# are the entries: wa at 0x4c000 (311296, the start of ipu2's tile memory, where the linker
# puts .text.worker), wb at 0x4c010 (311312: after wa's three 4-byte instructions, aligned to 8)
printf 'break wb\ncontinue\ninfo tasks\n' >"$T/b.x"
"$X" debug "$T/t.elf" -x "$T/b.x" >"$T/d" 2>&1
grep -q '^tile0      thread 1  task 1    wb  *id 311312  *running since 48: 0 instructions, ' "$T/d" || no "info tasks (wb): $(cat "$T/d")"
grep -q '^tile0      thread 1  task 0    wa  *id 311296  *ended   6-43: 6 instructions, 37 cycles$' "$T/d" || no "info tasks (wa): $(cat "$T/d")"
[ $fail -eq 0 ] && echo "ok: IPU vertex runs as tasks (statistics, reference and fast loops, tiles, jobs, functional, fast-forward, trace, info tasks)"
exit $fail
