#!/bin/sh
# `xpusim gdbserver`: the GDB remote protocol server, driven by a small RSP client
# (tests/cli/gdb_rsp.py; no gdb needed) over a loopback port the server picks (--port 0).
# MCCP sum4 (programs/mccp/sum4.mccp, 4 cores = GDB threads 1..4): qSupported, target.xml,
# registers, a breakpoint every core reaches (the store of the partial sum, which must stop
# with reg1 = 4 + core index), a breakpoint only core 0 reaches (the join, `movimm reg1 9`)
# and a step over it (pc moves past the two-slot movl and reg1 becomes 9), a step onto a
# breakpoint (the WAIT loop) after which a continue must run the loop before stopping again, memory read/write
# (M and binary X with escaped bytes), a write watchpoint on the total RAM[2] (5050 after the
# store, reported as watch:2 on thread 1), the thread list, W00 at the end, and the end cycle,
# which must equal a plain `xpusim run` of the same program (stepping and stopping do not
# change timing). MCCP draw.mccp (445119 cycles) checks, again,
# the end cycle of a continue that runs in several slices; a program spinning on a RAM
# flag checks Ctrl-C (T02) and memory writes that let it end, and --max-cycles and
# --max-insns (T18 at the limit, also across continue slices); a load outside the stack
# bounds checks the fault stop (T0b, then X0b). DPU vecadd checks tasklets as threads and WRAM,
# and the register numbering a GDB client (xmlRegisters= in qSupported) gets: pc at 8; two
# DPUs check thread ids across units and that memory follows the selected thread's DPU.
# Nyuzi alu.S checks a 512-bit vector register (v1 = lanes 0..15 at `pass`) in p and g.
# Addresses come from `xpusim disasm` (MCCP slot = 2 * ROM word + half) and `xpusim info`.
X=${XPUSIM:-build/xpusim}
PY=$(command -v python3) || { echo "SKIP: no python3"; exit 0; }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
HERE=$(dirname "$0")
fail=0
end_cycle() { "$X" run "$@" 2>&1 >/dev/null | awk '$1 == "cycles:" { print $2 }'; }

if "$X" isas | grep -q '^mccp'; then
    "$X" asm --isa mccp programs/mccp/sum4.mccp -o "$T/sum4.out" || { echo "FAIL: assembling sum4"; exit 1; }
    "$X" disasm "$T/sum4.out" >"$T/sum4.dis"
    # slot of an instruction found by its text (first match), and of the instruction after it;
    # awk prints "WORD HALF", the shell turns it into 2 * WORD + (HALF == l)
    slot() { [ -n "$1" ] && printf '0x%x\n' $(( 2 * 0x$1 + ($2 == 1) )); }
    find_insn() { awk -v want="$1" -v after="$2" '{ t = $3; for (i = 4; i <= NF; i++) t = t " " $i
        split($1, a, ".") } found { print a[1], (a[2] == "l"); exit }
        t == want { if (!after) { print a[1], (a[2] == "l"); exit } found = 1 }' "$T/sum4.dis"; }
    slot_of() { slot $(find_insn "$1" 0); }
    next_of() { slot $(find_insn "$1" 1); }
    store=$(slot_of "store reg2 reg1")     # RAM[4+c] = partial, every core
    wait=$(slot_of "movl reg1 9")          # movimm reg1 9: only core 0 gets past `jne DONE`
    next=$(next_of "movl reg1 9")
    loop=$(next_of "movh reg1 0")          # WAIT: load reg0 reg1, the join's spin loop
    echo "store at $store, join at $wait, next $next, WAIT loop at $loop"
    [ -n "$store" ] && [ -n "$wait" ] && [ -n "$next" ] && [ -n "$loop" ] || { echo "FAIL: addresses not in the disassembly"; exit 1; }
    end=$(end_cycle "$T/sum4.out" --load ram:0=programs/mccp/sum4.txt)
    echo "plain run of sum4 ends at cycle $end"
    timeout 60 "$PY" "$HERE/gdb_rsp.py" mccp_sum4 "$X" "$T/sum4.out" programs/mccp/sum4.txt \
        "$store" "$wait" "$next" "$loop" "$end" || fail=1

    "$X" asm --isa mccp programs/mccp/draw.mccp -o "$T/draw.out" || { echo "FAIL: assembling draw"; exit 1; }
    end=$(end_cycle "$T/draw.out" --headless)
    echo "plain run of draw ends at cycle $end"
    timeout 60 "$PY" "$HERE/gdb_rsp.py" mccp_run "$X" "$T/draw.out" "$end" || fail=1
    timeout 60 "$PY" "$HERE/gdb_rsp.py" hostile "$X" "$T/draw.out" || fail=1

    # every core spins on RAM[300] until the client writes it: only Ctrl-C stops a continue
    printf 'movl reg1 300\nspin:\nload reg0 reg1\ncmp reg0 0\nje spin\nint 0\n' >"$T/spin.asm"
    "$X" asm --isa mccp "$T/spin.asm" -o "$T/spin.out" || { echo "FAIL: assembling spin"; exit 1; }
    timeout 60 "$PY" "$HERE/gdb_rsp.py" mccp_interrupt "$X" "$T/spin.out" 300 || fail=1
    timeout 60 "$PY" "$HERE/gdb_rsp.py" mccp_limit "$X" "$T/spin.out" --max-cycles 250000 || fail=1
    timeout 60 "$PY" "$HERE/gdb_rsp.py" mccp_limit "$X" "$T/spin.out" --max-insns 5000 || fail=1

    # a load from 0x7fffffff is outside the core's stack bounds: a stack protection fault
    printf 'movl reg1 65535\nmovh reg1 32767\nload reg0 reg1\nint 0\n' >"$T/fault.asm"
    "$X" asm --isa mccp "$T/fault.asm" -o "$T/fault.out" || { echo "FAIL: assembling fault"; exit 1; }
    timeout 60 "$PY" "$HERE/gdb_rsp.py" mccp_fault "$X" "$T/fault.out" || fail=1

    # bad listen specs are refused with a message, not a hang
    "$X" gdbserver "$T/sum4.out" --port 70000 2>"$T/err" && { echo "FAIL: port 70000 accepted"; fail=1; }
    grep -q "0..65535" "$T/err" || { echo "FAIL: no message for a bad port"; cat "$T/err"; fail=1; }
else
    echo "SKIP: no mccp ISA in this build"
fi

if "$X" isas | grep -q '^dpu'; then
    R=programs/dpu/rt
    "$X" asm --isa dpu -o tasklets=4 $R/crt0.s $R/mutex.s $R/barrier.s $R/perfcounter.s $R/mram.s \
        programs/dpu/vecadd.s -o "$T/vecadd.elf" || { echo "FAIL: assembling vecadd"; exit 1; }
    val=$("$X" info "$T/vecadd.elf" | awk '$NF == "main" { print $1 }')
    main=$(printf '0x%x' $(( (val - 0x80000000) / 8 )))   # IRAM at 0x80000000, 8 bytes an instruction
    end=$(end_cycle "$T/vecadd.elf" -o tasklets=4)
    echo "vecadd: main = instruction $main, plain run ends at cycle $end"
    timeout 60 "$PY" "$HERE/gdb_rsp.py" dpu_vecadd "$X" "$T/vecadd.elf" "$main" 4 "$end" || fail=1
    timeout 60 "$PY" "$HERE/gdb_rsp.py" dpu_gdb_compat "$X" "$T/vecadd.elf" "$main" || fail=1
    timeout 60 "$PY" "$HERE/gdb_rsp.py" dpu_two "$X" "$T/vecadd.elf" || fail=1
    # four tasklets, each storing its id at result + 4 * id (tasklet 3 boots none)
    printf '\t.section\t.text.__bootstrap,"ax",@progbits\n\t.globl\t__bootstrap\n__bootstrap:\n\tjeq\tid, 3, .Lnb\n\tboot\tid, 1\n.Lnb:\n\tmove\tr2, id\n\tlsl\tr1, r2, 2\n\tsw\tr1, result, r2\n\tstop\n\t.section\t.dpu_host,"aw",@progbits\n\t.globl\tresult\n\t.p2align\t3\nresult:\n\t.long\t7, 7, 7, 7\n' > "$T/wt.s"
    "$X" asm --isa dpu -o tasklets=4 "$T/wt.s" -o "$T/wt.elf" || { echo "FAIL: assembling wt.s"; exit 1; }
    timeout 60 "$PY" "$HERE/gdb_rsp.py" dpu_watch_thread "$X" "$T/wt.elf" || fail=1
    # tests/cli/fastforward.t.sh's ff1.s: 51 instructions before `region` (instruction 2)
    printf '\t.section\t.text.__bootstrap,"ax",@progbits\n\t.globl\t__bootstrap\n__bootstrap:\n\tmove\tr0, 50\n.Lpre:\n\tadd\tr0, r0, -1, nz, .Lpre\n\t.globl\tregion\nregion:\n\tmove\tr1, 20\n.Lr:\n\tadd\tr1, r1, -1, nz, .Lr\n\tsw\tzero, result, r1\n\tstop\n\t.section\t.dpu_host,"aw",@progbits\n\t.globl\tresult\n\t.p2align\t3\nresult:\n\t.long\t7\n' > "$T/ff1.s"
    "$X" asm --isa dpu -o tasklets=1 "$T/ff1.s" -o "$T/ff1.elf" || { echo "FAIL: assembling ff1.s"; exit 1; }
    timeout 60 "$PY" "$HERE/gdb_rsp.py" dpu_fast_forward "$X" "$T/ff1.elf" 0x2 || fail=1
else
    echo "SKIP: no dpu ISA in this build"
fi
if "$X" isas | grep -q '^nyuzi'; then
    "$X" asm --isa nyuzi tests/nyuzi/progs/alu.S -o "$T/alu.elf" || { echo "FAIL: assembling alu.S"; exit 1; }
    pass=$("$X" info "$T/alu.elf" | awk '$NF == "pass" { print $1 }')
    end=$(end_cycle "$T/alu.elf" --headless)
    echo "alu.S: pass at $pass, plain run ends at cycle $end"
    timeout 60 "$PY" "$HERE/gdb_rsp.py" nyuzi_alu "$X" "$T/alu.elf" "$pass" "$end" || fail=1
else
    echo "SKIP: no nyuzi ISA in this build"
fi
[ $fail -eq 0 ] && echo "gdbstub: all checks passed"
exit $fail
