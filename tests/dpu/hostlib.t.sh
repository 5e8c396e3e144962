#!/bin/sh
# tests/dpu/hostlib.t.sh: libxpusim-dpu, the UPMEM SDK host API as a library (issue 16).
# A host program written as SDK host code (programs/dpu/host/hostlib_check.c) is compiled
# the way a user does, `cc host.c $(pkg-config --cflags --libs xpusim-dpu)` with the build
# tree's xpusim-dpu.pc, and run on our DPU programs: allocation and profiles, load errors,
# DPU_FOREACH/DPU_RANK_FOREACH, broadcast, prepared and pushed transfers on 4 DPUs (checked
# against C), three launches with memory kept (one asynchronous), per-launch cycles, logs,
# the SDK's error codes and a faulting program; it prints ok/FAIL per check. Then the
# statistics file a host program gets without changing its code (XPUSIM_DPU_STATS).
X=${XPUSIM:-build/xpusim}
B=${XPUSIM_BUILD:-$(dirname "$X")}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v pkg-config >/dev/null || { echo "SKIP: no pkg-config"; exit 0; }
[ -f "$B/libxpusim-dpu.a" ] || fail "$B/libxpusim-dpu.a not built"
R=programs/dpu/rt
"$X" asm --isa dpu programs/dpu/vecadd.s $R/*.s -o "$T/va.elf" -o tasklets=16 || fail "asm vecadd"
"$X" asm --isa dpu programs/dpu/reduce.s $R/*.s -o "$T/red.elf" -o tasklets=16 || fail "asm reduce"
"$X" asm --isa dpu programs/dpu/host/hello.s $R/*.s -o "$T/hello.elf" -o tasklets=1 || fail "asm hello"
"$X" asm --isa dpu programs/dpu/host/trap.s -o "$T/trap.elf" || fail "asm trap"
FLAGS=$(PKG_CONFIG_PATH="$B" pkg-config --cflags --libs xpusim-dpu) || fail "pkg-config xpusim-dpu"
cc -std=c11 -Wall -Wextra -Werror -o "$T/hc" programs/dpu/host/hostlib_check.c $FLAGS 2>"$T/cc" ||
    fail "cc hostlib_check.c \$(pkg-config ...): $(head -5 "$T/cc")"
"$T/hc" "$T/va.elf" "$T/red.elf" "$T/hello.elf" "$T/trap.elf" >"$T/out" 2>"$T/err"; rc=$?
cat "$T/out"
[ $rc -eq 0 ] && grep -q "^all passed$" "$T/out" || fail "host program: exit $rc; $(grep FAIL "$T/out") $(head -3 "$T/err")"
[ "$(grep -c '^ok:' "$T/out")" -ge 35 ] || fail "fewer checks ran than written"
# a fault names the simulator's reason on stderr (the SDK code alone would not)
grep -q "xpusim-dpu: launch 1: fault: dpu0 tasklet 0: fault 3: assert" "$T/err" || fail "fault message: $(cat "$T/err")"
grep -q "xpusim-dpu: launch 1: deadlock: dpu0: 12 tasklet(s) stopped outside the exit path" "$T/err" ||
    fail "deadlock message: $(cat "$T/err")"

# XPUSIM_DPU_STATS: one report per launch, appended; .json: one object per line
XPUSIM_DPU_STATS="$T/s.txt" "$T/hc" "$T/va.elf" "$T/red.elf" "$T/hello.elf" "$T/trap.elf" >/dev/null 2>&1 ||
    fail "run with XPUSIM_DPU_STATS"
# launches: vecadd 1, reduce 3 + 1 (12 tasklets), hello 3 + 1, trap 1 = 10
[ "$(grep -c '^== launch [0-9]* ==$' "$T/s.txt")" = 10 ] || fail "text statistics: $(grep -c '^== launch' "$T/s.txt") launches"
grep -q "^stop: fault: dpu0 tasklet 0: fault 3" "$T/s.txt" || fail "the faulting launch's statistics"
XPUSIM_DPU_STATS="$T/s.json" "$T/hc" "$T/va.elf" "$T/red.elf" "$T/hello.elf" "$T/trap.elf" >/dev/null 2>&1 ||
    fail "run with XPUSIM_DPU_STATS=.json"
[ "$(wc -l <"$T/s.json")" = 10 ] && [ "$(grep -c '^{.*"cycles".*}$' "$T/s.json")" = 10 ] || fail "JSON lines: $(head -c 300 "$T/s.json")"
# the library's reduce launch 1 (4096 values, 16 tasklets, from a fresh load) is the same
# machine state as a command-line run with the same inputs: the same cycles
python3 - "$T" <<'PY' || fail "reduce data"
import struct, sys
t = sys.argv[1]
open(t + "/data.bin", "wb").write(b"".join(struct.pack("<I", (k * 2654435761) & 0xffffffff) for k in range(4096)))
open(t + "/n.bin", "wb").write(struct.pack("<I", 4096))
PY
"$X" run "$T/red.elf" -o mram=1 --set reduce_n="$T/n.bin" --set __sys_used_mram_end="$T/data.bin" \
    --stats=json --stats-file "$T/cli.json" --quiet >/dev/null || fail "CLI reduce run"
cli=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['cycles'])" "$T/cli.json")
lib=$(sed -n 2p "$T/s.json" | python3 -c "import json,sys; print(json.loads(sys.stdin.read())['cycles'])")
[ -n "$cli" ] && [ "$cli" = "$lib" ] || fail "reduce launch 1: library $lib cycles, command line $cli"
echo "ok: reduce launch 1 through the library = the command-line run: $lib cycles"
echo "ok"
