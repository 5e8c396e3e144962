#!/bin/sh
# tests/cli/profile_fast.t.sh: --profile fed by an ISA's fast path (isa_ops.profile_fast,
# notes/profile-api.md) is the profile the hook path writes. The hook path still feeds the
# profile whenever the per-instruction hooks are on, and `--trace /dev/null` turns them on
# without changing a result; so for each program the profile written with and without the
# trace must be identical byte for byte, and the profiled run's statistics must be the plain
# run's (the profile only watches). The programs have every stall cause of their ISA that a
# short run reaches (DPU revolver and DMA waits, MCCP memory and arbiter waits, Nyuzi cache
# misses and scoreboard, IPU barrel and dependencies), several threads, and calls. For an ISA
# that does not declare profile_fast both runs take the hook path; the test then checks that
# the trace does not disturb the profile.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
n=0
# same NAME RUN-ARGS...: the two profiles equal, the statistics unchanged, the profile not empty
same() {
    name=$1; shift
    "$X" run "$@" --quiet --stats=json --stats-file "$T/$name.plain.json" > /dev/null 2>&1 ||
        fail "$name: plain run: $("$X" run "$@" --quiet 2>&1 | tail -2)"
    "$X" run "$@" --quiet --stats=json --stats-file "$T/$name.fast.json" --profile "$T/$name.fast" > /dev/null ||
        fail "$name: profiled run"
    "$X" run "$@" --quiet --profile "$T/$name.hook" --trace /dev/null > /dev/null || fail "$name: traced run"
    cmp -s "$T/$name.fast" "$T/$name.hook" ||
        fail "$name: the profiles differ: $(diff "$T/$name.fast" "$T/$name.hook" | head -6)"
    grep -v '"host"' "$T/$name.plain.json" > "$T/a" && grep -v '"host"' "$T/$name.fast.json" > "$T/b"
    cmp -s "$T/a" "$T/b" || fail "$name: --profile changed the statistics: $(diff "$T/a" "$T/b" | head -4)"
    sum=$(sed -n 's/^summary: \([0-9]*\) .*/\1/p' "$T/$name.fast")
    [ "${sum:-0}" -gt 0 ] || fail "$name: empty profile"
    n=$((n + 1))
}
has() { "$X" isas | grep -q "^$1"; }

if has dpu; then
    "$X" asm --isa dpu programs/dpu/bench/alu_loop.s -o "$T/alu.elf" -o tasklets=16 || fail "dpu asm"
    sh scripts/bench/le32.sh 50 "$T/i50.bin" && sh scripts/bench/le32.sh 20 "$T/i20.bin" &&
        sh scripts/bench/le32.sh 2 "$T/w2.bin" || fail le32
    same dpu-alu16 "$T/alu.elf" -o tasklets=16 --set bench_iters="$T/i50.bin"
    same dpu-alu3 "$T/alu.elf" -o tasklets=3 --set bench_iters="$T/i50.bin"
    # the profiled round burst (16 tasklets issue in ring order) ended by a cycle limit in the
    # middle of a round: a tasklet whose first issue of the round was charged in advance and
    # had not issued must have the charge taken back (dpu_fast_round_flush_prof). Limits at
    # 1,003 and 1,007 cycles are not multiples of 16; the run stops with "limit" (exit 3).
    for mc in 1003 1007; do
        "$X" run "$T/alu.elf" -o tasklets=16 --set bench_iters="$T/i50.bin" --max-cycles $mc --quiet \
            --profile "$T/lim$mc.fast" >/dev/null 2>&1
        [ $? -eq 3 ] || fail "dpu-alu16 --max-cycles $mc: expected the limit stop (exit 3)"
        "$X" run "$T/alu.elf" -o tasklets=16 --set bench_iters="$T/i50.bin" --max-cycles $mc --quiet \
            --profile "$T/lim$mc.hook" --trace /dev/null >/dev/null 2>&1
        cmp -s "$T/lim$mc.fast" "$T/lim$mc.hook" ||
            fail "dpu-alu16 --max-cycles $mc: the profiles differ: $(diff "$T/lim$mc.fast" "$T/lim$mc.hook" | head -6)"
        n=$((n + 1))
    done
    "$X" asm --isa dpu programs/dpu/rt/crt0.s programs/dpu/rt/mutex.s programs/dpu/rt/barrier.s \
        programs/dpu/rt/perfcounter.s programs/dpu/rt/mram.s programs/dpu/bench/sdk_shape.s \
        -o "$T/sdk.elf" -o tasklets=16 || fail "dpu asm sdk_shape"
    same dpu-sdk16 "$T/sdk.elf" -o tasklets=16 --set bench_iters="$T/i20.bin" --set bench_work="$T/w2.bin"
    # the register-file bank penalty runs the reference loop (exec.c) with the hooks off: it
    # must feed the profile too (a third stall cause)
    same dpu-sdk16-bank "$T/sdk.elf" -o tasklets=16 -o bank_penalty=1 --set bench_iters="$T/i20.bin" \
        --set bench_work="$T/w2.bin"
    # the word feed's contract (notes/profile-api.md "Word mode"): the DMA-bound shape (work 1:
    # sparse bursts, resumes inside them and through the generic executor; dropping either
    # resume's prof_word_resume, or the +1 of a fed issue the generic executor has not run
    # yet, fails here) on two DPUs and at 11 tasklets, and a host session whose profiled run
    # is its second launch
    sh scripts/bench/le32.sh 1 "$T/w1.bin" || fail le32
    same dpu-sdk16-dma2 "$T/sdk.elf" -o tasklets=16 -o dpus=2 --set bench_iters="$T/i20.bin" \
        --set bench_work="$T/w1.bin"
    "$X" asm --isa dpu programs/dpu/rt/crt0.s programs/dpu/rt/mutex.s programs/dpu/rt/barrier.s \
        programs/dpu/rt/perfcounter.s programs/dpu/rt/mram.s programs/dpu/bench/sdk_shape.s \
        -o "$T/sdk11.elf" -o tasklets=11 || fail "dpu asm sdk_shape 11"
    same dpu-sdk11-dma "$T/sdk11.elf" -o tasklets=11 --set bench_iters="$T/i20.bin" --set bench_work="$T/w1.bin"
    "$X" asm --isa dpu programs/dpu/reduce.s programs/dpu/rt/*.s -o "$T/red.elf" -o tasklets=16 ||
        fail "dpu asm reduce"
    python3 -c "import struct,sys; open(sys.argv[1],'wb').write(struct.pack('<4096I', *[(k * 2654435761) & 0xffffffff for k in range(4096)]))" \
        "$T/data.bin" || fail "reduce data"
    printf 'program red.elf\ncopy __sys_used_mram_end = data.bin\ncopy reduce_n = u32:4096\nlaunch\ncopy reduce_n = u32:2048\nlaunch\n' \
        > "$T/r.dpuhost"
    same dpu-two-launches "$T/r.dpuhost"
    # breakpoints that never stop (a false condition) and a watchpoint nobody writes: the
    # instrumented profiled burst, and the issue at a flagged pc fed after the debugger's
    # check (fast.c, b == 2); the profile is the plain profiled run's
    "$X" run "$T/sdk.elf" -o tasklets=16 --set bench_iters="$T/i20.bin" --set bench_work="$T/w1.bin" --quiet \
        --profile "$T/bp0" > /dev/null || fail "dpu bp: profiled run"
    for pc in 10 23 40; do
        printf 'break %s if r0 == 123456789\ncontinue\n' $pc > "$T/bp.x"
        "$X" run "$T/sdk.elf" -o tasklets=16 --set bench_iters="$T/i20.bin" --set bench_work="$T/w1.bin" --quiet \
            --profile "$T/bp$pc" -x "$T/bp.x" > /dev/null || fail "dpu bp $pc: run"
        cmp -s "$T/bp0" "$T/bp$pc" || fail "dpu bp $pc: the profile differs: $(diff "$T/bp0" "$T/bp$pc" | head -4)"
    done
    printf 'watch 0x7000,4\ncontinue\n' > "$T/w.x"
    "$X" run "$T/sdk.elf" -o tasklets=16 --set bench_iters="$T/i20.bin" --set bench_work="$T/w1.bin" --quiet \
        --profile "$T/bpw" -x "$T/w.x" > /dev/null || fail "dpu watch: run"
    cmp -s "$T/bp0" "$T/bpw" || fail "dpu watch: the profile differs"
fi
if has mccp; then
    "$X" asm --isa mccp programs/mccp/bench/alu_loop.mccp -o "$T/alu.out" || fail "mccp asm"
    echo 200 > "$T/n200.txt"
    same mccp-alu1 "$T/alu.out" -o cores=0 --headless --load ram:64="$T/n200.txt"
    same mccp-alu4 "$T/alu.out" --headless --load ram:64="$T/n200.txt"
    "$X" asm --isa mccp programs/mccp/draw.mccp -o "$T/draw.out" || fail "mccp asm draw"
    same mccp-draw "$T/draw.out" --headless -o warm_restart=0
    "$X" asm --isa mccp programs/mccp/vector_cube.mccp -o "$T/vc.out" || fail "mccp asm vector_cube"
    same mccp-cube "$T/vc.out" --load ram:0=programs/mccp/vector_cube.txt
    # runs longer than 4096 issues between RAM accesses take the counting feed
    # (isa/mccp/fast_loop.inc): the alu loop, and calls in the functional mode (whose loads
    # and stores do not end a run)
    echo 2000 > "$T/n2000.txt"
    same mccp-alu1-long "$T/alu.out" -o cores=0 --headless --load ram:64="$T/n2000.txt"
    printf 'movimm reg1 300\nLOOP:\ncall F\ncall G\ndec reg1\njne LOOP\nint 1\nF:\npush reg2\ninc reg2\ncall G\npop reg2\nret\nG:\nadd reg3 reg2\nret\n' \
        > "$T/calls.mccp"
    "$X" asm --isa mccp "$T/calls.mccp" -o "$T/calls.out" || fail "mccp asm calls"
    same mccp-calls-func "$T/calls.out" --headless -o timing=none
fi
if has nyuzi; then
    for k in 1 4; do
        "$X" asm --isa nyuzi -o define=ITERATIONS=100 programs/nyuzi/bench/loop$k.S -o "$T/ny$k.elf" ||
            fail "nyuzi asm loop$k"
        same nyuzi-loop$k "$T/ny$k.elf"
    done
fi
if has ipu; then
    "$X" asm --isa ipu programs/ipu/bench/loop6.S -o "$T/ipu6.elf" || fail "ipu asm"
    same ipu-loop6 "$T/ipu6.elf" --set bench_iters="$T/i50.bin"
    # functional mode (-o timing=none): func_fx.c feeds the profile in batches along
    # straight-line code; a worker that calls a subroutine (each call and return leaves the
    # batch for prof_issue's slow path), and kernels with float bundles and pairs (the
    # fast record's path and the generic executor between batches)
    sh scripts/bench/le32.sh 300 "$T/i300.bin" || fail le32
    same ipu-loop6-func "$T/ipu6.elf" --set bench_iters="$T/i300.bin" -o timing=none
    cat > "$T/call.S" <<'EOF_S'
.section .data
.align 8
.globl out
out: .space 48
.section .text.worker, "ax"
.worker
.align 8
.globl w
.type w, @function
w:
  get $m0, $WSR
  and $m0, $m0, 7
  shl $m5, $m0, 2
  setzi $m6, out
  add $m5, $m5, $m6
  setzi $m0, 50
  setzi $m1, 1
.Ll:
  call $m10, sub
  brnzdec $m0, .Ll
  st32 $m1, $m5, $m15, 0
  exitz $mzero
.size w, . - w
.type sub, @function
sub:
  add $m1, $m1, 3
  shl $m2, $m1, 1
  xor $m1, $m1, $m2
  br $m10
.size sub, . - sub
.section .text.sup, "ax"
.supervisor
.globl _start
.type _start, @function
_start:
  setzi $m0, w
  runall $m0, $m15, 0
  br $m10
.size _start, . - _start
EOF_S
    "$X" asm --isa ipu "$T/call.S" -o "$T/call.elf" || fail "ipu asm call"
    same ipu-call-func "$T/call.elf" -o timing=none
    I=tests/results/inputs
    "$X" asm --isa ipu programs/ipu/axpy_f32.S -o "$T/axpy.elf" || fail "ipu asm axpy"
    same ipu-axpy-func "$T/axpy.elf" -o timing=none --set in_x=$I/ipu_axpy_f32_a.bin --set in_y=$I/ipu_axpy_f32_b.bin \
        --set alpha=$I/ipu_axpy_f32_alpha.bin
    "$X" asm --isa ipu programs/ipu/conv1x1_f16.S -o "$T/conv.elf" || fail "ipu asm conv1x1"
    same ipu-conv1x1-func "$T/conv.elf" -o timing=none --set weights=$I/ipu_conv1x1_f16_w.bin \
        --set in=$I/ipu_conv1x1_f16_a.bin
fi
if has cert; then
    "$X" asm --isa cert programs/cert/multi_uc.asm -o "$T/multi_uc.elf" || fail "cert asm"
    same cert-multi_uc "$T/multi_uc.elf"
fi
[ $n -gt 0 ] || fail "no ISA built"
echo "ok: $n programs, the fast-path profile equals the hook path's"
