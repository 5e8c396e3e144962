#!/bin/sh
# tests/cert/tasks.t.sh: CERT jobs as tasks (issue 11 pt 5, core/task.h) and uC-DMA writes
# under watchpoints (pt 3). tests/cert/debug/two.asm (its comment derives the cycles from the
# default latencies) has jobs 1 and 2 on uC 0's page 0, job 3 on page 1 and job 4 on uC 1.
# Each job is a task on its job-table slot from its START_JOB to its END_JOB:
#  - job 1 is parsed when page 0's fetch ends (275) and takes slot 0; job 2 is parsed one
#    START_JOB later (cost_job 30: 305) into slot 1; page 1 starts when page 0's last job
#    (job 2) has ended (its fetch, prefetched, was done long before), so job 3 begins at job
#    2's end, in slot 0 again: two tasks on one thread; uC 0 ends with job 3 at 977;
#  - every cycle of a job is an issue cycle (opcode costs, scheduler passes) or a stall by
#    cause (tasks_json.py --busy), and the tasks of a slot add up to the slot thread's counts
#    (tasks_json.py also checks the members against docs/stats-schema.md);
#  - at a deadlock the jobs still bound are "running" to the stop; after a fast-forward the
#    tasks are the timed part's;
#  - the trace marks each begin and end, `info tasks` lists them;
#  - a watch on the array words the uC-DMA writes (job 1's chain: 8 words at 0x041A0000)
#    stops the run naming the uC-DMA and the slot that queued it; a watch on the register
#    job 2's WRITE_32 writes (0x041A0634) stops after that opcode, as the instruction's write.
set -u
X=${XPUSIM:-build/xpusim}
D=$(dirname "$0")
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 0; }
AIEBU=; "$X" isas | grep -q -- '-o aiebu=' && AIEBU="-o aiebu=2025.02"
"$X" asm --isa cert $AIEBU "$D/debug/two.asm" -o "$T/two.elf" || { echo "FAIL: assembling two.asm"; exit 1; }

# statistics: JSON checked, then the derived cycles
"$X" run "$T/two.elf" --quiet --stats=json --stats-file "$T/s.json" >"$T/out" 2>&1 || no "run: $(tail -3 "$T/out")"
python3 "$D/tasks_json.py" "$T/s.json" --busy >"$T/tasks" || no "tasks JSON: $(cat "$T/tasks")"
line() { grep -- "| $1\$" "$T/tasks"; }
line "job 1 page 0" | grep -q '^uc0 0 0 ended 275 ' || no "job 1: $(line 'job 1 page 0'), expected slot 0 from 275"
line "job 2 page 0" | grep -q '^uc0 1 1 ended 305 ' || no "job 2: $(line 'job 2 page 0'), expected slot 1 from 305"
end2=$(line "job 2 page 0" | awk '{ print $6 }')
line "job 3 page 1" | grep -q "^uc0 0 2 ended $end2 977 " || no "job 3: $(line 'job 3 page 1'), expected slot 0 from $end2 (job 2's end) to 977"
line "job 4 page 0" | grep -q '^uc1 0 0 ended ' || no "job 4: $(line 'job 4 page 0')"
[ "$(wc -l <"$T/tasks")" = 4 ] || no "4 tasks expected: $(cat "$T/tasks")"

# a hang (the debug test's variant: no token bit, so job 2 waits for a token for ever and
# job 4 for uC 0 at the remote barrier; the run stops as a deadlock at 738): jobs 2 and 4 are
# still bound, "running" to the stop with their counts so far (a wait is booked when it
# ends, so no --busy: their pending waits are not in their stalls, as not in their slots')
sed 's/0x41A0634, 0x80000000/0x41A0634, 0x00000000/' "$D/debug/two.asm" >"$T/hang.asm"
"$X" asm --isa cert $AIEBU "$T/hang.asm" -o "$T/hang.elf" || no "assembling the hang variant"
"$X" run "$T/hang.elf" --quiet --stats=json --stats-file "$T/h.json" >/dev/null 2>&1
python3 "$D/tasks_json.py" "$T/h.json" >"$T/h" || no "hang tasks JSON: $(cat "$T/h")"
printf 'uc0 0 0 ended 275 611 9 | job 1 page 0\n' >"$T/hw"
grep -q '^uc0 1 1 running 305 738 [0-9]* | job 2 page 0$' "$T/h" && grep -q '^uc1 0 0 running [0-9]* 738 [0-9]* | job 4 page 0$' "$T/h" &&
    grep -qxF "$(cat "$T/hw")" "$T/h" || no "hang tasks: $(cat "$T/h")"

# text statistics: a tasks part with a line per job
"$X" run "$T/two.elf" --quiet --stats=text --stats-file "$T/s.txt" >/dev/null 2>&1
grep -q '^  uc0: 3 tasks (0 running)$' "$T/s.txt" || no "text: $(sed -n '/^tasks:/,$p' "$T/s.txt")"
grep -q '^    task 2 job 3 page 1 (id 3) thread 0: cycles [0-9]* ([0-9]*-977), instructions 5, ' "$T/s.txt" ||
    no "text job 3: $(grep 'job 3' "$T/s.txt")"

# after a fast-forward (20 instructions functionally: job 1's nine, then START_JOB 2 .. ),
# the tasks are the timed part's, as the threads' counts: job 1 ended before the switch and
# is left out, a job that spans it counts from it (and still adds up to its slot's timed
# counts: tasks_json.py without --busy, since a wait begun before the switch is booked after
# it), job 3 runs wholly after it: its 142 cycles, 5 instructions as in the plain run
"$X" run "$T/two.elf" --quiet --fast-forward insns:20 --stats=json --stats-file "$T/ff.json" >/dev/null 2>&1
python3 "$D/tasks_json.py" "$T/ff.json" >"$T/ff" || no "fast-forward tasks JSON: $(cat "$T/ff")"
grep -q '| job 1 page 0$' "$T/ff" && no "job 1 ended in the functional part but is listed: $(cat "$T/ff")"
grep -q ' 5 | job 3 page 1$' "$T/ff" || no "job 3 after the switch: $(grep 'job 3' "$T/ff")"
# (begin and end count from the switch: 142 = end - begin)
awk '/job 3 page 1$/ { exit !($6 - $5 == 142) }' "$T/ff" || no "job 3's cycles after the switch: $(grep 'job 3' "$T/ff")"
"$X" run "$T/two.elf" --quiet --fast-forward insns:20 --stats=text --stats-file "$T/ff.txt" >/dev/null 2>&1
grep -q "^  uc0: 3 tasks (0 running, 1 ended before the fast-forward's switch, not listed)\$" "$T/ff.txt" ||
    no "fast-forward text: $(grep 'uc0:' "$T/ff.txt")"

# the trace: a marker before a job's START_JOB and after its END_JOB
"$X" run "$T/two.elf" --quiet --trace "$T/trace" >/dev/null 2>&1
grep -A1 -- 'col0.uc0 t1  -- task 1 begins: job 2 page 0$' "$T/trace" | grep -q 'START_JOB 0x2$' ||
    no "trace: no begin marker before job 2's START_JOB: $(grep -A1 'task 1 begins' "$T/trace")"
grep -q -- "^ *$end2 col0.uc0 t1  -- task 1 ends: job 2 page 0 (7 instructions, [0-9]* cycles)\$" "$T/trace" ||
    no "trace: job 2's end marker: $(grep 'task 1 ends' "$T/trace")"

# the debugger: a uC-DMA write stops a watch, `info tasks` at that stop and at the end
cat >"$T/w.x" <<'EOF'
watch array:0x41a0000,32
continue
info tasks
continue
info tasks
EOF
"$X" debug "$T/two.elf" -x "$T/w.x" >"$T/d" 2>&1
grep -q '^uc0 thread 0 stopped at cycle [0-9]*: watchpoint 1: uC-DMA write of array:0x41a0000 (4 units) for uc0 thread 0$' "$T/d" ||
    no "uC-DMA watch: $(grep -i 'stopped\|watch' "$T/d")"
[ "$(grep -c 'running since' "$T/d")" = 3 ] || no "info tasks at the DMA stop (jobs 1, 2, 4 running): $(grep task "$T/d")"
grep -q '^uc0        thread 1  task 1    job 2 page 0  *id 2  *running since 305: ' "$T/d" || no "job 2 running: $(grep 'job 2' "$T/d")"
grep -q '^halted at cycle 977' "$T/d" || no "the run goes on to its end after the DMA stop: $(grep -i halt "$T/d")"
[ "$(grep -c ' ended ' "$T/d")" = 4 ] || no "info tasks at the end (4 ended): $(grep ended "$T/d")"
# one unit's tasks (`info tasks UNIT`, by name or path), a unit that does not exist
printf 'continue\ninfo tasks uc1\ninfo tasks col0.uc0\ninfo tasks nope\n' >"$T/u.x"
"$X" debug "$T/two.elf" -x "$T/u.x" >"$T/du" 2>&1
[ "$(grep -c ' ended ' "$T/du")" = 4 ] && grep -q '^uc1  *thread 0  task 0    job 4 page 0 ' "$T/du" &&
    grep -q "^error: info tasks: no unit 'nope'" "$T/du" || no "info tasks UNIT: $(cat "$T/du")"

# the transfer completed at the stop: the statistics of a plain run (all but the host line)
printf 'watch array:0x41a0000,32\ncontinue\ncontinue\ninfo stats\n' >"$T/w2.x"
"$X" debug "$T/two.elf" -x "$T/w2.x" 2>&1 | sed -n '/^== statistics/,/^host:/p' | grep -v '^host:' >"$T/b"
grep -v '^host:' "$T/s.txt" >"$T/a"
cmp -s "$T/a" "$T/b" || no "statistics after a uC-DMA watch stop differ from a plain run: $(diff "$T/a" "$T/b" | head -5)"
# an opcode's AXI write: the instruction's own access
printf 'watch array:0x41a0634\ncontinue\n' >"$T/w3.x"
"$X" debug "$T/two.elf" -x "$T/w3.x" >"$T/d3" 2>&1
grep -q '^uc0 thread 1 stopped at cycle 623: watchpoint 1: write of array:0x41a0634 by the instruction at 0x60$' "$T/d3" ||
    no "WRITE_32 watch: $(grep -i 'stopped\|watch' "$T/d3")"
[ $fail -eq 0 ] && echo "ok: CERT jobs as tasks (statistics, fast-forward, trace, info tasks) and uC-DMA watchpoints"
exit $fail
