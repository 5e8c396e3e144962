#!/bin/sh
# Run every test of a build: each cmocka suite (build/tests/*/test_*) and each shell test
# (tests/*/*.t.sh, run with XPUSIM pointing at the binary). Prints one line per test program
# and a closing "N passed, N failed, N skipped" line (a shell test that prints "SKIP: why"
# and exits 0 could not run here); exits non-zero if anything failed. TEST_JOBS=N runs N
# at once (default: the number of CPUs).
BUILD=${1:-build}
export XPUSIM="$PWD/$BUILD/xpusim" XPUSIM_ROOT="$PWD" XPUSIM_BUILD="$PWD/$BUILD"
pass=0; fail=0; skip=0; failed=""
log=$BUILD/test-logs; mkdir -p "$log"
DIRS=${TEST_DIRS:-$(ls tests)}
list=""
for d in $DIRS; do
    [ -d "$BUILD/tests/$d" ] && list="$list $(find "$BUILD/tests/$d" -type f -name 'test_*' ! -name '*.d' | sort)"
    list="$list $(ls tests/$d/*.t.sh 2>/dev/null | sort)"
done
# The tests are independent (each makes its own temporary files), so TEST_JOBS of them run
# at once (default: the host's CPUs); the results are reported in list order.
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
# Start order: the tests named in tests/slow-first.txt first (longest first), then the rest;
# a suite of N at a time ends no earlier than its last-started long test.
first="" rest=""
for t in $list; do
    name=$(echo "$t" | sed "s|^$BUILD/tests/||; s|^tests/||")
    if grep -qxF "$name" tests/slow-first.txt 2>/dev/null; then first="$first $t"; else rest="$rest $t"; fi
done
ordered=""
for s in $(grep -v '^#' tests/slow-first.txt 2>/dev/null); do
    for t in $first; do
        name=$(echo "$t" | sed "s|^$BUILD/tests/||; s|^tests/||")
        [ "$name" = "$s" ] && ordered="$ordered $t"
    done
done
for t in $ordered $rest; do
    name=$(echo "$t" | sed "s|^$BUILD/tests/||; s|^tests/||")
    out="$log/$(echo "$name" | tr '/' '_').log"
    rm -f "$out.rc"
    printf '%s\n%s\n' "$t" "$out"
done | xargs -d '\n' -n 2 -P "$jobs" sh tests/run-one.sh
for t in $list; do
    name=$(echo "$t" | sed "s|^$BUILD/tests/||; s|^tests/||")
    out="$log/$(echo "$name" | tr '/' '_').log"
    rc=127 secs=0 # no status file: the runner itself could not start the test
    [ -f "$out.rc" ] && read -r rc secs <"$out.rc"
    if [ "$rc" -eq 0 ] && grep -q '^SKIP:' "$out"; then
        # a test that could not run here (a missing ISA in a partial build) is not a pass
        skip=$((skip + 1)); echo "SKIP $name: $(grep -m1 '^SKIP:' "$out" | cut -c7-)"
    elif [ "$rc" -eq 0 ]; then
        pass=$((pass + 1)); echo "PASS $name (${secs}s)"
    else
        fail=$((fail + 1)); failed="$failed $name"; echo "FAIL $name (exit $rc, ${secs}s, log $out)"
        tail -n 30 "$out" | sed 's/^/    /'
    fi
done
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
