#!/bin/sh
# tests/ipu/amp/poplibs_transpose.sh: ad hoc validation of the f16v4istacc/f16v4stacc
# decision (docs/isa/ipu.md, "AMP and SLIC"): run PopLibs' popsparse
# BlockTransposeGradW_half worker vertex (which transposes 4x4 half blocks through the
# accumulators) on one tile and check every output element against the layout its header
# states: in [Z][XY] to out [XY/Bxy][Z/16][Bxy][16]. Needs an extracted graphcore/poplibs
# tree; nothing of it enters the repository (copied to a temporary directory). Two shapes:
# Z 16, Bxy 4, 2 XY blocks, one worker; Z 32, Bxy 8, 3 XY blocks on three workers. In and
# out share a memory element, so the run ignores memory conflicts.
# Usage: poplibs_transpose.sh XPUSIM POPLIBS_DIR
X=$1; PL=$2
S=$PL/lib/popsparse/codelets/asm
[ -x "$X" ] && [ -f "$S/BlockTransposeGradW_half.S" ] || { echo "usage: $0 XPUSIM POPLIBS_DIR"; exit 2; }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cp "$S/BlockTransposeGradW_half.S" "$S/BlockTransposeGradW.h.S" "$T/"
fail=0
# shape: Z BXY NBLOCKS WORKERS MAXBLOCKS
for shape in "16 4 2 1 2" "32 8 3 6 1"; do
  set -- $shape; z=$1; bxy=$2; nb=$3; nw=$4; mb=$5; n=$((z * bxy * nb))
  cat > "$T/v" <<EOV
codelet = BlockTransposeGradW_half.S
entry = __runCodelet_popsparse__BlockTransposeGradW___half
workers = $nw
define = __IPU__=1
tensor in = f16[$n] ramp 1 1
tensor out = f16[$n]
state ptr in
state ptr out
state u16 $bxy
state u16 $nb
state u16 $z
state u16 $mb
output out
EOV
  "$X" run --vertex "$T/v" -o mem_conflicts=ignore > "$T/o" 2>&1 || { echo "FAIL shape $shape: run"; fail=1; continue; }
  # out[((xyb * Z/16 + zb) * bxy + x) * 16 + z'] = in[(zb * 16 + z') * XY + xyb * bxy + x] = that index + 1
  bad=$(awk -v Z=$z -v B=$bxy -v NB=$nb '
    /^tensor out/ { on = 1; next }
    on && /^  \[/ { for (i = 2; i <= NF; i++) v[k++] = $i; next }
    on { on = 0 }
    END { xy = B * NB; bad = 0
          for (xyb = 0; xyb < NB; xyb++) for (zb = 0; zb < Z / 16; zb++) for (x = 0; x < B; x++)
            for (zz = 0; zz < 16; zz++) {
              o = ((xyb * (Z / 16) + zb) * B + x) * 16 + zz
              if (v[o] != (zb * 16 + zz) * xy + xyb * B + x + 1) bad++ }
          if (k != Z * xy) bad = -1
          print bad }' "$T/o")
  if [ "$bad" = 0 ]; then echo "ok shape Z=$z Bxy=$bxy blocks=$nb: $n halves transposed, $(grep '^cycles: tile' "$T/o")"
  else echo "FAIL shape Z=$z Bxy=$bxy blocks=$nb: $bad elements differ"; fail=1; fi
done
exit $fail
