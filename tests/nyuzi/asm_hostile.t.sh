#!/bin/sh
# tests/nyuzi/asm_hostile.t.sh: assembler inputs that used to crash or misbehave (issue 8),
# each refused with file:line and a reason, or assembled, never a crash (the second pass of
# make test runs this under ASan + UBSan, which report what a plain build would not):
# - a macro whose expansion defines another macro when the macro table is full: the table
#   moved while the expansion still read the old one (use after free);
# - .p2align 64 (a shift past 63 bits), .space sizes that add up past 4 GiB (the section
#   size wrapped around), the most negative number divided by -1, an endless
#   self-expanding macro, a 300-character label (names were cut to 159 characters, so two
#   long labels could become one) and a line longer than the line buffer.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
run() { # NAME EXPECT(ok|PATTERN) : assemble $T/NAME.S
    "$X" asm --isa nyuzi "$T/$1.S" -o "$T/$1.elf" >"$T/$1.out" 2>&1; rc=$?
    if [ "$2" = ok ]; then
        [ $rc -eq 0 ] && echo "ok $1: assembled" || { echo "FAIL $1: exit $rc: $(cat "$T/$1.out")"; fail=1; }
    elif [ $rc -eq 1 ] && grep -q -- "$2" "$T/$1.out"; then
        echo "ok $1: $(head -c 150 "$T/$1.out")"
    else
        echo "FAIL $1: exit $rc, expected '$2': $(head -c 300 "$T/$1.out")"; fail=1
    fi
}
{ i=0; while [ $i -lt 31 ]; do printf '.macro m%d\nnop\n.endm\n' $i; i=$((i + 1)); done
  printf '.macro outer\n.macro inner\n.endm\n'
  printf '.globl _start\n_start:\nouter\nnop\n.endm\ninner\n'; } > "$T/macro_moves.S"
run macro_moves ok
printf '.globl _start\n_start: nop\n.p2align 64\n' > "$T/p2align.S"
run p2align ".p2align 64: expected 0..16"
printf '.data\n.space 0x10000000\n.space 0x10000000\n.space 0x10000000\n.space 0x10000000\n.space 0x10000000\n' > "$T/space.S"
run space "space.S:.*section grows past 1073741824 bytes"
printf '.globl _start\n_start: nop\n.long (-9223372036854775807 - 1) / -1\n' > "$T/divide.S"
run divide "overflow: the most negative number divided by -1"
printf '.macro again\nagain\n.endm\nagain\n' > "$T/recurse.S"
run recurse "macro expansion too deep"
{ printf '.globl _start\n_start: nop\n'; head -c 300 /dev/zero | tr '\0' 'a'; printf ':\nnop\n'; } > "$T/longname.S"
run longname "longname.S:3:1: error: label longer than 255 characters"
{ printf '.ascii "'; head -c 5000 /dev/zero | tr '\0' 'x'; printf '"\n'; } > "$T/longline.S"
run longline "longline.S:1:1: error: line longer than 4095 characters"
exit $fail
