#!/bin/sh
# tests/dpu/hostsession.t.sh: host-session files (issue 16 point 2), `xpusim run FILE.dpuhost`:
# copies, scatters, launches with memory kept, reads and logs in order through libxpusim-dpu
# on the command line's machine. Expected values come from C-like arithmetic in Python (sums,
# vector additions) and from the programs' documented behaviour; launch 1's cycles must equal
# a plain `xpusim run` of the same inputs (both boot the same memory at cycle 0), and the
# last launch is the command line's own run (its statistics, exit status).
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
R=programs/dpu/rt
"$X" asm --isa dpu programs/dpu/reduce.s $R/*.s -o "$T/red.elf" -o tasklets=16 || fail "asm reduce"
"$X" asm --isa dpu programs/dpu/vecadd.s $R/*.s -o "$T/va.elf" -o tasklets=16 || fail "asm vecadd"
"$X" asm --isa dpu programs/dpu/host/hello.s $R/*.s -o "$T/hello.elf" -o tasklets=1 || fail "asm hello"
"$X" asm --isa dpu programs/dpu/host/trap.s -o "$T/trap.elf" || fail "asm trap"
python3 - "$T" <<'PY' || fail "data"
import struct, sys
t = sys.argv[1]
d = [(k * 2654435761) & 0xffffffff for k in range(4096)]
open(t + "/data.bin", "wb").write(struct.pack("<4096I", *d))
open(t + "/n.bin", "wb").write(struct.pack("<I", 4096))
open(t + "/want", "w").write("dpu0 reduce_result: %d\ndpu0 reduce_result: %d\n" % (sum(d) & 0xffffffff, sum(d[:2048]) & 0xffffffff))
# vecadd on 2 DPUs, 64 elements each: A then B per DPU, scattered as one file per array
a = [[(i * 7 + k * 3) & 0xffffffff for k in range(64)] for i in range(2)]
b = [[(i * 1000 + k * 11) & 0xffffffff for k in range(64)] for i in range(2)]
open(t + "/ab.bin", "wb").write(b"".join(struct.pack("<64I", *a[i]) + struct.pack("<64I", *b[i]) for i in range(2)))
open(t + "/c.want", "wb").write(b"".join(struct.pack("<64I", *[(x + y) & 0xffffffff for x, y in zip(a[i], b[i])]) for i in range(2)))
PY

# reduce: data copied once, two launches (the second reads the MRAM data the first left)
cat > "$T/r.dpuhost" <<'S'
# two sums over the same MRAM data
program red.elf
copy __sys_used_mram_end = data.bin
copy reduce_n = u32:4096
launch
get reduce_result 4 u32
copy reduce_n = u32:2048   # only the count changes
launch
get @0 reduce_result 4 u32
get reduce_result 4 > res.bin
S
"$X" run "$T/r.dpuhost" -o mram=1 --stats=json --stats-file "$T/s.json" >"$T/out" 2>"$T/err" || fail "reduce session: $(cat "$T/err")"
grep reduce_result "$T/out" | cmp -s - "$T/want" || fail "reduce sums: $(cat "$T/out") want $(cat "$T/want")"
[ "$(od -An -tu4 "$T/res.bin" | tr -d ' ')" = "$(sed -n 2p "$T/want" | cut -d' ' -f3)" ] || fail "> FILE"
"$X" run "$T/red.elf" -o mram=1 --set reduce_n="$T/n.bin" --set __sys_used_mram_end="$T/data.bin" \
    --stats=json --stats-file "$T/plain.json" --quiet >/dev/null || fail "plain run"
plain=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['cycles'])" "$T/plain.json")
grep -q "^launch 1: $plain cycles, " "$T/out" || fail "launch 1 vs plain run ($plain): $(grep '^launch' "$T/out")"
last=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['cycles'])" "$T/s.json")
grep -q "^launch 2: $last cycles, " "$T/out" || fail "launch 2 line vs the run's statistics ($last)"
[ "$last" -lt "$plain" ] || fail "half the data took $last cycles, the whole $plain"
echo "ok: reduce session: sums right, launch 1 = plain run ($plain cycles), launch 2 = the statistics ($last)"

# vecadd on 2 DPUs: broadcast the count, scatter A+B, gather C
cat > "$T/v.dpuhost" <<'S'
program va.elf
copy vecadd_n = u32:64
scatter __sys_used_mram_end = ab.bin
launch
gather __sys_used_mram_end+512 256 > c.bin
S
"$X" run "$T/v.dpuhost" -o dpus=2 -o mram=1 --quiet >"$T/out" 2>"$T/err" || fail "vecadd session: $(cat "$T/err")"
cmp -s "$T/c.bin" "$T/c.want" || fail "vecadd gather differs"
echo "ok: vecadd session on 2 DPUs: scatter, gather"
# the same with two host threads: identical results and statistics (DPUs never interact)
"$X" run "$T/v.dpuhost" -o dpus=2 -o mram=1 --stats=json --stats-file "$T/j1.json" --quiet >/dev/null 2>&1 && cp "$T/c.bin" "$T/c1.bin" &&
"$X" run "$T/v.dpuhost" -o dpus=2 -o mram=1 -o jobs=2 --stats=json --stats-file "$T/j2.json" --quiet >/dev/null 2>&1 ||
    fail "vecadd session with jobs=2"
cmp -s "$T/c.bin" "$T/c1.bin" && "$X" stats diff "$T/j1.json" "$T/j2.json" >/dev/null || fail "jobs=2 differs from jobs=1"
echo "ok: jobs=2 = jobs=1"
# the debugger runs the last launch; a second continue reports nothing twice
printf 'info run\ncontinue\ncontinue\n' > "$T/d.x"
"$X" debug "$T/r.dpuhost" -o mram=1 -x "$T/d.x" >"$T/dout" 2>&1 || fail "debug session: $(tail -3 "$T/dout")"
[ "$(grep -c '^launch [12]: ' "$T/dout")" = 2 ] && grep -q "^dpu0 reduce_result: $(sed -n 2p "$T/want" | cut -d' ' -f3)" "$T/dout" ||
    fail "debugger session: $(cat "$T/dout")"
echo "ok: xpusim debug runs the session's last launch"

# logs and WRAM kept across three launches; one DPU launched alone
cat > "$T/h.dpuhost" <<'S'
program hello.elf
launch
launch
log
launch @1
log @1
get @0 hello_count 4 u32
get @1 hello_count 4 u32
S
"$X" run "$T/h.dpuhost" -o dpus=2 -o mram=1 --quiet >"$T/out" 2>"$T/err" || fail "hello session: $(cat "$T/err")"
printf 'launch 1: %s\nlaunch 2: %s\n=== DPU 0 ===\nlaunch #2\n=== DPU 1 ===\nlaunch #2\nlaunch 3: %s\n=== DPU 1 ===\nlaunch #3\ndpu0 hello_count: 2\ndpu1 hello_count: 3\n' \
    "$(sed -n 1p "$T/out" | cut -d' ' -f3-)" "$(sed -n 2p "$T/out" | cut -d' ' -f3-)" "$(sed -n 7p "$T/out" | cut -d' ' -f3-)" > "$T/hwant"
cmp -s "$T/out" "$T/hwant" || fail "hello session output: $(cat "$T/out")"
echo "ok: logs per launch, memory kept, one DPU launched alone"

# errors: the file is checked before anything runs; line numbers; exit statuses
bad() { # bad NAME EXPECTED-STATUS MESSAGE-PART: the session file $T/NAME.dpuhost
    "$X" run "$T/$1.dpuhost" --quiet >"$T/bout" 2>"$T/berr"; rc=$?
    [ $rc -eq "$2" ] && grep -qF "$3" "$T/berr" || fail "$1: exit $rc (want $2): $(cat "$T/berr")"
    echo "ok: $1: exit $rc, $3"
}
printf 'program red.elf\nlaunch\nfrobnicate x\n' > "$T/e1.dpuhost"
bad e1 1 "e1.dpuhost:3: unknown command 'frobnicate'"
grep -q "^launch" "$T/bout" && fail "e1 ran a launch before finding the bad line"
printf 'copy reduce_n = u32:1\nlaunch\n' > "$T/e2.dpuhost"
bad e2 1 "e2.dpuhost:1: the first line must be \`program FILE\`"
printf 'program red.elf\ncopy no_such = u32:1\nlaunch\n' > "$T/e3.dpuhost"
bad e3 1 "e3.dpuhost:2: copy: unknown symbol"
printf 'program hello.elf\ncopy hello_count = u32:1,2\nlaunch\n' > "$T/e4.dpuhost"
bad e4 1 "e4.dpuhost:2: copy: access past the end of the symbol"
printf 'program red.elf\ncopy reduce_n+2 = u32:1\nlaunch\n' > "$T/e5.dpuhost"
bad e5 1 "e5.dpuhost:2: copy: invalid WRAM access"
printf 'program red.elf\nget @3 reduce_n 4\nlaunch\n' > "$T/e6.dpuhost"
bad e6 1 "e6.dpuhost:2: '@3': expected @DPU"
printf 'program red.elf\n' > "$T/e7.dpuhost"
bad e7 1 "no \`launch\` line"
printf 'program trap.elf\nlaunch\nlaunch\n' > "$T/e8.dpuhost"
bad e8 1 "e8.dpuhost:2: launch 1 did not end cleanly: fault: dpu0 tasklet 0: fault 3"
printf 'program trap.elf\nlaunch\nget reduce_n 4\n' > "$T/e9.dpuhost"
bad e9 2 "fault 3: assert"
printf 'program hello.elf\nlaunch\nget hello_count 8\n' > "$T/e10.dpuhost"
bad e10 1 "e10.dpuhost:3: get: access past the end of the symbol"
printf 'program red.elf\ncopy reduce_n = nofile.bin\nlaunch\n' > "$T/e11.dpuhost"
bad e11 1 "e11.dpuhost:2: "
echo "ok"
