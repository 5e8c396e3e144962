#!/bin/sh
# --profile writes a callgrind-format per-PC profile (MCCP, DPU and Nyuzi below). Checked on vector_cube.mccp, whose
# per-core halt cycles are hand-derived and RTL-validated (programs/mccp/README.md: 633 637
# 559 563 at the default arbiter phase): each core's first instruction issues at cycle 5
# (cycle 1 is the dummy save, then 4 cycles per instruction), and every cycle from a core's
# first issue to its halt is charged to some PC, so the Cycles total must be
# (633-5)+(637-5)+(559-5)+(563-5) = 2372, and the Instructions total the run's instruction count.
# Each stall cause is an event Stall_<cause>: the increase of the thread's stall counter from
# one instruction's issue to its next is charged to that instruction, so per cause the PCs add
# up to the threads' stalls in the statistics. --profile-threads adds FILE-01.. one per
# hardware thread (valgrind's --separate-threads layout, with thread: and desc: headers), each
# adding up to its thread's own instructions, cycles and stalls, and together to FILE per PC.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# --profile-threads writes only the parts FILE-01..: the merged FILE comes from the same run
# without it (the runs are deterministic)
prun() {
    "$X" run "$@" || return 1
    for a; do shift; [ "$a" = --profile-threads ] || set -- "$@" "$a"; done
    "$X" run "$@"
}
"$X" asm --isa mccp programs/mccp/vector_cube.mccp -o "$T/vc.out" || fail asm
prun "$T/vc.out" --load ram:0=programs/mccp/vector_cube.txt --quiet --profile "$T/prof" --profile-threads \
    --stats=json --stats-file "$T/s.json" || fail run
insns=$(sed -n 's/^  "instructions": \([0-9]*\),/\1/p' "$T/s.json")
grep -q "^events: Instructions Cycles Stall_memory Stall_arbiter_wait Stall_exception_dump$" "$T/prof" ||
    fail "events line: $(grep '^events:' "$T/prof")"
grep -q "^summary: $insns 2372 " "$T/prof" || fail "summary $(grep summary "$T/prof"), want $insns 2372"
# the per-PC lines add up to the summary
sum=$(awk '/^0x/ {i += $2; c += $3} END {print i, c}' "$T/prof")
[ "$sum" = "$insns 2372" ] || fail "lines add up to $sum"
[ -e "$T/prof-05" ] && fail "a part for a thread that does not exist"
# stalls per cause and per thread against the statistics; the thread parts against the total.
# MCCP: each core's first instruction issues at cycle 5, so a core's Cycles = its halt - 5.
# With ISSUE and EXEMPT, every PC of every thread part but EXEMPT (a function or a 0xPC, the
# stop instruction, charged up to the end of the run) must have Cycles = ISSUE * Instructions +
# its stalls: each cycle of an interval is an issue cycle or a stall, and a stall is charged to
# the instruction that waited, not to a neighbour.
check_profile() { # FILE STATS.json FIRST_ISSUE(-1: do not check Cycles per thread) [ISSUE EXEMPT]
    python3 - "$@" <<'PY'
import json, sys, os
path, stats, first = sys.argv[1], json.load(open(sys.argv[2])), int(sys.argv[3])
issue, exempt = (int(sys.argv[4]), sys.argv[5]) if len(sys.argv) > 5 else (None, None)
def parse(p):
    ev, summ, pcs, head, fn, npos, call = None, None, {}, {}, None, 1, False
    for line in open(p):
        line = line.rstrip("\n")
        if line.startswith("fn="): fn = line[3:]
        if line.startswith("positions: "): npos = len(line.split()) - 1
        if line.startswith("events: "): ev = line.split()[1:]
        elif line.startswith("summary: "): summ = [int(x) for x in line.split()[1:]]
        elif line.startswith("calls="): call = True # the next line: a callee's inclusive cost
        elif line.startswith("0x") and call: call = False
        elif line.startswith("0x"):
            f = line.split()
            f = f[:1] + f[npos:] # the address, then the events (after the line, if any)
            assert len(f) == 1 + len(ev), "%s: %s: %d counts for %d events" % (p, line, len(f) - 1, len(ev))
            c = pcs.setdefault(int(f[0], 16), [0] * len(ev))
            for i, x in enumerate(f[1:]): c[i] += int(x)
            if issue is not None and head.get("thread") and fn != exempt and f[0] != exempt:
                n = [int(x) for x in f[1:]]
                assert n[1] == issue * n[0] + sum(n[2:]), "%s: %s %s: cycles are not issue + stalls" % (p, fn, line)
        elif ":" in line and not line.startswith(("fn=", "fl=", "fi=", "ob=", "cfn=", "cfl=", "#")):
            k, v = line.split(":", 1); head[k] = v.strip()
    tot = [sum(c[i] for c in pcs.values()) for i in range(len(ev))]
    assert tot == summ, "%s: lines add up to %s, summary %s" % (p, tot, summ)
    return ev, summ, pcs, head
ev, summ, pcs, _ = parse(path)
causes = [e[6:] for e in ev[2:]]
assert ev[:2] == ["Instructions", "Cycles"] and all(e.startswith("Stall_") for e in ev[2:]), ev
threads = [(u, t) for u in stats["units"] for t in u["threads"]]
want = [sum(t["stalls"][c] for u, t in threads) for c in causes]
assert summ[2:] == want, "stalls %s, statistics %s" % (summ[2:], want)
assert sum(want) > 0, "no stalls to check"
merged, nparts = {}, 0
tpu = len(stats["units"][0]["threads"])
for u, t in threads:
    g = u["index"] * tpu + t["index"] + 1
    p = "%s-%02d" % (path, g)
    if not t["instructions"]:
        assert not os.path.exists(p), "%s: a part for a thread that never issued" % p
        continue
    nparts += 1
    tev, ts, tpcs, head = parse(p)
    assert tev == ev, (tev, ev)
    assert head.get("thread") == str(g), "%s: thread: %s" % (p, head.get("thread"))
    assert head.get("desc") == "Hardware thread: %s thread %d" % (u["name"], t["index"]), head.get("desc")
    assert ts[0] == t["instructions"], "%s: %d instructions, statistics %d" % (p, ts[0], t["instructions"])
    if first >= 0:
        assert ts[1] == t["halted_at"] - first, "%s: %d cycles, want %d" % (p, ts[1], t["halted_at"] - first)
    assert ts[2:] == [t["stalls"][c] for c in causes], "%s: stalls %s, statistics %s" % (p, ts[2:], t["stalls"])
    for pc, c in tpcs.items():
        m = merged.setdefault(pc, [0] * len(ev))
        for i, x in enumerate(c): m[i] += x
if nparts:
    assert merged == pcs, "the thread parts do not add up to the profile per PC"
print("ok: %s: %d PCs, %d thread parts, stalls %s" % (os.path.basename(path), len(pcs), nparts,
      " ".join("%s=%d" % (c, w) for c, w in zip(causes, want))))
PY
}
if command -v python3 > /dev/null; then
    # 4 cycles an instruction; 0x94 is the halt, issued at the core's halt cycle
    check_profile "$T/prof" "$T/s.json" 5 4 0x94 || fail "MCCP profile against the statistics"
fi
# profiling does not change timing
"$X" run "$T/vc.out" --load ram:0=programs/mccp/vector_cube.txt --quiet --stats=json --stats-file "$T/p.json" || fail run2
[ "$(grep '"cycles"' "$T/s.json" | head -1)" = "$(grep '"cycles"' "$T/p.json" | head -1)" ] || fail "cycles differ with --profile"
# a DPU ELF's PCs are grouped by its code symbols
if "$X" isas | grep -q '^dpu'; then
    "$X" asm --isa dpu programs/dpu/vecadd.s programs/dpu/rt/*.s -o "$T/va.elf" || fail "dpu asm"
    prun "$T/va.elf" --quiet --profile "$T/pd" --profile-threads --stats=json --stats-file "$T/d.json" ||
        fail "dpu run"
    grep -q "^fn=main$" "$T/pd" || fail "no fn=main in the DPU profile"
    # the revolver stalls (brought up to date per instruction while profiling) add up per tasklet
    if command -v python3 > /dev/null; then
        check_profile "$T/pd" "$T/d.json" -1 1 __sys_end || fail "DPU profile against the statistics"
    fi
    # DMA-bound, 16 tasklets: DMA and revolver stalls (a DMA instruction's own wait must not be
    # taken from the revolver stalls charged to the instruction before it)
    "$X" asm --isa dpu programs/dpu/rt/*.s programs/dpu/stream.s -o "$T/st.elf" -o tasklets=16 || fail "dpu asm stream"
    printf '\000\200\000\000' > "$T/n.bin" # 32768, little-endian
    prun "$T/st.elf" --quiet --set stream_n="$T/n.bin" --profile "$T/ps" --profile-threads --stats=json \
        --stats-file "$T/st.json" || fail "dpu run stream"
    if command -v python3 > /dev/null; then
        check_profile "$T/ps" "$T/st.json" -1 1 __sys_end || fail "DPU stream profile against the statistics"
        # with the register-file bank penalty: a third stall cause, counted before the issue
        prun "$T/st.elf" --quiet --set stream_n="$T/n.bin" -o bank_penalty=1 --profile "$T/pb" --profile-threads \
            --stats=json --stats-file "$T/b.json" || fail "dpu run stream bank"
        check_profile "$T/pb" "$T/b.json" -1 1 __sys_end || fail "DPU stream profile (bank penalty) against the statistics"
    fi
    "$X" run "$T/st.elf" --quiet --set stream_n="$T/n.bin" --stats=json --stats-file "$T/st2.json" || fail "dpu run stream2"
    [ "$(grep -v '"host"' "$T/st.json")" = "$(grep -v '"host"' "$T/st2.json")" ] || fail "DPU stream statistics differ with --profile"
    # profiling (the slow path, which syncs the stall counters per instruction) changes no cycle
    "$X" run "$T/va.elf" --quiet --stats=json --stats-file "$T/d2.json" || fail "dpu run2"
    [ "$(grep -v '"host"' "$T/d.json" | grep -v '"seconds"')" = "$(grep -v '"host"' "$T/d2.json" | grep -v '"seconds"')" ] ||
        fail "DPU statistics differ with --profile"
fi
# Nyuzi: an issue rolled back and replayed counts one instruction, as in the statistics
if "$X" isas | grep -q '^nyuzi' && command -v python3 > /dev/null; then
    "$X" asm --isa nyuzi tests/nyuzi/progs/mem.S -o "$T/m.elf" || fail "nyuzi asm"
    prun "$T/m.elf" --quiet --profile "$T/pm" --profile-threads --stats=json --stats-file "$T/m.json" > /dev/null ||
        fail "nyuzi run"
    check_profile "$T/pm" "$T/m.json" -1 || fail "Nyuzi profile against the statistics"
fi
# the format's readers need a file name (fl=) before the first function (fn=);
# callgrind_annotate (valgrind) warns about an uninitialised file without one
[ "$(grep -m1 -n '^fl=' "$T/prof" | cut -d: -f1)" -lt "$(grep -m1 -n '^fn=' "$T/prof" | cut -d: -f1)" ] ||
    fail "no fl= line before the first fn="
if command -v callgrind_annotate > /dev/null; then
    callgrind_annotate "$T/prof" > "$T/ann" 2> "$T/ann.err" || fail "callgrind_annotate refused the profile"
    [ ! -s "$T/ann.err" ] || fail "callgrind_annotate: $(head -2 "$T/ann.err")"
    grep -q "PROGRAM TOTALS" "$T/ann" || fail "callgrind_annotate printed no totals"
    grep -q "Stall_arbiter_wait" "$T/ann" || fail "callgrind_annotate shows no stall events"
    callgrind_annotate "$T/prof-02" > "$T/ann2" 2> "$T/ann2.err" || fail "callgrind_annotate refused a thread part"
    [ ! -s "$T/ann2.err" ] || fail "callgrind_annotate (thread part): $(head -2 "$T/ann2.err")"
    grep -q "^Hardware thread: core1 thread 0$" "$T/ann2" || fail "callgrind_annotate shows no thread description"
fi
# --profile-threads alone is refused
"$X" run "$T/vc.out" --quiet --profile-threads 2> "$T/err" && fail "--profile-threads without --profile accepted"
grep -q "needs --profile" "$T/err" || fail "--profile-threads alone: $(cat "$T/err")"
echo ok
