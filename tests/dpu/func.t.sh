#!/bin/sh
# The DPU's functional mode through the command line (-o timing=none): the same printed
# output (the runtime's MRAM printf buffer), the same results read back by symbol and the
# same exit status as the cycle model; its statistics count one cycle per instruction and
# no stall; a bad quantum is refused clearly.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
RT="programs/dpu/rt/crt0.s programs/dpu/rt/mutex.s programs/dpu/rt/barrier.s programs/dpu/rt/perfcounter.s programs/dpu/rt/mram.s"

# 16 tasklets each print a record "%s" NUL "tasklet N\n" (one after the other under a mutex
# on the write pointer), then reduce: printed text and the sum identical in both modes
cat > "$T/p.s" <<'S'
	.section .text.main,"ax",@progbits
	.globl main
main:
	move r20, r23
	lsl r10, id, 5
	add r10, r10, msgs
	add r1, id, '0' - 10
	add r2, id, '0'
	jltu id, 10, .Lone
	move r3, '1'
	sb r10, 11, r3
	sb r10, 12, r1
	move r3, 10
	sb r10, 13, r3
	jump .Lput
.Lone:
	sb r10, 11, r2
	move r3, 10
	sb r10, 12, r3
.Lput:
	move r0, 9
	call r23, mutex_lock
	lw r4, zero, __stdout_buffer_state
	move r5, __stdout_buffer
	add r5, r5, r4
	sdma r10, r5, 3
	add r4, r4, 32
	sw zero, __stdout_buffer_state, r4
	move r0, 9
	call r23, mutex_unlock
	move r0, 0
	jump r20
	.section .data.msgs,"aw",@progbits
	.p2align 3
msgs:
S
i=0; while [ $i -lt 16 ]; do printf '\t.asciz "%%s"\n\t.ascii "tasklet "\n\t.zero 21\n' >> "$T/p.s"; i=$((i + 1)); done
"$X" asm --isa dpu $RT "$T/p.s" tests/dpu/stdout_buffer.s -o "$T/p.elf" -o tasklets=16 || bad "asm"
"$X" run "$T/p.elf" --quiet --max-cycles 1000000 > "$T/cyc.out" 2>&1; rc1=$?
"$X" run "$T/p.elf" --quiet --max-cycles 1000000 -o timing=none > "$T/fun.out" 2>&1; rc2=$?
[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ "$(grep -c '^tasklet [0-9]*$' "$T/fun.out")" = 16 ] &&
    [ "$(sort "$T/cyc.out")" = "$(sort "$T/fun.out")" ] && ok "printf output: 16 lines, the same set" ||
    bad "printf: $rc1 $rc2 $(cat "$T/fun.out")"
# the mutex orders the records the same way in both: tasklets take it in round-robin order
[ -s "$T/fun.out" ] && cmp -s "$T/cyc.out" "$T/fun.out" && ok "printf output identical" || bad "printf order: $(diff "$T/cyc.out" "$T/fun.out")"

"$X" asm --isa dpu $RT programs/dpu/reduce.s -o "$T/r.elf" -o tasklets=16 || bad "asm reduce"
printf '\100\000\000\000' > "$T/n.bin"
i=1; : > "$T/v.bin"
while [ $i -le 64 ]; do printf "$(printf '\\%03o' $i)\000\000\000" >> "$T/v.bin"; i=$((i + 1)); done
for m in cycle none; do
    "$X" run "$T/r.elf" --quiet -o timing=$m --set reduce_n="$T/n.bin" --set __sys_used_mram_end="$T/v.bin" \
        --get reduce_result:4 --stats=json --stats-file "$T/$m.json" > "$T/$m.get" 2>&1 || bad "run timing=$m"
done
grep -q '^20 08 00 00' "$T/none.get" && cmp -s "$T/cycle.get" "$T/none.get" && ok "reduce result identical" ||
    bad "reduce: $(cat "$T/none.get")"
# functional statistics: cycles = instructions (one issue step each), no stall of any cause
c=$(sed -n 's/^  "cycles": \([0-9]*\),*/\1/p' "$T/none.json"); n=$(sed -n 's/^  "instructions": \([0-9]*\),*/\1/p' "$T/none.json")
[ -n "$c" ] && [ "$c" = "$n" ] && ok "functional cycles = instructions ($n)" || bad "cycles $c instructions $n"
grep -q '"revolver": [1-9]' "$T/none.json" && bad "a revolver stall in functional mode" || ok "no revolver stall"
grep -q '"revolver": [1-9]' "$T/cycle.json" && ok "the cycle model has its revolver stalls" || bad "cycle json"

# -o func_quantum: any quantum gives the same sum; 0 is refused with the option's name
"$X" run "$T/r.elf" --quiet -o timing=none -o func_quantum=500 --set reduce_n="$T/n.bin" \
    --set __sys_used_mram_end="$T/v.bin" --get reduce_result:4 > "$T/q.get" 2>&1
cmp -s "$T/cycle.get" "$T/q.get" && ok "func_quantum=500 same result" || bad "quantum: $(cat "$T/q.get")"
"$X" run "$T/r.elf" -o timing=none -o func_quantum=0 > "$T/err" 2>&1; rc=$?
[ $rc -ne 0 ] && grep -q 'func_quantum' "$T/err" && ok "func_quantum=0 refused" || bad "quantum 0: $rc $(cat "$T/err")"

# --profile in functional mode: fed by the functional loop itself when the DPU declares
# isa_ops.profile_fast, else by the debugger's hooks; either way it equals the hook path's
# (--trace turns the hooks on), byte for byte, and the statistics equal the plain run's
"$X" run "$T/r.elf" --quiet -o timing=none --set reduce_n="$T/n.bin" --set __sys_used_mram_end="$T/v.bin" \
    --profile "$T/fast.cg" --stats=json --stats-file "$T/pf.json" > /dev/null 2>&1 || bad "profile run"
"$X" run "$T/r.elf" --quiet -o timing=none --set reduce_n="$T/n.bin" --set __sys_used_mram_end="$T/v.bin" \
    --profile "$T/hook.cg" --trace /dev/null > /dev/null 2>&1 || bad "profile run with the hooks"
[ -s "$T/fast.cg" ] && cmp -s "$T/fast.cg" "$T/hook.cg" && ok "functional profile = the hook path's" ||
    bad "profile: $(diff "$T/fast.cg" "$T/hook.cg" | head -5)"
grep -v '"seconds"\|"mips"\|"mcycles_per_s"' "$T/none.json" > "$T/a" && grep -v '"seconds"\|"mips"\|"mcycles_per_s"' "$T/pf.json" > "$T/b"
cmp -s "$T/a" "$T/b" && ok "statistics with --profile unchanged" || bad "profile stats: $(diff "$T/a" "$T/b" | head -5)"

# the profiled copy of the records' loop (func_rec_loop.h, FN_PROF: each tasklet's issues
# in a batch of row updates) on more shapes, each against the hook path: 16 tasklets round
# robin (the bench loop), a turn of 7 (func_quantum=7: one tasklet at a time), a ring of 3
# out of 16 slots, and the SDK-shaped program (calls, a mutex, barriers, DMA: the executor
# between batches, mul_step through fastops.inc)
"$X" asm --isa dpu programs/dpu/bench/alu_loop.s -o "$T/alu.elf" -o tasklets=16 || bad "asm alu"
"$X" asm --isa dpu $RT programs/dpu/bench/sdk_shape.s -o "$T/sdk.elf" -o tasklets=16 || bad "asm sdk"
sh scripts/bench/le32.sh 200 "$T/i200.bin" && sh scripts/bench/le32.sh 6 "$T/i6.bin" && sh scripts/bench/le32.sh 3 "$T/w3.bin" ||
    bad "le32"
for c in "alu16|$T/alu.elf -o tasklets=16 --set bench_iters=$T/i200.bin" \
         "alu16-q7|$T/alu.elf -o tasklets=16 -o func_quantum=7 --set bench_iters=$T/i200.bin" \
         "alu3|$T/alu.elf -o tasklets=3 --set bench_iters=$T/i200.bin" \
         "sdk16|$T/sdk.elf -o tasklets=16 --set bench_iters=$T/i6.bin --set bench_work=$T/w3.bin"; do
    name=${c%%|*}; args=${c#*|}
    # shellcheck disable=SC2086
    "$X" run $args --quiet -o timing=none --profile "$T/$name.f" > /dev/null 2>&1 &&
        "$X" run $args --quiet -o timing=none --profile "$T/$name.h" --trace /dev/null > /dev/null 2>&1 &&
        [ -s "$T/$name.f" ] && cmp -s "$T/$name.f" "$T/$name.h" && ok "functional profile $name = the hook path's" ||
        bad "profile $name: $(diff "$T/$name.f" "$T/$name.h" 2>&1 | head -5)"
done

# --profile's blocks (func_rec.c fn_blocks: the profiled loop counts a pass through a straight
# run of records at its last one): a jump through a register into a block's middle (jump
# .Lmid, fn_enter_mid), runs that stop inside a block and start again there (cycle and
# instruction limits that are no multiple of the ring or the loop, and the functional mode's
# 4,096-cycle runs), in both modes, quantum 1 and 7, on 16 and 11 tasklets: each profile
# equals the hook path's byte for byte. (Also the functional mode's --max-insns, whose
# profile was empty before: that loop fed only the hooks.)
printf '\t.section .text.__bootstrap,"ax",@progbits\n\t.globl __bootstrap\n__bootstrap:\n\tjeq id, NR_TASKLETS-1, .Lgo\n\tboot id, 1\n.Lgo:\n\tmove r3, 40\n.Louter:\n\tmove r2, 3\n\tjump .Lmid\n.Lblk:\n\tadd r1, r1, 1\n\tadd r1, r1, 2\n.Lmid:\n\tadd r1, r1, 3\n\tadd r1, r1, 4\n\tadd r2, r2, -1, nz, .Lblk\n\tadd r3, r3, -1, nz, .Louter\n\tstop\n' > "$T/mid.s"
for nt in 16 11; do
    "$X" asm --isa dpu "$T/mid.s" -o "$T/mid$nt.elf" -o tasklets=$nt || bad "asm mid"
    for mode in "-o timing=none" "" "-o timing=none -o func_quantum=7"; do
        for lim in "" "--max-insns 1237" "--max-cycles 997"; do
            # shellcheck disable=SC2086
            "$X" run "$T/mid$nt.elf" -o tasklets=$nt $mode $lim --quiet --profile "$T/m.f" > /dev/null 2>&1
            # shellcheck disable=SC2086
            "$X" run "$T/mid$nt.elf" -o tasklets=$nt $mode $lim --quiet --profile "$T/m.h" --trace /dev/null > /dev/null 2>&1
            sum=$(sed -n 's/^summary: \([0-9]*\) .*/\1/p' "$T/m.f")
            [ "${sum:-0}" -gt 0 ] && cmp -s "$T/m.f" "$T/m.h" && ok "profile, blocks entered inside: $nt tasklets $mode $lim" ||
                bad "profile blocks $nt $mode $lim: $(diff "$T/m.f" "$T/m.h" 2>&1 | head -5)"
        done
    done
done

# a fault stops both modes with the same message and exit status
printf '\t.section .text.__bootstrap,"ax",@progbits\n__bootstrap:\n\tmove r0, 3\n\tlw r1, r0, 0\n\tstop\n' > "$T/f.s"
"$X" asm --isa dpu "$T/f.s" -o "$T/f.elf" -o tasklets=1 || bad "asm fault"
"$X" run "$T/f.elf" --quiet > "$T/f1" 2>&1; r1=$?
"$X" run "$T/f.elf" --quiet -o timing=none > "$T/f2" 2>&1; r2=$?
[ $r1 -eq 2 ] && [ $r2 -eq 2 ] && grep -q 'misaligned WRAM access (address 0x3) at pc 1' "$T/f2" &&
    [ "$(grep -o 'dpu0 tasklet 0:.*' "$T/f1")" = "$(grep -o 'dpu0 tasklet 0:.*' "$T/f2")" ] &&
    ok "fault: same message, exit 2" || bad "fault: $r1 $r2 $(cat "$T/f2")"
exit $fail
