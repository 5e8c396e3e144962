#!/bin/sh
# tests/cli/stats_groups.t.sh: the groups' subtotals and the tasks (docs/stats-schema.md,
# schema 3) in `xpusim stats diff` and `xpusim report`, and the GDB stub's `monitor info
# tasks` (issue 11 pts 1 and 5), on CERT with two columns: uC 0 runs c0 (START_JOB, MOV,
# SAVE_TIMESTAMPS, END_JOB: 4 instructions), uC 1 its own program (--image col1=): c1
# (START_JOB, three NOPs, SAVE_TIMESTAMPS, END_JOB: 6) in run A, c0 (4) in run B. Each uC's
# one job is its one task ("job 1 page 0"), so between A and B uC 1, group col1 and task
# uc1.0 #0 each go from 6 to 4 instructions, and uC 0, col0 and its task do not change.
# With one column (run C) group col1 and uC 1's task exist only in A. A machine without
# groups or tasks (MCCP) reports neither.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
[ -x "$X" ] || { echo "FAIL: no xpusim binary at $X"; exit 1; }
"$X" isas | grep -q '^cert' || { echo "SKIP: this build has no cert ISA"; exit 0; }
printf '.attach_to_group 0\nSTART_JOB 1\n  MOV $r3, 0x1234\n  SAVE_TIMESTAMPS 1\nEND_JOB\nEOF\n' > "$T/c0.asm"
printf '.attach_to_group 0\nSTART_JOB 1\n  NOP\n  NOP\n  NOP\n  SAVE_TIMESTAMPS 2\nEND_JOB\nEOF\n' > "$T/c1.asm"
"$X" asm --isa cert "$T/c0.asm" -o "$T/c0.elf" && "$X" asm --isa cert "$T/c1.asm" -o "$T/c1.elf" || { echo "FAIL: asm"; exit 1; }
"$X" run "$T/c0.elf" -o columns=2 --image col1="$T/c1.elf" --quiet --stats=json --stats-file "$T/a.json" || no "run A"
"$X" run "$T/c0.elf" -o columns=2 --image col1="$T/c0.elf" --quiet --stats=json --stats-file "$T/b.json" || no "run B"
"$X" run "$T/c0.elf" --quiet --stats=json --stats-file "$T/c.json" || no "run C"

# stats diff: groups by path, tasks by unit, thread and number
"$X" stats diff "$T/a.json" "$T/b.json" > "$T/ab.txt"
[ $? -eq 1 ] || no "stats diff A B: exit status (1: differences)"
for want in '  group col1 instructions: 6 -> 4 (-2, -33.33%)' \
            '  task uc1.0 #0 (job 1 page 0) instructions: 6 -> 4 (-2, -33.33%)'; do
    grep -qxF "$want" "$T/ab.txt" && echo "ok: stats diff: $want" || no "stats diff lacks '$want': $(cat "$T/ab.txt")"
done
grep -q '^  group col0 \|^  task uc0\.' "$T/ab.txt" && no "col0 and uC 0's task did not change: $(cat "$T/ab.txt")"
"$X" stats diff "$T/a.json" "$T/a.json" > "$T/aa.txt" && grep -q 'no differences' "$T/aa.txt" \
    && echo "ok: stats diff of a file with itself: no differences" || no "diff A A: $(cat "$T/aa.txt")"
"$X" stats diff "$T/a.json" "$T/c.json" > "$T/ac.txt"
grep -qxF '  group col1: only in A' "$T/ac.txt" && grep -qxF '  task uc1.0 #0: only in A' "$T/ac.txt" \
    && echo "ok: stats diff: one column fewer: group col1 and uC 1's task only in A" || no "diff A C: $(cat "$T/ac.txt")"

# report: a Groups table (each group's subtotals) and a Tasks table
"$X" report "$T/a.json" -o "$T/a.html" || no "report A"
grep -q '<h2>Groups</h2>' "$T/a.html" && grep -q '>col1</td><td>1</td><td>[0-9]*</td><td>6</td>' "$T/a.html" \
    && grep -q '>col0</td><td>1</td><td>[0-9]*</td><td>4</td>' "$T/a.html" \
    && echo "ok: report: Groups table, col0 4 and col1 6 instructions" || no "report groups: $(grep -o '<h2>[^<]*' "$T/a.html")"
grep -q '<h2>Tasks</h2>' "$T/a.html" && [ "$(grep -c '<tr class="task">' "$T/a.html")" = 2 ] \
    && grep -q '<tr class="task"><td class="l">uc1</td><td>0</td><td>0</td><td class="l">job 1 page 0</td><td class="l">ended</td><td>[0-9]*</td><td>[0-9]*</td><td>[0-9]*</td><td>6</td>' "$T/a.html" \
    && echo "ok: report: Tasks table, uC 1's job with 6 instructions" || no "report tasks: $(grep 'class="task"' "$T/a.html")"
if "$X" isas | grep -q '^mccp'; then
    "$X" asm --isa mccp programs/mccp/sum4.mccp -o "$T/sum4.out" &&
        "$X" run "$T/sum4.out" --load ram:0=programs/mccp/sum4.txt --quiet --stats=json --stats-file "$T/m.json" &&
        "$X" report "$T/m.json" -o "$T/m.html" || no "mccp report"
    grep -q '<h2>Groups</h2>\|<h2>Tasks</h2>' "$T/m.html" && no "a flat machine without tasks: no Groups or Tasks table" \
        || echo "ok: report of a flat machine: no Groups, no Tasks"
fi

# the GDB stub: monitor info tasks [UNIT] (one call to sim_tasks_write_list)
PY=$(command -v python3) || { echo "SKIP: no python3 for the GDB part"; exit $fail; }
timeout 60 "$PY" - "$X" "$T/c0.elf" "$T/c1.elf" <<'EOF' || no "gdb monitor info tasks"
import sys
sys.path.insert(0, "tests/cli")
from gdb_rsp import Server, Fail
s = Server([sys.argv[1], "gdbserver", sys.argv[2], "-o", "columns=2", "--image", "col1=" + sys.argv[3],
            "--port", "0", "--quiet"])
try:
    before = s.monitor("info tasks")
    assert before.startswith("no task has begun"), before
    r = s.ask("c")
    assert r == "W00", r
    every = s.monitor("info tasks")
    assert "uc0        thread 0  task 0    job 1 page 0" in every and "4 instructions" in every, every
    assert "uc1        thread 0  task 0    job 1 page 0" in every and "6 instructions" in every, every
    one = s.monitor("info tasks col1.uc1")
    assert "uc1 " in one and "uc0 " not in one, one
    bad = s.monitor("info tasks nosuch")
    assert "no unit 'nosuch'" in bad, bad
    s.send("k")
    s.close()
except (Fail, AssertionError) as e:
    s.kill()
    print("FAIL:", e)
    sys.exit(1)
print("ok: gdb monitor info tasks: each uC's job (4 and 6 instructions), by unit, a bad unit")
EOF
exit $fail
