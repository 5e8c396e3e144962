#!/bin/sh
# tests/ipu/func.t.sh: the functional mode (-o timing=none, isa/ipu/func.c; rules in
# docs/isa/ipu.md "Functional mode") from the command line. Every IPU program of
# programs/ipu (the kernels with the C reference's inputs, the benchmark loop) and every
# vertex of programs/ipu/vertex runs with the cycle model and functionally; both must leave
# the same tile memory (--mem-hash: a hash of every memory region), retire the same
# instructions on every thread and give the same output, and a kernel's output still equals
# the C reference. The functional run's cycles follow its rule: one cycle per bundle issued,
# so the tile halts at the sum of its threads' issue cycles.
R=${XPUSIM_ROOT:-.}; X=${XPUSIM:-build/xpusim}
export XPUSIM_ROOT=$R
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
${CC:-cc} -std=c11 -O2 -o "$T/ref" "$R/tests/ipu/programs_ref.c" -lm || { echo "FAIL: cannot build the C reference"; exit 1; }
P=$R/programs/ipu

# both NAME ARGS...: run ARGS with the cycle model ($T/NAME.c.*) and functionally ($T/NAME.f.*)
both() {
    n=$1; shift
    "$X" run "$@" --quiet --stats=json --stats-file "$T/$n.c.json" --mem-hash "$T/$n.c.hash" >"$T/$n.c.out" 2>&1 ||
        no "$n: cycle model exit $?: $(tail -3 "$T/$n.c.out")"
    "$X" run "$@" -o timing=none --quiet --stats=json --stats-file "$T/$n.f.json" --mem-hash "$T/$n.f.hash" \
        >"$T/$n.f.out" 2>&1 || no "$n: functional exit $?: $(tail -3 "$T/$n.f.out")"
    cmp -s "$T/$n.c.hash" "$T/$n.f.hash" || no "$n: tile memory differs: $(cat "$T/$n.c.hash" "$T/$n.f.hash")"
    # per thread: instructions and issue cycles (bundles), the same in both
    for k in c f; do
        sed -n 's/.*"index": \([0-9]*\), "cycles": [0-9]*, "instructions": \([0-9]*\), "issue_cycles": \([0-9]*\).*/\1 \2 \3/p' \
            "$T/$n.$k.json" >"$T/$n.$k.thr"
    done
    [ -s "$T/$n.c.thr" ] || no "$n: no per-thread statistics"
    cmp -s "$T/$n.c.thr" "$T/$n.f.thr" || no "$n: retired instructions differ: $(paste "$T/$n.c.thr" "$T/$n.f.thr")"
    # the functional tile: one cycle per bundle issued (single tile: the machine's cycles)
    sum=$(awk '{ s += $3 } END { print s }' "$T/$n.f.thr")
    cyc=$(sed -n 's/^  "cycles": \([0-9]*\),*/\1/p' "$T/$n.f.json")
    [ "$cyc" = "$sum" ] || no "$n: functional run took $cyc cycles for $sum bundles"
    grep -q '"stop": {"kind": "halted"' "$T/$n.f.json" || no "$n: functional run did not halt"
    [ $fail = 0 ] && echo "ok $n: same memory and instructions per thread; $sum bundles in $cyc functional cycles"
}

for k in vadd_f32 vadd_f16 axpy_f32 reduce_f32 tanh_f32 conv1x1_f16 conv1x1_f32; do
    "$X" asm --isa ipu "$P/$k.S" -o "$T/$k.elf" || { no "$k: assembly"; continue; }
    mkdir -p "$T/$k" && "$T/ref" $k "$T/$k" || { no "$k: reference"; continue; }
done
both vadd_f32 "$T/vadd_f32.elf" --set in_a="$T/vadd_f32/a" --set in_b="$T/vadd_f32/b" --get out:384="$T/vadd_f32/got"
both vadd_f16 "$T/vadd_f16.elf" --set in_a="$T/vadd_f16/a" --set in_b="$T/vadd_f16/b" --get out:192="$T/vadd_f16/got"
both axpy_f32 "$T/axpy_f32.elf" --set in_x="$T/axpy_f32/a" --set in_y="$T/axpy_f32/b" --set alpha="$T/axpy_f32/alpha" \
    --get out:384="$T/axpy_f32/got"
both reduce_f32 "$T/reduce_f32.elf" --set in="$T/reduce_f32/a" --get out:24="$T/reduce_f32/got"
both tanh_f32 "$T/tanh_f32.elf" --set in="$T/tanh_f32/a" --get out:384="$T/tanh_f32/got"
both conv1x1_f16 "$T/conv1x1_f16.elf" --set weights="$T/conv1x1_f16/w" --set in="$T/conv1x1_f16/a" \
    --get out:768="$T/conv1x1_f16/got"
both conv1x1_f32 "$T/conv1x1_f32.elf" --set weights="$T/conv1x1_f32/w" --set in="$T/conv1x1_f32/a" \
    --get out:768="$T/conv1x1_f32/got"
# the --get of the functional run (the second) is what the files hold: the C reference's
for k in vadd_f32 vadd_f16 axpy_f32 reduce_f32 tanh_f32 conv1x1_f16 conv1x1_f32; do
    cmp -s "$T/$k/got" "$T/$k/want" || no "$k: functional output differs from the C reference"
done

# the benchmark loop, 1,000 iterations per worker
"$X" asm --isa ipu "$P/bench/loop6.S" -o "$T/loop6.elf" || no "loop6: assembly"
printf '\350\003\000\000' >"$T/iters"
both loop6 "$T/loop6.elf" --set bench_iters="$T/iters"

# the vertices: memory, instructions, and the tensors they print
for v in "$P"/vertex/*.vertex; do
    n=vertex_$(basename "$v" .vertex)
    both "$n" --vertex "$v"
    grep -v -e '^cycles:' -e '^  supervisor' -e '^  W[0-5] ' "$T/$n.c.out" >"$T/$n.c.t"
    grep -v -e '^cycles:' -e '^  supervisor' -e '^  W[0-5] ' "$T/$n.f.out" >"$T/$n.f.t"
    grep -q '^tensor ' "$T/$n.c.t" || no "$n: no tensor printed"
    cmp -s "$T/$n.c.t" "$T/$n.f.t" || no "$n: printed tensors differ: $(diff "$T/$n.c.t" "$T/$n.f.t" | head -5)"
done

# functional with --profile (the per-bundle path with the debugger's hooks): the same run,
# and the profile counts every instruction
"$X" run "$T/loop6.elf" --set bench_iters="$T/iters" -o timing=none --quiet --stats=json --stats-file "$T/prof.json" \
    --mem-hash "$T/prof.hash" --profile "$T/prof.out" >/dev/null 2>&1 || no "functional run with --profile failed"
cmp -s "$T/prof.hash" "$T/loop6.f.hash" || no "functional run with --profile: memory differs"
sed -n 's/.*"index": \([0-9]*\), "cycles": \([0-9]*\), "instructions": \([0-9]*\), "issue_cycles": \([0-9]*\).*/\1 \2 \3 \4/p' \
    "$T/prof.json" >"$T/prof.thr"
sed -n 's/.*"index": \([0-9]*\), "cycles": \([0-9]*\), "instructions": \([0-9]*\), "issue_cycles": \([0-9]*\).*/\1 \2 \3 \4/p' \
    "$T/loop6.f.json" >"$T/loop6.f.thr4"
cmp -s "$T/prof.thr" "$T/loop6.f.thr4" || no "functional run with --profile: thread statistics differ"
pi=$(sed -n 's/^summary: \([0-9]*\) .*/\1/p' "$T/prof.out")
[ "$pi" = 36087 ] || no "functional --profile counted $pi instructions, the run retired 36087"
[ $fail = 0 ] && echo "ok: all functional runs agree"
exit $fail
