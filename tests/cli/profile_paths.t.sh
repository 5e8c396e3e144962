#!/bin/sh
# tests/cli/profile_paths.t.sh: --profile on machines with groups (issue 11 pt 1): a thread's
# file names its unit by path (desc: Hardware thread: ipu0.tile1 thread 0), and a unit that
# runs a program of its own (--image PATH=FILE) has its PCs named by that program's symbols
# (its file's cmd: and ob=; in the merged file an ob= line before its functions); machines
# without groups write what they did (MCCP: core0).
# File numbers: N = 1 + unit x threads-per-unit + thread (docs/user-guide.md). IPU: 7
# contexts per tile (the supervisor is context 0), so tile 1's supervisor is 1 + 7 = 8.
# CERT: 32 job slots per uC (job_slots' default), so uC 1's first slot is 1 + 32 = 33.
# Instructions, one per issue: tests/cli/progs/tile_a.S setzi, setzi, st32, br = 4; tile_b.S setzi, add, setzi, st32,
# br = 5 (as in image_unit.t.sh); CERT c0 START_JOB, MOV, SAVE_TIMESTAMPS, END_JOB = 4, c1
# START_JOB, three NOPs, SAVE_TIMESTAMPS, END_JOB = 6. A summary line's first number is the
# file's Instructions.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
[ -x "$X" ] || { echo "FAIL: no xpusim binary at $X"; exit 1; }
# the summary's Instructions of file F
insns() { sed -n 's/^summary: \([0-9]*\) .*/\1/p' "$1"; }

if "$X" isas | grep -q '^ipu'; then
    "$X" asm --isa ipu tests/cli/progs/tile_a.S -o "$T/a.elf" && "$X" asm --isa ipu tests/cli/progs/tile_b.S -o "$T/b.elf" || { echo "FAIL: asm"; exit 1; }
    "$X" run "$T/a.elf" -o tiles=2 --image ipu0.tile1="$T/b.elf" --profile "$T/p.cg" --profile-threads --quiet \
        > "$T/out" 2>&1 || no "ipu run: $(cat "$T/out")"
    [ "$(cd "$T" && ls p.cg-* | tr '\n' ' ')" = "p.cg-01 p.cg-08 " ] && echo "ok: one file per supervisor that issued (01, 08)" \
        || no "files: $(ls "$T")"
    grep -qx 'desc: Hardware thread: ipu0.tile0 thread 0' "$T/p.cg-01" && grep -qx "cmd: $T/a.elf" "$T/p.cg-01" &&
        grep -qx 'fn=_start' "$T/p.cg-01" && [ "$(insns "$T/p.cg-01")" = 4 ] \
        && echo "ok: tile 0: ipu0.tile0, a.elf's _start, 4 instructions" || no "tile 0 file: $(head -12 "$T/p.cg-01")"
    grep -qx 'desc: Hardware thread: ipu0.tile1 thread 0' "$T/p.cg-08" && grep -qx "cmd: $T/b.elf" "$T/p.cg-08" &&
        grep -qx "ob=$T/b.elf" "$T/p.cg-08" && grep -qx 'fn=start_b' "$T/p.cg-08" && [ "$(insns "$T/p.cg-08")" = 5 ] \
        && echo "ok: tile 1: ipu0.tile1, its own b.elf's start_b, 5 instructions" || no "tile 1 file: $(head -12 "$T/p.cg-08")"
    "$X" run "$T/a.elf" -o tiles=2 --image ipu0.tile1="$T/b.elf" --profile "$T/m.cg" --quiet > "$T/out" 2>&1 \
        || no "ipu merged: $(cat "$T/out")"
    # merged: each function after its own program's ob= line (in the functions' pc order)
    obfn=" $(grep -E '^(ob|fn)=' "$T/m.cg" | tr '\n' ' ')"
    case "$obfn" in *" ob=$T/a.elf fn=_start "*) ;; *) obfn= ;; esac
    case "$obfn" in *" ob=$T/b.elf fn=start_b "*) ;; *) obfn= ;; esac
    [ -n "$obfn" ] &&
        [ "$(insns "$T/m.cg")" = 9 ] && echo "ok: merged: _start in a.elf, start_b in b.elf, 4 + 5 instructions" \
        || no "merged: $(grep -E '^(ob|fn|summary)' "$T/m.cg")"
    if command -v callgrind_annotate > /dev/null; then
        callgrind_annotate "$T/m.cg" > "$T/ann" 2>&1 && grep -q "start_b \[$T/b.elf\]" "$T/ann" &&
            grep -q "_start \[$T/a.elf\]" "$T/ann" && echo "ok: callgrind_annotate reads both objects" \
            || no "callgrind_annotate: $(cat "$T/ann")"
    fi
fi

if "$X" isas | grep -q '^cert'; then
    printf '.attach_to_group 0\nSTART_JOB 1\n  MOV $r3, 0x1234\n  SAVE_TIMESTAMPS 1\nEND_JOB\nEOF\n' > "$T/c0.asm"
    printf '.attach_to_group 0\nSTART_JOB 1\n  NOP\n  NOP\n  NOP\n  SAVE_TIMESTAMPS 2\nEND_JOB\nEOF\n' > "$T/c1.asm"
    "$X" asm --isa cert "$T/c0.asm" -o "$T/c0.elf" && "$X" asm --isa cert "$T/c1.asm" -o "$T/c1.elf" || { echo "FAIL: cert asm"; exit 1; }
    "$X" run "$T/c0.elf" -o columns=2 --image col1="$T/c1.elf" --profile "$T/c.cg" --profile-threads --quiet \
        > "$T/out" 2>&1 || no "cert run: $(cat "$T/out")"
    grep -qx 'desc: Hardware thread: col0.uc0 thread 0' "$T/c.cg-01" && [ "$(insns "$T/c.cg-01")" = 4 ] &&
        grep -qx 'desc: Hardware thread: col1.uc1 thread 0' "$T/c.cg-33" && [ "$(insns "$T/c.cg-33")" = 6 ] &&
        grep -qx "cmd: $T/c1.elf" "$T/c.cg-33" && echo "ok: CERT: col0.uc0 (4 instructions), col1.uc1 with c1.elf (6)" \
        || no "cert files: $(ls "$T"; head -9 "$T"/c.cg-*)"
fi

if "$X" isas | grep -q '^mccp'; then
    # no groups: the unit's bare name, as before
    "$X" asm --isa mccp programs/mccp/sum4.mccp -o "$T/sum4.out" || no "mccp asm"
    "$X" run "$T/sum4.out" --headless --profile "$T/s.cg" --profile-threads --quiet > "$T/out" 2>&1 || no "mccp run: $(cat "$T/out")"
    grep -qx 'desc: Hardware thread: core0 thread 0' "$T/s.cg-01" && ! grep -q '^desc: .*\.' "$T"/s.cg-* &&
        [ "$(grep -c '^ob=' "$T/s.cg-01")" = 1 ] && echo "ok: MCCP (no groups): core0, one ob= line, as before" \
        || no "mccp: $(head -9 "$T/s.cg-01")"
fi
[ $fail -eq 0 ] && echo ok
exit $fail
