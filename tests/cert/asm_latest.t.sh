#!/bin/sh
# tests/cert/asm_latest.t.sh: the CERT assembler's default writer (-o aiebu=latest) writes
# the same file as the newest aiebu-asm. Each program below was assembled with aiebu-asm
# built from aiebu e811334f (2026-05-14), from the program's directory:
#   aiebu-asm -t aie2ps -c PROG.asm -o PROG.elf -L <dir>/ -f disabledump
#   (latest_aie4.asm: -t aie4), and compared byte for byte with ours (cmp: identical);
# the SHA-256 of that file is written down here. latest.asm and latest_aie4.asm exercise what
# that release does differently (see their comments). jobs.asm is not among them: that aiebu
# refuses S2MM_4 (not one of its actor names), which we still read as Feb-2025 did. Also:
# PREEMPT is kept as written with a warning (-o preempt_asm=DIR inserts aiebu's save/restore
# programs: tiny ones of our own below), and -o symbols=1 adds a .symtab the debugger
# resolves.
set -u
D="$XPUSIM_ROOT/tests/cert/asm"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
check() { # program sha256
    if ! "$XPUSIM" asm --isa cert "$D/$1.asm" -o "$T/$1.elf" 2>"$T/err"; then
        echo "FAIL: $1.asm: $(cat "$T/err")"; fail=1; return
    fi
    got=$(sha256sum "$T/$1.elf" | cut -c1-64)
    [ "$got" = "$2" ] || { echo "FAIL: $1.asm: sha256 $got, aiebu-asm e811334f's is $2"; fail=1; }
}
check pages 9df62eda85dc83ecfe21ac8b051b8478f896141ff03dd1484e86bb7d071ae949
check big b218141da30ea623cb1c28f064f5a94e6897579bb19c0030c8fd33963649e4a8
check pdi da7eba838512d8e568602c2abde6d881bee3b81a1979c8ee5d9a62438f3f972a
check latest 521d950c6510d1f22ef9767fe6351091e18d79d122bb57cfb5404ffa29a4a600
check latest_aie4 0727bdd3a0bcd81752d1ec18c9b684d1d63127596c87f95644f0705e0400ec27
# readable check: the newest writes the group OSABI 0x46 for every target
[ "$(od -An -tx1 -j 7 -N 1 "$T/latest_aie4.elf" | tr -d ' ')" = 46 ] || { echo "FAIL: aie4 OSABI"; fail=1; }
# an actor name the target does not have is an error with file:line
printf 'START_JOB 0\n  WAIT_TCTS TILE_0_1, SHIM_MM2S_x, 1\nEND_JOB\nEOF\n' > "$T/a.asm"
"$XPUSIM" asm --isa cert "$T/a.asm" -o "$T/a.elf" 2>"$T/err" && { echo "FAIL: SHIM_MM2S_x accepted"; fail=1; }
grep -q 'a.asm:2: ' "$T/err" || { echo "FAIL: actor error without file:line: $(cat "$T/err")"; fail=1; }
# Feb-2025 refuses latest.asm (after `.endl pdi_a` it reads pdi_b: as a data label)
if "$XPUSIM" asm --isa cert "$D/latest.asm" -o "$T/x.elf" -o aiebu=2025.02 2>/dev/null; then
    echo "FAIL: latest.asm accepted by the 2025.02 writer"; fail=1
fi
# PREEMPT: the newest aiebu inserts save/restore code of its own; we keep the operands as
# written and warn that the file is not byte-identical
printf 'START_JOB 0\n  PREEMPT 1, @a, @a\nEND_JOB\nEOF\n.section .ctrltext\na:\nSTART_JOB 1\nEND_JOB\nEOF\n.endl a\n' > "$T/p.asm"
"$XPUSIM" asm --isa cert "$T/p.asm" -o "$T/p.elf" -o target=aie4 2>"$T/err" || { echo "FAIL: PREEMPT: $(cat "$T/err")"; fail=1; }
grep -q 'warning: .*p.asm:2: PREEMPT.*not byte-identical.*-o preempt_asm=DIR' "$T/err" || { echo "FAIL: PREEMPT warning: $(cat "$T/err")"; fail=1; }
# a PREEMPT that leaves its page operands to aiebu is refused, naming the option that supplies them
printf '.partition 1column\nSTART_JOB 0\n  PREEMPT 1\nEND_JOB\nEOF\n' > "$T/q.asm"
"$XPUSIM" asm --isa cert "$T/q.asm" -o "$T/q.elf" -o target=aie4 2>"$T/err" && { echo "FAIL: bare PREEMPT accepted"; fail=1; }
grep -q 'q.asm:3: PREEMPT without its two page operands.*-o preempt_asm=DIR' "$T/err" || { echo "FAIL: bare PREEMPT: $(cat "$T/err")"; fail=1; }
# -o preempt_asm=DIR: the save/restore programs are read from DIR (aiebu's own preemption_asm
# files in real use; none of them is in this repository). tests/cert/asm/preempt holds tiny
# programs of our own: one save and one restore program, copied here under aiebu's three
# file names per kind (_1c, _1c0, _1c1: the same program for each), one.asm (hint maps sharing a scratchpad part,
# one reaching past a 3 MiB region, a PREEMPT without) and two.asm (PREEMPT in uCs 0 and 2).
# aiebu-asm cannot be pointed at a directory (the programs are compiled in), so the reference
# is aiebu-asm e811334f rebuilt with its table regenerated from these files by its own
# specification/aie4/preemption_asm/generate_aie4_header.py (its shim/memtile BD label lists
# kept): `aiebu-asm -t aie4 -c one.asm -o one.elf -L <dir>/ -f disabledump`, cmp identical
# with ours; the SHA-256 of that file is written down here.
P="$T/preempt"
mkdir -p "$P"
cp "$D/preempt/one.asm" "$D/preempt/two.asm" "$P/"
for v in 1c 1c0 1c1; do
    cp "$D/preempt/aie4_save.asm" "$P/aie4_save_$v.asm"
    cp "$D/preempt/aie4_restore.asm" "$P/aie4_restore_$v.asm"
done
pcheck() { # program sha256
    if ! "$XPUSIM" asm --isa cert "$P/$1.asm" -o "$T/$1.elf" -o target=aie4 -o preempt_asm="$P" 2>"$T/err"; then
        echo "FAIL: preempt/$1.asm: $(cat "$T/err")"; fail=1; return
    fi
    got=$(sha256sum "$T/$1.elf" | cut -c1-64)
    [ "$got" = "$2" ] || { echo "FAIL: preempt/$1.asm: sha256 $got, aiebu-asm's is $2"; fail=1; }
}
pcheck one 1d05ccc56711215b510c4e94179835928eaf085512b356170a8645d589ebe110
pcheck two aa5c43bef040dd6c5dece23d4c46ba1eda3b8448a5fdb4701b22d77142a40db9
# the same with the programs missing (.partition 2column: aie4_save_2c.asm), on aie2ps, and
# with PREEMPT counts that differ between uCs: refused
sed 's/1column/2column/' "$P/one.asm" > "$T/p2.asm"
"$XPUSIM" asm --isa cert "$T/p2.asm" -o "$T/p2.elf" -o target=aie4 -o preempt_asm="$P" 2>"$T/err" && { echo "FAIL: missing program accepted"; fail=1; }
grep -q 'aie4_save_2c.asm' "$T/err" || { echo "FAIL: missing program: $(cat "$T/err")"; fail=1; }
"$XPUSIM" asm --isa cert "$P/one.asm" -o "$T/p3.elf" -o target=aie2ps -o preempt_asm="$P" 2>"$T/err" && { echo "FAIL: PREEMPT on aie2ps accepted"; fail=1; }
grep -q 'one.asm:9: PREEMPT: .*aie2ps' "$T/err" || { echo "FAIL: PREEMPT on aie2ps: $(cat "$T/err")"; fail=1; }
sed -e '/PREEMPT 7$/d' -e 's/3column/1column/' "$P/two.asm" > "$T/p4.asm"
"$XPUSIM" asm --isa cert "$T/p4.asm" -o "$T/p4.elf" -o target=aie4 -o preempt_asm="$P" 2>"$T/err" && { echo "FAIL: PREEMPT count mismatch accepted"; fail=1; }
grep -q 'uC 2 has 1, uC 0 has 0' "$T/err" || { echo "FAIL: PREEMPT counts: $(cat "$T/err")"; fail=1; }
# -o symbols=1: every label in a .symtab, value = the pc (page * 8192 + offset), the rest
# of the file as without it; the loader keeps them and the debugger resolves them
"$XPUSIM" asm --isa cert "$D/pdi.asm" -o "$T/s.elf" -o symbols=1 || { echo "FAIL: symbols=1"; fail=1; }
"$XPUSIM" info "$T/s.elf" >"$T/info" 2>&1 || { echo "FAIL: info on a .symtab ELF: $(cat "$T/info")"; fail=1; }
grep -q 'pdi_a' "$T/info" && grep -q 'bd9' "$T/info" || { echo "FAIL: symbols not listed: $(cat "$T/info")"; fail=1; }
printf 'break pdi_a uc0\nbreak bd9 uc0\n' > "$T/s.x"
"$XPUSIM" debug "$T/s.elf" -x "$T/s.x" >"$T/dbg" 2>&1
grep -q 'at 0x2010 <pdi_a>' "$T/dbg" && grep -q 'at 0x40 <bd9>' "$T/dbg" ||
    { echo "FAIL: debugger symbols: $(cat "$T/dbg")"; fail=1; }
"$XPUSIM" run "$T/s.elf" >"$T/run" 2>&1 || { echo "FAIL: run with .symtab: $(tail -3 "$T/run")"; fail=1; }
[ $fail -eq 0 ] && echo "ok"
exit $fail
