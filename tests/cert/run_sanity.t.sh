#!/bin/sh
# tests/cert/run_sanity.t.sh: `xpusim run` on aiebu's test/control-code/sanity.asm (the
# reference's suggested ISS check 3): the WRITE_32s with bit 31 to TILE_2_1 MM2S_0 and
# TILE_3_1 S2MM_0 start queues each give one token, so both WAIT_TCTS complete; without
# bit 31 the run stops as a deadlock (exit 3) with one line per uC naming
# (uc, page, offset), the opcode and the tokens expected and received. Cycle counts from
# the documented defaults (timing.c), derived in tests/cert/test_runner.c (sanity: 831).
# Programs are assembled with `xpusim asm`; without a working assembler the test skips.
set -u
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
cat > "$T/sanity.asm" <<'EOS'
START_JOB 0
  uC_DMA_WRITE_DES    $r0, @uc_dma_bd0
  WAIT_uC_DMA         $r0
  LOCAL_BARRIER       $lb0, 2
END_JOB

START_JOB 1
  LOCAL_BARRIER       $lb0, 2
  WRITE_32            0x41A0634, 0x80000000
  WRITE_32            0x61A0604, 0x80000000
  WAIT_TCTS           TILE_2_1, MM2S_0, 1
  WAIT_TCTS           TILE_3_1, S2MM_0, 1
END_JOB

EOF

  .align             16
uc_dma_bd0:
  UC_DMA_BD         0, 0x041A0000, @mem21_bd0, 8, 0, 1
  UC_DMA_BD         0, 0x061A0000, @mem31_bd0, 8, 0, 0

  .align             4
mem21_bd0:
  .long              0x00000080
  .long              0x00000000
  .long              0x00000000
  .long              0x00000000
  .long              0x00000000
  .long              0x00000000
  .long              0x00000000
  .long              0x80000000

  .align             4
mem31_bd0:
  .long              0x00000080
  .long              0x00000000
  .long              0x00000000
  .long              0x00000000
  .long              0x00000000
  .long              0x00000000
  .long              0x00000000
  .long              0x80000000
EOS
sed 's/0x41A0634, 0x80000000/0x41A0634, 0x00000000/' "$T/sanity.asm" > "$T/hang.asm"
for p in sanity hang; do
    if ! "$X" asm --isa cert -o aiebu=2025.02 "$T/$p.asm" -o "$T/$p.elf" 2>"$T/asm.err"; then
        echo "SKIP: the CERT assembler cannot build $p.asm yet: $(head -c 200 "$T/asm.err")"
        exit 0
    fi
done

# 1. tokens arrive, both waits complete: 831 cycles, 2 tokens, 64 uC-DMA bytes
"$X" run "$T/sanity.elf" -o columns=4 >"$T/out" 2>&1; rc=$?
[ $rc -eq 0 ] || no "sanity: exit $rc: $(tail -3 "$T/out")"
grep -q '^stop: halted' "$T/out" || no "sanity: not halted: $(grep stop: "$T/out")"
grep -q '^cycles: 831 ' "$T/out" || no "sanity: $(grep '^cycles' "$T/out"), expected 831"
grep -q '^  tokens: 2$' "$T/out" || no "sanity: tokens $(grep tokens "$T/out")"
grep -q '^  ucdma_bytes: 64$' "$T/out" || no "sanity: $(grep ucdma_bytes "$T/out")"
grep -q 'stall tct 38' "$T/out" || no "sanity: job 1's token stall: $(grep 'thread 1' "$T/out")"
# the options the run used, with the program's choice of columns and spec
grep -q '^model: columns=4 .*spec=2025.02 .*tct_route=controller' "$T/out" || no "model line: $(grep model "$T/out")"

# 2. the same cycles again (determinism), also in JSON
"$X" run "$T/sanity.elf" -o columns=4 --quiet --stats=json --stats-file "$T/a.json" || no "json run"
"$X" run "$T/sanity.elf" -o columns=4 --quiet --stats=json --stats-file "$T/b.json" || no "json run 2"
cmp -s "$T/a.json" "$T/b.json" 2>/dev/null || [ "$(grep -v host "$T/a.json")" = "$(grep -v host "$T/b.json")" ] ||
    no "two runs differ"

# 3. no token bit: deadlock, exit 3, one line per uC
"$X" run "$T/hang.elf" -o columns=4 --quiet >"$T/out" 2>&1; rc=$?
[ $rc -eq 3 ] || no "hang: exit $rc, expected 3"
grep -qx 'uc0: page 0 offset 0x50: WAIT_TCTS TILE_2_1, MM2S_0, 0x1: job 1 waits for TCTs from TILE_2_1 MM2S_0: expected 1, received 0' "$T/out" ||
    no "hang report: $(cat "$T/out")"
for u in 1 2 3; do grep -qx "uc$u: no control code" "$T/out" || no "hang report lacks uc$u"; done
grep -q 'stopped: deadlock in uc0 thread 1 at pc 0x50' "$T/out" || no "stop line: $(grep stopped "$T/out")"

# 4. the opcode watchdog stops first when it is shorter than the hang's last event
"$X" run "$T/hang.elf" -o columns=4 -o opcode_timeout=40 --quiet >"$T/out" 2>&1; rc=$?
[ $rc -eq 3 ] && grep -q 'opcode timeout (40 cycles' "$T/out" || no "watchdog: exit $rc: $(cat "$T/out")"

# 5. an array address outside the partition: a fault naming the option to widen it (the
# array model is 36 columns wide unless -o columns or -o array_columns says otherwise);
# without -o columns the run uses the program's one uC and the 36-column array: same cycles
"$X" run "$T/sanity.elf" -o columns=2 --quiet >"$T/out" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q 'column 2 outside the 2-column partition (-o columns=N' "$T/out" ||
    no "columns fault: exit $rc: $(cat "$T/out")"
"$X" run "$T/sanity.elf" >"$T/out" 2>&1 || no "default partition: $(cat "$T/out")"
grep -q '^cycles: 831 ' "$T/out" && grep -q '^model: columns=1 target=aie2ps array_columns=36 ' "$T/out" ||
    no "default partition: $(grep -E '^(cycles|model)' "$T/out")"

# 6. bad option values are refused before anything runs
"$X" run "$T/sanity.elf" -o write32d_flags=both >"$T/out" 2>&1 && no "write32d_flags=both accepted"
grep -q 'mlir|spec' "$T/out" || no "write32d_flags error: $(cat "$T/out")"
"$X" run "$T/sanity.elf" -o tct_latency=x >/dev/null 2>&1 && no "tct_latency=x accepted"

# 6b. per-job counters: job 0's uC-DMA chain is two descriptors of 8 words (64 bytes); job 1
# consumes the two tokens its WAIT_TCTS wait for and makes two AXI writes (the start queues)
"$X" run "$T/sanity.elf" -o columns=4 >"$T/out" 2>&1
grep -q '^  thread 0: .*, ucdma_bytes 64$' "$T/out" &&
    grep -q '^  thread 1: .*, tokens 2, axi_accesses 2$' "$T/out" || no "per-job counters: $(grep 'thread' "$T/out")"

# 7. the token path latency is an option: with 100 instead of 30 the second token (task
# done at 759) arrives at 859 instead of 789; the job still blocks on it (its first token
# came at 804, dispatch 816, WAIT_TCTS 836), then dispatch 871, END_JOB 901
"$X" run "$T/sanity.elf" -o columns=4 -o tct_latency=100 >"$T/out" 2>&1
grep -q '^cycles: 901 ' "$T/out" || no "tct_latency=100: $(grep '^cycles' "$T/out"), expected 901"
[ $fail -eq 0 ] && echo ok
exit $fail
