#!/bin/sh
# tests/cert/asm_errors.t.sh: bad CERT assembly stops with "file:line: what was expected" and
# exit status 1, never a crash; among them the programs aiebu-asm would mis-assemble silently
# (a uC written twice, a deferred job before its launcher, one label shared by two job groups:
# Feb-2025 aiebu's cases, checked with -o aiebu=2025.02; the newest aiebu handles the first
# and the last itself).
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
n=0
bad() { # expected-line message-fragment source-text
    n=$((n + 1))
    printf '%b' "$3" > "$T/b$n.asm"
    # shellcheck disable=SC2086
    "$XPUSIM" asm --isa cert "$T/b$n.asm" -o "$T/b$n.elf" ${OPTS:-} 2>"$T/e$n"
    rc=$?
    if [ $rc -ne 1 ]; then echo "FAIL: case $n: exit $rc (want 1): $(cat "$T/e$n")"; fail=1; return; fi
    grep -Eq "b$n.asm:$1: .*$2" "$T/e$n" || { echo "FAIL: case $n: message '$(cat "$T/e$n")' lacks line $1 / '$2'"; fail=1; }
}
J='START_JOB 0\n'
bad 2 "unknown instruction" "$J FOO 1\nEND_JOB\nEOF\n"
bad 2 "expected 2 operands" "$J WRITE_32 1\nEND_JOB\nEOF\n"
bad 2 "register" "$J MOV \$r24, 1\nEND_JOB\nEOF\n"
bad 2 "barrier" "$J LOCAL_BARRIER \$lb16, 1\nEND_JOB\nEOF\n"
bad 2 "32-bit" "$J WRITE_32 0x1FFFFFFFF, 1\nEND_JOB\nEOF\n"
bad 2 "not in this page|not found" "$J UC_DMA_WRITE_DES_SYNC @nowhere\nEND_JOB\nEOF\n"
bad 1 "without END_JOB" "$J WRITE_32 1, 2\nEOF\n"
bad 2 "outside a job" "EOF\nLOCAL_BARRIER \$lb0, 1\n"
bad 2 "TILE_" "$J WAIT_TCTS TILE_x, MM2S_0, 1\nEND_JOB\nEOF\n"
OPTS="-o aiebu=2025.02" bad 5 "already has code" ".attach_to_group 0\n$J END_JOB\nEOF\n.attach_to_group 0\n"
bad 1 "paged twice" "START_JOB_DEFERRED 1\nEND_JOB\n$J LAUNCH_JOB 1\nEND_JOB\nEOF\n"
bad 2 "LAUNCH_JOB 9: no such job" "$J LAUNCH_JOB 9\nEND_JOB\nEOF\n"
bad 1 "not found" ".include \"missing.asm\"\n" 2>/dev/null
bad 5 "label a: data must start" "$J UC_DMA_WRITE_DES_SYNC @a\nEND_JOB\nEOF\na:\nWRITE_32 1, 2\n"
OPTS="-o aiebu=2025.02" bad 8 "used by two job groups" "$J UC_DMA_WRITE_DES_SYNC @a\nEND_JOB\nSTART_JOB 1\n UC_DMA_WRITE_DES_SYNC @a\nEND_JOB\nEOF\na:\nUC_DMA_BD 0, 0, @a, 1, 0, 0\n"
bad 1 "expected a label" "x: y\n"
bad 2 "\\.align" "$J .align 0\nEND_JOB\nEOF\n"
bad 1 "does not fit" "$(python3 -c "print('START_JOB 0\\\\n' + ' WRITE_32 1, 2\\\\n' * 700 + 'END_JOB\\\\nEOF')")"
# a job too big for a page is reported at its START_JOB; a long random input must not crash
head -c 20000 /dev/urandom | tr -c 'A-Za-z0-9_@$:;., \n' ' ' > "$T/r.asm"
"$XPUSIM" asm --isa cert "$T/r.asm" -o "$T/r.elf" 2>/dev/null
rc=$?
[ $rc -le 1 ] || { echo "FAIL: random input: exit $rc"; fail=1; }
[ $fail -eq 0 ] && echo "ok ($n cases)"
exit $fail
