#!/bin/sh
# The debugger on the DPU, whose ELF symbols are not PC values: code symbols live at
# 0x80000000 + 8 * instruction index and the ISA places them (symbol_location), and each DPU
# has its own WRAM ("wram" for DPU 0, "wram.1" for DPU 1). programs/dpu/vecadd.s with the
# runtime, 2 DPUs of 4 tasklets: a breakpoint on `main` for DPU 1 only must stop DPU 1's
# tasklet 0 at the instruction index of main (the disassembly names it), a data symbol
# (vecadd_n) is refused as a breakpoint and resolves to the selected DPU's WRAM for x and
# watch (a read watch stops at main+3, `lw r11, zero, vecadd_n`), and stepping works in PC
# units.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
"$X" isas | grep -q '^dpu' || { echo "SKIP: this build has no dpu ISA"; exit 0; }
R=programs/dpu/rt
"$X" asm --isa dpu -o tasklets=4 $R/crt0.s $R/mutex.s $R/barrier.s $R/perfcounter.s $R/mram.s \
    programs/dpu/vecadd.s -o "$T/vecadd.elf" || { echo "FAIL: assembling vecadd"; exit 1; }
# main's instruction index, from its ELF value (IRAM at 0x80000000, 8 bytes an instruction)
val=$("$X" info "$T/vecadd.elf" | awk '$NF == "main" { print $1 }')
[ -n "$val" ] || { echo "FAIL: no symbol main"; exit 1; }
main=$(printf '0x%x' $(( (val - 0x80000000) / 8 )))
echo "main: ELF value $val = instruction $main"
fail=0
check() { grep -qF -- "$1" "$T/out" || { echo "FAIL: transcript lacks: $1"; fail=1; }; }
cat >"$T/s" <<EOF
break vecadd_n
break main 1
continue
assert stop breakpoint
assert pc == main
assert pc == $main
assert \$id == 0
disasm main 3
step 3
assert pc == main+3
x vecadd_n 1
watch vecadd_n r
info break
delete 1
continue
assert stop watchpoint
thread 0.0
x vecadd_n 1
delete
continue
assert stop halted
EOF
"$X" debug "$T/vecadd.elf" -o tasklets=4 -o dpus=2 -x "$T/s" >"$T/out" 2>&1; rc=$?
cat "$T/out"
[ $rc -eq 0 ] || { echo "FAIL: exit $rc (want 0)"; fail=1; }
check "error: break: 'vecadd_n': not a number and no code symbol of that name (it names data)"
check "breakpoint 1 at $main <main> on dpu1"
check "dpu1 thread 0 stopped at cycle"
check ": breakpoint 1 at $main (main)"
check "main:"
check "step done"
check "wram.1:0x"
check "watchpoint 1: wram.1:0x"
# the next instruction of DPU 1's tasklet 0 is `lw r11, zero, vecadd_n`
check "dpu1 thread 0 stopped at cycle"
check "$(printf '=> 0x%08x <main+4>' $((main + 4)))"
grep -q "^dpu1 thread 0 stopped at cycle [0-9]*: watchpoint 1" "$T/out" || { echo "FAIL: no watch stop"; fail=1; }
check "thread #0: dpu0 thread 0"
check "halted at cycle"
n=$(grep -c "assert ok" "$T/out")
[ "$n" -eq 7 ] || { echo "FAIL: $n asserts passed, want 7"; fail=1; }
# issue 11: with 8 DPUs, wram.7 is not a registered space (the ISA makes it on demand); a
# watchpoint there must be listed by `info break` and found by `delete N` and `delete wN`
cat > "$T/w8.gdb" <<'EOS'
watch wram.7:0x100
watch mram.5:0x40,8
info break
delete 1
delete w2
info break
EOS
"$X" debug "$T/vecadd.elf" -o dpus=8 -o mram=1 -x "$T/w8.gdb" > "$T/w8.out" 2>&1
for want in "w1   watch w     wram.7:0x100,4" "w2   watch w     mram.5:0x40,8" "deleted watchpoint 1" \
            "deleted watchpoint 2" "no breakpoints or watchpoints"; do
    grep -qF -- "$want" "$T/w8.out" || { echo "FAIL: no '$want' with 8 DPUs: $(cat "$T/w8.out")"; fail=1; }
done
# issue 11: DMA writes are checked against watchpoints and say where they come from; the
# stop does not change the timing (the run ends at the plain run's cycle)
printf '\100\000\000\000' > "$T/n64.bin"
printf 'watch wram:0x0\nrun\ndelete\ncontinue\n' > "$T/dma.gdb"
"$X" debug "$T/vecadd.elf" --set vecadd_n="$T/n64.bin" -x "$T/dma.gdb" > "$T/dma.out" 2>&1
plain=$("$X" run "$T/vecadd.elf" --set vecadd_n="$T/n64.bin" 2>&1 | sed -n 's/^cycles: \([0-9]*\).*/\1/p')
grep -q "dpu0 thread 0 stopped at cycle [0-9]*: watchpoint 1: DMA write of wram:0x0 (256 bytes at 0x0) by tasklet 0's ldma issued at cycle" "$T/dma.out" \
    || { echo "FAIL: no DMA watchpoint stop: $(head -c 400 "$T/dma.out")"; fail=1; }
grep -q "halted at cycle $plain: " "$T/dma.out" || { echo "FAIL: after the DMA stop the run did not end at cycle $plain: $(tail -3 "$T/dma.out")"; fail=1; }
# the stop is at the write's own cycle, not the issuer's last issue: the engine is idle, so
# the 256-byte ldma lands dma_read_alpha (77) + dma_read_beta (0.5) x 256 = 205 cycles after
# its issue (docs/isa/dpu.md, DMA timing)
stop=$(sed -n "s/^dpu0 thread 0 stopped at cycle \([0-9]*\): watchpoint 1: DMA write of wram:0x0 .* issued at cycle \([0-9]*\)$/\1 \2/p" "$T/dma.out")
set -- $stop
[ $# -eq 2 ] && [ "$1" -eq $(($2 + 77 + 128)) ] ||
    { echo "FAIL: the DMA watch stop is at cycle ${1:-?}, want the ldma's issue ${2:-?} + 205"; fail=1; }
exit $fail
