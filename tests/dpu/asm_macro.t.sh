#!/bin/sh
# tests/dpu/asm_macro.t.sh: the DPU assembler through the shared framework's macros
# (core/asm/macro.c): LLVM MC, the SDK's assembler, accepts GNU macros, so SDK-syntax sources
# may use them. A macro with a default argument emits instructions that store values;
# another, used inside the first, emits data. Expected words worked by hand: the program
# stores 7 + 5 = 12 and 3 (the default) to `out`, and the data macro puts 0x11, 0x22 at `tbl`.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cat > "$T/m.s" <<'EOS'
.macro words a, b
	.long \a, \b
.endm
.macro put reg, val=3, slot
	move \reg, \val
	sw zero, out + 4 * \slot, \reg
.endm
.section .text.__bootstrap,"ax",@progbits
__bootstrap:
	put r0, 7 + 5, 0
	put r1, , 1
	stop
.section .dpu_host,"aw",@progbits
.globl out
out:
	.long 0, 0
.globl tbl
tbl:
	words 0x11, 0x22
EOS
fail=0
if "$X" asm --isa dpu "$T/m.s" -o "$T/m.elf" >"$T/out.txt" 2>&1 &&
   "$X" run "$T/m.elf" --quiet --get out:8="$T/out.bin" --get tbl:8="$T/tbl.bin" >>"$T/out.txt" 2>&1; then
    got="$(od -An -tu4 "$T/out.bin" | tr -s ' ') /$(od -An -tx4 "$T/tbl.bin" | tr -s ' ')"
    if [ "$got" = " 12 3 / 00000011 00000022" ]; then echo "ok macros: $got"
    else echo "FAIL macros: got '$got'"; fail=1; fi
else echo "FAIL macros: $(head -c 400 "$T/out.txt")"; fail=1; fi
# a macro left open is an error naming it
printf '.macro open x\n\tnop\n' > "$T/open.s"
if "$X" asm --isa dpu "$T/open.s" -o "$T/open.elf" 2>"$T/err.txt"; then echo "FAIL: open macro accepted"; fail=1
elif grep -q "open.s:2:1: missing .endm for macro 'open'" "$T/err.txt"; then echo "ok: $(cat "$T/err.txt")"
else echo "FAIL open macro: $(cat "$T/err.txt")"; fail=1; fi
exit $fail
