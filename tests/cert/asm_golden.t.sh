#!/bin/sh
# tests/cert/asm_golden.t.sh: the CERT assembler writes the same file as aiebu-asm Feb-2025
# (-o aiebu=2025.02; the newest release's output is checked by asm_latest.t.sh). Each of
# our test programs (tests/cert/asm/*.asm) was assembled with aiebu-asm -t aie2ps (Xilinx/aiebu
# ab3802ac, Feb-2025) and compared byte for byte with ours (cmp: identical); the SHA-256 of
# that file is written down here, with the first page's first bytes of jobs.asm as a
# readable check (header FFFF, page 0, cur_len 0x118; START_JOB 7 size 0x1c;
# UC_DMA_WRITE_DES $r1 with its descriptor at 0xc0 after the header).
set -u
D="$XPUSIM_ROOT/tests/cert/asm"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
check() { # program sha256
    if ! "$XPUSIM" asm --isa cert "$D/$1.asm" -o "$T/$1.elf" -o aiebu=2025.02 2>"$T/err"; then
        echo "FAIL: $1.asm: $(cat "$T/err")"; fail=1; return
    fi
    got=$(sha256sum "$T/$1.elf" | cut -c1-64)
    [ "$got" = "$2" ] || { echo "FAIL: $1.asm: sha256 $got, aiebu-asm's is $2"; fail=1; }
}
check jobs 6bea34e8e7d718ca79619e588fcf4f7ceb4398de7fabcdfcd3d5fef445dc297f
check pages ed9a9a99da3e2799522589033050ab595de4cc27703befdd36f0beb31ce77441
check big 58d5cdce189b0483cc02d5a2b6acfead0ff42d81bcdf17ff4fad5ef3a9566c67
check pdi 2814818547ae3ab9230081ddf6fffa9595201873146d7a0e1e333e903379e9db
# the first 32 bytes of .ctrltext.0.0 of jobs.asm (file offset 0xa0)
hex=$(od -An -tx1 -j 160 -N 32 "$T/jobs.elf" 2>/dev/null | tr -d ' \n')
want=ffff0000000000001801000000000000000007001c00000001000100c0000000
[ "$hex" = "$want" ] || { echo "FAIL: jobs.asm page 0 starts $hex, expected $want"; fail=1; }
# -o target picks the OSABI (byte 7); -o spec=latest changes LOAD_PDI to 12 bytes
"$XPUSIM" asm --isa cert "$D/big.asm" -o "$T/t4.elf" -o target=aie4 -o aiebu=2025.02 || fail=1
[ "$(od -An -tx1 -j 7 -N 1 "$T/t4.elf" | tr -d ' ')" = 4b ] || { echo "FAIL: target=aie4 OSABI"; fail=1; }
"$XPUSIM" asm --isa cert "$D/pdi.asm" -o "$T/l.elf" -o aiebu=2025.02 -o spec=latest || { echo "FAIL: spec=latest"; fail=1; }
# aie4 has no plain S2MM_n/MM2S_n actor names
if "$XPUSIM" asm --isa cert "$D/jobs.asm" -o "$T/x.elf" -o target=aie4 -o aiebu=2025.02 2>"$T/err"; then
    echo "FAIL: S2MM_4 accepted for aie4"; fail=1
fi
grep -q 'jobs.asm:19: ' "$T/err" || { echo "FAIL: aie4 actor error without file:line: $(cat "$T/err")"; fail=1; }
[ $fail -eq 0 ] && echo "ok"
exit $fail
