#!/bin/sh
# The DPU through the command line: assemble our runtime and programs with `xpusim asm`,
# run them with inputs and outputs by symbol (--set/--get), the MRAM printf buffer drained to
# stdout, the disassembler, and clear errors (file:line) with non-zero exits for bad
# assembly, illegal instructions and faults.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
RT="programs/dpu/rt/crt0.s programs/dpu/rt/mutex.s programs/dpu/rt/barrier.s programs/dpu/rt/perfcounter.s programs/dpu/rt/mram.s"

# reduce over 64 words 1..64 (sum 2080 = 0x820) with 8 tasklets
"$X" asm --isa dpu $RT programs/dpu/reduce.s -o "$T/r.elf" -o tasklets=8 || bad "asm reduce"
printf '\100\000\000\000' > "$T/n.bin"
i=1; : > "$T/v.bin"
while [ $i -le 64 ]; do printf "$(printf '\\%03o' $i)\000\000\000" >> "$T/v.bin"; i=$((i + 1)); done
"$X" run "$T/r.elf" --quiet --set reduce_n="$T/n.bin" --set __sys_used_mram_end="$T/v.bin" --get reduce_result:4 > "$T/out" 2>&1
grep -q '^20 08 00 00' "$T/out" && ok "reduce sum via --set/--get" || bad "reduce: $(cat "$T/out")"

# the same with the runtime as a library directory (unused sections dropped)
"$X" asm --isa dpu programs/dpu/reduce.s -o "$T/r2.elf" -o tasklets=8 -o lib=programs/dpu/rt || bad "asm -o lib"
"$X" run "$T/r2.elf" --quiet --set reduce_n="$T/n.bin" --set __sys_used_mram_end="$T/v.bin" --get reduce_result:4 > "$T/out" 2>&1
grep -q '^20 08 00 00' "$T/out" && ok "reduce linked with -o lib" || bad "reduce lib: $(cat "$T/out")"

# two strong definitions of one global symbol
printf '\t.section .text.main,"ax",@progbits\n\t.globl main\nmain:\n\tjump r23\n' > "$T/d1.s"
cp "$T/d1.s" "$T/d2.s"
"$X" asm --isa dpu $RT "$T/d1.s" "$T/d2.s" -o "$T/d.elf" 2> "$T/err"; rc=$?
[ $rc -ne 0 ] && grep -q "symbol 'main' is defined in .*d1.s and in .*d2.s" "$T/err" && ok "duplicate symbol" || bad "duplicate: $rc $(cat "$T/err")"

# printf through the runtime's MRAM buffer: a record "%s" NUL "hi from the DPU\n" NUL
cat > "$T/p.s" <<'S'
	.section .text.__bootstrap,"ax",@progbits
__bootstrap:
	move r0, msg
	move r1, __stdout_buffer
	sdma r0, r1, 2
	move r2, 24
	sw zero, __stdout_buffer_state, r2
	stop
	.section .data.msg,"aw",@progbits
	.p2align 3
msg:
	.asciz "%s"
	.asciz "hi from the DPU\n"
	.zero 8
S
"$X" asm --isa dpu "$T/p.s" tests/dpu/stdout_buffer.s -o "$T/p.elf" -o tasklets=1 && "$X" run "$T/p.elf" --quiet > "$T/out" 2>&1
grep -q '^hi from the DPU$' "$T/out" && ok "printf buffer drained" || bad "printf: $(cat "$T/out")"

# disassembly of the linked file starts with the bootstrap at 0x80000000
"$X" disasm "$T/p.elf" > "$T/dis" 2>&1
grep -q '80000000 \[   0\].*move r0, ' "$T/dis" && ok "disasm" || bad "disasm: $(head -5 "$T/dis")"

# errors: file:line and what is wrong, non-zero exit
printf '\t.section .text.__bootstrap,"ax",@progbits\n__bootstrap:\n\tadd r1, r2\n' > "$T/e1.s"
"$X" asm --isa dpu "$T/e1.s" -o "$T/e1.elf" 2> "$T/err"; rc=$?
[ $rc -ne 0 ] && grep -q 'e1.s:3:2: no form of .add. takes these operands' "$T/err" && ok "asm operand error" || bad "asm error: $rc $(cat "$T/err")"
printf '\t.section .text.__bootstrap,"ax",@progbits\n__bootstrap:\n\tjump nowhere\n' > "$T/e2.s"
"$X" asm --isa dpu "$T/e2.s" -o "$T/e2.elf" 2> "$T/err"; rc=$?
[ $rc -ne 0 ] && grep -q "e2.s:3:2: undefined symbol 'nowhere'" "$T/err" && ok "undefined symbol" || bad "undefined: $rc $(cat "$T/err")"
printf '\t.section .text.__bootstrap,"ax",@progbits\n__bootstrap:\n\tlsl r1, r2, 40\n' > "$T/e3.s"
"$X" asm --isa dpu "$T/e3.s" -o "$T/e3.elf" 2> "$T/err"; rc=$?
[ $rc -ne 0 ] && grep -q 'e3.s:3:2: .*out of range' "$T/err" && ok "range error" || bad "range: $rc $(cat "$T/err")"

printf '\t.section .text.__bootstrap,"ax",@progbits\n__bootstrap:\n\tnop\n\t.p2align 99\n' > "$T/e4.s"
"$X" asm --isa dpu "$T/e4.s" -o "$T/e4.elf" 2> "$T/err"; rc=$?
[ $rc -ne 0 ] && grep -q 'e4.s:4:2: .p2align 99: expected 0..12' "$T/err" && ok "alignment error" || bad "alignment: $rc $(cat "$T/err")"
"$X" asm --isa dpu "$T/missing.s" -o "$T/m.elf" 2> "$T/err"; rc=$?
[ $rc -ne 0 ] && grep -q 'cannot open' "$T/err" && ok "missing source" || bad "missing: $rc $(cat "$T/err")"

# an illegal word and a fault stop the run with the reason and exit status 2
printf '\t.section .text.__bootstrap,"ax",@progbits\n__bootstrap:\n\tnop\n\t.quad 0xffffffffffff\n' > "$T/i.s"
"$X" asm --isa dpu "$T/i.s" -o "$T/i.elf" && "$X" run "$T/i.elf" > "$T/out" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q 'illegal instruction ffffffffffff at pc 1' "$T/out" && ok "illegal word" || bad "illegal: $rc $(cat "$T/out")"
printf '\t.section .text.__bootstrap,"ax",@progbits\n__bootstrap:\n\tfault 3\n' > "$T/f.s"
"$X" asm --isa dpu "$T/f.s" -o "$T/f.elf" && "$X" run "$T/f.elf" > "$T/out" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q 'fault 3: assert' "$T/out" && ok "fault" || bad "fault: $rc $(cat "$T/out")"

# not a DPU program
printf 'hello' > "$T/x.bin"
"$X" run --isa dpu "$T/x.bin" > "$T/out" 2>&1; rc=$?
[ $rc -ne 0 ] && grep -q 'raw DPU program is 8-byte instructions' "$T/out" && ok "bad raw file" || bad "raw: $rc $(cat "$T/out")"
exit $fail
