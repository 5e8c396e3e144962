#!/bin/sh
# scripts/bench.sh: `make bench`, the speed of the simulator (not of the simulated program),
# measured so the numbers can be trusted on a shared, noisy host. Rows come from
# tests/bench/*.bench (the ceiling row, first) and programs/*/bench/*.bench, one per line:
#     row  | ID | NAME | TOOL | SETUP | ARGUMENTS
#     peer | ID | NAME | TOOL | SETUP | ARGUMENTS     (the peer of the row above it)
# TOOL is xpusim, ceiling (tests/bench/ceiling.c) or an external program found as $TOOL_NAME
# upper-cased (nyuzi_emulator: $NYUZI_EMULATOR) or on PATH; a peer whose program is not there
# is left out. SETUP ("-" for none) runs once, untimed, through sh with $X = xpusim.
# Every row runs BENCH_RUNS (at least 5) times, interleaved with its peer and with a shorter
# run of the ceiling (A B C A B C ...: the ratio to the ceiling is taken per run); each
# run is timed as a whole process by walltime (tests/bench/walltime.c), and its statistics
# (instructions, cycles, result) are checked against the ID's line in the *.expected file
# next to the .bench file: a mismatch or a failed run marks the row FAIL and the exit status
# non-zero. scripts/bench/report.awk then prints medians, min-max and the ratios, appends one
# CSV line per row to the history file and writes the table of docs/performance.md.
# Usage: sh scripts/bench.sh XPUSIM BENCH-DIR (BENCH-DIR holds the built ceiling and walltime).
# Environment: BENCH_RUNS (5), BENCH_HISTORY (BENCH-DIR/history.csv), BENCH_DOC
# (docs/performance.md; empty: leave it; also left with BENCH_ONLY, fewer than 5 runs or a
# failure), BENCH_ONLY (row IDs to run, e.g. "dpu16 nyuzi4"; the ceiling always runs),
# BENCH_MIN_SECONDS (1: a row whose median whole-process run is shorter is marked "short").
# Rows of functional runs (-o timing=none in ARGUMENTS) are rows like any other: their
# expected cycles are the issue steps the functional mode counts.
X=${1:-build/xpusim}
B=${2:-build/bench}
RUNS=${BENCH_RUNS:-5}
HISTORY=${BENCH_HISTORY:-$B/history.csv}
DOC=${BENCH_DOC-docs/performance.md}
PAIR_ARGS=120000000 # the ceiling's companion runs: half the ceiling row (ceiling-pair in ceiling.expected)
export X
die() { echo "bench: $*" >&2; exit 2; }
case "$RUNS" in ''|*[!0-9]*) die "BENCH_RUNS='$RUNS' is not a number" ;; esac
[ "$RUNS" -ge 1 ] || die "BENCH_RUNS must be at least 1"
[ "$RUNS" -ge 5 ] || echo "bench: BENCH_RUNS=$RUNS is below 5: spreads are not meaningful" >&2
for f in "$X" "$B/ceiling" "$B/walltime"; do [ -x "$f" ] || die "$f is not built (make bench builds it)"; done
W=$B/walltime
mkdir -p "$B/runs" || die "cannot create $B/runs"

# 1. The definitions, checked and normalised: one tab-separated line per row, empty fields
#    as "-": where, role, id, name, tool, setup, args, peer-of.
defs=$B/rows.tsv; expect=$B/expected.txt
awk -F'|' '
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s == "" ? "-" : s }
function bad(m) { printf "bench: %s:%d: %s\n", FILENAME, FNR, m > "/dev/stderr"; err = 1 }
/^[ \t]*(#|$)/ { next }
{
    if (NF != 6) { bad("expected 6 |-separated fields (row|peer, ID, name, tool, setup, args), got " NF); next }
    role = trim($1); id = trim($2)
    if (role != "row" && role != "peer") { bad("first field must be row or peer, not " role); next }
    if (id !~ /^[A-Za-z0-9_.-]+$/) { bad("bad ID \"" id "\" (letters, digits, . _ -)"); next }
    if (id in seen) { bad("ID " id " defined twice"); next }
    seen[id] = 1
    if (role == "peer" && last == "") { bad("a peer line must follow a row line"); next }
    if (role == "row") last = id
    printf "%s:%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", FILENAME, FNR, role, id, trim($3), trim($4),
        trim($5), trim($6), role == "peer" ? last : "-"
    if (role == "peer") last = ""
}
END { exit err }' tests/bench/*.bench programs/*/bench/*.bench > "$defs" || exit 2
awk '/^[ \t]*(#|$)/ { next } { print }' tests/bench/*.expected programs/*/bench/*.expected > "$expect"

# The program of a TOOL, or nothing when it is not there.
tool_path() {
    case "$1" in
    xpusim) echo "$X" ;;
    ceiling) echo "$B/ceiling" ;;
    *) v=$(echo "$1" | tr 'a-z-' 'A-Z_'); eval "p=\${$v:-}"
       [ -n "$p" ] || p=$(command -v "$1" 2>/dev/null)
       [ -n "$p" ] && [ -x "$p" ] && echo "$p" ;;
    esac
}

# One timed run: appends "id run wall inloop instructions cycles result status" to runs.txt.
# status is ok, or what went wrong (no spaces).
run_one() { # id tool path args run-number [expected-id] (sh has no locals: r_ names)
    r_id=$1; r_tool=$2; r_path=$3; r_args=$4; r_n=$5; r_exp=${6:-$1}
    rm -f "$B/s.json" "$B/t"
    eval "set -- $r_args"
    case "$r_tool" in
    xpusim) "$W" "$B/t" "$r_path" run "$@" --quiet --stats=json --stats-file "$B/s.json" >"$B/out.log" 2>&1 ;;
    ceiling) "$W" "$B/t" "$r_path" "$@" --stats-file "$B/s.json" >"$B/out.log" 2>&1 ;;
    *) "$W" "$B/t" "$r_path" "$@" >"$B/out.log" 2>&1 ;;
    esac
    rc=$?
    wall=$(cat "$B/t" 2>/dev/null); [ -n "$wall" ] || wall=-
    if [ -f "$B/s.json" ]; then
        stats=$(awk '/^  "instructions": / { i = $2 } /^  "cycles": / { c = $2 } /^  "result": / { r = $2 }
            /^  "host": / { for (k = 1; k < NF; k++) if ($k == "{\"seconds\":") s = $(k + 1) }
            END { gsub(/,/, "", i); gsub(/,/, "", c); gsub(/,/, "", r); gsub(/,/, "", s)
                  print (s == "" ? "-" : s), (i == "" ? "-" : i), (c == "" ? "-" : c), (r == "" ? "-" : r) }' "$B/s.json")
    else # an external program: the first number on the first line of its output that
         # mentions instructions (the Nyuzi emulator: "N total instructions")
        stats="- $(awk '/instructions/ { if (match($0, /[0-9]+/)) { print substr($0, RSTART, RLENGTH); f = 1; exit } }
            END { if (!f) print "-" }' "$B/out.log") - -"
    fi
    st=ok
    if [ $rc -ne 0 ]; then
        st="exit-$rc"
        echo "bench: $r_id run $r_n: exit status $rc: $(head -c 300 "$B/out.log")" >&2
    else
        st=$(echo "$stats" | awk -v id="$r_exp" -v f="$expect" '
            BEGIN { while ((getline l < f) > 0) { split(l, w, /[ \t]+/); if (w[1] == id) line = l } }
            { got["inloop"] = $1; got["instructions"] = $2; got["cycles"] = $3; got["result"] = $4 }
            END {
                if (line == "") { print "no-expected-result"; exit }
                n = split(line, w, /[ \t]+/); s = "ok"
                for (k = 2; k <= n; k++) {
                    if (w[k] ~ /^#/) break
                    split(w[k], kv, "=")
                    if (!(kv[1] in got) || kv[1] == "inloop") { s = "bad-expected-key-" kv[1]; break }
                    if (got[kv[1]] != kv[2]) { s = kv[1] "=" got[kv[1]] "-expected-" kv[2]; break }
                }
                print s }')
        [ "$st" = ok ] || echo "bench: $r_id run $r_n: $st" >&2
    fi
    echo "$r_id $r_n $wall $stats $st" >> "$B/runs.txt"
}

# 2. Run: each row with its peer, interleaved.
: > "$B/runs.txt"; : > "$B/notes.txt"
load0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
tab=$(printf '\t')
ids=$(awk -F'\t' '$2 == "row" { print $3 }' "$defs")
for id in $ids; do
    if [ -n "$BENCH_ONLY" ] && [ "$id" != ceiling ]; then
        case " $BENCH_ONLY " in *" $id "*) ;; *) continue ;; esac
    fi
    line=$(awk -F'\t' -v id="$id" '$3 == id' "$defs")
    pline=$(awk -F'\t' -v id="$id" '$8 == id' "$defs")
    IFS=$tab read -r where role rid name tool setup args peerof <<EOF
$line
EOF
    path=$(tool_path "$tool") || { echo "$where: $tool is not there" >> "$B/notes.txt"; continue; }
    [ "$setup" = - ] || sh -c "$setup" > "$B/setup.log" 2>&1 ||
        { echo "bench: $where: setup failed (see $B/setup.log)" >&2
          echo "$id 0 - - - - - setup-failed" >> "$B/runs.txt"; continue; }
    [ "$args" = - ] && args=
    pid=
    if [ -n "$pline" ]; then
        IFS=$tab read -r pwhere prole pid pname ptool psetup pargs ppeerof <<EOF
$pline
EOF
        [ "$pargs" = - ] && pargs=
        if ! ppath=$(tool_path "$ptool"); then
            v=$(echo "$ptool" | tr 'a-z-' 'A-Z_')
            echo "$pid ($pname) not run: $ptool not found (set $v or put it on PATH)" >> "$B/notes.txt"; pid=
        elif [ "$psetup" != - ] && ! sh -c "$psetup" > "$B/setup.log" 2>&1; then
            echo "bench: $pwhere: setup failed (see $B/setup.log)" >&2
            echo "$pid 0 - - - - - setup-failed" >> "$B/runs.txt"; pid=
        fi
    fi
    with=$pid; [ "$id" = ceiling ] || with="${pid:+$pid and }ceiling@$id"
    echo "bench: $id${with:+ interleaved with $with}, $RUNS runs" >&2
    i=1
    while [ $i -le "$RUNS" ]; do
        run_one "$id" "$tool" "$path" "$args" $i
        [ -z "$pid" ] || run_one "$pid" "$ptool" "$ppath" "$pargs" $i
        # the ceiling's companion run, right after: this row's x ceiling is the ratio per
        # pair, so host drift between rows (the clock, other jobs) moves both sides alike
        [ "$id" = ceiling ] || run_one "ceiling@$id" ceiling "$B/ceiling" "$PAIR_ARGS" $i ceiling-pair
        i=$((i + 1))
    done
done
load1=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)

# 3. Report: table on stdout, history, and the table section of the doc.
date=$(date -u +%Y-%m-%dT%H:%MZ)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -z "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] || commit=$commit-dirty
cpu=$(sed -n 's/^model name[ \t]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?')
[ -f "$HISTORY" ] || { mkdir -p "$(dirname "$HISTORY")" &&
    echo "date,commit,row,median_s,min_s,max_s,ratio,ratio_peer,inloop_median_s,inloop_min_s,inloop_max_s,runs,status" > "$HISTORY"; } ||
    die "cannot write $HISTORY"
awk -v date="$date" -v commit="$commit" -v cpu="$cpu" -v ncpu="$ncpu" -v runs="$RUNS" \
    -v load0="$load0" -v load1="$load1" -v hist="$HISTORY" -v md="$B/table.md" \
    -v notes="$B/notes.txt" -v minsec="${BENCH_MIN_SECONDS:-1}" -f scripts/bench/report.awk "$defs" "$B/runs.txt"
status=$?
[ $status -eq 0 ] || echo "bench: FAIL: some rows failed their runs or their expected-result check" >&2
if [ -n "$DOC" ] && [ -z "$BENCH_ONLY" ] && [ "$RUNS" -ge 5 ] && [ $status -eq 0 ]; then
    begin='<!-- bench-table-begin: written by make bench (scripts/bench.sh); edits here are lost -->'
    end='<!-- bench-table-end -->'
    grep -qxF "$begin" "$DOC" && grep -qxF "$end" "$DOC" || die "$DOC has no table markers"
    awk -v b="$begin" -v e="$end" -v t="$B/table.md" '
        $0 == b { print; while ((getline l < t) > 0) print l; skip = 1; next }
        $0 == e { skip = 0 } !skip' "$DOC" > "$DOC.tmp" && mv "$DOC.tmp" "$DOC" || die "cannot write $DOC"
    echo "bench: wrote the table of $DOC" >&2
elif [ -n "$DOC" ] && [ -n "$BENCH_ONLY" ]; then
    echo "bench: $DOC left as it was (BENCH_ONLY is set)" >&2
elif [ -n "$DOC" ] && [ "$RUNS" -lt 5 ]; then
    echo "bench: $DOC left as it was (fewer than 5 runs per row)" >&2
elif [ -n "$DOC" ]; then
    echo "bench: $DOC left as it was (a row failed)" >&2
fi
exit $status
