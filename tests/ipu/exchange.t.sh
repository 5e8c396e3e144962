#!/bin/sh
# tests/ipu/exchange.t.sh: tiles that sync and exchange (isa/ipu/exchange.c; docs/isa/ipu.md
# "Sync and exchange"). Every expected value is derived by hand below, from the barrel's
# rules (docs/isa/ipu.md "The barrel": a supervisor instruction that reads an MRF register
# issues at least 6 cycles after the one that wrote it) and the exchange's: a sync INTERNAL
# releases every tile at the last arrival + 1 + -o sync_cycles; a send issued at S puts item
# k on the exchange at S + k, arriving at S + k + -o exchange_latency (default 10), written
# at the incoming pointer of every tile whose $INCOMING_MUX selects the sender then; the
# supervisor's next issue waits one cycle per item; sync RECV goes on the cycle after the
# word that brings $INCOMING_DCOUNT to 0.
R=${XPUSIM_ROOT:-.}; X=${XPUSIM:-build/xpusim}
export XPUSIM_ROOT=$R
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
E=$R/tests/ipu/exchange
asm() { out=$1; shift; "$X" asm --isa ipu "$@" -o "$T/$out.elf" || { echo "FAIL: assembling $out"; exit 1; }; }
asm pair "$E/pair.S"
asm pair64 -o define=W=1,SCTL=5 "$E/pair.S"
asm rerr -o define=RBUF=0x100 "$E/pair.S"
asm ret "$E/other.S"
asm csend -o define=SENDER "$E/clash.S"
asm crx "$E/clash.S"
asm crx_fetch -o define=RBUF=0x4c800 "$E/clash.S"
asm crx_load -o define=RBUF=0x58004 "$E/clash.S"
asm flt -o define=FAULT "$E/other.S"
asm flta -o define=FAULT,AHEAD "$E/other.S"
asm fmt -o define=BADFMT "$E/other.S"
for n in 2 4 8 16; do asm allsum$n -o define=NTILES=$n "$R/programs/ipu/allsum.S"; done
# hex WORD: the 4 bytes --get prints for a little-endian word
hex() { printf '%02x %02x %02x %02x' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)); }
expect() { # NAME FILE PATTERN: FILE has a line matching PATTERN
    if grep -q -e "$3" "$2"; then echo "ok $1"; else echo "FAIL $1: no '$3' in:"; head -5 "$2"; fail=1; fi; }

# 1. The all-reduce (programs/ipu/allsum.S): in[j] = j + 1, tile i sums in[8i .. 8i + 7],
# and after NTILES - 1 exchange rounds every tile holds sum(j + 1, j < 8 NTILES) =
# 4 NTILES (8 NTILES + 1): 136 for 2 tiles, 528 for 4, 2080 for 8, 8256 for 16 (more
# units than the run loop's ring of cycle-coupled units holds, core/sim.h SIM_RING_MAX).
for n in 2 4 8 16; do
    want=$(hex $((4 * n * (8 * n + 1))))
    "$X" run "$T/allsum$n.elf" -o tiles=$n --quiet --gather total:4 >"$T/as$n.out" 2>&1 || { echo "FAIL allsum $n: run"; fail=1; }
    got=$(grep -c "^$want" "$T/as$n.out")
    if [ "$got" = "$n" ]; then echo "ok allsum $n tiles: every tile's total is $((4 * n * (8 * n + 1)))"
    else echo "FAIL allsum $n: $got of $n tiles hold $want:"; cat "$T/as$n.out"; fail=1; fi
done
# The same memory results and statistics with -o jobs=1 and 2 (tiles event-coupled in their
# compute phase run on two host threads), and the same memory with the reference loop (a
# trace's per-issue hooks) and the functional loop (-o timing=none), each with jobs=1 and 2;
# on 8 tiles (the ring) and 16.
for nt in 8 16; do
run8() { out=$1; shift
    "$X" run "$T/allsum$nt.elf" -o tiles=$nt "$@" --quiet --mem-hash "$T/$out.hash" --stats=json --stats-file "$T/$out.json" \
        >/dev/null 2>&1
    grep -v -e '"host":' -e '"options":' "$T/$out.json" >"$T/$out.st"; }
run8 j1 -o jobs=1; run8 j2 -o jobs=2
if cmp -s "$T/j1.st" "$T/j2.st" && cmp -s "$T/j1.hash" "$T/j2.hash" && [ -s "$T/j1.hash" ]; then
    echo "ok allsum $nt: statistics and memory identical for jobs=1 and jobs=2"
else echo "FAIL allsum $nt: jobs=1 and jobs=2 differ"; diff "$T/j1.st" "$T/j2.st" | head -5; fail=1; fi
for mode in trace func; do
    for j in 1 2; do
        if [ $mode = trace ]; then run8 m -o jobs=$j --trace "$T/tr"; else run8 m -o jobs=$j -o timing=none; fi
        if cmp -s "$T/j1.hash" "$T/m.hash"; then echo "ok allsum $nt ($mode, jobs=$j): the same memory"
        else echo "FAIL allsum $nt ($mode, jobs=$j): memory differs"; fail=1; fi
    done
done
done

# 2. One send/receive pair (tests/ipu/exchange/pair.S, both tiles the same code), cycle by
# cycle: get $m5 0; setzi $m1 1, $m2 2, $m3 3; sub $m4 reads $m5 (ready 6): 6; st32 reads
# $m1 (ready 7): 7; put $INCOMING_BASE reads $m2: 8; put $INCOMING_DCOUNT ($m3): 9; put
# $INCOMING_MUX reads $m4 (ready 12): 12; sync 3 at 13 on both tiles: released at 13 + 1 +
# 0 = 14; send 1 (2 items) at 14: they leave at 14, 15 and arrive at 24, 25; sync 0 at 16
# (the send holds the supervisor 2 cycles), DCOUNT 2 reaches 0 at 25: get $SCOUNT_L at 26
# (rtime = 26); setzi $m7 27; st32 reads $m6 (ready 32) and $m7 (ready 33): 33; br at 34:
# the tiles halt at 35. "sync" stalls: cycle 15 (after the send) + 17..25 (RECV) = 10.
# rbuf = the other tile's sbuf {$TILE_ID, 0xabcd}.
pair() { out=$1; elf=$2; shift 2
    "$X" run "$T/$elf.elf" -o tiles=2 "$@" --quiet --gather rbuf:8 --gather rtime:4 --stats=text \
        --stats-file "$T/$out.st" >"$T/$out.out" 2>&1; }
pair p pair
expect "pair: tile0 received tile1's {1, 0xabcd}" "$T/p.out" "^$(hex 1) $(hex 0xabcd)"
expect "pair: tile1 received tile0's {0, 0xabcd}" "$T/p.out" "^$(hex 0) $(hex 0xabcd)"
[ "$(grep -c "^$(hex 26)" "$T/p.out")" = 2 ] && echo "ok pair: both go on after sync RECV at cycle 26" ||
    { echo "FAIL pair: rtime is not 26:"; cat "$T/p.out"; fail=1; }
expect "pair: the tiles halt at 35" "$T/p.st" "^tile1: cycles 35,.*halted at 35"
expect "pair: 10 sync stall cycles" "$T/p.st" "^  thread 0: .*stall sync 10$"
# -o exchange_latency=20 -o sync_cycles=5: released at 13 + 1 + 5 = 19, the send at 19, its
# items arrive at 39, 40: rtime 41.
pair pl pair -o exchange_latency=20 -o sync_cycles=5
[ "$(grep -c "^$(hex 41)" "$T/pl.out")" = 2 ] && echo "ok pair (latency 20, sync 5): rtime 41" ||
    { echo "FAIL pair latency: rtime is not 41:"; cat "$T/pl.out"; fail=1; }
# One 64-bit item (sctl 5): it holds the supervisor 1 cycle, so sync 0 at 15; it arrives at
# 24 and counts 2 words of $INCOMING_DCOUNT: rtime 25; st32 at 32, br 33, halt at 34.
pair p64 pair64
[ "$(grep -c "^$(hex 25)" "$T/p64.out")" = 2 ] && echo "ok pair 64-bit: rtime 25" ||
    { echo "FAIL pair 64-bit: rtime is not 25:"; cat "$T/p64.out"; fail=1; }
expect "pair 64-bit: both words of the item" "$T/p64.out" "^$(hex 1) $(hex 0xabcd)"
expect "pair 64-bit: the tiles halt at 34" "$T/p64.st" "^tile0: cycles 34,.*halted at 34"
# Words no tile receives are dropped: with a third tile, tile2's $INCOMING_MUX is 1 - 2 =
# 0xffffffff, TILE_ID 0x7ff, no tile: tile0 and tile1 go on as before (rtime 26, what
# tile2 sent went nowhere), and tile2's sync RECV waits for ever: a deadlock naming it.
"$X" run "$T/pair.elf" -o tiles=3 --quiet --gather rtime:4 >"$T/p3.out" 2>&1; rc=$?
[ $rc = 3 ] && [ "$(grep -c "^$(hex 26)" "$T/p3.out")" = 2 ] && echo "ok pair with a third tile: tile0, tile1 unchanged" ||
    { echo "FAIL pair 3 tiles (rc $rc):"; cat "$T/p3.out"; fail=1; }
expect "pair with a third tile: the deadlock names tile2" "$T/p3.out" "deadlock.*waiting: tile2 (RECV since 16)"

# 3. A tile that never reaches the sync: tile1 returns to the host at once (its br $m10 at
# 0, halted at 1) while tile0 waits in sync INTERNAL from 13: the run stops as a deadlock
# (exit 3) naming both, for jobs=1 and 2; the debugger shows the waiting supervisor.
for j in 1 2; do
    "$X" run "$T/pair.elf" -o tiles=2 -o jobs=$j --image ipu0.tile1="$T/ret.elf" --quiet >"$T/h$j.out" 2>&1; rc=$?
    [ $rc = 3 ] || { echo "FAIL halt: exit $rc, not 3"; fail=1; }
    expect "halt while waiting (jobs=$j)" "$T/h$j.out" \
        "sync INTERNAL can never complete: tile1 halted at cycle 1 without reaching it; waiting: tile0 (INTERNAL since 13)"
done
printf 'run\ninfo threads\nquit\n' | "$X" debug "$T/pair.elf" -o tiles=2 --image ipu0.tile1="$T/ret.elf" >"$T/hd.out" 2>&1
expect "info threads: the supervisor waits in sync" "$T/hd.out" \
    "tile0 .*supervisor: in sync INTERNAL since cycle 13, waiting for 1 of 2 tile(s) to arrive"
# A tile that faults (tile1: put $INCOMING_MUX at 0, delay 48 at 1, then a load from
# address 0 at 50) while tile0 and tile2 wait in sync INTERNAL from 13: the fault's reason
# names the waiting tiles. (A tile whose mux selects no tile runs ahead of the others, and
# a stop finds each tile at its own cycle: tile1 selects a tile so that the others have
# reached their sync when it faults.)
"$X" run "$T/pair.elf" -o tiles=3 --image ipu0.tile1="$T/flt.elf" --quiet >"$T/f.out" 2>&1; rc=$?
[ $rc = 2 ] || { echo "FAIL fault: exit $rc, not 2"; fail=1; }
expect "fault while waiting names the waiting tiles" "$T/f.out" \
    "(cycle 50): .*TEXCPT_INVALID_ADDR.*waiting: tile0 (INTERNAL since 13), tile2 (INTERNAL since 13)"
# Without the put, tile1 selects no tile and runs ahead of the others (event-coupled): its
# load faults at 49 (delay 48 at 0) while tile0 and tile2, in step with the run loop, have
# not yet issued their sync at 13: the reason says which tiles the stop finds behind it and
# where (for jobs=1 and 2 alike).
for j in 1 2; do
    "$X" run "$T/pair.elf" -o tiles=3 -o jobs=$j --image ipu0.tile1="$T/flta.elf" --quiet >"$T/fa.out" 2>&1; rc=$?
    [ $rc = 2 ] || { echo "FAIL fault ahead: exit $rc, not 2"; fail=1; }
    expect "fault of a tile ahead names the tiles behind (jobs=$j)" "$T/fa.out" \
        "(cycle 49): .*TEXCPT_INVALID_ADDR, cause 27); behind it: tile0 at cycle 13, tile2 at cycle 13$"
done

# 4. Bad values: an incoming pointer outside tile memory (0x100): the first item arrives
# at 24 and raises TEXCH_RERR_ADDR (TEXCPT_EXERR) on the receiving tile; $INCOMING_FORMAT 3
# (TEXCH_IFMT_SPARE) is no format: TEXCPT_INVALID_OP, cause 41.
"$X" run "$T/rerr.elf" -o tiles=2 --quiet >"$T/r.out" 2>&1; rc=$?
[ $rc = 2 ] || { echo "FAIL rerr: exit $rc, not 2"; fail=1; }
expect "receive outside tile memory" "$T/r.out" \
    "(cycle 24): tile1 supervisor .*TEXCH_RERR_ADDR: 32-bit item from tile0 at cycle 24 for incoming pointer 0x100, outside tile memory.*TEXCPT_EXERR"
"$X" run "$T/fmt.elf" -o tiles=2 --image ipu0.tile1="$T/ret.elf" --quiet >"$T/fmt.out" 2>&1; rc=$?
[ $rc = 2 ] || { echo "FAIL format: exit $rc, not 2"; fail=1; }
expect "put \$INCOMING_FORMAT, 3" "$T/fmt.out" "not a format.*TEXCPT_INVALID_OP, cause 41"

# Receive clashes (tests/ipu/exchange/clash.S; memory elements of 16 KiB from 0x4c000):
# tile1's setzi x3 at 0-2, put $INCOMING_BASE reads $m1: 6, put $INCOMING_DCOUNT ($m2):
# 7, put $INCOMING_MUX 8, sync 3 at 9; tile0's sync at 0: both go on at 10. tile0: delay
# 100 at 10, send at 111, the word arrives at 121. tile1: runall at 10, W1 first issues at
# 19 (slot 1), its rpt at 37, its body (a load of LOADADDR 0x58000, element 3) from 43 to
# 43 + 6 x 39 = 277: at 121 (slot 1) W1 fetches its body bundle (0x4c020, element 0). The
# word into element 2 (0x54000): no clash, it lands; into element 0 (0x4c800): W1's fetch,
# TEXCH_RERR_CLASH_IFETCH; into element 3 (0x58004): W1's load, TEXCH_RERR_CLASH_INSTR.
"$X" run "$T/crx.elf" -o tiles=2 --image ipu0.tile0="$T/csend.elf" --quiet --get @ipu0.tile1:word+0x8000:4 \
    >"$T/c.out" 2>&1 || { echo "FAIL clash: the run without a clash failed"; fail=1; }
expect "no clash: the word lands at 0x54000" "$T/c.out" "^$(hex 0x600d)"
for k in fetch:IFETCH:0x4c800:"W1's instruction fetch at 0x4c020" load:INSTR:0x58004:"W1's access at 0x58000"; do
    n=${k%%:*}; r=${k#*:}; kind=${r%%:*}; r=${r#*:}; addr=${r%%:*}; what=${r#*:}
    "$X" run "$T/crx_$n.elf" -o tiles=2 --image ipu0.tile0="$T/csend.elf" --quiet >"$T/c$n.out" 2>&1; rc=$?
    [ $rc = 2 ] || { echo "FAIL clash $n: exit $rc, not 2"; fail=1; }
    expect "receive clash with a $n" "$T/c$n.out" \
        "(cycle 121): tile1 supervisor .*TEXCH_RERR_CLASH_$kind: the item from tile0 written at $addr in cycle 121 is in the memory element of $what"
done

# -o exchange_clashes=ignore: the word into element 0 lands (at word + 0x800) and the run ends.
"$X" run "$T/crx_fetch.elf" -o tiles=2 -o exchange_clashes=ignore --image ipu0.tile0="$T/csend.elf" --quiet \
    --get @ipu0.tile1:word+0x800:4 >"$T/ci.out" 2>&1 || { echo "FAIL clash ignored: the run failed"; fail=1; }
expect "-o exchange_clashes=ignore: the word lands" "$T/ci.out" "^$(hex 0x600d)"

# 5. A watchpoint on tile1's rbuf (0x4c010: sbuf's 16 bytes, then rbuf) stops when the
# first item lands, at 24, and names where it came from; `info csr` then shows the incoming
# pointer one word on (0x4c014) and one word still expected.
printf 'watch tmem.1:0x4c010,4\nrun\ninfo csr\nquit\n' | "$X" debug "$T/pair.elf" -o tiles=2 >"$T/w.out" 2>&1
expect "watchpoint on exchanged data" "$T/w.out" \
    "stopped at cycle 24: watchpoint 1: exchange from tile0 write of tmem.1:0x4c010 (4 units)"
expect "info csr: the exchange state" "$T/w.out" \
    'exchange: \$INCOMING_MUX 0x0 (tile0)  incoming pointer 0x4c014  \$INCOMING_DCOUNT 1 '
# 6. An ipu1 has 1280 tile instances: more is refused (its $INCOMING_MUX reset value 0x500
# names tile 1280 and must select no tile).
"$X" run "$T/pair.elf" -o arch=ipu1 -o tiles=1281 --quiet >"$T/t1.out" 2>&1; rc=$?
[ $rc = 1 ] || { echo "FAIL ipu1 tiles=1281: exit $rc, not 1"; fail=1; }
expect "ipu1 at most 1280 tiles" "$T/t1.out" "tiles=1281: an ipu1 has 1280 tile instances (1216 usable), at most 1280"
exit $fail
