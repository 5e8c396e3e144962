#!/bin/sh
# tests/nyuzi/llsc_count.t.sh: load_sync/store_sync under contention lose no update. Eight
# threads (two cores of four, -o cores=2) each add 1 to one counter 50 times with a
# load_sync / store_sync loop that retries a failed store_sync, then halt; the counter must
# be 8 x 50 = 400 at the end (four cores of one thread: 200). In the cycle model the pair is decided at the L2 in the order
# of its arbiter, a few cycles after the first issue (isa/nyuzi/l2_sync.c): a value read or
# a store_sync decided at the wrong moment loses or doubles increments (the model before
# session 24 lost 4 of the 400, and so did this one while a load_sync at the L2 did not yet
# see a store_sync granted before it). The same with four cores of one thread, and in the
# functional mode (decided at once).
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat > "$T/p.S" <<'ASM'
    .text
    .globl _start
_start:
    li s0, 0xff
    setcr s0, 21            // start threads 0-7 (global ids)
    getcr s5, 0             // this thread's global id
    li s9, 0x100000         // the counter (zero at start)
    move s1, 50
1:  load_sync s2, (s9)
    add_i s2, s2, 1
    store_sync s2, (s9)
    bz s2, 1b               // failed: the line changed since the load_sync
    sub_i s1, s1, 1
    bnz s1, 1b
    move s3, 1
    shl s3, s3, s5
    setcr s3, 20            // halt this thread
2:  b 2b
ASM
"$XPUSIM" asm --isa nyuzi "$T/p.S" -o "$T/p.elf" || { echo "FAIL: assemble"; exit 1; }
fail=0
# options | the counter's final value in hex (threads x 50)
for c in "-o cores=2|00000190" "-o cores=4 -o threads=1|000000c8" "-o cores=2 -o timing=none|00000190"; do
    opts=${c%|*}; want=${c#*|}
    "$XPUSIM" run "$T/p.elf" $opts --quiet --max-cycles 2000000 --dump mem:0x100000:1 < /dev/null > "$T/out" 2>&1
    if grep -q "^mem\[0x100000\]: $want\$" "$T/out"; then echo "ok: 0x$want increments ($opts)"; else
        echo "FAIL: counter is not 0x$want ($opts):"; tail -3 "$T/out"; fail=1; fi
done
exit $fail
