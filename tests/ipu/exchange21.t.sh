#!/bin/sh
# tests/ipu/exchange21.t.sh: ipu21's exchange instructions executed (docs/isa/ipu.md "IPU21
# exchange instructions"; the encodings are checked in test_xchg21.c). The rules used below:
# a supervisor instruction that reads an MRF register issues at least 6 cycles after the one
# that wrote it; sync INTERNAL releases every tile at the last arrival + 1 (-o sync_cycles
# 0); an instruction whose field is N = events - 1 holds the supervisor N + 1 cycles (a send
# of N + 1 items, one a cycle, or a delay); item k of a send issued at S arrives at S + k +
# 10 (-o exchange_latency); a control at event e (delaypic/delayxpic: issue + N, the
# terminal event; sendpic/sendpicp: the issue, the first event) applies to the items
# arriving after e.
R=${XPUSIM_ROOT:-.}; X=${XPUSIM:-build/xpusim}
export XPUSIM_ROOT=$R
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
asm() { out=$1; shift; "$X" asm --isa ipu -o arch=ipu21 "$@" -o "$T/$out.elf" || { echo "FAIL: assembling $out"; exit 1; }; }
E=$R/tests/ipu/exchange
asm xs -o define=SENDER "$E/x21.S"
asm xr "$E/x21.S"
asm wide -o define=WIDEBAD "$E/x21.S"
asm fmt -o define=BADFMT "$E/x21.S"
asm rows -o define=ROWS "$E/x21.S"
for n in 2 4 8 16; do asm ring$n -o define=NTILES=$n "$R/programs/ipu/ring21.S"; done
hex() { printf '%02x %02x %02x %02x' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)); }
expect() { # NAME FILE PATTERN: FILE has a line matching PATTERN
    if grep -q -e "$3" "$2"; then echo "ok $1"; else echo "FAIL $1: no '$3' in:"; head -8 "$2"; fail=1; fi; }

# 1. tests/ipu/exchange/x21.S, sbuf[k] = 0x100 + k. tile1: setzi $m2 at 0, put
# $INCOMING_BASE reads $m2: 6, sync 3 at 7; tile0's sync at 0: both released at 8.
# tile0: send 3 at 8, sbuf[0..3] arrive at 18..21; sendoff 1, 2 at 12: the stream went on
# at sbuf[4], + 2 words: sbuf[6], sbuf[7] arrive at 22, 23; sendpic 1, 3, 0 at 14: sbuf[8],
# sbuf[9] (the stream's direction 1) arrive at 24, 25; br at 16, halted at 17; "sync"
# stalls 1..7, 9..11, 13, 15 = 12.
# tile1: delayxpic 11, 0, 0 at 8: tile0 selected after event 19, so sbuf[0], sbuf[1] (18,
# 19) are not received and sbuf[2], [3], [6], [7] (20..23) land at rbuf[0..3]; delaypic 3,
# 0, rbuf2 at 20: the pointer at rbuf2 after event 23: sbuf[8] (24) lands at rbuf2[0];
# delayxpic 0, 0, 0x640 at 24: no tile after event 24: sbuf[9] (25) is dropped. get
# $SCOUNT_L at 25 (rtime 25), setzi 26, st32 reads $m6 (ready 31) and $m7 (ready 32): 32,
# br 33, halted at 34; "sync" stalls 9..19, 21..23 = 14; "dependency" 1..5, 27..31 = 10.
for j in 1 2; do
"$X" run "$T/xs.elf" -o arch=ipu21 -o tiles=2 -o jobs=$j --image ipu0.tile1="$T/xr.elf" --quiet --gather rbuf:20 \
    --gather rbuf2:8 --gather rtime:4 --stats=text --stats-file "$T/x.st" >"$T/x.out" 2>&1 ||
    { echo "FAIL x21 (jobs=$j): the run failed"; cat "$T/x.out"; fail=1; }
expect "x21 (jobs=$j): rbuf = sbuf[2, 3, 6, 7], then nothing" "$T/x.out" \
    "^$(hex 0x102) $(hex 0x103) $(hex 0x106) $(hex 0x107)"
expect "x21 (jobs=$j): rbuf2 = sbuf[8], sbuf[9] dropped" "$T/x.out" "^$(hex 0x108) $(hex 0)$"
expect "x21 (jobs=$j): rtime 25" "$T/x.out" "^$(hex 25)$"
expect "x21 (jobs=$j): tile0 halts at 17" "$T/x.st" "^tile0: cycles 17,.*halted at 17"
expect "x21 (jobs=$j): tile0's sync stalls 12" "$T/x.st" "^  thread 0: cycles 17,.*stall sync 12$"
expect "x21 (jobs=$j): tile1 halts at 34" "$T/x.st" "^tile1: cycles 34,.*halted at 34"
expect "x21 (jobs=$j): tile1's stalls" "$T/x.st" "^  thread 0: cycles 34,.*stall dependency 10, stall sync 14$"
done
# -o exchange_latency=12: every item two cycles later (20..27): tile1 then takes sbuf[0..3]
# (20..23, after event 19) at rbuf[0..3] and sbuf[6] (24, after the pointer moved at event
# 23) at rbuf2[0]; sbuf[7..9] (25..27) come after event 24 (no tile): dropped.
"$X" run "$T/xs.elf" -o arch=ipu21 -o tiles=2 -o exchange_latency=12 --image ipu0.tile1="$T/xr.elf" --quiet \
    --gather rbuf:16 --gather rbuf2:8 >"$T/xl.out" 2>&1 || { echo "FAIL x21 latency 12: the run failed"; fail=1; }
expect "x21 latency 12: rbuf = sbuf[0..3]" "$T/xl.out" "^$(hex 0x100) $(hex 0x101) $(hex 0x102) $(hex 0x103)"
expect "x21 latency 12: rbuf2 = sbuf[6], then nothing" "$T/xl.out" "^$(hex 0x106) $(hex 0)$"

# -o exchange_timing=rows: an item passes the receiver's mux when it arrives (as above) and
# is written 52 + 2 x the receiver's physical row later (the C600 layout: tile i is in pair
# i / 2, block pair / 23, row pair mod 23, counted from the other end in odd blocks: tile1
# row 0, tile3 row 1, tile46 (pair 23, block 1) row 22). x21.S ROWS on tile1, tile3 and
# tile46 of 47 tiles (the others run the sender): its setzi x2 at 0, 1, put $INCOMING_BASE
# 6, put $INCOMING_DCOUNT 7, sync 3 at 8; every sender's sync at 0: released at 9. Tile0's
# send 3 at 9: sbuf[0..3] pass the mux at 19..22; sendoff at 13: sbuf[6], [7] at 23, 24;
# sendpic at 15: sbuf[8], [9] at 25, 26. The receiver's delayxpic 11 at 9 selects tile0
# after event 20: sbuf[2], [3], [6], [7] (21..24) pass; delayxpic 3, 0, 0x640 at 21
# selects no tile after event 24: sbuf[8], [9] do not. sync 0 at 25 waits for the 4th word,
# written at 24 + D (D = 52 + 2 row): get $SCOUNT_L at 25 + D: rtime 77, 79, 121. With
# -o exchange_timing=flat (D = 0) the 4th word lands at 24 and sync 0 at 25 goes on at once:
# rtime 26.
rowsrun() { "$X" run "$T/xs.elf" -o arch=ipu21 -o tiles=47 "$@" --image ipu0.tile1="$T/rows.elf" \
    --image ipu0.tile3="$T/rows.elf" --image ipu0.tile46="$T/rows.elf" --quiet --gather rbuf:16 --gather rtime:4 \
    >"$T/rw.out" 2>&1 || { echo "FAIL rows $*: the run failed"; head -3 "$T/rw.out"; fail=1; }; }
for j in 1 2; do
    rowsrun -o exchange_timing=rows -o jobs=$j
    got=$(grep -c "^$(hex 0x102) $(hex 0x103) $(hex 0x106) $(hex 0x107)$" "$T/rw.out")
    [ "$got" = 3 ] && echo "ok rows (jobs=$j): the three receivers hold sbuf[2, 3, 6, 7]" ||
        { echo "FAIL rows (jobs=$j): $got receivers hold sbuf[2, 3, 6, 7]"; fail=1; }
    for k in 1:77 3:79 46:121; do
        grep -A1 "^tile${k%:*}: rtime" "$T/rw.out" | grep -q "^$(hex ${k#*:})$" &&
            echo "ok rows (jobs=$j): tile${k%:*}'s rtime ${k#*:}" || { echo "FAIL rows: tile${k%:*}'s rtime is not ${k#*:}"; fail=1; }
    done
done
rowsrun -o exchange_timing=flat
[ "$(grep -A1 ': rtime' "$T/rw.out" | grep -c "^$(hex 26)$")" = 3 ] && echo "ok flat: the three rtimes are 26" ||
    { echo "FAIL flat: the rtimes are not 26:"; grep -A1 ': rtime' "$T/rw.out"; fail=1; }
"$X" run "$T/xs.elf" -o arch=ipu2 -o exchange_timing=rows >"$T/e.out" 2>&1 && { echo "FAIL rows on ipu2 ran"; fail=1; }
expect "rows needs ipu21" "$T/e.out" "exchange_timing=rows needs -o arch=ipu21"

# 2. The ring all-reduce (programs/ipu/ring21.S): every tile ends with 1 + ... + n =
# n (n + 1) / 2: 3, 10, 36, 136; the same memory and statistics for jobs=1 and 2, and the
# same memory in the functional loop; the same totals with -o exchange_timing=rows (sync RECV
# waits for the later writes).
for n in 2 4 8 16; do
    want=$(hex $((n * (n + 1) / 2)))
    for j in 1 2; do
        "$X" run "$T/ring$n.elf" -o arch=ipu21 -o tiles=$n -o jobs=$j --quiet --gather total:4 --mem-hash "$T/h$j" \
            --stats=json --stats-file "$T/s$j.json" >"$T/r.out" 2>&1 || { echo "FAIL ring $n: run"; fail=1; }
        grep -v -e '"host":' -e '"options":' "$T/s$j.json" >"$T/s$j.st"
        got=$(grep -c "^$want" "$T/r.out")
        [ "$got" = "$n" ] && echo "ok ring $n tiles (jobs=$j): every total is $((n * (n + 1) / 2))" ||
            { echo "FAIL ring $n (jobs=$j): $got of $n tiles hold $want:"; cat "$T/r.out"; fail=1; }
    done
    cmp -s "$T/s1.st" "$T/s2.st" && cmp -s "$T/h1" "$T/h2" && echo "ok ring $n: jobs=1 and 2 identical" ||
        { echo "FAIL ring $n: jobs=1 and 2 differ"; fail=1; }
    "$X" run "$T/ring$n.elf" -o arch=ipu21 -o tiles=$n -o timing=none --quiet --mem-hash "$T/hf" >/dev/null 2>&1
    cmp -s "$T/h1" "$T/hf" && echo "ok ring $n: the functional loop, the same memory" ||
        { echo "FAIL ring $n: the functional loop's memory differs"; fail=1; }
    "$X" run "$T/ring$n.elf" -o arch=ipu21 -o tiles=$n -o exchange_timing=rows --quiet --gather total:4 >"$T/r.out" 2>&1
    [ "$(grep -c "^$want" "$T/r.out")" = "$n" ] && echo "ok ring $n (rows): every total is $((n * (n + 1) / 2))" ||
        { echo "FAIL ring $n (rows):"; cat "$T/r.out"; fail=1; }
done

# 3. Faults: a sendpicp at 4 mod 8 (written as two .long after a nop); a PIC control of
# format 3 (TEXCH_IFMT_SPARE). (On ipu2 these words are no such instructions: test_xchg21.c.)
"$X" run "$T/wide.elf" -o arch=ipu21 --quiet >"$T/w.out" 2>&1; rc=$?
[ $rc = 2 ] || { echo "FAIL wide: exit $rc, not 2"; fail=1; }
expect "sendpicp misaligned" "$T/w.out" "sendpicp (two words) at an address that is not 8-byte aligned"
"$X" run "$T/fmt.elf" -o arch=ipu21 --quiet >"$T/f.out" 2>&1; rc=$?
[ $rc = 2 ] || { echo "FAIL format: exit $rc, not 2"; fail=1; }
expect "delaypic of format 3" "$T/f.out" "incoming format 3 (a PIC control): not a format.*TEXCPT_INVALID_OP, cause 41"
# 4. `xpusim disasm -o arch=ipu21` lists the ipu21 rows (the default, ipu2, has none of
# them: words of data); an option the IPU does not have is refused.
"$X" disasm "$T/xs.elf" -o arch=ipu21 >"$T/d21.out" 2>&1 || { echo "FAIL disasm -o arch=ipu21: exit $?"; fail=1; }
expect "disasm -o arch=ipu21: sendoff listed" "$T/d21.out" "sendoff 1, 2, 1"
"$X" disasm "$T/xs.elf" >"$T/d2.out" 2>&1
if grep -q "sendoff" "$T/d2.out"; then echo "FAIL disasm (ipu2): sendoff listed"; fail=1; else echo "ok disasm (ipu2): no sendoff"; fi
"$X" disasm "$T/xs.elf" -o arch=ipu9 >"$T/d9.out" 2>&1; rc=$?
[ $rc = 1 ] || { echo "FAIL disasm -o arch=ipu9: exit $rc, not 1"; fail=1; }
expect "disasm -o arch=ipu9 refused" "$T/d9.out" "arch"
"$X" disasm "$T/xs.elf" -o nosuch=1 >"$T/dn.out" 2>&1; rc=$?
[ $rc = 1 ] || { echo "FAIL disasm -o nosuch=1: exit $rc, not 1"; fail=1; }
expect "disasm -o nosuch=1 refused" "$T/dn.out" "nosuch"
exit $fail
