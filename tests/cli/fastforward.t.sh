#!/bin/sh
# tests/cli/fastforward.t.sh: xpusim run --fast-forward MARKER (frontends/fastforward.c,
# docs/user-guide.md "Fast-forward"): functional up to the marker, the cycle model after
# it, both parts reported apart. Runs on every ISA of the build that has a functional mode
# (-o timing=none), which every ISA has now: a refusal fails.
#
# The DPU part derives the timed part's cycles by hand. The DPU has no caches, and with one
# tasklet the revolver is quiescent between any two instructions (nothing in flight, no
# other tasklet), so the region after a marker takes the same cycles as the same region
# of a full cycle-model run. The rule (docs/isa/dpu.md, the revolver): one tasklet issues
# at most once every 11 cycles, so its instruction k (from 0) issues at cycle 11k, and the
# DPU halts the cycle after its last instruction (stop) issues.
# The program below (ff1.s) retires: move + 50 x add (the loop before `region`) = 51
# instructions, then in the region move + 20 x add + sw + stop = 23: 74 in all.
#   full run: the stop (instruction 73) issues at 11 x 73 = 803, halt at 804.
#   region in the full run: its first instruction (51) issues at 11 x 51 = 561, so the
#   region lasts 804 - 561 = 243 cycles = 11 x 22 + 1.
#   fast-forward to `region` (or to insns:51, or to a magic tell before it: below): 51
#   instructions functional; the timed part
#   counts from the switch (the first cycle not simulated functionally), where the
#   region's first instruction issues: 23 instructions, 243 cycles, halted at 243.
# With 16 tasklets the revolver is not quiescent at the switch (in the full run the other
# tasklets are in flight there; the functional part leaves them all ready at once), so
# there only the architectural results are compared: memory (every region's hash) and the
# instructions, functional + timed = the full run's (a program whose instruction count does
# not depend on timing: vecadd has no spin loop).
set -u
X=${XPUSIM:-build/xpusim}
R=${XPUSIM_ROOT:-.}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
ok() { echo "ok $*"; }
bad() { echo "FAIL $*"; fail=1; }
[ -x "$X" ] || { echo "FAIL: no xpusim binary at $X"; exit 1; }
isas=$("$X" isas | awk '/^[a-z0-9]+  / { print $1 }' | tr '\n' ' ')
has() { case " $isas " in *" $1 "*) return 0 ;; esac; return 1; }
# json FILE KEY: a top-level integer member ("cycles", "instructions")
json() { sed -n "s/^  \"$2\": \\([0-9]*\\),*$/\\1/p" "$1"; }
# ff FILE KEY: a member of the fast_forward object's first line
ff() { sed -n "s/^  \"fast_forward\": .*\"$2\": \\([a-z0-9]*\\).*/\\1/p" "$1"; }
ran=0

# ---- DPU ----------------------------------------------------------------------------------
if has dpu; then
cat > "$T/ff1.s" <<'EOF'
	.section	.text.__bootstrap,"ax",@progbits
	.globl	__bootstrap
__bootstrap:
	move	r0, 50
.Lpre:
	add	r0, r0, -1, nz, .Lpre
	.globl	region
region:
	move	r1, 20
.Lr:
	add	r1, r1, -1, nz, .Lr
	sw	zero, result, r1
	stop
	.globl	never
never:
	stop
	.section	.dpu_host,"aw",@progbits
	.globl	result
	.p2align	3
result:
	.long	7
EOF
"$X" asm --isa dpu "$T/ff1.s" -o "$T/ff1.elf" -o tasklets=1 || bad "dpu: assembling ff1.s"
if ! "$X" run "$T/ff1.elf" -o timing=none --quiet >/dev/null 2>"$T/err"; then
    bad "dpu: -o timing=none failed (every ISA has a functional mode): $(cat "$T/err")"
else
    ran=1
    run() { out=$1; shift; "$X" run "$T/ff1.elf" -o tasklets=1 --quiet --stats=json --stats-file "$T/$out.json" \
                --mem-hash "$T/$out.mem" "$@" >"$T/$out.out" 2>&1; echo $? >"$T/$out.rc"; }
    run full
    run region --fast-forward region
    run insns --fast-forward insns:51
    run func -o timing=none
    c=$(json "$T/full.json" cycles) i=$(json "$T/full.json" instructions)
    [ "$c" = 804 ] && [ "$i" = 74 ] && ok "dpu: full cycle run: 74 instructions, 804 cycles (derived)" ||
        bad "dpu: full run: $i instructions, $c cycles, expected 74 and 804"
    for k in region insns; do
        c=$(json "$T/$k.json" cycles) i=$(json "$T/$k.json" instructions) fi=$(ff "$T/$k.json" instructions)
        re=$(ff "$T/$k.json" reached) rc=$(cat "$T/$k.rc")
        if [ "$rc" = 0 ] && [ "$re" = true ] && [ "$fi" = 51 ] && [ "$i" = 23 ] && [ "$c" = 243 ]; then
            ok "dpu: --fast-forward $k: 51 instructions functional, timed part 23 instructions in 243 cycles = the full run's region (804 - 561)"
        else
            bad "dpu: --fast-forward $k: exit $rc, reached $re, functional $fi, timed $i instructions in $c cycles; expected 51, 23, 243"
            cat "$T/$k.out"
        fi
        grep -q '"halted_at": 243' "$T/$k.json" || bad "dpu: --fast-forward $k: the unit's halt is not at 243 from the switch"
        cmp -s "$T/$k.mem" "$T/full.mem" && ok "dpu: --fast-forward $k: memory after the run = the full run's" ||
            bad "dpu: --fast-forward $k: memory differs from the full run's"
    done
    cmp -s "$T/func.mem" "$T/full.mem" || bad "dpu: -o timing=none: memory differs from the full run's"
    # text statistics: the functional part named, the timed part's counts
    "$X" run "$T/ff1.elf" -o tasklets=1 --fast-forward region --stats=text > "$T/text" 2>&1
    grep -q '^fast-forward to region: reached' "$T/text" && grep -q '^  functional dpu0: instructions 51$' "$T/text" &&
        grep -q '^cycles: 243 ' "$T/text" && grep -q '^instructions: 23$' "$T/text" &&
        ok "dpu: text statistics: the functional part, then the timed part" || { bad "dpu: text statistics"; cat "$T/text"; }
    # stats diff: identical runs compare equal; against the full run the fast-forward is named
    "$X" stats diff "$T/region.json" "$T/insns.json" >"$T/d1"; r1=$?
    "$X" stats diff "$T/full.json" "$T/region.json" >"$T/d2"; r2=$?
    if [ $r2 = 1 ] && grep -q 'fast-forward (to region): only in B' "$T/d2" && grep -q 'cycles: 804 -> 243' "$T/d2"; then
        ok "dpu: stats diff names the fast-forward and compares the timed part"
    else bad "dpu: stats diff full/region: exit $r2"; cat "$T/d2"; fi
    [ $r1 = 1 ] && grep -q 'fast-forward marker: region -> insns:51' "$T/d1" && ! grep -q '^  cycles' "$T/d1" &&
        ok "dpu: stats diff of the two markers: only the marker differs" || { bad "dpu: stats diff region/insns: exit $r1"; cat "$T/d1"; }
    "$X" report "$T/region.json" -o "$T/r.html" && grep -q 'Fast-forward to <b>region</b>: 51 instructions' "$T/r.html" &&
        ok "dpu: report says the page is the timed part" || bad "dpu: report of a fast-forwarded run"
    # the magic marker (docs/isa/dpu.md: any tell but the nop word), just before `region`:
    # 75 instructions, the full run halts at 11 x 74 + 1 = 815; the tell (instruction 51)
    # counts in the functional part (52 instructions), the region is the same 23
    # instructions, 243 cycles (815 - 11 x 52)
    sed 's/^	.globl	region$/	tell	zero, 1\n&/' "$T/ff1.s" > "$T/ff2.s"
    "$X" asm --isa dpu "$T/ff2.s" -o "$T/ff2.elf" -o tasklets=1 || bad "dpu: assembling ff2.s"
    "$X" run "$T/ff2.elf" --quiet --stats=json --stats-file "$T/m0.json" --mem-hash "$T/m0.mem" >/dev/null 2>&1
    "$X" run "$T/ff2.elf" --quiet --stats=json --stats-file "$T/m1.json" --mem-hash "$T/m1.mem" --fast-forward magic \
        >"$T/m1.out" 2>&1; r=$?
    if [ "$(json "$T/m0.json" cycles)" = 815 ] && [ $r = 0 ] && [ "$(ff "$T/m1.json" instructions)" = 52 ] &&
        [ "$(json "$T/m1.json" instructions)" = 23 ] && [ "$(json "$T/m1.json" cycles)" = 243 ] && cmp -s "$T/m0.mem" "$T/m1.mem"; then
        ok "dpu: --fast-forward magic: the tell ends the functional part (52 instructions), the region 23 in 243 cycles"
    else bad "dpu: --fast-forward magic: exit $r, full $(json "$T/m0.json" cycles) cycles, functional $(ff "$T/m1.json" instructions), timed $(json "$T/m1.json" instructions) in $(json "$T/m1.json" cycles)"; cat "$T/m1.out"; fi
    # several DPUs (independent units) advance in step while a marker is armed, in bursts of
    # 4096 cycles (SIM_FF_QUANTUM, core/sim.c): 4 DPUs, one tasklet each (one instruction
    # per functional step), 5000 iterations before `region`: 5001 instructions. dpu0 runs
    # steps 0-4095, then dpu1, dpu2, dpu3 the same; dpu0's second burst reaches `region` at
    # step 5001 and switches the machine: functional parts 5001, 4096, 4096, 4096.
    sed 's/^	move	r0, 50$/	move	r0, 5000/' "$T/ff1.s" > "$T/ff3.s"
    "$X" asm --isa dpu "$T/ff3.s" -o "$T/ff3.elf" -o tasklets=1 || bad "dpu: assembling ff3.s"
    "$X" run "$T/ff3.elf" -o dpus=4 -o mram=1 --quiet --mem-hash "$T/q0.mem" --stats=json --stats-file "$T/q0.json" >/dev/null 2>&1
    "$X" run "$T/ff3.elf" -o dpus=4 -o mram=1 -o jobs=2 --quiet --mem-hash "$T/q1.mem" --stats=json --stats-file "$T/q1.json" \
        --fast-forward region >/dev/null 2>&1
    per=$(sed -n '/^  "fast_forward"/,/^    \]},$/p' "$T/q1.json" | sed -n 's/.*"index": [0-9]*, "instructions": \([0-9]*\), "halted".*/\1/p' | tr '\n' ' ')
    tot=$(( $(ff "$T/q1.json" instructions) + $(json "$T/q1.json" instructions) ))
    if [ "$per" = "5001 4096 4096 4096 " ] && [ "$tot" = "$(json "$T/q0.json" instructions)" ] && cmp -s "$T/q0.mem" "$T/q1.mem"; then
        ok "dpu: 4 DPUs advance in step until the marker: functional parts 5001 4096 4096 4096, totals and memory as the full run"
    else bad "dpu: 4 DPUs: functional parts '$per' (expected 5001 4096 4096 4096), $tot instructions (full $(json "$T/q0.json" instructions))"; fi
    # a marker never reached: said, exit status 3, the whole run functional, no timed part
    run never --fast-forward never
    if [ "$(cat "$T/never.rc")" = 3 ] && grep -q 'marker was never reached' "$T/never.out" &&
        [ "$(ff "$T/never.json" reached)" = false ] && [ "$(ff "$T/never.json" instructions)" = 74 ] &&
        [ "$(json "$T/never.json" cycles)" = 0 ] && cmp -s "$T/never.mem" "$T/full.mem"; then
        ok "dpu: a marker never reached: exit 3, said, 74 instructions functional, no timed part"
    else bad "dpu: never-reached marker: exit $(cat "$T/never.rc")"; cat "$T/never.out"; fi
    # 16 tasklets: architectural results and instruction totals (see the top)
    RT=$R/programs/dpu/rt
    "$X" asm --isa dpu "$RT"/*.s "$R/programs/dpu/vecadd.s" -o "$T/va.elf" -o tasklets=16 || bad "dpu: assembling vecadd"
    I=$R/tests/results/inputs
    va() { out=$1; shift; "$X" run "$T/va.elf" --set vecadd_n="$I/n1000.bin" --set __sys_used_mram_end="$I/dpu_bytes8k.bin" \
               --quiet --stats=json --stats-file "$T/$out.json" --mem-hash "$T/$out.mem" "$@" >"$T/$out.out" 2>&1; }
    va vfull
    va vmain --fast-forward main
    va vins --fast-forward insns:3000
    n=$(json "$T/vfull.json" instructions)
    for k in vmain vins; do
        tot=$(( $(ff "$T/$k.json" instructions) + $(json "$T/$k.json" instructions) ))
        [ "$tot" = "$n" ] && cmp -s "$T/$k.mem" "$T/vfull.mem" &&
            ok "dpu: vecadd, 16 tasklets, $k: functional + timed = $n instructions, memory as the full run" ||
            bad "dpu: vecadd $k: $tot instructions (full run $n) or memory differs"
    done
    # errors
    err() { want=$1; shift; "$X" "$@" >"$T/eo" 2>&1; r=$?
            [ $r -ne 0 ] && grep -q -- "$want" "$T/eo" && ok "dpu: error: $want" || { bad "dpu: expected '$want' (exit $r)"; cat "$T/eo"; }; }
    err "expected SYMBOL\[+OFFSET\], insns:N or magic" run "$T/ff1.elf" --fast-forward 12
    err "expected SYMBOL\[+OFFSET\], insns:N or magic" run "$T/ff1.elf" --fast-forward ""
    err "expected insns:N with N a positive number" run "$T/ff1.elf" --fast-forward insns:0
    err "expected insns:N with N a positive number" run "$T/ff1.elf" --fast-forward insns:x
    err "no code symbol 'nosuch' in the program" run "$T/ff1.elf" --fast-forward nosuch
    err "(that name is data)" run "$T/ff1.elf" --fast-forward result
    err "the offset after '+' is not a number" run "$T/ff1.elf" --fast-forward region+x
    err "leave out -o timing=cycle" run "$T/ff1.elf" -o timing=cycle --fast-forward region
    err "is an option of xpusim run, debug and gdbserver" disasm "$T/ff1.elf" --fast-forward region
    # debug --fast-forward (issue 11 pt 4: the session's run control does the switch): the
    # first `continue` runs the 51 instructions before `region` functionally (51 issue
    # steps: cycles 0..50) and stops at the switch, the next instruction the region's first;
    # it issues at cycle 51 (the switch), and the rest of the run is the timed part derived
    # above, 243 cycles: the halt at 51 + 243 = 294, the statistics 243 cycles, 23 instructions.
    cat > "$T/ffdbg" <<'EOS'
continue
assert stop marker
assert pc == region
assert instructions == 51
step
assert cycle == 51
continue
assert stop halted
stats
EOS
    "$X" debug "$T/ff1.elf" -o tasklets=1 --fast-forward region -x "$T/ffdbg" > "$T/ffdbg.out" 2>&1; r=$?
    if [ $r -eq 0 ] && grep -q "^dpu0 thread 0 stopped at cycle 50: fast-forward marker region reached after 51 instructions" "$T/ffdbg.out" &&
       [ "$(grep -c 'assert ok' "$T/ffdbg.out")" -eq 5 ] && grep -q "^halted at cycle 294:" "$T/ffdbg.out" &&
       grep -q "^cycles: 243 " "$T/ffdbg.out" && grep -q "^instructions: 23$" "$T/ffdbg.out"; then
        ok "dpu: debug --fast-forward region stops at the switch, then 243 timed cycles"
    else
        bad "dpu: debug --fast-forward (exit $r)"; cat "$T/ffdbg.out"
    fi
    # a marker the program never reaches: said when the program ends, the run all functional
    printf 'continue\n' > "$T/ffmiss"
    "$X" debug "$T/ff1.elf" -o tasklets=1 --fast-forward never -x "$T/ffmiss" > "$T/ffmiss.out" 2>&1
    grep -q "fast-forward never: the marker was never reached" "$T/ffmiss.out" &&
        ok "dpu: debug --fast-forward to a marker never reached says so" ||
        { bad "dpu: debug --fast-forward never"; cat "$T/ffmiss.out"; }
fi
fi

# ---- every other ISA: a fast-forward by instruction count changes no architectural result
# (programs without spin-waits, whose instruction counts do not depend on timing)
# (memory hashes equal the full run's; functional + timed instructions = the full run's),
check_isa() { # name isa program [run options...]
    n=$1 isa=$2 prog=$3; shift 3
    has "$isa" || return 0
    "$X" run "$prog" "$@" --quiet --stats=json --stats-file "$T/$n-full.json" --mem-hash "$T/$n-full.mem" >/dev/null 2>&1
    total=$(json "$T/$n-full.json" instructions)
    half=$(( ${total:-2} / 2 ))
    "$X" run "$prog" "$@" --quiet --stats=json --stats-file "$T/$n-ff.json" --mem-hash "$T/$n-ff.mem" \
        --fast-forward "insns:$half" >"$T/$n-ff.out" 2>&1
    r=$?
    if grep -q 'has no functional mode' "$T/$n-ff.out"; then
        bad "$n: --fast-forward refused, but every ISA has a functional mode"
        return 0
    fi
    ran=1
    f=$(ff "$T/$n-ff.json" instructions) t=$(json "$T/$n-ff.json" instructions)
    if [ $r -eq 0 ] && [ "$(ff "$T/$n-ff.json" reached)" = true ] && [ $((f + t)) = "$total" ] && [ "$f" -ge "$half" ] &&
        cmp -s "$T/$n-ff.mem" "$T/$n-full.mem"; then
        ok "$n: --fast-forward insns:$half: $f functional + $t timed = $total instructions, memory as the full run"
    else
        bad "$n: --fast-forward insns:$half: exit $r, $f + $t instructions (full run $total), or memory differs"
        head -5 "$T/$n-ff.out"
    fi
}
# and a fast-forward to a code symbol (a temporary breakpoint the ISA's functional loop must
# see): reached, the same totals and memory
check_sym() { # name isa symbol program [run options...]
    n=$1 isa=$2 sym=$3 prog=$4; shift 4
    has "$isa" || return 0
    [ -f "$T/$n-full.json" ] || return 0 # (the insns check ran the full run)
    grep -q '"fast_forward"' "$T/$n-ff.json" 2>/dev/null || { bad "$n: no fast_forward part in the insns run's statistics"; return 0; }
    "$X" run "$prog" "$@" --quiet --stats=json --stats-file "$T/$n-sym.json" --mem-hash "$T/$n-sym.mem" \
        --fast-forward "$sym" >"$T/$n-sym.out" 2>&1
    r=$?
    f=$(ff "$T/$n-sym.json" instructions) t=$(json "$T/$n-sym.json" instructions) total=$(json "$T/$n-full.json" instructions)
    if [ $r -eq 0 ] && [ "$(ff "$T/$n-sym.json" reached)" = true ] && [ $((f + t)) = "$total" ] && cmp -s "$T/$n-sym.mem" "$T/$n-full.mem"; then
        ok "$n: --fast-forward $sym: reached after $f instructions, $f + $t = $total, memory as the full run"
    else
        bad "$n: --fast-forward $sym: exit $r, reached $(ff "$T/$n-sym.json" reached), $f + $t instructions (full run $total)"
        head -5 "$T/$n-sym.out"
    fi
}
if has mccp; then
    "$X" asm --isa mccp "$R/programs/mccp/vector_cube.mccp" -o "$T/vc.out" &&
        check_isa mccp-vector_cube mccp "$T/vc.out" --headless --load ram:0="$R/programs/mccp/vector_cube.txt"
    # MCCP switches at exactly N, like the other ISAs (the cores stay in step while a count is
    # armed; the run loop's bursts shrink as N nears, and a core retires at most one
    # instruction per 4 cycles, so none passes it). On 4 cores: vector_cube at 10 and 265.
    for k in 10 265; do
        "$X" run "$T/vc.out" --headless --load ram:0="$R/programs/mccp/vector_cube.txt" --quiet --stats=json \
            --stats-file "$T/mccp-vc$k.json" --fast-forward "insns:$k" >/dev/null 2>&1
        f=$(ff "$T/mccp-vc$k.json" instructions)
        [ "$f" = "$k" ] && ok "mccp: --fast-forward insns:$k on 4 cores switches after exactly $k instructions" ||
            bad "mccp: --fast-forward insns:$k on 4 cores: switched after $f instructions"
    done
    # One core, no RAM access, so every instruction is 4 cycles in both modes (docs/isa/mccp.md:
    # the k-th instruction saves at cycle 1 + 4k). The program (ff1.mccp) executes the
    # assembler's prologue, stack_size 1000 1000 1000 1000 as core 0 runs it: ROM words 0..0x26,
    # 17 words of two 16-bit instructions and 22 32-bit movl/movh = 56 instructions; then
    # movl/movh reg1 (2); the loop (dec, the alignment nop, movl/movh reg5, jne) 10 x 5 = 50; int
    # = 1: 109 in all, the int saving at 1 + 4 x 109 = 437 (the full run halts there).
    # insns:60 stops after instruction 60 (saved at 241): the switch is the next cycle, 242; the
    # timed part retires the other 49 and halts at 437 - 242 = 195 from the switch.
    printf 'movimm reg1 10\nLOOP:\ndec reg1\njne LOOP\nint 1\n' > "$T/ff1.mccp"
    "$X" asm --isa mccp "$T/ff1.mccp" -o "$T/ff1.out" || bad "mccp: assembling ff1.mccp"
    "$X" run "$T/ff1.out" -o cores=0 --headless --quiet --stats=json --stats-file "$T/mccp-full.json" >/dev/null 2>&1
    i=$(json "$T/mccp-full.json" instructions) c=$(json "$T/mccp-full.json" cycles)
    [ "$i" = 109 ] && [ "$c" = 437 ] && ok "mccp: ff1.mccp: 109 instructions, 437 cycles (derived)" ||
        bad "mccp: ff1.mccp: $i instructions, $c cycles; expected 109 and 437"
    "$X" run "$T/ff1.out" -o cores=0 --headless --quiet --stats=json --stats-file "$T/mccp-ff.json" \
        --fast-forward insns:60 >/dev/null 2>&1
    f=$(ff "$T/mccp-ff.json" instructions) sw=$(ff "$T/mccp-ff.json" switch_cycle)
    i=$(json "$T/mccp-ff.json" instructions) c=$(json "$T/mccp-ff.json" cycles)
    if [ "$f" = 60 ] && [ "$sw" = 242 ] && [ "$i" = 49 ] && [ "$c" = 195 ] && grep -q '"halted_at": 195' "$T/mccp-ff.json"; then
        ok "mccp: --fast-forward insns:60: 60 functional, switch at 242, 49 timed halting at 195 (derived)"
    else
        bad "mccp: --fast-forward insns:60: $f functional, switch at $sw, $i timed in $c cycles; expected 60, 242, 49, 195"
    fi
fi
if has ipu; then
    "$X" asm --isa ipu "$R/programs/ipu/vadd_f32.S" -o "$T/vadd.elf" &&
        check_isa ipu-vadd ipu "$T/vadd.elf" --set in_a="$R/tests/results/inputs/ipu_vadd_f32_a.bin" \
            --set in_b="$R/tests/results/inputs/ipu_vadd_f32_b.bin"
    check_sym ipu-vadd ipu vadd_worker "$T/vadd.elf" --set in_a="$R/tests/results/inputs/ipu_vadd_f32_a.bin" \
        --set in_b="$R/tests/results/inputs/ipu_vadd_f32_b.bin"
fi
if has nyuzi; then
    "$X" asm --isa nyuzi "$R/tests/nyuzi/progs/alu.S" -o "$T/alu.elf" && check_isa nyuzi-alu nyuzi "$T/alu.elf"
    check_sym nyuzi-alu nyuzi pass "$T/alu.elf"
fi
if has cert; then
    "$X" asm --isa cert -o aiebu=2025.02 "$R/programs/cert/barriers.asm" -o "$T/bar.elf" &&
        check_isa cert-barriers cert "$T/bar.elf"
    # pages.asm with its labels as symbols (-o symbols=1): pdi_a+8 is a page's first opcode
    "$X" asm --isa cert -o aiebu=2025.02 -o spec=latest -o symbols=1 "$R/programs/cert/pages.asm" -o "$T/pg.elf" &&
        check_isa cert-pages cert "$T/pg.elf" -o spec=latest && check_sym cert-pages cert pdi_a+8 "$T/pg.elf" -o spec=latest
fi
[ $ran = 1 ] || echo "note: no ISA of this build has a functional mode yet: only the refusals were checked"
exit $fail
