#!/bin/sh
# tests/ipu/profile.t.sh: --profile fed by the IPU's own loops (isa_ops.profile_fast: fast.c's
# bursts, barrel.c's reference step, func.c's bursts and step; notes/profile-api.md) equals,
# byte for byte, the profile the debugger's hooks record (a trace turns the hooks on), in the
# cycle model and functionally, on programs with every IPU stall cause (barrel, dependency,
# branch, sync, fpu), rpt bodies, float bundles, the supervisor and six workers, run and
# runall; and a profiled run's statistics equal the plain run's.
R=${XPUSIM_ROOT:-.}; X=${XPUSIM:-build/xpusim}
export XPUSIM_ROOT=$R
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
P=$R/programs/ipu
stats() { grep -v -e '"host"' -e '"seconds"' "$1"; }
# check NAME ARGS...: the three runs of ARGS
check() {
    n=$1; shift
    "$X" run "$@" --quiet --profile "$T/f.cg" --stats=json --stats-file "$T/f.json" >/dev/null 2>&1 ||
        no "$n: profiled run failed"
    "$X" run "$@" --quiet --profile "$T/h.cg" --trace /dev/null >/dev/null 2>&1 || no "$n: hook run failed"
    "$X" run "$@" --quiet --stats=json --stats-file "$T/p.json" >/dev/null 2>&1 || no "$n: plain run failed"
    grep -q '^summary: [1-9]' "$T/f.cg" || no "$n: empty profile"
    cmp -s "$T/f.cg" "$T/h.cg" || no "$n: the fast feed's profile differs from the hooks': $(diff "$T/f.cg" "$T/h.cg" | head -4)"
    stats "$T/f.json" >"$T/f.s"
    stats "$T/p.json" >"$T/p.s"
    cmp -s "$T/f.s" "$T/p.s" || no "$n: --profile changed the statistics"
    [ $fail = 0 ] && echo "ok $n"
}
for k in vadd_f32 tanh_f32 reduce_f32 conv1x1_f16; do
    "$X" asm --isa ipu "$P/$k.S" -o "$T/$k.elf" || no "$k: assembly"
done
"$X" asm --isa ipu "$P/bench/loop6.S" -o "$T/loop6.elf" || no "loop6: assembly"
printf '\320\007\000\000' >"$T/iters" # 2,000 iterations
for mode in cycle none; do
    for k in vadd_f32 tanh_f32 reduce_f32 conv1x1_f16; do
        check "$k ($mode)" "$T/$k.elf" -o timing=$mode
    done
    check "loop6 ($mode)" "$T/loop6.elf" --set bench_iters="$T/iters" -o timing=$mode
    check "loop6 2 tiles ($mode)" "$T/loop6.elf" --set bench_iters="$T/iters" -o tiles=2 -o timing=$mode
    for v in sup_fill ids; do
        check "vertex $v ($mode)" --vertex "$P/vertex/$v.vertex" -o timing=$mode
    done
done
exit $fail
