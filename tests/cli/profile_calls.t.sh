#!/bin/sh
# tests/cli/profile_calls.t.sh: --profile's call edges (issue 10 point 3). The same program
# on the DPU, MCCP, Nyuzi and IPU: main calls outer 3 times, outer calls inner twice (two call
# sites). Each call site must list its callee (cfn=), the number of calls (calls=N TARGET)
# and the callee's inclusive cost: every instruction from its entry to its return, calls
# included. Instructions per function, counted in the sources below:
#   DPU   inner: add, add, jump r23 = 3; outer: move, call, call, jump r9 = 4 (+ 2 x 3 = 10);
#         main: sd, add, move + 3 x (call, add, jnz) + ld, move, jump r23 = 15 (+ 3 x 10 = 45)
#   MCCP  inner: inc, inc, then ret = dec sp, load reg5 sp, jmp reg5: 5; outer: two `call`,
#         each movl, movh (RET), store, inc, movl, movh (F), jmp = 7, then ret 3: 17
#         (+ 2 x 5 = 27); the main loop calls outer 3 times: 81
#   Nyuzi inner: add_i, add_i, ret = 3; outer: move, call, call, move, ret = 5 (+ 2 x 3 = 11)
#   IPU   (the supervisor) inner: add, add, br $m12 = 3; outer: call, call, br $m11 = 3 (+ 6 = 9)
# so the edges are main->outer calls=3 (DPU 30, MCCP 81, Nyuzi 33, IPU 27 instructions) and
# each outer->inner site calls=3 (DPU 9, MCCP 15, Nyuzi 9, IPU 9).
# Cycles, DPU: one tasklet issues at most one instruction every 11 cycles (the revolver,
# docs/isa/dpu.md) and this program has no DMA, so every instruction is charged 11 cycles,
# 10 of them Stall_revolver: an edge's Cycles = 11 x its Instructions, Stall_revolver = 10 x.
# MCCP: 4 cycles an instruction plus its stalls, so an edge's Cycles = 4 x Instructions + its
# stalls. With 4 DPU tasklets each runs the program on its own shadow call stack: each
# thread part (--profile-threads: FILE-01.. and no FILE, valgrind's --separate-threads
# layout) has the one-tasklet edges, and the merged file of a run without --profile-threads 4
# times their calls and costs. The parts' summaries add up to the run's statistics:
# Instructions and every Stall_ to the threads' own counters, and Cycles to each thread's
# cycles from its first issue (tasklet 0: cycle 0, so its part has all of the run's cycles).
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v python3 > /dev/null || { echo "SKIP: no python3"; exit 0; }
# check FILE 'caller>callee:calls:insns[:cycles-rule]' ...: every edge listed, no other
check() {
    python3 - "$@" <<'PY'
import sys
path, want = sys.argv[1], sys.argv[2:]
ev, fn, pend, edges, selfc = None, None, None, {}, {}
lines = open(path).read().split("\n")
i = 0
while i < len(lines):
    l = lines[i]
    if l.startswith("events: "): ev = l.split()[1:]
    elif l.startswith("fn="): fn = l[3:]
    elif l.startswith("cfn="): pend = l[4:]
    elif l.startswith("calls="):
        n = int(l[6:].split()[0])
        cost = [int(x) for x in lines[i + 1].split()[1:]]
        assert len(cost) == len(ev), (l, lines[i + 1])
        key = "%s>%s" % (fn, pend)
        e = edges.setdefault(key, [])
        e.append((n, cost))
        i += 1
    elif l.startswith("0x"):
        c = [int(x) for x in l.split()[1:]]
        s = selfc.setdefault(fn, [0] * len(ev))
        for k, x in enumerate(c): s[k] += x
    i += 1
seen = set()
for w in want:
    key, calls, insns, rule = (w.split(":") + [""])[:4]
    got = edges.get(key)
    assert got, "%s: no edge %s (edges: %s)" % (path, key, sorted(edges))
    n, cost = got.pop(0)
    seen.add(key)
    assert n == int(calls) and cost[0] == int(insns), "%s: %s: calls=%d, %d instructions; want %s, %s" % (
        path, key, n, cost[0], calls, insns)
    stalls = dict(zip(ev[2:], cost[2:]))
    if rule == "dpu":
        assert cost[1] == 11 * cost[0] and stalls["Stall_revolver"] == 10 * cost[0], (key, cost)
    if rule == "mccp":
        assert cost[1] == 4 * cost[0] + sum(cost[2:]), (key, cost)
    if rule.startswith("self="): # the call's cost is all these functions' own, every event
        own = [sum(selfc[f][k] for f in rule[5:].split("+")) for k in range(len(ev))]
        assert cost == own, "%s: %s: %s, the functions' own %s" % (path, key, cost, own)
left = {k: v for k, v in edges.items() if v}
assert not left, "%s: edges not expected: %s" % (path, left)
print("ok: %s: %s" % (path.split("/")[-1], " ".join(sorted(seen))))
PY
}

if "$X" isas | grep -q '^dpu'; then
    cp tests/cli/progs/dpu_nested.s "$T/nested.s" || fail "no tests/cli/progs/dpu_nested.s"
    for n in 1 4; do
        "$X" asm --isa dpu -o tasklets=$n programs/dpu/rt/crt0.s "$T/nested.s" -o "$T/n$n.elf" || fail "dpu asm"
        "$X" run "$T/n$n.elf" --quiet --profile "$T/d$n" > /dev/null || fail "dpu run"
    done
    "$X" run "$T/n4.elf" --quiet --profile "$T/t4" --profile-threads --stats=json --stats-file "$T/t4.json" \
        > /dev/null || fail "dpu run, thread parts"
    [ -e "$T/t4" ] && fail "--profile-threads also wrote the merged file"
    [ -e "$T/t4-05" ] && fail "a part for a tasklet that does not exist"
    python3 - "$T/t4" "$T/t4.json" <<'PY' || fail "DPU thread parts against the statistics"
import json, sys
path, st = sys.argv[1], json.load(open(sys.argv[2]))
u = st["units"][0]
causes = ["dma", "revolver", "bank"]
tot = [0] * (2 + len(causes))
for t in u["threads"]:
    if not t["instructions"]: # never issued: no part
        continue
    head = {}
    for l in open("%s-%02d" % (path, t["index"] + 1)):
        if ":" in l and not l.startswith(("0x", "fn=", "fl=", "cfn=", "cfl=", "ob=", "calls=", "#")):
            k, v = l.split(":", 1); head[k] = v.split()
    assert head["events"] == ["Instructions", "Cycles"] + ["Stall_" + c for c in causes], head["events"]
    assert head["thread"] == [str(t["index"] + 1)], head["thread"]
    s = [int(x) for x in head["summary"]]
    want = [t["instructions"]] + [t["stalls"].get(c, 0) for c in causes]
    assert s[:1] + s[2:] == want, "thread %d: %s, statistics %s" % (t["index"], s, want)
    assert 0 < s[1] <= t["cycles"], (s, t["cycles"])
    tot = [a + b for a, b in zip(tot, s)]
assert tot[0] == st["instructions"], (tot, st["instructions"])
assert int(open(path + "-01").read().split("summary: ")[1].split()[1]) == st["cycles"]
PY
    # crt0's __rt_noboot calls main once per tasklet
    check "$T/d1" "__rt_noboot>main:1:45:dpu" "main>outer:3:30:dpu" "outer>inner:3:9:dpu" "outer>inner:3:9:dpu" ||
        fail "DPU edges"
    for p in 01 02 03 04; do
        check "$T/t4-$p" "__rt_noboot>main:1:45:dpu" "main>outer:3:30:dpu" "outer>inner:3:9:dpu" \
            "outer>inner:3:9:dpu" || fail "DPU edges of tasklet part $p"
    done
    check "$T/d4" "__rt_noboot>main:4:180:dpu" "main>outer:12:120:dpu" "outer>inner:12:36:dpu" \
        "outer>inner:12:36:dpu" || fail "DPU edges, 4 tasklets merged"
    # callgrind_annotate adds a function's calls to its own cost with --inclusive=yes
    if command -v callgrind_annotate > /dev/null; then
        callgrind_annotate --inclusive=yes "$T/d1" > "$T/ann" 2> "$T/ann.err" || fail "callgrind_annotate"
        [ ! -s "$T/ann.err" ] || fail "callgrind_annotate: $(head -2 "$T/ann.err")"
        for f in "45 main" "30 outer" "18 inner"; do
            set -- $f
            grep -q "^ *$1 ([ 0-9.]*%).*:$2 \[" "$T/ann" || fail "inclusive $2 is not $1: $(grep ":$2 \[" "$T/ann")"
        done
    fi
fi

if "$X" isas | grep -q '^mccp'; then
    cat > "$T/nested.mccp" <<'EOF'
movimm reg0 3
LOOP:
    call OUTER
    dec reg0
    jne LOOP
int 1

OUTER:
    call INNER
    call INNER
    ret

INNER:
    inc reg1
    inc reg2
    ret
EOF
    "$X" asm --isa mccp "$T/nested.mccp" -o "$T/nm.out" || fail "mccp asm"
    "$X" run "$T/nm.out" -o cores=0 --headless --quiet --profile "$T/m" > /dev/null || fail "mccp run"
    # a .out has no symbols: every PC is in "(no symbol)"
    check "$T/m" "(no symbol)>(no symbol):3:81:mccp" "(no symbol)>(no symbol):3:15:mccp" \
        "(no symbol)>(no symbol):3:15:mccp" || fail "MCCP edges"
fi

if "$X" isas | grep -q '^nyuzi'; then
    cat > "$T/nested.S" <<'EOF'
                .globl _start
_start:         move s10, 3
1:              call outer
                sub_i s10, s10, 1
                bnz s10, 1b
                li s0, 0xffffffff
                setcr s0, 20
2:              b 2b
outer:          move s9, ra
                call inner
                call inner
                move ra, s9
                ret
inner:          add_i s1, s1, 1
                add_i s1, s1, 2
                ret
EOF
    "$X" asm --isa nyuzi "$T/nested.S" -o "$T/ny.elf" || fail "nyuzi asm"
    "$X" run "$T/ny.elf" --quiet --profile "$T/y" > /dev/null || fail "nyuzi run"
    check "$T/y" "_start>outer:3:33" "outer>inner:3:9" "outer>inner:3:9" || fail "Nyuzi edges"
fi
# Calls that do not return as they were made. A conditional MCCP call whose jump is not
# taken is no call: `cmp` of equal registers sets Z, so `callne F` falls through (its
# conditional store and inc do not run either); `inc reg3` clears Z and `callne G` is taken:
# one edge, G's inc and ret (dec sp, load, jmp) = 4 instructions, and F never runs.
if "$X" isas | grep -q '^mccp'; then
    printf 'xor reg0 reg0\ncmp reg0 reg0\ncallne F\ninc reg3\ncallne G\nint 1\n\nF:\n    inc reg1\n    ret\n\nG:\n    inc reg2\n    ret\n' \
        > "$T/cond.mccp"
    "$X" asm --isa mccp "$T/cond.mccp" -o "$T/cond.out" || fail "mccp asm cond"
    "$X" run "$T/cond.out" -o cores=0 --headless --quiet --profile "$T/mc" > /dev/null || fail "mccp run cond"
    check "$T/mc" "(no symbol)>(no symbol):1:4:mccp" || fail "MCCP conditional calls"
fi
# Nyuzi: inner returns straight to main through the address outer saved (a longjmp): both
# frames close there, outer's with its 2 instructions (move, call) + inner's 3 (add_i, move,
# ret), inner's with its 3; and a run that halts inside inner leaves both calls open, each
# counted up to the halt: all the cost its callees charged (every event, derived from the
# functions' own lines), outer->inner = inner's 4 (add_i, li, setcr, and the branch behind
# the setcr, which issues before the suspension reaches thread_en: docs/isa/nyuzi.md),
# _start->outer 2 + 4.
if "$X" isas | grep -q '^nyuzi'; then
    cat > "$T/lj.S" <<'EOF'
                .globl _start
_start:         call outer
                li s0, 0xffffffff
                setcr s0, 20
2:              b 2b
outer:          move s9, ra
                call inner
                add_i s1, s1, 1
                move ra, s9
                ret
inner:          add_i s1, s1, 2
                move ra, s9
                ret
EOF
    cat > "$T/open.S" <<'EOF'
                .globl _start
_start:         call outer
2:              b 2b
outer:          move s9, ra
                call inner
                ret
inner:          add_i s1, s1, 2
                li s0, 0xffffffff
                setcr s0, 20
3:              b 3b
EOF
    for p in lj open; do
        "$X" asm --isa nyuzi "$T/$p.S" -o "$T/$p.elf" || fail "nyuzi asm $p"
        "$X" run "$T/$p.elf" --quiet --profile "$T/y$p" > /dev/null || fail "nyuzi run $p"
    done
    check "$T/ylj" "_start>outer:1:5" "outer>inner:1:3" || fail "Nyuzi longjmp"
    check "$T/yopen" "_start>outer:1:6:self=outer+inner" "outer>inner:1:4:self=inner" || fail "Nyuzi open calls"
fi

if "$X" isas | grep -q '^ipu'; then
    cat > "$T/nested_ipu.S" <<'EOF'
.section .text.sup, "ax"
.supervisor
.globl _start
.type _start, @function
_start:
  setzi $m1, 3
loop:
  call $m11, outer
  add $m1, $m1, -1
  brnz $m1, loop
  br $m10
outer:
  call $m12, inner
  call $m12, inner
  br $m11
inner:
  add $m2, $m2, 1
  add $m2, $m2, 2
  br $m12
EOF
    XPUSIM_ROOT=${XPUSIM_ROOT:-.} "$X" asm --isa ipu "$T/nested_ipu.S" -o "$T/ni.elf" || fail "ipu asm"
    "$X" run "$T/ni.elf" --quiet --profile "$T/i" > /dev/null || fail "ipu run"
    # the supervisor's loop (label `loop`) calls outer; `br $mN` returns
    check "$T/i" "loop>outer:3:27" "outer>inner:3:9" "outer>inner:3:9" || fail "IPU edges"
fi
echo ok
