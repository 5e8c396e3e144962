#!/bin/sh
# tests/cli/timeline.t.sh: --timeline FILE.json (issue 10): Chrome/Perfetto trace events.
# Checked against the trace-event format (a JSON object with traceEvents; "X" slices with
# name, ph, ts, dur, pid, tid; "M" names for units and threads) and against the run's own
# statistics: each thread's slices start at 0, follow each other without gap or overlap and
# add up to its cycles in --stats=json; stall slices add up to no more than the thread's stall
# cycles (a gap between issues is cycles the thread did not issue); ts and dur are
# microseconds at the unit's clock (DPU 350 MHz). programs/dpu/stream.s with 4 tasklets
# copying 32 KiB is DMA-bound, so "stall: dma" slices must be there. Counter tracks, sampled
# every 1000 cycles here: a unit's IPC samples times 1000 add up to its instructions, and its
# counters' growth per sample adds up to the counters' final values (MCCP sum4: loads,
# stores, RAM transactions). A window keeps cycles [1000, 5000) only: every slice inside it,
# and every thread (all run past 5000) covered for exactly 4000 cycles. The "xpusim" metadata
# event names the ISA and the build, as the statistics' host.xpusim.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
check_json() { # TIMELINE STATS [CAUSE]
    python3 - "$1" "$2" "$3" <<'EOF' || fail=1
import json, sys
from collections import defaultdict
t = json.load(open(sys.argv[1])); s = json.load(open(sys.argv[2])); want = sys.argv[3]
ev = t["traceEvents"]
slices = [e for e in ev if e["ph"] == "X"]
for e in slices:
    for k in ("name", "ph", "ts", "dur", "pid", "tid", "args"):
        assert k in e, ("missing", k, e)
named = {(e["pid"], e.get("tid")) for e in ev if e["ph"] == "M" and e["name"] in ("process_name", "thread_name")}
by = defaultdict(list)
for e in slices:
    by[(e["pid"], e["tid"])].append(e)
hz = s["clock_hz"]  # the units' clock, from the statistics (DPU v1a: 350 MHz)
causes = defaultdict(int)
for u in s["units"]:
    assert (u["index"], None) in named, ("unit not named", u["name"])
    for th in u["threads"]:
        key = (u["index"], th["index"])
        assert key in named, ("thread not named", key)
        sl = sorted(by[key], key=lambda e: e["args"]["from"])
        at = 0
        for e in sl:
            assert e["args"]["from"] == at, ("gap or overlap", key, at, e)
            assert abs(e["ts"] - at * 1e6 / hz) < 1e-3, ("ts", e)
            assert abs(e["dur"] - e["args"]["cycles"] * 1e6 / hz) < 1e-3, ("dur", e)
            at += e["args"]["cycles"]
            if e["name"].startswith("stall: "):
                causes[e["name"][7:]] += e["args"]["cycles"]
        assert at == th["cycles"], ("slices add up to", at, "not", th["cycles"], key)
        stalled = sum(e["args"]["cycles"] for e in sl if e["name"].startswith("stall"))
        assert stalled <= sum(th["stalls"].values()), ("more stalled than the stall cycles", key)
if want:
    assert causes.get(want, 0) > 0, ("no stall slice of", want, dict(causes))
meta = [e for e in ev if e["ph"] == "M" and e["name"] == "xpusim"]
assert len(meta) == 1 and meta[0]["args"]["isa"] == s["isa"], meta
assert meta[0]["args"].get("build") == s["host"]["xpusim"], ("the build", meta, s["host"])
print("ok: %s: %d slices, stalls by cause %s" % (sys.argv[1].split("/")[-1], len(slices), dict(causes)))
EOF
}
check_counters() { # TIMELINE STATS SAMPLE
    python3 - "$1" "$2" "$3" <<'EOF' || fail=1
import json, sys
t = json.load(open(sys.argv[1])); s = json.load(open(sys.argv[2])); sample = int(sys.argv[3])
for u in s["units"]:
    ipc = [e["args"]["ipc"] for e in t["traceEvents"] if e["ph"] == "C" and e["name"] == "ipc" and e["pid"] == u["index"]]
    insns = round(sum(ipc) * sample)
    assert insns == u["instructions"], ("ipc samples give", insns, "instructions, statistics", u["instructions"], u["name"])
    grown = {}
    for e in t["traceEvents"]:
        if e["ph"] == "C" and e["name"] == "counters" and e["pid"] == u["index"]:
            for k, v in e["args"].items():
                grown[k] = grown.get(k, 0) + v
    for k, v in u["counters"].items():
        assert grown.get(k, 0) == v, ("counter", k, grown.get(k, 0), v, u["name"])
print("ok: %s: counter tracks add up to the statistics" % sys.argv[1].split("/")[-1])
EOF
}
if "$X" isas | grep -q '^dpu'; then
    R=programs/dpu/rt
    "$X" asm --isa dpu -o tasklets=4 $R/crt0.s $R/mutex.s $R/barrier.s $R/perfcounter.s $R/mram.s programs/dpu/stream.s \
        -o "$T/stream.elf" || exit 1
    python3 -c "import struct,sys; sys.stdout.buffer.write(struct.pack('<I', 32768))" > "$T/n.bin"
    "$X" run "$T/stream.elf" -o tasklets=4 --set stream_n="$T/n.bin" --timeline "$T/dpu.json" --stats=json \
        --stats-file "$T/dpu.stats" --quiet > /dev/null || { echo "FAIL: dpu run"; fail=1; }
    check_json "$T/dpu.json" "$T/dpu.stats" dma
    check_counters "$T/dpu.json" "$T/dpu.stats" 10000
    "$X" run "$T/stream.elf" -o tasklets=4 --set stream_n="$T/n.bin" --timeline "$T/win.json" \
        --timeline-window 1000:5000 --quiet > /dev/null || { echo "FAIL: windowed run"; fail=1; }
    python3 - "$T/win.json" <<'EOF' || fail=1
import json, sys
from collections import defaultdict
t = json.load(open(sys.argv[1]))
per = defaultdict(int)
for e in t["traceEvents"]:
    if e["ph"] == "X":
        a = e["args"]
        assert a["from"] >= 1000 and a["from"] + a["cycles"] <= 5000, ("outside the window", e)
        per[(e["pid"], e["tid"])] += a["cycles"]
    if e["ph"] == "C":
        assert 1000 * 1e6 / 350e6 - 1e-6 <= e["ts"] < 5000 * 1e6 / 350e6, ("sample outside the window", e)
assert len(per) == 4 and all(v == 4000 for v in per.values()), dict(per)
print("ok: window 1000:5000")
EOF
    for bad in 5000:1000 12 x:3; do
        "$X" run "$T/stream.elf" --timeline "$T/w.json" --timeline-window $bad > /dev/null 2> "$T/err" &&
            { echo "FAIL: --timeline-window $bad accepted"; fail=1; }
        grep -q "expected FROM:TO" "$T/err" || { echo "FAIL: --timeline-window $bad: $(cat "$T/err")"; fail=1; }
    done
    # output that cannot be written is an error with the file named; a bad path stops before the run
    "$X" run "$T/stream.elf" -o tasklets=4 --set stream_n="$T/n.bin" --timeline /dev/full --quiet > /dev/null 2> "$T/err"
    rc=$?
    [ $rc -ne 0 ] && grep -q -- "--timeline: /dev/full" "$T/err" || { echo "FAIL: /dev/full: exit $rc, $(cat "$T/err")"; fail=1; }
    "$X" run "$T/stream.elf" --timeline /nonexistent/dir/t.json --quiet > /dev/null 2> "$T/err"
    rc=$?
    [ $rc -eq 1 ] && grep -q -- "--timeline: /nonexistent/dir/t.json" "$T/err" || { echo "FAIL: bad path: exit $rc, $(cat "$T/err")"; fail=1; }
fi
if "$X" isas | grep -q '^mccp'; then
    "$X" asm --isa mccp programs/mccp/sum4.mccp -o "$T/sum4.out" || exit 1
    "$X" run "$T/sum4.out" --timeline "$T/mccp.json" --timeline-sample 1000 --stats=json --stats-file "$T/mccp.stats" \
        --quiet > /dev/null
    check_json "$T/mccp.json" "$T/mccp.stats" ""
    check_counters "$T/mccp.json" "$T/mccp.stats" 1000
fi
if "$X" isas | grep -q '^nyuzi'; then
    "$X" asm --isa nyuzi programs/nyuzi/bench/loop4.S -o "$T/loop4.elf" || exit 1
    "$X" run "$T/loop4.elf" --timeline "$T/nyz.json" --stats=json --stats-file "$T/nyz.stats" --quiet > /dev/null
    check_json "$T/nyz.json" "$T/nyz.stats" ""
    check_counters "$T/nyz.json" "$T/nyz.stats" 10000
    # traps are instants on their thread: tests/nyuzi/progs/mem.S takes exactly two, the
    # syscall and then the unaligned load (its handler counts them in s20: 1, then 2)
    "$X" asm --isa nyuzi tests/nyuzi/progs/mem.S -o "$T/mem.elf" || exit 1
    "$X" run "$T/mem.elf" --timeline "$T/mem.json" --stats=json --stats-file "$T/mem.stats" --quiet > /dev/null
    python3 - "$T/mem.json" "$T/mem.stats" <<'EOF' || fail=1
import json, sys
t = json.load(open(sys.argv[1])); s = json.load(open(sys.argv[2]))
traps = [e for e in t["traceEvents"] if e["ph"] == "i" and e["name"].startswith("trap: ")]
assert [e["name"] for e in traps] == ["trap: SYSCALL", "trap: UNALIGNED_ACCESS"], [e["name"] for e in traps]
end = s["units"][0]["threads"][0]["cycles"]
assert all(e["pid"] == 0 and e["tid"] == 0 and 0 < e["args"]["cycle"] < end for e in traps), traps
assert traps[0]["args"]["cycle"] < traps[1]["args"]["cycle"]
print("ok: mem.S: trap instants at cycles %s" % [e["args"]["cycle"] for e in traps])
EOF
fi
[ $fail -eq 0 ] && echo "ok: timeline"
exit $fail
