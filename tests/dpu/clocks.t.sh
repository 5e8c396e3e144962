#!/bin/sh
# tests/dpu/clocks.t.sh: CLOCKS_PER_SEC, a 4-byte .dpu_host variable the SDK's crt0 defines
# as 0 and the SDK host library fills at load with the DPU clock rate (issue 16: it stayed 0,
# so programs dividing a perfcounter value by it divided by zero). Expected: 350,000,000 on
# a v1A DPU (350 MHz), 400,000,000 with -o chip=v1b (400 MHz), as docs/isa/dpu.md gives them.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cat > "$T/c.s" <<'EOS'
.section .text.__bootstrap,"ax",@progbits
__bootstrap:
	stop
	.section .dpu_host,"a",@progbits
	.globl CLOCKS_PER_SEC
	.p2align 3
CLOCKS_PER_SEC:
	.long 0
	.size CLOCKS_PER_SEC, 4
EOS
fail=0
"$X" asm --isa dpu "$T/c.s" -o "$T/c.elf" || exit 1
for chip in v1a:350000000 v1b:400000000; do
    c=${chip%%:*}; want=${chip#*:}
    "$X" run "$T/c.elf" -o chip=$c --quiet --get CLOCKS_PER_SEC:4="$T/hz.bin" || { echo "FAIL: run $c"; fail=1; continue; }
    got=$(od -An -tu4 "$T/hz.bin" | tr -d ' ')
    [ "$got" = "$want" ] && echo "ok $c: CLOCKS_PER_SEC = $got" || { echo "FAIL $c: CLOCKS_PER_SEC = $got, want $want"; fail=1; }
done
exit $fail
