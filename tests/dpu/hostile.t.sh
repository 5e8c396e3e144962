#!/bin/sh
# tests/dpu/hostile.t.sh: guest programs that try to leave the DPU (issue 8). Each must stop
# with a clear reason and the right exit status, never touch host memory (the second pass
# of make test runs this under ASan + UBSan): DMA from wild and end-of-MRAM addresses, WRAM
# loads at and past its end, a jump past IRAM, an endless loop (stopped by --max-cycles,
# exit 3), unbounded recursion that pushes past the end of WRAM, and ldmai (the DPU's
# self-modifying code: it loads IRAM from MRAM) beyond IRAM, and printf records asking
# for host writes.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
SUFFIX=s OUT=elf
. tests/hostile_lib.sh
prog() { # NAME EXIT PATTERN BODY: BODY after the bootstrap label
    printf '\t.section .text.__bootstrap,"ax",@progbits\n\t.globl __bootstrap\n__bootstrap:\n%b' "$4" > "$T/$1.s"
    hostile_case "$1" "$2" "$3" --isa dpu -- --quiet --max-cycles 2000000
}
# r1 = -8: the MRAM address wraps to the top of the 26-bit MRAM space; 2048 bytes from there
prog dma_wild 2 "DMA beyond MRAM" '\tmove r0, -1\n\tmove r1, -8\n\tldma r0, r1, 255\n\tstop\n'
prog dma_mram_end 2 "DMA beyond MRAM (address 0x3fffff8)" '\tmove r0, 0\n\tmove r1, 0x3fffff8\n\tldma r0, r1, 255\n\tstop\n'
prog dma_mram_last 0 "" '\tmove r0, 0\n\tmove r1, 0x3fffff8\n\tldma r0, r1, 0\n\tstop\n'
prog wram_end 2 "WRAM access out of range (address 0x10000)" '\tmove r0, 0xfffc\n\tlw r1, r0, 0\n\tlw r1, r0, 4\n\tstop\n'
prog jump_past 2 "pc past the end of IRAM" '\tjump 0xffff\n'
prog endless 3 "cycle limit 2000000 reached" '.L:\n\tjump .L\n'
prog recurse 2 "WRAM access out of range" 'f:\n\tsd r22, 0, d22\n\tadd r22, r22, 8\n\tcall r23, f\n'
prog ldmai_past 2 "ldmai beyond IRAM" '\tmove r0, 0xff00\n\tmove r1, 0\n\tldmai r0, r1, 255\n\tstop\n'
# a printf record written by the guest (as the runtime's printf would) that asks for
# host writes (%n, %lln), a huge width and, last, a plain %d: the hostile specs print as
# text, the guest's bytes are never a host format (issue 8), and the record goes on
cat > "$T/printf.s" <<'S'
	.section .text.__bootstrap,"ax",@progbits
__bootstrap:
	move r0, rec
	move r1, __stdout_buffer
	sdma r0, r1, 5
	move r2, 44
	sw zero, __stdout_buffer_state, r2
	stop
	.section .data.rec,"aw",@progbits
	.p2align 3
rec:
	.asciz "%n%s%lln%s%99999d%s%d"
	.byte 0x41, 0x41, 0x41, 0x41
	.asciz "|"
	.byte 0x41, 0x41, 0x41, 0x41
	.asciz "|"
	.byte 1, 0, 0, 0
	.asciz "|"
	.byte 42, 0, 0, 0
	.zero 8
S
if "$X" asm --isa dpu "$T/printf.s" tests/dpu/stdout_buffer.s -o "$T/printf.elf" -o tasklets=1 >"$T/printf.out" 2>&1 &&
   "$X" run "$T/printf.elf" --quiet >"$T/printf.out" 2>&1 && grep -qx '%n|%lln|%99999d|42' "$T/printf.out"; then
    echo "ok printf: hostile conversions printed as text: $(cat "$T/printf.out")"
else
    echo "FAIL printf: $(head -c 300 "$T/printf.out")"; fail=1
fi
exit $fail
