#!/bin/sh
# tests/ipu/programs.t.sh: our own IPU kernels (programs/ipu/*.S), assembled by our
# assembler, run on one tile with six workers; inputs placed with --set, outputs read back
# with --get and compared byte for byte with the C reference (tests/ipu/programs_ref.c,
# compiled here): f32 and f16 vector add, axpy, a reduction through the accumulators, tanh,
# 1x1 convolutions through the AMP in half and single precision (weights loaded by the
# supervisor).
# Then the cycle counts, derived by hand from the barrel rules (docs/isa/ipu.md "The
# barrel"; the derivation is next to each check).
R=${XPUSIM_ROOT:-.}; X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
${CC:-cc} -std=c11 -O2 -o "$T/ref" "$R/tests/ipu/programs_ref.c" -lm || { echo "FAIL: cannot build the C reference"; exit 1; }
P=$R/programs/ipu
for k in vadd_f32 vadd_f16 axpy_f32 reduce_f32 tanh_f32 conv1x1_f16 conv1x1_f32; do
    XPUSIM_ROOT=$R "$X" asm --isa ipu "$P/$k.S" -o "$T/$k.elf" || { echo "FAIL $k: assembly"; fail=1; continue; }
    mkdir -p "$T/$k"
    "$T/ref" $k "$T/$k" || { echo "FAIL $k: reference"; fail=1; continue; }
done

# run KERNEL ARGS...: run quietly with the stats in $T/KERNEL.stats
run() { k=$1; shift; "$X" run "$T/$k.elf" --stats=text --stats-file "$T/$k.stats" --quiet "$@"; }
same() { if cmp -s "$T/$1/got" "$T/$1/want"; then echo "ok $1: every element equals the C reference"
         else echo "FAIL $1: output differs from the C reference"; cmp -l "$T/$1/got" "$T/$1/want" | head -5; fail=1; fi; }

run vadd_f32 --set in_a="$T/vadd_f32/a" --set in_b="$T/vadd_f32/b" --get out:384="$T/vadd_f32/got" && same vadd_f32
run vadd_f16 --set in_a="$T/vadd_f16/a" --set in_b="$T/vadd_f16/b" --get out:192="$T/vadd_f16/got" && same vadd_f16
run axpy_f32 --set in_x="$T/axpy_f32/a" --set in_y="$T/axpy_f32/b" --set alpha="$T/axpy_f32/alpha" \
    --get out:384="$T/axpy_f32/got" && same axpy_f32
run reduce_f32 --set in="$T/reduce_f32/a" --get out:24="$T/reduce_f32/got" && same reduce_f32
run tanh_f32 --set in="$T/tanh_f32/a" --get out:384="$T/tanh_f32/got" && same tanh_f32

# Cycles. Every kernel has the same shape: the supervisor's setzi $m0 issues at cycle 0;
# runall reads $m0, ready 6 cycles later, so it issues at 6 (slot 0). Worker Wk first
# issues at the first cycle >= 6 + 6 = 12 in slot k: W0 at 12 ... W5 at 17, and then one
# bundle every 6 cycles (rpt costs nothing: each body bundle is the next turn). With B
# bundles a worker's exitz issues at first + 6(B - 1): W0 at 6B + 6, W5 at 6B + 11. The
# supervisor's br $m10 waits for a free slot: slot 0 comes back when W0 exits at 6B + 6
# and comes round again at 6B + 12, where br issues. W5 exits at 6B + 11, so the tile's
# last cycle is the br's: it halts at 6B + 13, and W0's thread ran 12 .. 6B + 6.
# B per worker, from the listings (solo instructions, the rpt bundle, body x count, exitz):
#   vadd_f32   10 + 1 + 4 x 8 + 1                 = 44  -> 6 x 44 + 13 = 277
#   vadd_f16   10 + 1 + 4 x 4 + 1                 = 28  -> 181
#   axpy_f32   13 + 1 (.align nop) + 1 + 5 x 8 + 1 = 56  -> 349
#   reduce_f32 11 + 1 (.align nop) + 1 + 3 x 8 + 6 = 43 -> 271
#   tanh_f32    8 + 1 + 3 x 16 + 1                = 58, and each of its 16 f32tanh holds the
#               worker 5 more turns (-o f32sigm_cycles=6): 6 x (58 + 16 x 5) + 13 = 841
cyc() { sed -n 's/^tile0: cycles \([0-9]*\),.*/\1/p' "$T/$1.stats"; }
bundles() { sed -n 's/^  thread 1: .*issue cycles \([0-9]*\),.*/\1/p' "$T/$1.stats"; }
check() { k=$1 b=$2; want=$((6 * (b + ${3:-0}) + 13)); got=$(cyc $k); gb=$(bundles $k)
          if [ "$got" = "$want" ] && [ "$gb" = "$b" ]; then echo "ok $k: $b bundles per worker, halts at cycle $want"
          else echo "FAIL $k cycles: halted at $got with $gb bundles, expected $want with $b"; fail=1; fi; }
check vadd_f32 44
check vadd_f16 28
check axpy_f32 56
check reduce_f32 43
check tanh_f32 58 80
# the same with f32tanh taking one thread cycle (-o f32sigm_cycles=1): 6 x 58 + 13 = 361,
# and its fpu stalls: 16 x 5 turns x 6 = 480 per worker, the wait now all barrel
cp "$T/tanh_f32.elf" "$T/tanh1.elf"
run tanh1 -o f32sigm_cycles=1 --set in="$T/tanh_f32/a"; check tanh1 58
fpu() { sed -n 's/^  thread 1: .*stall fpu \([0-9]*\).*/\1/p' "$T/$1.stats"; }
if [ "$(fpu tanh_f32)" = 480 ] && [ -z "$(fpu tanh1)" ]; then echo "ok tanh_f32: 480 fpu stall cycles per worker, none at 1 cycle"
else echo "FAIL tanh_f32 fpu stalls: '$(fpu tanh_f32)' and '$(fpu tanh1)', expected 480 and none"; fail=1; fi

# conv1x1_f16 (AMP): every element against the C reference in both -o amp_sum modes.
run conv1x1_f16 --set weights="$T/conv1x1_f16/w" --set in="$T/conv1x1_f16/a" --get out:768="$T/conv1x1_f16/got" &&
    same conv1x1_f16
mkdir -p "$T/conv1x1_c"; cp "$T/conv1x1_f16/want_chained" "$T/conv1x1_c/want"
"$X" run "$T/conv1x1_f16.elf" -o amp_sum=chained --quiet --set weights="$T/conv1x1_f16/w" \
    --set in="$T/conv1x1_f16/a" --get out:768="$T/conv1x1_c/got" && same conv1x1_c
# Its cycles: the supervisor issues setzi $m1 at 0, setzi $m0 at 1, put $CCCSLOAD at 6 (it
# reads $m1, ready 0 + 6), the 32 ld64putcs back to back at 7..38 (they read no MRF
# register), runall at 39 (slot 3). Wk first issues at the first cycle >= 45 in slot k:
# W3 45, W4 46, W5 47, W0 48, W1 49, W2 50. B = 40 bundles per worker (12 setup, 3 warm-up
# amps, the .align nop, 6 bundles, the rpt bundle, 4 x SLICE 4 body bundles, exitz): W3's
# last at 45 + 6 x 39 = 279, W2's at 50 + 234 = 284. The suspended supervisor's br $m10
# takes slot 3 when it next comes round, 285, so the tile halts at 286 = 6B + 46.
got=$(cyc conv1x1_f16); gb=$(bundles conv1x1_f16)
if [ "$got" = 286 ] && [ "$gb" = 40 ]; then echo "ok conv1x1_f16: 40 bundles per worker, halts at cycle 286"
else echo "FAIL conv1x1_f16 cycles: halted at $got with $gb bundles, expected 286 with 40"; fail=1; fi

# conv1x1_f32 (f32sisoamp, weights by ld128putcs from the interleaved region), both modes.
run conv1x1_f32 --set weights="$T/conv1x1_f32/w" --set in="$T/conv1x1_f32/a" --get out:768="$T/conv1x1_f32/got" &&
    same conv1x1_f32
mkdir -p "$T/conv1x1_f32c"; cp "$T/conv1x1_f32/want_chained" "$T/conv1x1_f32c/want"
"$X" run "$T/conv1x1_f32.elf" -o amp_sum=chained --quiet --set weights="$T/conv1x1_f32/w" \
    --set in="$T/conv1x1_f32/a" --get out:768="$T/conv1x1_f32c/got" && same conv1x1_f32c
# Its cycles: setzi 0, setzi 1, put $CCCSLOAD 6, 16 ld128putcs 7..22, runall 23 (slot 5):
# W5 first issues at 29, W0 30 ... W4 34. B = 56 bundles per worker (11 setup, the .align
# nop, 10 prologue bundles, the rpt bundle, 8 x SLICE 4 body bundles, exitz): W5's last at
# 29 + 6 x 55 = 359, W4's at 34 + 330 = 364; the supervisor's br $m10 takes slot 5 when it
# next comes round, 365, so the tile halts at 366 = 6B + 30.
got=$(cyc conv1x1_f32); gb=$(bundles conv1x1_f32)
if [ "$got" = 366 ] && [ "$gb" = 56 ]; then echo "ok conv1x1_f32: 56 bundles per worker, halts at cycle 366"
else echo "FAIL conv1x1_f32 cycles: halted at $got with $gb bundles, expected 366 with 56"; fail=1; fi

# rpt with a count of 0 branches over its body: tanh with SLICE 0 is 8 + 1 + 1 = 10
# bundles (the body never issues) -> 6 x 10 + 13 = 73.
sed 's/^#define N 96/#define N 0/' "$P/tanh_f32.S" > "$T/tanh0.S"
cp "$P/common.h" "$T/"
if XPUSIM_ROOT=$R "$X" asm --isa ipu "$T/tanh0.S" -o "$T/tanh0.elf"; then
    run tanh0; check tanh0 10
else echo "FAIL tanh0: assembly"; fail=1; fi
exit $fail
