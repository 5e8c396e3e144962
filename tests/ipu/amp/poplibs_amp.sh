#!/bin/sh
# tests/ipu/amp/poplibs_amp.sh: ad hoc validation (docs/validation/ipu.md, "AMP and SLIC"):
# run PopLibs' ConvPartial1x1Out supervisor vertices (half/half and float/float, weights by
# ld64putcs and by ld128putcs) on one tile through conv1x1_sup.S and compare every output
# element with conv1x1_ref.c under both -o amp_sum choices; then three ConvPartial1xNSLIC
# vertices through slic_sup.S against slic_ref.c (these stop on a bundle at 4 mod 8 unless
# the tile accepts such bundles: notes/ipu-requests.md). Needs an extracted
# graphcore/poplibs tree; nothing of it enters the repository (copied to a temporary
# directory). Our assembler does not pad bundles, and these codelets have bundles at 4 mod
# 8 after an odd number of solo instructions: the copy gets `.align 8` before each such
# bundle (see notes/ipu-requests.md). Usage: poplibs_amp.sh XPUSIM POPLIBS_DIR
X=$1; PL=$2; R=$(cd "$(dirname "$0")/../../.." && pwd)
[ -x "$X" ] && [ -d "$PL/lib/poplin/codelets/asm" ] || { echo "usage: $0 XPUSIM POPLIBS_DIR"; exit 2; }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
mkdir -p "$T/inc"
cp "$PL"/lib/poplin/codelets/asm/* "$T/"
cp "$PL"/lib/popops/codelets/asm/*.h.S "$T/inc/"
for f in conv_partial_1x1_half_half.S conv_partial_1x1_float_float.S; do
  awk '{ t = $0; sub(/^[ \t]+/, "", t); c = t; sub(/\/\/.*/, "", c); sub(/[ \t]+$/, "", c)
         if (t ~ /^\{/ && prev != "" && prev !~ /\}$/ && prev !~ /^rpt/ && prev !~ /^[.#]/) print ".align 8"
         print
         if (c != "" && c !~ /:$/) prev = c }' "$PL/lib/poplin/codelets/asm/$f" > "$T/$f"
done
cp "$R/tests/ipu/amp/conv1x1_sup.S" "$R/tests/ipu/amp/slic_sup.S" "$T/"
${CC:-cc} -std=c11 -O2 -o "$T/ref" "$R/tests/ipu/amp/conv1x1_ref.c" -lm || exit 1
${CC:-cc} -std=c11 -O2 -o "$T/sref" "$R/tests/ipu/amp/slic_ref.c" || exit 1
fail=0
for v in half:HALF:384 float:FLOAT:768; do
  t=${v%%:*}; d=$(echo $v | cut -d: -f2); n=${v##*:}
  mkdir -p "$T/$t"; "$T/ref" $t "$T/$t" || exit 1
  for ld in false true; do
    e="$T/$t-$ld.elf"
    XPUSIM_ROOT=$R "$X" asm --isa ipu -o include="$T/inc" -o define="$d=1,LD128=$ld" "$T/conv1x1_sup.S" -o "$e" ||
      { echo "FAIL $t ld128=$ld: assembly"; fail=1; continue; }
    for sum in fused chained; do
      w=want; [ $sum = chained ] && w=want_chained
      # ld128putcs reads the interleaved region: the harness's weights are low, so move the region
      "$X" run "$e" -o amp_sum=$sum -o interleaved_base=0x4c000 --quiet --stats=text --stats-file "$T/s" \
        --set weights="$T/$t/w" --set in="$T/$t/x" --get out:$n="$T/got" &&
      if cmp -s "$T/got" "$T/$t/$w"; then
        echo "ok $t ld128=$ld amp_sum=$sum: $n bytes equal C, $(sed -n 's/^tile0: \(cycles [0-9]*\).*/\1/p' "$T/s")"
      else echo "FAIL $t ld128=$ld amp_sum=$sum: output differs from C"; fail=1; fi
    done
  done
done
# SLIC: half/half with 2 conv chains (f16v4hihoslic), 4 chains (f16v4hihov4slic, two AMP
# sets), half/float with 2 chains (f16v4sisoslic); PopLibs' sources unpadded
for v in half_half_8:2:0:half:192 half_float_8_and_half_half_16:4:0:half:192 half_float_8_and_half_half_16:2:1:float:384; do
  src=ConvPartial1x4SLIC_$(echo $v | cut -d: -f1).S; ch=$(echo $v | cut -d: -f2); fl=$(echo $v | cut -d: -f3)
  t=$(echo $v | cut -d: -f4); n=$(echo $v | cut -d: -f5)
  srcs="$T/$src"; [ $src = ConvPartial1x4SLIC_half_half_8.S ] && srcs="$srcs $T/ConvPartial1x4SLIC_half_float_8_and_half_half_16.S"
  mkdir -p "$T/slic$ch$fl"; "$T/sref" $t "$T/slic$ch$fl" || exit 1
  e="$T/slic$ch$fl.elf"
  XPUSIM_ROOT=$R "$X" asm --isa ipu -o include="$T/inc" -o define="CHAINS=$ch,FLOAT=$fl" $srcs "$T/slic_sup.S" -o "$e" ||
    { echo "FAIL slic $t chains=$ch: assembly"; fail=1; continue; }
  if msg=$("$X" run "$e" -o interleaved_base=0x4c000 --quiet --stats=text --stats-file "$T/s" \
        --set weights="$T/slic$ch$fl/w" --set in="$T/slic$ch$fl/x" --get out:$n="$T/got" 2>&1); then
    if cmp -s "$T/got" "$T/slic$ch$fl/want"; then
      echo "ok slic $t chains=$ch: $n bytes equal C, $(sed -n 's/^tile0: \(cycles [0-9]*\).*/\1/p' "$T/s")"
    else echo "FAIL slic $t chains=$ch: output differs from C"; fail=1; fi
  else echo "STOP slic $t chains=$ch: $(echo "$msg" | tail -1)"; fi
done
exit $fail
