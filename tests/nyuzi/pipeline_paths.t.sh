#!/bin/sh
# tests/nyuzi/pipeline_paths.t.sh: the cycle model's plain loop has instances for 1 and for 4
# live threads (isa/nyuzi/pipeline.c run_plain1/run_plain4: the thread scans unrolled; on
# several cores, whose calls are one cycle each, run_one4: one pass) and one for any other
# count; the loop used while a debugging feature is on (`--trace`) always scans
# every thread of the core. All must simulate the same thing: for programs run with 1, 2, 3,
# 4 and 8 hardware threads, on one and on two cores, and for a one-thread program on a
# four-thread core (one live thread of four), the full JSON statistics (every thread's
# cycles, instructions, issue cycles, stalls by cause, the core's event counters; the host's
# time left out) of a plain run must equal those of a `--trace /dev/null` run, and the
# program's output and the memory after it (--mem-hash) must be the same. The plain
# instances for 1 and 4 threads have the instruction bodies inline (exec_ops.inc in
# pipeline.c), the others call nyz_exec (exec.c): this also holds the two copies of the
# semantics to each other, on the random programs and alu.S (every ALU, compare, FP and
# vector form, masked and not).
set -u
command -v python3 >/dev/null || { echo "SKIP: python3 not found"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0; n=0
check() { # name elf options...
    name=$1; elf=$2; shift 2
    "$XPUSIM" run "$elf" "$@" --quiet --max-cycles 400000 --stats=json --stats-file "$T/plain.json" \
        --mem-hash "$T/plain.mem" > "$T/plain.out" 2>&1
    "$XPUSIM" run "$elf" "$@" --quiet --max-cycles 400000 --stats=json --stats-file "$T/slow.json" \
        --mem-hash "$T/slow.mem" --trace /dev/null > "$T/slow.out" 2>&1
    n=$((n + 1))
    grep -v '"host"' "$T/plain.json" > "$T/a"; grep -v '"host"' "$T/slow.json" > "$T/b"
    if ! grep -q '"instructions": [1-9]' "$T/a"; then
        echo "FAIL $name $*: nothing ran"; fail=1
    elif ! cmp -s "$T/a" "$T/b"; then
        echo "FAIL $name $*: the statistics differ (plain <, traced >)"; diff "$T/a" "$T/b" | head -6; fail=1
    elif ! cmp -s "$T/plain.out" "$T/slow.out"; then
        echo "FAIL $name $*: the output differs"; fail=1
    elif [ ! -s "$T/plain.mem" ] || ! cmp -s "$T/plain.mem" "$T/slow.mem"; then
        echo "FAIL $name $*: the memory after the run differs"; fail=1
    else
        echo "ok $name $*"
    fi
}
python3 tests/nyuzi/tools/gen_random.py 3 > "$T/r.S" && "$XPUSIM" asm --isa nyuzi "$T/r.S" -o "$T/r.elf" || fail=1
"$XPUSIM" asm --isa nyuzi -o define=ITERATIONS=40 programs/nyuzi/bench/loop4.S -o "$T/l4.elf" || fail=1
"$XPUSIM" asm --isa nyuzi -o define=ITERATIONS=40 programs/nyuzi/bench/loop1.S -o "$T/l1.elf" || fail=1
"$XPUSIM" asm --isa nyuzi -o include=tests/nyuzi/progs tests/nyuzi/progs/mem.S -o "$T/mem.elf" || fail=1
"$XPUSIM" asm --isa nyuzi -o include=tests/nyuzi/progs tests/nyuzi/progs/alu.S -o "$T/alu.elf" || fail=1
python3 tests/nyuzi/tools/gen_random.py 11 > "$T/r11.S" && "$XPUSIM" asm --isa nyuzi "$T/r11.S" -o "$T/r11.elf" || fail=1
for th in 1 2 3 4 8; do
    check random3 "$T/r.elf" -o threads=$th
    check loop4 "$T/l4.elf" -o threads=$th
done
check random3 "$T/r.elf" -o cores=2
check loop4 "$T/l4.elf" -o cores=2 -o threads=3
check loop1 "$T/l1.elf"               # one live thread of four
check mem "$T/mem.elf"                # traps, TLB misses, an interrupt
for th in 1 4; do
    check alu "$T/alu.elf" -o threads=$th
    check random11 "$T/r11.elf" -o threads=$th
done
echo "$n runs"
exit $fail
