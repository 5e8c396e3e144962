#!/bin/sh
# Run one test program for tests/run-tests.sh: a cmocka suite or a shell test (*.t.sh),
# its output into LOG, then its exit status and its wall-clock seconds into LOG.rc (written
# last, so the runner knows the test finished). A hung test is a failure, not a hung suite.
t=$1; out=$2
start=$(date +%s)
case "$t" in
    *.t.sh) timeout 600 sh "$t" >"$out" 2>&1 ;;
    *) timeout 600 "$t" >"$out" 2>&1 ;;
esac
rc=$?
echo "$rc $(($(date +%s) - start))" >"$out.rc"
