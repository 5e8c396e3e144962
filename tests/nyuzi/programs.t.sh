#!/bin/sh
# tests/nyuzi/programs.t.sh: assemble each self-checking program in tests/nyuzi/progs with
# `xpusim asm`, run it, and require "PASS" on the serial console and a clean halt. Also
# checks that assembler errors name file:line, that bad hex images are rejected with the
# line, and that the disassembler lists an assembled program.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
for src in tests/nyuzi/progs/*.S; do
    n=$(basename "$src" .S)
    if ! "$XPUSIM" asm --isa nyuzi "$src" -o "$T/$n.elf" 2>"$T/$n.err"; then
        echo "FAIL asm $src: $(cat "$T/$n.err")"; fail=1; continue
    fi
    out=$("$XPUSIM" run "$T/$n.elf" --quiet --max-cycles 5000000 2>&1)
    rc=$?
    case "$out" in
        PASS*) [ $rc -eq 0 ] && echo "ok $n" || { echo "FAIL $n: exit $rc"; fail=1; } ;;
        *) echo "FAIL $n: $out"; fail=1 ;;
    esac
done
# multi-threaded, multi-core run: every thread of 2 cores x 4 threads prints its letter in turn
cat > "$T/mt.S" <<'EOS'
                .globl _start
_start:         li s0, 0xffffffff
                setcr s0, 21
                getcr s1, 0
                lea s2, turn
1:              load_32 s3, (s2)
                cmpeq_i s3, s3, s1
                bz s3, 1b
                add_i s4, s1, 'A'
                li s5, 0xffff0048
                store_32 s4, (s5)
                add_i s3, s1, 1
                store_32 s3, (s2)
                move s0, 1
                shl s0, s0, s1
                setcr s0, 20
2:              b 2b
                .align 64
turn:           .long 0
EOS
"$XPUSIM" asm --isa nyuzi "$T/mt.S" -o "$T/mt.elf" || fail=1
out=$("$XPUSIM" run "$T/mt.elf" -o cores=2 -o threads=4 --quiet --max-cycles 1000000)
[ "$out" = "ABCDEFGH" ] && echo "ok multicore" || { echo "FAIL multicore: '$out'"; fail=1; }
# assembler error: file, line and column (of the statement)
printf 'nop\n  add_i s1, s2, 99999\n' > "$T/bad.S"
if "$XPUSIM" asm --isa nyuzi "$T/bad.S" -o "$T/bad.elf" 2>"$T/bad.err"; then
    echo "FAIL: out-of-range immediate accepted"; fail=1
elif grep -q "bad.S:2:3: error: immediate 99999 out of range" "$T/bad.err"; then echo "ok asm error"
else echo "FAIL asm error text: $(cat "$T/bad.err")"; fail=1; fi
printf 'frob s1\n' > "$T/bad2.S"
"$XPUSIM" asm --isa nyuzi "$T/bad2.S" -o "$T/bad2.elf" 2>"$T/bad2.err" && fail=1
grep -q "bad2.S:1:1: error: unknown instruction 'frob'" "$T/bad2.err" && echo "ok unknown mnemonic" || { echo "FAIL: $(cat "$T/bad2.err")"; fail=1; }
# elf2hex image: "@" word address, comments; a bad token is reported with its line
printf '// image\n@00000400\n0f00400f /* move s2, 1 ... */\n0000a08c\n' > "$T/ok.hex"
printf '00000000\nzz\n' > "$T/bad.hex"
"$XPUSIM" run "$T/bad.hex" --isa nyuzi --quiet 2>"$T/hex.err" && { echo "FAIL: bad hex accepted"; fail=1; }
grep -q ":2: " "$T/hex.err" && echo "ok hex error" || { echo "FAIL hex error: $(cat "$T/hex.err")"; fail=1; }
# framebuffer: a pixel stored as bytes R,G,B,A at 0x200000 appears in the 640x480 frame dump
cat > "$T/fb.S" <<'EOS'
                .globl _start
_start:         li s1, 0x200000
                li s2, 0x00332211
                store_32 s2, 4(s1)
                move s0, -1
                setcr s0, 20
1:              b 1b
EOS
"$XPUSIM" asm --isa nyuzi "$T/fb.S" -o "$T/fb.elf" && "$XPUSIM" run "$T/fb.elf" --quiet --headless --frame-dump "$T/fb.ppm"
if [ "$(head -c 15 "$T/fb.ppm" | tr '\n' ' ')" = "P6 640 480 255 " ] &&
   [ "$(tail -c +16 "$T/fb.ppm" | head -c 6 | od -An -tx1 | tr -d ' \n')" = "000000112233" ]; then
    echo "ok framebuffer"
else echo "FAIL framebuffer"; fail=1; fi
# cosimulation stream (-o cosim=FILE): the testbench's +trace format, worked out by hand:
# PC thread reg value; vectors lane 0 first; stores give the line, a 64-bit byte mask
# (bit 63 = byte 0) and the line's words in memory byte order (a byte store replicated).
cat > "$T/cs.S" <<'EOS'
                .globl _start
_start:         move s1, 5
                move v2, 7
                li s3, 0x2000
                store_32 s1, 4(s3)
                store_8 s1, 1(s3)
                move s0, -1
                setcr s0, 20
1:              b 1b
EOS
"$XPUSIM" asm --isa nyuzi "$T/cs.S" -o "$T/cs.elf" && "$XPUSIM" run "$T/cs.elf" -o cosim="$T/cs.trace" --quiet
z56=00000000000000000000000000000000000000000000000000000000
{
echo "swriteback 00001000 0 1 00000005"
printf 'vwriteback 00001004 0 2 ffff'; printf ' '; for i in $(seq 16); do printf 00000007; done; echo
echo "swriteback 00001008 0 3 00002000"
echo "store 0000100c 0 00002000 0f00000000000000 0000000005000000${z56}${z56}"
echo "store 00001010 0 00002000 4000000000000000 05050505${z56}${z56}00000000"
echo "swriteback 00001014 0 0 ffffffff"
echo "***HALTED***"
} > "$T/cs.want"
if cmp -s "$T/cs.trace" "$T/cs.want"; then echo "ok cosim stream"; else echo "FAIL cosim stream"; diff "$T/cs.want" "$T/cs.trace"; fail=1; fi
# disassembly of an assembled program shows the mnemonics
"$XPUSIM" disasm "$T/mt.elf" > "$T/dis.txt" 2>&1
grep -q "setcr s0, 21" "$T/dis.txt" && grep -q "cmpeq_i s3, s3, s1" "$T/dis.txt" && echo "ok disasm" || { echo "FAIL disasm"; head "$T/dis.txt"; fail=1; }
exit $fail
