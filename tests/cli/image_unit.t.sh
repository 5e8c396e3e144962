#!/bin/sh
# tests/cli/image_unit.t.sh: a program per unit (issue 11 pt 1: isa_ops.load_unit and
# `--image PATH=FILE`, PATH a unit or a group: every unit under it).
# IPU: two tiles, tile 0 running the machine's program tile_a.S, tile 1 its own tile_b.S. Each stores
# its result at its own `res` (tile_a.S: 11 at 0x4c000; tile_b.S: 20 + 2 = 22 at 0x4c040, after 64
# bytes of pad), so --get @ipu0.tileN:res reads each tile's result through the symbols of
# that tile's program. Instructions (supervisor only, one per issue): tile_a.S setzi, setzi,
# st32, br = 4; tile_b.S setzi, add, setzi, st32, br = 5. Tile 0 must not hold tile_b.S's result at
# 0x4c040 (tile_b.S went to tile 1 only), tile_a.S's bytes past tile_b.S's span (its `tag` at 0x4c100,
# after res and 252 bytes) are cleared on tile 1 only, and `--image ipu0=` (the group)
# runs tile_b.S on both.
# The debugger: `info symbol` names addresses and values in the selected unit's program,
# and `break start_b+8` (a symbol of tile 1's own program) stops tile 1 at cycle 7: setzi
# $m0 at 0, `add` reads $m0 so it issues sup_dep_cycles = 6 later (6), setzi $m1 (no
# dependency) at 7 (docs/isa/ipu.md "Execution model").
# CERT: two columns; the machine's program has code for uC 0 only (uC 1 disabled), and
# `--image col1=c1.elf` gives uC 1 a one-uC program of its own: c0 runs START_JOB, MOV,
# SAVE_TIMESTAMPS, END_JOB (4 instructions), c1 START_JOB, three NOPs, SAVE_TIMESTAMPS,
# END_JOB (6), each one record; a breakpoint by group (`break 0x18 col1`). Errors: an unknown path, an ISA without load_unit, a file
# that is not a program of the ISA or does not fit: a clear message and exit status 1.
# Trace lines name units by path on machines with groups (col1.uc1), by name without
# (MCCP's core0, as before).
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
[ -x "$X" ] || { echo "FAIL: no xpusim binary at $X"; exit 1; }

if "$X" isas | grep -q '^ipu'; then
    "$X" asm --isa ipu tests/cli/progs/tile_a.S -o "$T/a.elf" && "$X" asm --isa ipu tests/cli/progs/tile_b.S -o "$T/b.elf" &&
        "$X" asm --isa ipu -o arch=ipu1 tests/cli/progs/tile_a.S -o "$T/a1.elf" || { echo "FAIL: asm"; exit 1; }
    "$X" run "$T/a.elf" -o tiles=2 --image ipu0.tile1="$T/b.elf" --get @ipu0.tile0:res:4="$T/r0.bin" \
        --get @ipu0.tile1:res:4="$T/r1.bin" --dump tmem@ipu0.tile0:0x4c040:1 --dump tmem@ipu0.tile0:0x4c100:1 \
        --dump tmem@ipu0.tile1:0x4c100:1 --stats=json --stats-file "$T/s.json" \
        > "$T/out" 2>&1 || no "ipu run: $(cat "$T/out")"
    [ "$(od -An -tu4 "$T/r0.bin" | tr -d ' ')" = 11 ] && echo "ok: tile 0 ran tile_a.S: res = 11" \
        || no "tile 0 res: $(od -An -tu4 "$T/r0.bin" 2>&1)"
    [ "$(od -An -tu4 "$T/r1.bin" | tr -d ' ')" = 22 ] && echo "ok: tile 1 ran its own tile_b.S: res (0x4c040) = 22" \
        || no "tile 1 res: $(od -An -tu4 "$T/r1.bin" 2>&1)"
    grep -q '^tmem\[0x4c040\]: 00000000$' "$T/out" && echo "ok: tile 0 has nothing at tile_b.S's res" \
        || no "tile 0 at 0x4c040: $(grep -A1 'tmem' "$T/out")"
    grep -q '^tmem\[0x4c100\]: 5a5a5a5a$' "$T/out" && grep -q '^tmem\.1\[0x4c100\]: 00000000$' "$T/out" \
        && echo "ok: tile_a.S's tag (0x4c100, past tile_b.S's span) stays on tile 0 and is cleared on tile 1" \
        || no "tile_a.S's bytes on tile 1: $(grep 'tmem' "$T/out")"
    tr -d ' \n' < "$T/s.json" | grep -q '"name":"tile0",[^]]*"instructions":4,' && \
        tr -d ' \n' < "$T/s.json" | grep -q '"name":"tile1",[^]]*"instructions":5,' \
        && echo "ok: tile 0 retired 4 instructions, tile 1 5" || no "instructions per tile: $(grep -o '"instructions": [0-9]*' "$T/s.json" | head -4)"
    "$X" run "$T/a.elf" -o tiles=2 --image ipu0="$T/b.elf" --get @ipu0.tile0:res:4="$T/g0.bin" \
        --get @ipu0.tile1:res:4="$T/g1.bin" --quiet > "$T/out" 2>&1 || no "--image ipu0: $(cat "$T/out")"
    [ "$(od -An -tu4 "$T/g0.bin" "$T/g1.bin" | tr -d ' \n')" = 2222 ] && echo "ok: --image ipu0 (the group): both tiles ran tile_b.S" \
        || no "--image ipu0: $(od -An -tu4 "$T/g0.bin" "$T/g1.bin" 2>&1)"
    # errors
    "$X" run "$T/a.elf" -o tiles=2 --image ipu0.tile7="$T/b.elf" > "$T/e" 2>&1
    [ $? -ne 0 ] && grep -q "no unit or group 'ipu0.tile7'" "$T/e" && echo "ok: unknown path" || no "unknown path: $(cat "$T/e")"
    "$X" run "$T/a.elf" -o tiles=2 --image ipu0.tile1=tests/cli/progs/tile_a.S > "$T/e" 2>&1
    [ $? -ne 0 ] && grep -q "tile_a.S is not a ipu program" "$T/e" && echo "ok: a source file is not a program" || no "not an ELF: $(cat "$T/e")"
    "$X" run "$T/a.elf" -o tiles=2 --image ipu0.tile1="$T/a1.elf" > "$T/e" 2>&1
    [ $? -ne 0 ] && grep -q "ipu0.tile1: .*does not fit in ipu2 tile memory" "$T/e" && echo "ok: an ipu1 program does not fit an ipu2 tile" \
        || no "does not fit: $(cat "$T/e")"
    "$X" run "$T/a.elf" -o tiles=2 --image ipu0.tile1 > "$T/e" 2>&1
    [ $? -ne 0 ] && grep -q "expected PATH=FILE" "$T/e" && echo "ok: --image without =FILE" || no "no =FILE: $(cat "$T/e")"
    # the debugger: symbols and breakpoints by symbol in a tile's own program
    cat > "$T/s.x" <<'EOS'
unit ipu0.tile1
info symbol res
info symbol 0x4c048
break start_b+8
continue
assert pc == start_b+8
unit ipu0.tile0
info symbol res
continue
assert stop halted
EOS
    "$X" debug "$T/a.elf" -o tiles=2 --image ipu0.tile1="$T/b.elf" -x "$T/s.x" > "$T/d" 2>&1 || no "debugger: $(cat "$T/d")"
    grep -q "^res = 0x4c040 in .*b.elf (the program of ipu0.tile1)" "$T/d" && echo "ok: info symbol res on tile 1: tile_b.S's" \
        || no "info symbol res (tile 1): $(grep -n 'res' "$T/d")"
    grep -q "^0x4c048 is start_b+4 in .*b.elf" "$T/d" && echo "ok: info symbol 0x4c048 = start_b+4" \
        || no "info symbol 0x4c048: $(grep -n '4c048' "$T/d")"
    grep -q "^breakpoint 1 at 0x4c04c <start_b+8> on tile1$" "$T/d" && echo "ok: a symbol of tile 1's own program breaks on tile 1 only" \
        || no "break scope: $(grep -n '^breakpoint' "$T/d")"
    grep -q "tile1 thread 0 stopped at cycle 7: breakpoint 1 at 0x4c04c (start_b+8)" "$T/d" \
        && echo "ok: break start_b+8 stops tile 1 at cycle 7" || no "break by symbol: $(grep -n 'stopped' "$T/d")"
    grep -q "^res = 0x4c000 in .*a.elf (the machine's program)" "$T/d" && echo "ok: info symbol res on tile 0: tile_a.S's" \
        || no "info symbol res (tile 0): $(grep -n 'res' "$T/d")"
fi

if "$X" isas | grep -q '^mccp'; then
    "$X" asm --isa mccp programs/mccp/sum4.mccp -o "$T/sum4.out" || no "mccp asm"
    "$X" run "$T/sum4.out" --image 0="$T/sum4.out" > "$T/e" 2>&1
    [ $? -ne 0 ] && grep -q "ISA mccp runs one program on every unit" "$T/e" && echo "ok: an ISA without load_unit" \
        || no "mccp --image: $(cat "$T/e")"
    # a machine without groups names units as before: "core0", no path
    "$X" run "$T/sum4.out" --trace "$T/mtr" --max-insns 4 --quiet > /dev/null 2>&1
    grep -qE '^ +5 core0 t0  00000000  ' "$T/mtr" && ! grep -q '\.core' "$T/mtr" && echo "ok: flat trace lines unchanged (core0)" \
        || no "mccp trace: $(head -2 "$T/mtr")"
fi

if "$X" isas | grep -q '^cert'; then
    printf '.attach_to_group 0\nSTART_JOB 1\n  MOV $r3, 0x1234\n  SAVE_TIMESTAMPS 1\nEND_JOB\nEOF\n' > "$T/c0.asm"
    printf '.attach_to_group 0\nSTART_JOB 1\n  NOP\n  NOP\n  NOP\n  SAVE_TIMESTAMPS 2\nEND_JOB\nEOF\n' > "$T/c1.asm"
    "$X" asm --isa cert "$T/c0.asm" -o "$T/c0.elf" && "$X" asm --isa cert "$T/c1.asm" -o "$T/c1.elf" || { echo "FAIL: cert asm"; exit 1; }
    "$X" run "$T/c0.elf" -o columns=2 > "$T/c" 2>&1 || no "cert run: $(cat "$T/c")"
    grep -q '^uc1: disabled' "$T/c" && echo "ok: without --image uC 1 has no code" || no "uc1 without image: $(grep '^uc' "$T/c")"
    "$X" run "$T/c0.elf" -o columns=2 --image col1="$T/c1.elf" --stats=json --stats-file "$T/c.json" > "$T/c" 2>&1 \
        || no "cert --image col1: $(cat "$T/c")"
    tr -d ' \n' < "$T/c.json" | grep -q '"name":"uc0",[^]]*"instructions":4,' && \
        tr -d ' \n' < "$T/c.json" | grep -q '"name":"uc1",[^]]*"instructions":6,' \
        && echo "ok: uC 0 ran c0 (4 instructions), uC 1 its own c1 (6)" || no "cert instructions: $(grep -o '"instructions": [0-9]*' "$T/c.json" | head -4)"
    "$X" run "$T/c0.elf" --image col0.uc0="$T/c1.elf" --stats=json --stats-file "$T/c2.json" > "$T/c" 2>&1 \
        || no "cert --image col0.uc0: $(cat "$T/c")"
    tr -d ' \n' < "$T/c2.json" | grep -q '"name":"uc0",[^]]*"instructions":6,' && echo "ok: uC 0's code replaced by c1 (6)" \
        || no "uc0 replaced: $(grep -o '"instructions": [0-9]*' "$T/c2.json" | head -2)"
    # break by group: both uCs run c0 and reach MOV (0x18: the page header's 16 bytes, then
    # START_JOB's 8) in the same cycle, uC 0 first; `break 0x18 col1` stops uC 1 only
    printf 'break 0x18 col1\ninfo break\ncontinue\ncontinue\nassert stop halted\n' > "$T/c.x"
    "$X" debug "$T/c0.elf" -o columns=2 --image col1="$T/c0.elf" -x "$T/c.x" > "$T/cd" 2>&1 || no "cert debugger: $(cat "$T/cd")"
    grep -q '^1    breakpoint  0x18 on col1 ' "$T/cd" && grep -q '^uc1 thread 0 stopped at cycle [0-9]*: breakpoint 1 at 0x18$' "$T/cd" &&
        [ "$(grep -c 'stopped at' "$T/cd")" = 1 ] && echo "ok: break 0x18 col1 stops uC 1 only" \
        || no "break by group: $(cat "$T/cd")"
    # the trace names units by path on a machine with groups (issue 11 pt 1)
    "$X" run "$T/c0.elf" -o columns=2 --image col1="$T/c0.elf" --trace "$T/ctr" --quiet > /dev/null 2>&1 || no "cert trace run"
    grep -qE '^ +[0-9]+ col0\.uc0 t0  00000018  MOV' "$T/ctr" && grep -qE '^ +[0-9]+ col1\.uc1 t0  00000018  MOV' "$T/ctr" \
        && echo "ok: trace lines name col0.uc0 and col1.uc1" || no "cert trace: $(head -4 "$T/ctr")"
    printf 'break 0x18 col9\n' > "$T/c.x"
    "$X" debug "$T/c0.elf" -o columns=2 -x "$T/c.x" > "$T/cd" 2>&1
    grep -q "no unit or group 'col9'" "$T/cd" && echo "ok: break on no such group" || no "break col9: $(cat "$T/cd")"
    if "$X" isas | grep -q '^ipu'; then
        "$X" run "$T/c0.elf" -o columns=2 --image col1="$T/a.elf" > "$T/e" 2>&1
        [ $? -ne 0 ] && grep -q "is not a cert program" "$T/e" && echo "ok: an IPU file is not a CERT program" \
            || no "cert wrong ISA: $(cat "$T/e")"
    fi
fi
exit $fail
