#!/bin/sh
# tests/cert/gdbstub.t.sh: `xpusim gdbserver` on CERT control code, driven by
# tests/cert/gdb_cert.py (the RSP client of tests/cli/gdb_rsp.py; no gdb needed) on
# tests/cert/debug/two.asm: target.xml (r0-r7, g0-g15, pc, job_id, page, offset), every job
# slot of both uCs in qfThreadInfo and the three live jobs' qThreadExtraInfo (id, state,
# page/offset, wait), registers of two jobs of uC 0 and one of uC 1 (per-job r, per-uC g),
# Z0 at 0x44 and at 0x2024 (page 1 offset 0x24) with a continue to each, a step,
# `monitor info jobs|barriers|records`, and W00 at the cycle of a plain `xpusim run`.
set -u
X=${XPUSIM:-build/xpusim}
PY=$(command -v python3) || { echo "SKIP: no python3"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
HERE=$(dirname "$0")
AIEBU=; "$X" isas | grep -q -- '-o aiebu=' && AIEBU="-o aiebu=2025.02" # the layout two.asm's cycles are for
"$X" asm --isa cert $AIEBU "$HERE/debug/two.asm" -o "$T/two.elf" || { echo "FAIL: assembling two.asm"; exit 1; }
end=$("$X" run "$T/two.elf" 2>&1 >/dev/null | awk '$1 == "cycles:" { print $2 }')
echo "plain run ends at cycle $end"
[ "$end" = 977 ] || { echo "FAIL: plain run ends at '$end', expected 977"; exit 1; }
timeout 60 "$PY" "$HERE/gdb_cert.py" "$X" "$T/two.elf" "$end"
