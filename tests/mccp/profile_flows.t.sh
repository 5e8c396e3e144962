#!/bin/sh
# tests/mccp/profile_flows.t.sh: --profile on long MCCP runs. Past the first 4096 issues of a
# burst the fast loop counts flows instead of issues (isa/mccp/fast_loop.inc copy 2; fast.c
# prof_walk, prof_flows): a taken jump moves a flow from the slot after it to its target,
# and a slot's issues are the flows through it, derived when the call ends. The hook path
# (turned on by `--trace /dev/null`) feeds the profile one issue at a time, so for each run
# the two profiles must be identical byte for byte; the profile's Instructions total must be
# the run's instruction count (each issue once); the statistics must be the plain run's.
# The cases reach every place a flow starts or ends: jumps taken and not taken (a not-taken
# jump into slots that never issued before: no row yet, so that issue must be real), the
# executor's issues inside a long run (movf, coreidx, a division by zero), calls and returns
# in the functional mode (their slots have no plain row: the call's issue must be real), and
# runs cut by a cycle limit at each issue of a loop's iteration (the last issue's row stays
# open: after a taken jump, after the fused movl/movh and no-op/movl/movh records).
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v python3 > /dev/null || { echo "SKIP: no python3"; exit 0; }
n=0
# same NAME RUN-ARGS...
same() {
    name=$1; shift
    "$X" run "$@" --quiet --stats=json --stats-file "$T/plain.json" > /dev/null 2>&1
    "$X" run "$@" --quiet --stats=json --stats-file "$T/fast.json" --profile "$T/fast" > /dev/null 2>&1
    "$X" run "$@" --quiet --profile "$T/hook" --trace /dev/null > /dev/null 2>&1
    [ -s "$T/fast" ] || fail "$name: no profile"
    cmp -s "$T/fast" "$T/hook" || fail "$name: the profiles differ: $(diff "$T/fast" "$T/hook" | head -6)"
    grep -v '"host"' "$T/plain.json" > "$T/a" && grep -v '"host"' "$T/fast.json" > "$T/b"
    cmp -s "$T/a" "$T/b" || fail "$name: --profile changed the statistics: $(diff "$T/a" "$T/b" | head -4)"
    insns=$(sed -n 's/^  "instructions": \([0-9]*\),/\1/p' "$T/fast.json")
    sum=$(sed -n 's/^summary: \([0-9]*\) .*/\1/p' "$T/fast")
    [ "$sum" = "$insns" ] || fail "$name: the profile counts $sum instructions, the run $insns"
    n=$((n + 1))
}

# a long loop without RAM accesses (the cycle model's bursts are long): the executor's
# issues (movf, coreidx, div by zero) inside it; `je RARE` is taken every 16th iteration,
# and the loop's exit is a `jne` not taken into slots that issue there for the first time
cat > "$T/loop.mccp" << 'EOF'
movimm reg1 3000
xor reg2 reg2
xor reg0 reg0
LOOP:
add reg2 reg1
movf reg4
coreidx reg5
mov reg3 reg1
div reg3 reg0
mov reg3 reg1
and reg3 15
cmp reg3 0
je RARE
BACK:
dec reg1
jne LOOP
movimm reg5 200
store reg2 reg5
int 1
RARE:
xor reg2 reg1
jmp BACK
EOF
"$X" asm --isa mccp "$T/loop.mccp" -o "$T/loop.out" || fail "asm loop"
same loop1 "$T/loop.out" -o cores=0 --headless
same loop4 "$T/loop.out" --headless
same loop4-func "$T/loop.out" --headless -o timing=none
# cut by a cycle limit at 24 consecutive issues past the first 4096 (an iteration is 23
# issues from slot 0x54 when `je` is not taken: the limit ends the run after each of them,
# e.g. after the lone fused movl/movh at 0x5a-0x5c, the one with a no-op at 0x5f-0x62, the
# executor's movf and coreidx, and `jne` taken)
for k in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23; do
    same "loop1 --max-cycles $((20001 + 4 * k))" "$T/loop.out" -o cores=0 --headless --max-cycles $((20001 + 4 * k))
done

# calls and returns (the assembler's call and ret: a store or load, then a jump whose slot
# is a call or a return) in the functional mode, where RAM accesses do not end a burst
cat > "$T/calls.mccp" << 'EOF'
movimm reg1 2000
LOOP:
call F
movf reg4
dec reg1
jne LOOP
int 1
F:
push reg2
inc reg2
call G
pop reg2
ret
G:
add reg3 reg2
ret
EOF
"$X" asm --isa mccp "$T/calls.mccp" -o "$T/calls.out" || fail "asm calls"
same calls1-func "$T/calls.out" -o cores=0 --headless -o timing=none
same calls4-func "$T/calls.out" --headless -o timing=none

# the alu loop (15 issues an iteration from slot 0x6a) cut by a cycle limit right after its
# `jne` (20,033: the issue at 20,029 is the jump, taken) and after the no-op/movl/movh before it
"$X" asm --isa mccp programs/mccp/bench/alu_loop.mccp -o "$T/alu.out" || fail "asm alu"
echo 2000 > "$T/n.txt"
for mc in 20033 20025 20013; do
    same "alu1 --max-cycles $mc" "$T/alu.out" -o cores=0 --headless --load ram:64="$T/n.txt" --max-cycles $mc
done
same alu4 "$T/alu.out" --headless --load ram:64="$T/n.txt"
echo "ok: $n runs, the flow-counted profile equals the hook path's"
