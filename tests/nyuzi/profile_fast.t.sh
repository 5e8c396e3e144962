#!/bin/sh
# tests/nyuzi/profile_fast.t.sh: --profile fed by the Nyuzi run loops themselves
# (isa_ops.profile_fast: pipeline.c's issue path, func.c's turns) is the profile the
# debugger's hook path writes (`--trace /dev/null` turns the hooks on without changing a
# result), byte for byte, in the cycle model and in the functional mode, and profiling changes
# no statistic. Programs with traps and eret (mem.S, mmu_int.S: TLB misses, faults, an
# interrupt), calls (call_ret), cache misses, gathers, syscalls, stores into a busy store
# queue, and four threads (the RTL micro-benchmarks, loop4.S).
set -u
command -v python3 >/dev/null || { echo "SKIP: python3 not found"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0; n=0
check() { # name elf mode
    "$XPUSIM" run "$2" -o timing=$3 --max-cycles 400000 --quiet --stats=json --stats-file "$T/plain.json" > /dev/null 2>&1
    "$XPUSIM" run "$2" -o timing=$3 --max-cycles 400000 --quiet --stats=json --stats-file "$T/fast.json" \
        --profile "$T/fast.cg" > /dev/null 2>&1
    "$XPUSIM" run "$2" -o timing=$3 --max-cycles 400000 --quiet --profile "$T/hook.cg" --trace /dev/null > /dev/null 2>&1
    n=$((n + 1))
    if ! cmp -s "$T/fast.cg" "$T/hook.cg"; then
        echo "FAIL $1 ($3): the profiles differ: $(diff "$T/fast.cg" "$T/hook.cg" | head -4)"; fail=1
    elif ! grep -q '^summary: [1-9]' "$T/fast.cg"; then
        echo "FAIL $1 ($3): empty profile"; fail=1
    elif [ "$(grep -v '"host"' "$T/plain.json")" != "$(grep -v '"host"' "$T/fast.json")" ]; then
        echo "FAIL $1 ($3): --profile changed the statistics"; fail=1
    else
        echo "ok $1 ($3)"
    fi
}
for p in alu mem mmu_int; do
    "$XPUSIM" asm --isa nyuzi -o include=tests/nyuzi/progs "tests/nyuzi/progs/$p.S" -o "$T/$p.elf" || { fail=1; continue; }
    check "$p" "$T/$p.elf" cycle
    check "$p" "$T/$p.elf" none
done
for p in call_ret.4 l2miss_load.4 gather.4 syscall1.4 store_seq.4 membar_store.4; do
    sh tests/nyuzi/rtl/make_program.sh "$p" "$T/p.S" && "$XPUSIM" asm --isa nyuzi "$T/p.S" -o "$T/$p.elf" ||
        { echo "FAIL build $p"; fail=1; continue; }
    check "$p" "$T/$p.elf" cycle
    check "$p" "$T/$p.elf" none
done
"$XPUSIM" asm --isa nyuzi -o define=ITERATIONS=50 programs/nyuzi/bench/loop4.S -o "$T/loop4.elf" || fail=1
check loop4 "$T/loop4.elf" cycle
check loop4 "$T/loop4.elf" none
echo "$n profiles"
exit $fail
