#!/bin/sh
# tests/cli/results_corpus.t.sh: simulated results unchanged (issue 9 pt 2). Runs every
# program of tests/results/corpus.txt (programs of every ISA at small sizes) and compares,
# with the references in tests/results/expected/ taken at commit 177d8e0 (before the speed
# work), cycle for cycle: the full JSON statistics (every unit, thread, stall cause and
# counter; only the "host" line, the host's own time, and the schema number are left
# out, and model options added since may be there), an FNV-1a 64 hash of every memory region after the run (--mem-hash), and the
# program's output with its exit status. A regression check, not a validation: the references are what the simulator did
# then (tests/results/README.md). RESULTS_RECORD=1 rewrites the references instead (only
# when a change of results is the point; say why in the commit). RESULTS_ONLY="name ..."
# runs those lines only; PRIM=DIR also runs the SDK-built PrIM kernels (see corpus.txt).
set -u
X=${XPUSIM:-build/xpusim}
R=${XPUSIM_ROOT:-.}
C=$R/tests/results
E=$C/expected
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export X T
I=$C/inputs; export I
cd "$R" || exit 1
fail=0; n=0; skipped=0; PRIM=${PRIM:-}; export PRIM
[ "${RESULTS_RECORD:-0}" = 1 ] && mkdir -p "$E"
# a run's results, with what depends on the host taken out: the host-time line of the
# JSON, and the scratch directory's name in messages; and the JSON's schema number (a
# format version, docs/stats-schema.md: schema 2 added members, it changed no count)
# The "tasks" member (core/task.h) is left out as well: the counts of the threads' tasks,
# views of the thread counts compared here (tests/cert/tasks.t.sh, tests/ipu/tasks.t.sh check
# them).
clean() { grep -v -e '^  "host": ' "$1" | sed -e "s|$T|\$T|g" -e '/^  "tasks": \[/,/^  \],$/d'; }
# The "options" line is compared apart: a model option added since the reference (an ISA's
# new -o key, listed with its default) changes no result, so every option of the reference
# must be there with its value, and new ones may be added.
# The "groups" line (schema 3, a machine with groups: IPU, CERT) is left out too: it holds
# subtotals of the units' counts compared here, no count of its own (tests/cli/group_stats.t.sh
# checks that they add up).
noschema() { grep -v -e '^  "schema": ' -e '^  "options": ' -e '^  "groups": ' "$1"; }
same_options() { # REFERENCE.json GOT.json
    sed -n 's/^  "options": {\(.*\)},$/\1/p' "$2" | sed 's/", "/"\n"/g' > "$T/opt.got"
    sed -n 's/^  "options": {\(.*\)},$/\1/p' "$1" | sed 's/", "/"\n"/g' | while IFS= read -r kv; do
        grep -qxF -- "$kv" "$T/opt.got" || { echo "FAIL $name: option $kv of the reference is not in the run's"; exit 1; }
    done
}
[ -x "$X" ] || { echo "FAIL: no xpusim binary at $X"; exit 1; }
# the ISAs of this build; a line's ISA is its name up to the first _
isas=$("$X" isas | awk '/^[a-z0-9]+  / { print $1 }' | tr '\n' ' '); noisa=0
tab=$(printf '\t')
grep -v '^[[:space:]]*\(#\|$\)' "$C/corpus.txt" | sed "s/[[:space:]]*|[[:space:]]*/$tab/g" > "$T/corpus.tsv"
while IFS=$tab read -r name setup args; do
    if [ -n "${RESULTS_ONLY:-}" ]; then case " $RESULTS_ONLY " in *" $name "*) ;; *) continue ;; esac; fi
    # a build without this ISA (make ISAS=...): the line cannot run here
    case " $isas " in *" ${name%%_*} "*) ;; *) noisa=$((noisa + 1)); continue ;; esac
    case "$setup$args" in *'$PRIM'*)
        if [ -z "${PRIM:-}" ]; then skipped=$((skipped + 1)); continue; fi ;; esac
    n=$((n + 1))
    if [ "$setup" != - ] && ! sh -c "$setup" > "$T/setup.log" 2>&1; then
        echo "FAIL $name: set-up failed: $(head -c 400 "$T/setup.log")"; fail=1; continue
    fi
    rm -f "$T/s.json" "$T/m.txt"
    eval "set -- $args"
    "$X" run "$@" --quiet --stats=json --stats-file "$T/s.json" --mem-hash "$T/m.txt" > "$T/o.txt" 2>&1 < /dev/null
    echo "exit status $?" >> "$T/o.txt"
    for k in json mem out; do
        case $k in json) f=$T/s.json ;; mem) f=$T/m.txt ;; out) f=$T/o.txt ;; esac
        [ -f "$f" ] || : > "$f"
        clean "$f" > "$T/got.$k"
        if [ "${RESULTS_RECORD:-0}" = 1 ]; then cp "$T/got.$k" "$E/$name.$k"; continue; fi
        if [ ! -f "$E/$name.$k" ]; then echo "FAIL $name: no reference $E/$name.$k"; fail=1
        elif noschema "$E/$name.$k" > "$T/want"; noschema "$T/got.$k" > "$T/got"; ! cmp -s "$T/got" "$T/want"; then
            echo "FAIL $name: $k differs from the reference (expected <, got >):"
            diff "$T/want" "$T/got" | head -20; fail=1
        elif [ $k = json ] && ! same_options "$E/$name.json" "$T/got.json"; then
            fail=1
        fi
    done
done < "$T/corpus.tsv"
[ $n -gt 0 ] || [ $noisa -eq 0 ] || { echo "SKIP: none of the corpus's ISAs is in this build ($isas)"; exit 0; }
[ $n -gt 0 ] || { echo "FAIL: no corpus line ran"; exit 1; }
[ $noisa -eq 0 ] || echo "note: $noisa lines skipped (their ISA is not in this build: $isas)"
if [ "${RESULTS_RECORD:-0}" = 1 ]; then echo "recorded $n references in $E"; exit 0; fi
[ $skipped -eq 0 ] || echo "note: $skipped lines skipped (SDK-built PrIM kernels: set PRIM to their directory)"
[ $fail -eq 0 ] && echo "ok: $n corpus programs give the reference statistics, memory and output, cycle for cycle"
exit $fail
