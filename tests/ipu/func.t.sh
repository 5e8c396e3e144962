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
# The fast-forward marker `setzi $mzero, 0xff0ff` (docs/isa/ipu.md), after the loop of
# loop6. Unarmed it is a no-op bundle: each worker issues one more bundle, so the cycle model
# halts 6 cycles later than loop6's 36N + 97 (programs/ipu/bench/ipu.expected): 36,103 for
# N = 1,000, and leaves the same data (bench_out) as loop6.
sed 's/^  brnzdec \$m0, .Lloop$/&\n  setzi $m15, 0xff0ff/' "$P/bench/loop6.S" >"$T/mk.S"
grep -q 'ff0ff' "$T/mk.S" || no "marker: the loop6 variant has no marker"
"$X" asm --isa ipu "$T/mk.S" -o "$T/mk.elf" || no "marker: assembly"
"$X" run "$T/mk.elf" --set bench_iters="$T/iters" --quiet --stats=json --stats-file "$T/mk.json" \
    --get bench_out:48="$T/mk.out" >/dev/null 2>&1 || no "marker: plain run failed"
"$X" run "$T/loop6.elf" --set bench_iters="$T/iters" --quiet --get bench_out:48="$T/l6.out" >/dev/null 2>&1
grep -q '^  "cycles": 36103,' "$T/mk.json" || no "marker: plain run cycles $(grep -m1 '"cycles"' "$T/mk.json"), expected 36103"
cmp -s "$T/mk.out" "$T/l6.out" || no "marker: plain run data differ from loop6's"
# Armed (--fast-forward magic): functionally the supervisor's burst runs setzi and runall
# (2), then W0 .. W5 bursts of 4,096 bundles each, then W0 again to its marker: W0 retires
# 7 + 6 x 1,001 + 1 = 6,014 (set-up, N + 1 loop bodies, the marker), W1-W5 4,096 each: the
# functional part is 2 + 6,014 + 5 x 4,096 = 26,496 instructions; then the cycle model runs
# the rest, and the memory at the end is the plain run's.
"$X" run "$T/mk.elf" --set bench_iters="$T/iters" --fast-forward magic --mem-hash "$T/mkff.hash" \
    >"$T/mkff.out" 2>&1 || no "marker: fast-forward run exit $?: $(tail -3 "$T/mkff.out")"
grep -q 'fast-forward to magic: reached.*functional part: 26496 instructions' "$T/mkff.out" ||
    no "marker: $(grep fast-forward "$T/mkff.out")"
"$X" run "$T/mk.elf" --set bench_iters="$T/iters" --quiet --mem-hash "$T/mk.hash" >/dev/null 2>&1
cmp -s "$T/mk.hash" "$T/mkff.hash" || no "marker: memory after the fast-forward differs from the plain run's"
# Self-modifying code: one worker (so no other context races on its code) runs a loop of
# four passes whose first instruction it overwrites, after the first pass, with the word of
# `add $m1, $m1, 100`: $m1 = 1 + 3 x 100 = 301 in both modes (each mode's caches must see the
# store: the records of fast.c, the entries of func_fx.c, the predecode cache).
cat >"$T/smc.S" <<'EOS'
.section .data
.align 8
.globl res
res: .long 0
.section .text.worker, "ax"
.worker
.align 8
.globl wk
.type wk, @function
wk:
  setzi $m2, alt
  ld32 $m3, $m2, $m15, 0
  setzi $m4, tgt
  setzi $m5, 3
  setzi $m1, 0
tgt:
  add $m1, $m1, 1
  st32 $m3, $m4, $m15, 0
  brnzdec $m5, tgt
  setzi $m6, res
  st32 $m1, $m6, $m15, 0
  exitz $mzero
alt:
  add $m1, $m1, 100
.size wk, . - wk
.section .text.sup, "ax"
.supervisor
.globl _start
.type _start, @function
_start:
  setzi $m0, wk
  run $m0, $m15, 0
  br $m10
.size _start, . - _start
EOS
"$X" asm --isa ipu "$T/smc.S" -o "$T/smc.elf" || no "smc: assembly"
for mode in cycle none; do
    got=$("$X" run "$T/smc.elf" -o timing=$mode --quiet --get res:4 2>&1 | tr -d ' \n')
    case "$got" in "res:4:2d010000") echo "ok smc ($mode): 301" ;; *) no "smc ($mode): res = $got, expected 301 (0x12d)" ;; esac
done
[ $fail = 0 ] && echo "ok: all functional runs agree"
exit $fail
