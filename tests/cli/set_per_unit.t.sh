#!/bin/sh
# tests/cli/set_per_unit.t.sh: --set and --get reach each unit's own memory on an ISA whose
# units have their own and that finds symbols without an ISA hook (the IPU: tile U's tmem).
# They used to reach tile 0's memory for every unit: tiles 1 and 2 ran with the ELF's
# bench_iters while tile 0 got the value three times.
# Expected counts, from programs/ipu/bench/loop6.S and ipu.expected: a tile with bench_iters
# = N retires 36N + 87 instructions; N = 7 gives 339, three tiles 1017. With @U: tile 1 gets
# 7 (339), tiles 0 and 2 get 9 (36 x 9 + 87 = 411 each): 1161 in all.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
"$X" asm --isa ipu programs/ipu/bench/loop6.S -o "$T/loop6.elf" || { echo "FAIL: asm"; exit 1; }
printf '\007\000\000\000' > "$T/n7.bin"
printf '\011\000\000\000' > "$T/n9.bin"
insns() { sed -n 's/^  "instructions": \([0-9]*\),*/\1/p' "$1"; }
"$X" run "$T/loop6.elf" -o tiles=3 --set bench_iters="$T/n7.bin" --quiet --stats=json --stats-file "$T/a.json" \
    || { echo "FAIL: run (every tile)"; fail=1; }
n=$(insns "$T/a.json")
[ "$n" = 1017 ] && echo "ok: --set on 3 tiles: $n instructions" || { echo "FAIL: --set on 3 tiles: $n instructions, want 1017"; fail=1; }
"$X" run "$T/loop6.elf" -o tiles=3 --set @1:bench_iters="$T/n7.bin" \
    --set @0:bench_iters="$T/n9.bin" --set @2:bench_iters="$T/n9.bin" --quiet --stats=json --stats-file "$T/b.json" \
    --get @1:bench_iters:4="$T/g1.bin" --get @2:bench_iters:4="$T/g2.bin" || { echo "FAIL: run (@1)"; fail=1; }
n=$(insns "$T/b.json")
[ "$n" = 1161 ] && echo "ok: --set @U: $n instructions" || { echo "FAIL: --set @U: $n instructions, want 1161"; fail=1; }
cmp -s "$T/g1.bin" "$T/n7.bin" && echo "ok: --get @1 reads tile 1's 7" || { echo "FAIL: --get @1: $(od -An -tu4 "$T/g1.bin")"; fail=1; }
cmp -s "$T/g2.bin" "$T/n9.bin" && echo "ok: --get @2 reads tile 2's 9" \
    || { echo "FAIL: --get @2: $(od -An -tu4 "$T/g2.bin")"; fail=1; }
exit $fail
