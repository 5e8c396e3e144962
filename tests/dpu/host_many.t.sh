#!/bin/sh
# Host protocol for many DPUs: --scatter gives each DPU its own slice of a file at a symbol,
# --gather and --get @K: read per-DPU values back, --set broadcasts, and per-DPU spaces
# beyond the registered ones (mram.7, wram.6) are reachable through isa_ops.unit_space.
# Expected values are the bytes written: vecadd_n is a 4-byte WRAM word the program reads.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$X" asm --isa dpu programs/dpu/vecadd.s programs/dpu/rt/*.s -o "$T/va.elf" || fail "asm"
printf '\100\000\000\000\200\000\000\000' > "$T/n2.bin"      # 64, 128
printf '\100\000\000\000' > "$T/n1.bin"                      # 64
"$X" run "$T/va.elf" -o dpus=2 -o mram=1 --quiet --scatter vecadd_n="$T/n2.bin" \
    --gather vecadd_n:4="$T/g.bin" --get @1:vecadd_n:4 > "$T/out" || fail "scatter run"
cmp "$T/g.bin" "$T/n2.bin" || fail "gather differs from what was scattered"
grep -A1 "dpu1: vecadd_n:4:" "$T/out" | grep -q "^80 00 00 00" || fail "--get @1: $(cat "$T/out")"
# uneven split is refused with the sizes named
"$X" run "$T/va.elf" -o dpus=8 -o mram=1 --quiet --scatter vecadd_n="$T/n2.bin:4" 2> "$T/err" && fail "uneven scatter accepted"
grep -q "8 bytes are not 8 chunks of 4 bytes" "$T/err" || fail "scatter message: $(cat "$T/err")"
# broadcast --set, and spaces of DPUs past the registered ones
"$X" run "$T/va.elf" -o dpus=8 -o mram=1 --quiet --set vecadd_n="$T/n1.bin" \
    --load mram.7:0="$T/n2.bin" --dump mram.7:0:1 --dump wram.6:0x30c0:1 --gather vecadd_n:4 > "$T/out" || fail "dpus=8 run"
grep -q "mram.7\[0x0\]: 0000008000000040" "$T/out" || fail "mram.7 dump: $(cat "$T/out")"
grep -q "wram.6\[0x30c0\]: 00000040" "$T/out" || fail "wram.6 dump: $(cat "$T/out")"
[ "$(grep -c '^40 00 00 00' "$T/out")" = 8 ] || fail "--set did not reach all 8 DPUs: $(cat "$T/out")"
"$X" run "$T/va.elf" --quiet --get @3:vecadd_n:4 2> "$T/err" && fail "@3 accepted with one DPU"
grep -q "expected @UNIT: with UNIT in \[0, 1)" "$T/err" || fail "unit message: $(cat "$T/err")"
echo "ok"
