#!/bin/sh
# tests/mccp/functional.t.sh: -o timing=none gives the cycle model's architectural results.
# Every program of programs/mccp runs in both modes; the whole RAM must be identical. The
# programs whose cores do not wait on each other through RAM (vector_cube, matmul, box_blur,
# draw) also retire the same instructions, and their functional run ends at 5 + 4 x (the
# largest per-core instruction count - 1): the first instruction saves at cycle 5 and every
# instruction is one issue of 4 cycles (docs/isa/mccp.md "Functional mode"). sum4 and demo
# join through flags in RAM: core 0 spins until the others have stored theirs, so its
# instruction count depends on timing, not its results.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$X" isas 2>/dev/null | grep -q '^mccp' || { echo "SKIP: this build has no mccp ISA"; exit 0; }
P=programs/mccp
for prog in vector_cube matmul box_blur sum4 draw demo; do
    in=""
    [ -e "$P/$prog.txt" ] && in="--load ram:0=$P/$prog.txt"
    [ "$prog" = demo ] && in="--load ram:0=$P/demo-input.txt"
    "$X" asm --isa mccp "$P/$prog.mccp" -o "$T/$prog.out" || fail "asm $prog"
    for tm in cycle none; do
        # shellcheck disable=SC2086
        "$X" run "$T/$prog.out" $in --headless --quiet -o timing=$tm --dump "ram:0:65536=$T/$prog.$tm.ram" \
            --stats=json --stats-file "$T/$prog.$tm.json" || fail "$prog timing=$tm"
    done
    cmp -s "$T/$prog.cycle.ram" "$T/$prog.none.ram" || fail "$prog: RAM differs with timing=none"
    case $prog in sum4|demo) continue ;; esac
    python3 - "$T/$prog.cycle.json" "$T/$prog.none.json" "$prog" <<'PY' || fail "$prog: counts"
import json, sys
c, f = (json.load(open(p)) for p in sys.argv[1:3])
assert c["instructions"] == f["instructions"], (c["instructions"], f["instructions"])
per = [u["instructions"] for u in f["units"] if u["enabled"]]
assert f["cycles"] == 5 + 4 * (max(per) - 1), (f["cycles"], per)
for u in f["units"]:
    for th in u["threads"]:
        assert sum(th["stalls"].values()) == 0, th
PY
done
echo PASS
