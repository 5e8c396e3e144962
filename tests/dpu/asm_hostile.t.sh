#!/bin/sh
# tests/dpu/asm_hostile.t.sh: DPU assembler inputs that used to misbehave (issue 8), each
# refused with file:line and a reason: .zero sizes that add up past 4 GiB (the section
# size, a 32-bit sum, wrapped around to a small section), .balign by a number that is not a
# power of two (silently a wrong mask), and the most negative number divided by -1
# (undefined behaviour; the second pass of make test runs this under UBSan), a 300-character
# label and a line longer than the 4096-byte line buffer (it was split into two lines).
# Names between 96 and 255 characters were cut to 95 (symbols, sections) and .set
# expressions to 159, so distinct long names merged silently: they must stay distinct.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
run() { # NAME PATTERN
    "$X" asm --isa dpu "$T/$1.s" -o "$T/$1.elf" >"$T/$1.out" 2>&1; rc=$?
    if [ $rc -eq 1 ] && grep -q -- "$2" "$T/$1.out"; then echo "ok $1: $(cat "$T/$1.out")"
    else echo "FAIL $1: exit $rc, expected '$2': $(head -c 300 "$T/$1.out")"; fail=1; fi
}
{ printf '.data\n'; i=0; while [ $i -lt 70 ]; do printf '.zero 0x4000000\n'; i=$((i + 1)); done; } > "$T/zero.s"
run zero "zero.s:6:1: section grows past 256 MiB"
printf '.data\n.balign 3\n' > "$T/balign.s"
run balign "balign.s:2:1: .balign 3: the alignment must be a power of two up to 4096 bytes"
printf '.data\n.long (-9223372036854775807 - 1) / -1\n' > "$T/divide.s"
run divide "divide.s:2:1: overflow: the most negative number divided by -1"
{ head -c 300 /dev/zero | tr '\0' 'a'; printf ':\n\tnop\n'; } > "$T/longname.s"
run longname "longname.s:1:1: label longer than 255 characters"
printf '.section .text.__bootstrap,"ax",@progbits\n.globl __bootstrap, other\n__bootstrap:\nother:\n\tstop\n' > "$T/globl.s"
# `.globl a, b` declared one symbol named "a, b"; both must be global symbols now
if "$X" asm --isa dpu "$T/globl.s" -o "$T/globl.elf" 2>"$T/globl.err" &&
   [ "$(readelf -sW "$T/globl.elf" | awk '$5 == "GLOBAL" && ($8 == "__bootstrap" || $8 == "other")' | wc -l)" = 2 ]; then
    echo "ok .globl with two names"
else echo "FAIL .globl with two names: $(cat "$T/globl.err"; readelf -sW "$T/globl.elf" 2>&1 | tail -4)"; fail=1; fi
printf '.data\n.lnog 5\n' > "$T/typo.s"   # a typo used to be ignored: 4 bytes silently missing
run typo "typo.s:2:1: unknown directive '.lnog'"
{ printf '\tnop '; head -c 5000 /dev/zero | tr '\0' ' '; printf '\n'; } > "$T/longline.s"
run longline "longline.s:1:1: line longer than 4095 characters"
# two 200-character labels that differ only in their last character, and a .set whose
# expression (40 terms) is longer than 160 characters: the words must be 1, 2 and 42
L=$(head -c 199 /dev/zero | tr '\0' 'x')
E=$(i=0; while [ $i -lt 40 ]; do printf '1 + '; i=$((i + 1)); done; printf '2')
cat > "$T/long.s" <<EOS
.section .text.__bootstrap,"ax",@progbits
__bootstrap:
	stop
.section .dpu_host,"aw",@progbits
.globl out
out:
	.long ${L}a, ${L}b, longset
.set ${L}a, 1
.set ${L}b, 2
.set longset, $E
EOS
if "$X" asm --isa dpu "$T/long.s" -o "$T/long.elf" >"$T/long.out" 2>&1 &&
   "$X" run "$T/long.elf" --quiet --get out:12="$T/out.bin" >>"$T/long.out" 2>&1 &&
   [ "$(od -An -tu4 "$T/out.bin" | tr -s ' ')" = " 1 2 42" ]; then
    echo "ok long names and expressions: words $(od -An -tu4 "$T/out.bin" | tr -s ' ')"
else echo "FAIL long names: $(head -c 300 "$T/long.out") $(od -An -tu4 "$T/out.bin" 2>/dev/null)"; fail=1; fi
exit $fail
