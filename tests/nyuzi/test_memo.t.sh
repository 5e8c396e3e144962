#!/bin/sh
# tests/nyuzi/test_memo.t.sh: the memoized periods of the cycle model (-o nyuzi_memo,
# isa/nyuzi/memo.c) change no simulated result. Each program runs with the memo off, on and
# in check mode; the full JSON statistics (less the host's time and the options line), the
# memory hash and the output with the exit status must be the same, cycle for cycle. The
# programs: the bench loops (1 and 4 threads, where every period repeats), mix.S (4 threads:
# vector, masked, FP, calls, block and scalar memory, the cycle counter stored to memory
# so that each replayed instruction's cycle is checked, a longer path every 64 iterations),
# shared.S (threads reading each other's fresh stores: not memoized), smc.S (stores into
# the words behind a loop's branch: not memoized), stream.S (misses every 16 words, then a
# resident loop), also at 2 threads, other latencies and cache geometries, and exit.S (a loop
# whose exit is at the memo's anchor, its period's last step: a difference there once passed
# as a period done and the loop ran on for ever; under --max-cycles). In check mode the
# memo compares each period it would replay with the cycle model's, and what a replay of it
# would do (where it stops, the registers and memory it leaves; a difference stops the
# run): where periods repeat (the loops, mix) it must have checked some, so the test sees
# the memo at work. The profile (--profile) of each must be byte-identical with the memo
# off and on. Also: a bad option value is refused.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0; n=0
D=tests/nyuzi/test_memo
"$XPUSIM" asm --isa nyuzi -o define=ITERATIONS=2000 programs/nyuzi/bench/loop1.S -o "$T/loop1.elf" &&
    "$XPUSIM" asm --isa nyuzi -o define=ITERATIONS=1000 programs/nyuzi/bench/loop4.S -o "$T/loop4.elf" &&
    "$XPUSIM" asm --isa nyuzi -o define=ITERATIONS=800 $D/mix.S -o "$T/mix.elf" &&
    "$XPUSIM" asm --isa nyuzi -o define=ITERATIONS=600 $D/shared.S -o "$T/shared.elf" &&
    "$XPUSIM" asm --isa nyuzi -o define=ITERATIONS=600 $D/smc.S -o "$T/smc.elf" &&
    "$XPUSIM" asm --isa nyuzi -o define=WORDS=2048 $D/stream.S -o "$T/stream.elf" &&
    "$XPUSIM" asm --isa nyuzi -o define=PAD=6 $D/exit.S -o "$T/exit6.elf" &&
    "$XPUSIM" asm --isa nyuzi -o define=PAD=7 $D/exit.S -o "$T/exit7.elf" ||
    { echo "FAIL: cannot assemble the programs"; exit 1; }

# same PROGRAM MUSTCHECK [options...]: off, on and check agree; MUSTCHECK=1: periods checked
same() {
    p=$1; must=$2; shift 2
    for mo in off on check; do
        "$XPUSIM" run "$T/$p.elf" -o nyuzi_memo=$mo --quiet --headless --stats=json \
            --stats-file "$T/$mo.json" --mem-hash "$T/$mo.hash" "$@" > "$T/$mo.out" 2> "$T/$mo.err"
        echo "exit $?" >> "$T/$mo.out"
        grep -v -e '^  "host": ' -e '^  "options": ' "$T/$mo.json" > "$T/$mo.s"
        grep -v '^nyuzi_memo=check: [0-9]* periods recorded' "$T/$mo.err" >> "$T/$mo.out"
    done
    n=$((n + 1))
    for mo in on check; do
        if ! cmp -s "$T/off.s" "$T/$mo.s" || ! cmp -s "$T/off.hash" "$T/$mo.hash" ||
            ! cmp -s "$T/off.out" "$T/$mo.out"; then
            echo "FAIL $p $*: nyuzi_memo=$mo changes the results"
            diff "$T/off.s" "$T/$mo.s" | head -5
            diff "$T/off.out" "$T/$mo.out" | head -5
            fail=1
            return
        fi
    done
    # --profile: the replay feeds it as the cycle model does (memo.c feed_period, pd_build)
    for mo in off on; do
        "$XPUSIM" run "$T/$p.elf" -o nyuzi_memo=$mo --quiet --headless --profile "$T/$mo.cg" "$@" \
            > /dev/null 2>&1
    done
    if ! cmp -s "$T/off.cg" "$T/on.cg"; then
        echo "FAIL $p $*: nyuzi_memo=on changes the profile"
        diff "$T/off.cg" "$T/on.cg" | head -5
        fail=1
        return
    fi
    checked=$(sed -n 's/^nyuzi_memo=check: [0-9]* periods recorded, \([0-9]*\) checked.*/\1/p' "$T/check.err")
    if [ "$must" = 1 ] && [ "${checked:-0}" -lt 1 ]; then
        echo "FAIL $p $*: check mode compared no period (the memo never applied)"
        fail=1
        return
    fi
    echo "ok $p $* (${checked:-0} periods checked)"
}

same loop1 1
same loop1 1 -o threads=1
same loop4 1
same loop4 1 -o mem_latency=0 -o store_latency=3
same loop4 0 -o threads=2
same mix 1
same mix 0 -o threads=2
same mix 0 -o l1d_ways=2 -o l2_ways=4 -o fp_latency=3
same shared 0
same smc 0
same stream 1
same stream 1 -o l1d_size=4096 -o mem_latency=7
same exit6 1 --max-cycles 100000
same exit7 1 --max-cycles 100000 -o threads=1

# a value that is not off, on or check: a clear error and a non-zero exit
if "$XPUSIM" run "$T/loop1.elf" -o nyuzi_memo=maybe --quiet > "$T/bad.out" 2>&1; then
    echo "FAIL: -o nyuzi_memo=maybe was accepted"; fail=1
elif ! grep -q "nyuzi_memo" "$T/bad.out"; then
    echo "FAIL: -o nyuzi_memo=maybe: the error does not name the option"; cat "$T/bad.out"; fail=1
else
    echo "ok: -o nyuzi_memo=maybe is refused"
fi
echo "$n programs"
exit $fail
