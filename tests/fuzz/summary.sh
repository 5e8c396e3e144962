#!/bin/sh
# tests/fuzz/summary.sh: one Markdown table row per harness from the logs of `make fuzz`
# (build/fuzz/logs/NAME.long.log): seconds run, executions, final coverage (cov: edges,
# ft: features), corpus units added, and whether libFuzzer reported a problem.
B=${1:-build/fuzz/logs}
printf '| harness | seconds | executions | cov | ft | new units | result |\n|---|---|---|---|---|---|---|\n'
for f in "$B"/*.long.log; do
    [ -f "$f" ] || continue
    n=$(basename "$f" .long.log)
    awk -v n="$n" '
        /^Done [0-9]+ runs in [0-9]+ second/ { runs = $2; secs = $5 }
        / cov: [0-9]+ ft: [0-9]+/ { for (i = 1; i < NF; i++) { if ($i == "cov:") cov = $(i + 1); if ($i == "ft:") ft = $(i + 1) } }
        /^stat::new_units_added:/ { added = $2 }
        /ERROR: |SUMMARY: |deadly signal|out-of-memory|timeout/ { bad = 1 }
        END { printf "| %s | %s | %s | %s | %s | %s | %s |\n", n, secs, runs, cov, ft, added, bad ? "FAILED (see log)" : "no failure" }' "$f"
done
