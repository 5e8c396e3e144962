#!/bin/sh
# tests/nyuzi/asm_locals.t.sh: numeric local labels used in data (`.long 1b, 2f`), which the
# Nyuzi assembler used to refuse ("malformed number"): references are renamed in pass 1,
# where "the nearest before/after" is known. Expected words by hand: .text starts at 0x1000
# (ld.lld's Nyuzi layout) and holds one instruction; .data is aligned to 64 bytes, so it
# starts at 0x1040; `1b` is the nop at 0x1000 and `2f` the word after the two at 0x1048.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
printf '\t.text\n_start:\n1:\tnop\n\t.data\n\t.globl ptr\nptr:\t.long 1b, 2f\n2:\t.long 0\n' > "$T/lb.S"
if ! "$X" asm --isa nyuzi "$T/lb.S" -o "$T/lb.elf" 2>"$T/err"; then echo "FAIL: $(cat "$T/err")"; exit 1; fi
got=$("$X" run "$T/lb.elf" --quiet --max-cycles 100 --get ptr:8 2>&1 | tr -s ' \n' ' ')
case "$got" in
    *"00 10 00 00 48 10 00 00"*) echo "ok: ptr = $got" ;;
    *) echo "FAIL: ptr = '$got' (want 00 10 00 00 48 10 00 00)"; exit 1 ;;
esac
