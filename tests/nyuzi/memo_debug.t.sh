#!/bin/sh
# tests/nyuzi/memo_debug.t.sh: breakpoints, watchpoints and --profile with the memoized
# periods (isa/nyuzi/memo.c dbg_allows, feed_period, pd_build). The replay refuses a period
# whose pcs hold a breakpoint (or whose lines a watchpoint covers), so the cycle model runs
# it and stops where it always stops; a breakpoint or watchpoint outside the periods lets
# the replay run until the iteration where the program leaves them. Each debugger session
# runs with -o nyuzi_memo=off, on and check: the transcripts (every stop, its cycle, the
# registers, the statistics) must be the same, and in check mode the memo must have checked
# periods before the first stop (so the stop comes after replayed periods, not instead of
# them). The program (test_memo/nth.S): 4 threads (or 1), a memoized loop, a side path `hit` that
# each thread takes once at s10 == AT (iteration ITERATIONS - AT + 1 = 1500), storing to
# `flag`. Sessions: a breakpoint at hit (4 stops: each thread's Nth iteration), a watchpoint
# on flag (4 stops), a conditional breakpoint inside the loop (its pc is in the periods),
# a conditional watchpoint on a word the loop stores every iteration (its line is in the
# periods), a breakpoint never hit. Also --profile: byte-identical with the memo off and on.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
"$XPUSIM" asm --isa nyuzi -o define=ITERATIONS=2000,AT=501 tests/nyuzi/test_memo/nth.S \
    -o "$T/nth.elf" &&
    "$XPUSIM" asm --isa nyuzi -o define=ITERATIONS=2000,AT=501,THREADS=1 tests/nyuzi/test_memo/nth.S \
        -o "$T/nth1.elf" || { echo "FAIL: cannot assemble nth.S"; exit 1; }
P=nth

# session NAME MINCHECKED COMMANDS...: the same transcript with the memo off, on and check;
# in check mode at least MINCHECKED periods checked before the session's first stop
session() {
    name=$1; min=$2; shift 2
    : > "$T/cmd"
    for c in "$@"; do echo "$c" >> "$T/cmd"; done
    # the same commands up to the first stop only, then quit: what the memo did before it
    { echo "$1"; echo continue; echo quit; } > "$T/first"
    for mo in off on check; do
        "$XPUSIM" debug "$T/$P.elf" -x "$T/cmd" -o nyuzi_memo=$mo 2>&1 |
            grep -v -e '^nyuzi_memo=check: ' -e '^model: ' > "$T/$mo.out"
    done
    checked=$("$XPUSIM" debug "$T/$P.elf" -x "$T/first" -o nyuzi_memo=check 2>&1 |
        sed -n 's/^nyuzi_memo=check: [0-9]* periods recorded, \([0-9]*\) checked.*/\1/p')
    stops=$(grep -c 'stopped at cycle' "$T/off.out")
    if ! cmp -s "$T/off.out" "$T/on.out" || ! cmp -s "$T/off.out" "$T/check.out"; then
        echo "FAIL $name: the sessions differ with the memo on or check"
        diff "$T/off.out" "$T/on.out" | head -6
        diff "$T/off.out" "$T/check.out" | head -6
        fail=1
    elif [ "${checked:-0}" -lt "$min" ]; then
        echo "FAIL $name: ${checked:-0} periods checked before the first stop (want $min or more)"
        fail=1
    else
        echo "ok $name: $stops stops, same cycles, registers and statistics (${checked:-0} periods checked before the first)"
    fi
}

# thread t reaches hit in its iteration 1500; the periods before it are replayed (about 4
# iterations of the 4 threads each: some hundreds)
session "break hit" 100 "break hit" continue cycle regs continue continue continue \
    "thread 2" regs continue stats
grep -q 'stopped at cycle [0-9]*: breakpoint 1' "$T/off.out" || { echo "FAIL break hit: no stop at the breakpoint"; fail=1; }
[ "$(grep -c 'stopped at cycle' "$T/off.out")" = 4 ] || { echo "FAIL break hit: not 4 stops"; fail=1; }
session "watch flag" 100 "watch flag" continue cycle regs continue continue continue stats
[ "$(grep -c 'stopped at cycle' "$T/off.out")" = 4 ] || { echo "FAIL watch flag: not 4 stops"; fail=1; }
# inside the loop: the periods hold the pc (the line), the cycle model runs them
session "break loop if" 0 "break loop if s10 == 700" continue cycle regs continue stats
# one thread: a word it stores every 8th iteration (buf+32 at s10 = 8, 16, ...), in a line
# the periods touch. A period is one iteration (recorded between two hits, which stop the
# run, to be passed over until s10 == 696): the replay puts that store at the word of its
# iteration, so it must not run the periods at all
P=nth1
session "watch buf+32 if" 0 "watch buf+32 if s10 == 696" continue cycle regs continue stats
P=nth
grep -q 'watchpoint' "$T/off.out" || { echo "FAIL watch buf+32 if: no stop at the watchpoint"; fail=1; }
# never hit: the whole run replays as without it
session "break never hit" 100 "break 0x100000" continue stats

# --profile: the replay feeds it as the cycle model does, byte for byte
for mo in off on; do
    "$XPUSIM" run "$T/nth.elf" -o nyuzi_memo=$mo --quiet --profile "$T/$mo.cg" || fail=1
done
if cmp -s "$T/off.cg" "$T/on.cg"; then echo "ok --profile: the same profile with the memo on"
else echo "FAIL --profile: the profile differs with the memo on"; diff "$T/off.cg" "$T/on.cg" | head -6; fail=1; fi
exit $fail
