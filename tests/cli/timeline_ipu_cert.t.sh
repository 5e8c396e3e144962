#!/bin/sh
# tests/cli/timeline_ipu_cert.t.sh: --timeline (issue 10 point 1) on the two ISAs whose
# hardware threads are not plain cores: an IPU tile's seven contexts (thread 0 the
# supervisor, threads 1..6 workers W0..W5, docs/isa/ipu.md) and a CERT uC's job-table slots
# (one thread per slot, docs/isa/cert.md). Each context or job that ran has its own track
# with slices that start at 0, follow each other without gap or overlap and add up to the
# thread's cycles in --stats=json; slots that never held a job have no slice. The slice
# boundaries are derived by hand below from the schedules derived in tests/ipu/vertex.t.sh
# and tests/cert/programs.t.sh, and the timeline's rules (frontends/timeline.c): a thread's
# track is "not started" up to its first issue; issues less than 32 cycles apart are one
# "running" slice; a longer gap is "stall: CAUSE", CAUSE the stall counter that grew most
# from the observation of the instruction before the gap to that of the one after it (which
# counts that instruction's own stalls); the time after the last issue is such a gap too if
# it is 32 cycles or more, named only by a cause covering half of it, else "stopped" (a
# halted thread) or "stall: waiting" with the ISA's own word on the wait (a hung one).
# CERT observes an opcode at the cycle it begins, a blocking one (a barrier) at the dispatch
# that resumes it. Last, on the DPU, the "stopped" tails of tasklets that wait for the others.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
# names TIMELINE UNIT EXPECTED: the thread_name metadata of UNIT's tracks, in thread order
# (the ISA's thread_name hook: the IPU's contexts, CERT's job-table slots).
names() {
    python3 - "$1" "$2" "$3" <<'EOF' || fail=1
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
got = [e["args"]["name"] for e in sorted((e for e in ev if e["ph"] == "M" and e["name"] == "thread_name"
                                          and e["pid"] == int(sys.argv[2])), key=lambda e: e["tid"])]
assert got == eval(sys.argv[3]), ("track names", got)
print("ok: track names", got)
EOF
}
# check TIMELINE STATS EXPECTED: the generic checks, then each listed track's slices exactly.
# EXPECTED is a Python dict {(unit, thread): [(name, from, to), ...]}.
check() {
    python3 - "$1" "$2" "$3" <<'EOF' || fail=1
import json, sys
from collections import defaultdict
t = json.load(open(sys.argv[1])); s = json.load(open(sys.argv[2])); want = eval(sys.argv[3])
ev = t["traceEvents"]
named = {(e["pid"], e.get("tid")) for e in ev if e["ph"] == "M" and e["name"] in ("process_name", "thread_name")}
by = defaultdict(list)
for e in ev:
    if e["ph"] == "X":
        by[(e["pid"], e["tid"])].append(e)
hz = s["clock_hz"]
tracks = 0
for u in s["units"]:
    assert (u["index"], None) in named, ("unit not named", u["name"])
    for th in u["threads"]:
        key = (u["index"], th["index"])
        assert key in named, ("thread not named", key)
        sl = sorted(by[key], key=lambda e: e["args"]["from"])
        if th["cycles"] == 0:
            assert not sl, ("a slot that never ran has slices", key, sl)
            continue
        tracks += 1
        at = 0
        for e in sl:
            assert e["args"]["from"] == at, ("gap or overlap", key, at, e)
            assert abs(e["ts"] - at * 1e6 / hz) < 1e-3 and abs(e["dur"] - e["args"]["cycles"] * 1e6 / hz) < 1e-3, e
            at += e["args"]["cycles"]
        assert at == th["cycles"], ("slices add up to", at, "not", th["cycles"], key)
        if key in want:
            got = [(e["name"], e["args"]["from"], e["args"]["from"] + e["args"]["cycles"]) for e in sl]
            assert got == want[key], ("track", key, "has", got, "expected", want[key])
missing = [k for k in want if not by[k]]
assert not missing, ("no track for", missing)
print("ok: %s: %d tracks, each adding up to its thread's cycles; %d checked slice by slice"
      % (sys.argv[1].split("/")[-1], tracks, len(want)))
EOF
}

if "$X" isas | grep -q '^ipu'; then
    # scaled_add on six workers (tests/ipu/vertex.t.sh, 2.): W0 and W1 run 69 bundles, W2..W5
    # 64; worker Wk starts at the first cycle >= 13 in slot k (W1 13 ... W5 17, W0 18) and
    # issues every 6 cycles (the barrel), so each worker is "not started" then one "running"
    # slice to its last bundle + 1: W0 18 + 6 x 68 = 426 -> 427, W1 421 -> 422, W2..W5
    # start + 6 x 63 = 392..395 -> 393..396. The supervisor issues its stub's setzi, setzi at
    # 0 and 1 and runall at 7 (running [0, 8)), then its br $m10 at 398 when slot 0 comes
    # back (returned to the host at 398, 399 cycles): the 390-cycle gap is its wait for a
    # slot, counted as 390 barrel stalls, so "stall: barrel" [8, 398), then running [398, 399).
    "$X" run --vertex programs/ipu/vertex/scaled_add.vertex --timeline "$T/ipu.json" --stats=json \
        --stats-file "$T/ipu.stats" --quiet > /dev/null || { echo "FAIL: ipu run"; fail=1; }
    check "$T/ipu.json" "$T/ipu.stats" "{
        (0, 0): [('running', 0, 8), ('stall: barrel', 8, 398), ('running', 398, 399)],
        (0, 1): [('not started', 0, 18), ('running', 18, 427)],
        (0, 2): [('not started', 0, 13), ('running', 13, 422)],
        (0, 3): [('not started', 0, 14), ('running', 14, 393)],
        (0, 4): [('not started', 0, 15), ('running', 15, 394)],
        (0, 5): [('not started', 0, 16), ('running', 16, 395)],
        (0, 6): [('not started', 0, 17), ('running', 17, 396)]}"
    names "$T/ipu.json" 0 "['supervisor', 'W0', 'W1', 'W2', 'W3', 'W4', 'W5']"
fi

if "$X" isas | grep -q '^cert'; then
    "$X" asm --isa cert -o aiebu=2025.02 programs/cert/multi_uc.asm -o "$T/multi_uc.elf" || exit 1
    "$X" run "$T/multi_uc.elf" --timeline "$T/cert.json" --stats=json --stats-file "$T/cert.stats" \
        --quiet > /dev/null || { echo "FAIL: cert run"; fail=1; }
    # multi_uc (tests/cert/programs.t.sh, 3.): one job per uC, in slot 0.
    # uC 0: START_JOB begins at 257 (its page's fetch); its $rb0 blocks and is observed at the
    #   dispatch that resumes it, 422; SAVE_TIMESTAMPS 422, $rb1 442, END_JOB 467 -> 497 (no
    #   gap of 32). The gap [258, 422) spans the EOF parse (uc_busy 30) and the barrier wait
    #   (remote_barrier 56): remote_barrier.
    # uC 1: START_JOB 258; EOF parse, dispatch, MOV at 330 (uc_busy 30 grew: the gap [259,
    #   330) is uc_busy); MOV 340; $rb0 blocks at 350, resumed at 422 (remote_barrier 410 -
    #   375 = 35: [341, 422)); $rb1 blocks from 422, resumed at 479 (a further 467 - 447 = 20:
    #   [423, 479)); END_JOB 479 -> 509.
    # uC 2: START_JOB 258; WRITE_32 at 330 (its own axi write, 40, outgrows the parse's 30:
    #   [259, 330) is axi), $rb0 at 385 matures at once ([331, 385): the WRITE_32's axi 40),
    #   SAVE_TIMESTAMPS 410, END_JOB 430 -> 460.
    check "$T/cert.json" "$T/cert.stats" "{
        (0, 0): [('not started', 0, 257), ('running', 257, 258), ('stall: remote_barrier', 258, 422), ('running', 422, 497)],
        (1, 0): [('not started', 0, 258), ('running', 258, 259), ('stall: uc_busy', 259, 330), ('running', 330, 341),
                 ('stall: remote_barrier', 341, 422), ('running', 422, 423), ('stall: remote_barrier', 423, 479),
                 ('running', 479, 509)],
        (2, 0): [('not started', 0, 258), ('running', 258, 259), ('stall: axi', 259, 330), ('running', 330, 331),
                 ('stall: axi', 331, 385), ('running', 385, 460)]}"
    # a uC's threads are its job-table slots: -o job_slots, default 32 (isa/cert/timing.c)
    names "$T/cert.json" 0 "['job slot %d' % k for k in range(32)]"
    # barriers.asm: two jobs on one uC, slots 0 and 1, each its own track (job 2 is parsed
    # at 305 after START_JOB 1 at 275, halts at 1208; job 1 halts at 906). Only the
    # generic checks and the two tracks' ends here: their gaps are checked above.
    "$X" asm --isa cert -o aiebu=2025.02 programs/cert/barriers.asm -o "$T/barriers.elf" || exit 1
    "$X" run "$T/barriers.elf" --timeline "$T/bar.json" --stats=json --stats-file "$T/bar.stats" \
        --quiet > /dev/null || { echo "FAIL: barriers run"; fail=1; }
    check "$T/bar.json" "$T/bar.stats" "{}"
    python3 - "$T/bar.json" <<'EOF' || fail=1
import json, sys
sl = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e["ph"] == "X"]
for tid, first, end in ((0, 275, 906), (1, 305, 1208)):
    mine = sorted((e for e in sl if e["tid"] == tid), key=lambda e: e["args"]["from"])
    assert mine[0]["name"] == "not started" and mine[0]["args"]["cycles"] == first, mine[0]
    assert mine[-1]["args"]["from"] + mine[-1]["args"]["cycles"] == end, mine[-1]
assert {e["tid"] for e in sl} == {0, 1}, {e["tid"] for e in sl}
print("ok: barriers: jobs 1 and 2 on their own tracks, [275, 906) and [305, 1208)")
EOF
    # a hang: hang_poll (tests/cert/programs.t.sh): START_JOB at 256, the POLL_32 fails at
    # 398 and nothing can change the word: deadlock at 398. After the START_JOB the job is
    # never observed again, so [257, 398) is its tail, 141 cycles; its counters grew by 50
    # (poll) and 30 (uc_busy), neither half of it: "stall: waiting", with the runner's word
    # on the wait; the stop is an instant at 398 with the stop's message.
    "$X" asm --isa cert -o aiebu=2025.02 programs/cert/hang_poll.asm -o "$T/poll.elf" || exit 1
    "$X" run "$T/poll.elf" --timeline "$T/poll.json" --stats=json --stats-file "$T/poll.stats" --quiet > /dev/null 2>&1
    [ $? -eq 3 ] || { echo "FAIL: hang_poll: not a deadlock"; fail=1; }
    check "$T/poll.json" "$T/poll.stats" "{(0, 0): [('not started', 0, 256), ('running', 256, 257), ('stall: waiting', 257, 398)]}"
    python3 - "$T/poll.json" <<'EOF' || fail=1
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
tail = [e for e in ev if e["ph"] == "X" and e["name"] == "stall: waiting"][0]
assert "waits for poll of 0x00100000" in tail["args"]["state"], tail
stop = [e for e in ev if e["ph"] == "i" and e["name"].startswith("stop: ")]
assert [e["name"] for e in stop] == ["stop: deadlock"] and stop[0]["args"]["cycle"] == 398, stop
assert "POLL_32" in stop[0]["args"]["message"], stop
print("ok: hang_poll: the tail says what the job waits for; stop: deadlock at 398")
EOF
fi
if "$X" isas | grep -q '^dpu'; then
    # The tail of a halted thread, on the DPU: a tasklet that has run its `stop` counts no
    # stall while it waits for the others, and its cycles run to the DPU's halt (all
    # tasklets' halted_at is the DPU's). programs/dpu/stream.s, 4 tasklets, 8 KiB: one
    # 2,048-byte block each, read then written back. The one DMA engine serves transfers in
    # issue order (docs/isa/dpu.md): the four reads (77 + 0.5 x 2,048 = 1,101 cycles each)
    # are all issued in the first 400 cycles, before any write, then the four writes
    # (61 + 1,024 = 1,085 each) follow back to back, tasklet k's done 1,085 cycles after
    # tasklet k-1's. Each tasklet then runs the same code to its `stop`, so tasklet k stops
    # (3 - k) x 1,085 cycles before tasklet 3, whose stop halts the DPU: tasklets 0, 1, 2
    # end with a "stopped" slice of 3,255, 2,170 and 1,085 cycles (no stall counter grows
    # there), tasklet 3 with "running"; the halt instant is at the DPU's last cycle.
    R=programs/dpu/rt
    "$X" asm --isa dpu -o tasklets=4 $R/crt0.s $R/mutex.s $R/barrier.s $R/perfcounter.s $R/mram.s programs/dpu/stream.s \
        -o "$T/stream.elf" || exit 1
    python3 -c "import struct,sys; sys.stdout.buffer.write(struct.pack('<I', 8192))" > "$T/n.bin"
    "$X" run "$T/stream.elf" -o tasklets=4 --set stream_n="$T/n.bin" --timeline "$T/dpu.json" --stats=json \
        --stats-file "$T/dpu.stats" --quiet > /dev/null || { echo "FAIL: dpu run"; fail=1; }
    check "$T/dpu.json" "$T/dpu.stats" "{}"
    python3 - "$T/dpu.json" "$T/dpu.stats" <<'EOF' || fail=1
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]; s = json.load(open(sys.argv[2]))
ends = []
for th in s["units"][0]["threads"]:
    sl = sorted((e for e in ev if e["ph"] == "X" and e["tid"] == th["index"]), key=lambda e: e["args"]["from"])
    names = [e["name"] for e in sl]
    assert names.count("stopped") <= 1 and "stopped" not in names[:-1], names
    if names[-1] == "stopped":
        assert names[-2] == "running" and sl[-1]["args"]["cycles"] >= 32, sl[-2:]
        ends.append(sl[-1]["args"]["from"])
    else:
        assert names[-1] == "running", names
stops = [e for e in ev if e["ph"] == "i" and e["name"] == "stop: halted"]
tails = [s["units"][0]["threads"][k]["cycles"] - ends[k] for k in range(len(ends))]
assert tails == [3255, 2170, 1085], ("the stopped tails", tails, "expected (3 - k) x 1085")
assert stops and stops[0]["args"]["cycle"] == s["units"][0]["cycles"], (stops, s["units"][0]["cycles"])
print("ok: dpu: tasklets 0-2 'stopped' from cycles %s to the halt at %d" % (ends, stops[0]["args"]["cycle"]))
EOF
fi
[ $fail -eq 0 ] && echo "ok: timeline_ipu_cert"
exit $fail
