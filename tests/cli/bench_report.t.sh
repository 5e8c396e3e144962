#!/bin/sh
# tests/cli/bench_report.t.sh: the arithmetic of `make bench` (scripts/bench/report.awk) on
# made-up runs whose answers are worked out here by hand, so a change to the report that
# computes a ratio wrongly, loses a spread or lets a failed check pass is caught without
# timing anything (speed itself is never asserted by tests).
# Rows: the ceiling; row A with peer P; row B whose ceiling companion run failed its check.
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
tab=$(printf '\t')
{
    printf 'c.bench:1\trow\tceiling\tceiling loop\tceiling\t-\t240\t-\n'
    printf 'x.bench:1\trow\tA\trow A\txpusim\t-\t-\t-\n'
    printf 'x.bench:2\tpeer\tP\tpeer of A\tpeer_tool\t-\t-\tA\n'
    printf 'x.bench:3\trow\tB\trow B\txpusim\t-\t-\t-\n'
} > "$T/rows.tsv"
# runs: id run wall inloop instructions cycles result status
# The ceiling row runs at 100/s (once, first). A runs at 500/s in-loop in every run; its
# companions (ceiling@A) at 1000, 2000 and 500/s: per-run ratios 0.5, 0.25, 1.0 -> median
# 0.50 (0.25-1.00). The once-timed ceiling would have said 5.0: the test tells them apart.
# x peer compares whole-process rates: A 500/2 = 250/s each run, P 1000/4, 1000/2, 1000/8 =
# 250, 500, 125/s -> per pair 1, 0.5, 2 -> 1.00 (0.50-2.00). P's x ceiling (whole process,
# "w") uses A's companions: 250/1000, 500/2000, 125/500 = 0.25 each. B (300/s in-loop) has
# no valid companion: the row fails, and its x ceiling falls back to the ceiling row's
# median rate, 300/100 = 3.00.
cat > "$T/runs.txt" <<'R'
ceiling 1 10 10 1000 - 7 ok
A 1 2 1 500 9 - ok
P 1 4 - 1000 - - ok
ceiling@A 1 1 1 1000 - 7 ok
A 2 2 1 500 9 - ok
P 2 2 - 1000 - - ok
ceiling@A 2 1 0.5 1000 - 7 ok
A 3 2 1 500 9 - ok
P 3 8 - 1000 - - ok
ceiling@A 3 2 2 1000 - 7 ok
B 1 2 1 300 9 - ok
ceiling@B 1 1 1 1000 - 6 result=6-expected-7
R
: > "$T/notes.txt"
awk -v date=D -v commit=C -v cpu=cpu -v ncpu=2 -v runs=3 -v load0=0 -v load1=0 \
    -v hist="$T/h.csv" -v md="$T/t.md" -v notes="$T/notes.txt" -v minsec=1 \
    -f scripts/bench/report.awk "$T/rows.tsv" "$T/runs.txt" > "$T/out" 2>&1
rc=$?
expect() { # NAME PATTERN (a fixed string that must appear in the Markdown table)
    if grep -qF -- "$2" "$T/t.md"; then echo "ok $1"; else echo "FAIL $1: no '$2' in:"; cat "$T/t.md"; fail=1; fi
}
expect "peer x ceiling from its row's runs, whole process" "| peer of A | 0.25 w (0.25-0.25) | (peer) |"
expect "row A x ceiling per run, x peer per pair" "| row A | 0.50 (0.25-1.00) | 1.00 (0.50-2.00) |"
expect "failed companion fails the row" "| row B | 3.00 (3.00-3.00) | - | 0 | 2.000 (2.000-2.000) | 1.000 (1.000-1.000) | 300 | FAIL ceiling companion: result=6-expected-7 |"
expect "ceiling row's own rate" "| ceiling loop | 1.00 (1.00-1.00) | - | 0 |"
if [ $rc -eq 1 ]; then echo "ok exit status 1 when a companion failed"
else echo "FAIL exit status $rc, expected 1"; cat "$T/out"; fail=1; fi
# the history lines: A with the per-run median ratios, B marked FAIL
if grep -qx 'D,C,A,2.000000,2.000000,2.000000,0.5000,1.0000,1.000000,1.000000,1.000000,3,ok' "$T/h.csv" &&
   grep -q '^D,C,B,.*,FAIL$' "$T/h.csv"; then echo "ok history lines"
else echo "FAIL history lines:"; cat "$T/h.csv"; fail=1; fi
exit $fail
