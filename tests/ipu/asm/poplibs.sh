#!/bin/sh
# tests/ipu/asm/poplibs.sh: ad hoc validation (docs/validation/ipu.md): assemble every PopLibs
# .S codelet with the IPU assembler; run from an extracted graphcore/poplibs tree; prints
# PASS/FAIL per file with the first error. Usage: poplibs.sh XPUSIM [ARCH] [POPLIBS_INCLUDE]
X=$1; ARCH=${2:-ipu2}; OUT=${TMPDIR:-/tmp}/ipu-poplibs-out; mkdir -p $OUT
for f in $(find lib -name '*.S' ! -name '*.h.S' | sort); do
  case $f in */MathConstants.S) continue;; esac
  o=$OUT/$(echo $f | tr '/' '_').o
  if msg=$(XPUSIM_ROOT=${XPUSIM_ROOT:-.} $X asm --isa ipu $f -o $o -o arch=$ARCH -o include=${3:-include} 2>&1); then echo "PASS $f"; else echo "FAIL $f: $(echo "$msg" | head -1)"; fi
done
