#!/bin/sh
# tests/unit/run_fault_dpu.t.sh: two DPUs that fault at different cycles give the same stop
# for every -o jobs= (the rule for independent units, core/run.c indep_finish): every DPU
# runs to its own end and the stop is the earliest fault by (cycle, unit). One tasklet per
# DPU issues at most once every 11 cycles (the revolver, docs/isa/dpu.md), so instruction k
# is at cycle 11 k: lw (k = 0), the loop's add N times (k = 1..N), `fault 5` at k = N + 1,
# cycle 11 (N + 1). DPU 0 loops 300 times (fault at 3311), DPU 1 100 times (1111): the stop
# is DPU 1's at 1111, although DPU 0 runs first on one host thread (before, jobs=1 stopped
# at DPU 0's fault with DPU 1 never run). Skipped in a build without the DPU.
X=${XPUSIM:-build/xpusim}
"$X" isas | grep -q '^dpu' || { echo "skip: no DPU in this build"; exit 0; }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cat > "$T/f.s" <<'ASM'
	.section	.text.__bootstrap,"ax",@progbits
	.globl	__bootstrap
__bootstrap:
	lw	r0, zero, iters
.Lloop:
	add	r0, r0, -1, nz, .Lloop
	fault	5
	.section	.dpu_host,"aw",@progbits
	.globl	iters
	.p2align	3
iters:
	.long	1000
ASM
"$X" asm --isa dpu "$T/f.s" -o "$T/f.elf" || fail "asm"
printf '\054\001\000\000' > "$T/n300.bin" # 300, little-endian
printf '\144\000\000\000' > "$T/n100.bin" # 100
for j in 1 2 3; do
    "$X" run "$T/f.elf" -o dpus=2 -o jobs=$j --set @0:iters="$T/n300.bin" --set @1:iters="$T/n100.bin" \
        --stats=json --stats-file "$T/s$j.json" >"$T/o$j" 2>&1
    rc=$?
    [ $rc -eq 2 ] || fail "jobs=$j: exit $rc, not 2 (a fault): $(cat "$T/o$j")"
    grep -q 'fault in dpu1 thread 0 at pc 0x2 (cycle 1111)' "$T/o$j" || fail "jobs=$j: not DPU 1's fault at 1111: $(cat "$T/o$j")"
    grep -v '"host"' "$T/s$j.json" > "$T/c$j.json"
done
# the full statistics too: DPU 0 ran to its own fault (302 instructions) in every case
cmp -s "$T/c1.json" "$T/c2.json" && cmp -s "$T/c1.json" "$T/c3.json" || fail "statistics differ between jobs=1, 2, 3"
grep -q '"instructions": 302,' "$T/c1.json" || fail "DPU 0 did not run to its fault (302 instructions)"
grep -q '"instructions": 102,' "$T/c1.json" || fail "DPU 1: not 102 instructions"
# (the fault instruction counts: lw + N adds + fault = N + 2), and the machine's time is the
# later end, DPU 0's fault at 3311
grep -q '^  "cycles": 3311,' "$T/c1.json" || fail "the machine's cycles are not 3311"
echo "ok: two DPUs faulting at 3311 and 1111: the stop is DPU 1's at 1111 for jobs=1, 2, 3, statistics identical"
