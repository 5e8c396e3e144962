#!/bin/sh
# tests/cli/group_stats.t.sh: groups > units > threads on the CLI (issue 11 pt 1), on the
# IPU (group ipu0 > tile0..) and CERT (groups col0, col1.. > uCs).
# - the JSON statistics' "groups" tree (schema 3): each group's subtotals equal the sums
#   over its units (instructions, issue cycles, stalls by cause, counters) and its cycles
#   the last unit's; the IPU numbers are derived by hand as in set_per_unit.t.sh (loop6.S: a
#   tile with bench_iters = N retires 36N + 87 instructions: tile 1 with 7 gives 339, tiles 0
#   and 2 with 9 give 411 each, 1161 in ipu0); the text statistics' "group ipu0:" line;
# - a unit's own space by its path (--dump tmem@ipu0.tile1:ADDR:4 = tile 1's bench_iters;
#   the debugger's x ctrl@col1.uc1 = x ctrl.1 on CERT, whose uC N > 0 owns ctrl.N);
# - symbols per unit or group (--symbols PATH=FILE) for --set/--get @PATH:SYMBOL;
# - the debugger: `info units` lists the tree, `unit ipu0.tile2` and `thread ipu0.tile1.3`
#   select by path, `threads ipu0.tile1` lists one unit's threads, a bad path is a clear error;
# - the GDB stub: qXfer:threads:read names every thread by its path (ipu0.tile1.3), `monitor
#   units` prints the tree; a
#   tile has 7 threads (the supervisor and six workers), so GDB thread id = 7 x tile +
#   thread + 1 (tile1.3 = 11 = 0xb, tile2.5 = 20 = 0x14) and the debugger's flat number
#   7 x tile + thread (tile2.0 = #14, tile1.3 = #10).
X=${XPUSIM:-build/xpusim}
PY=$(command -v python3) || { echo "SKIP: no python3"; exit 0; }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
HERE=$(dirname "$0")
fail=0
no() { echo "FAIL: $*"; fail=1; }
[ -x "$X" ] || { echo "FAIL: no xpusim binary at $X"; exit 1; }
"$X" isas | grep -q '^ipu\|^cert' || { echo "SKIP: this build has neither the ipu nor the cert ISA"; exit 0; }
# check_groups JSON: every group's subtotals against its units' counts (python: the JSON)
check_groups() {
    "$PY" - "$1" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
assert s["schema"] == 3, s["schema"]
units = s["units"]
def walk(g, depth):
    mine = list(g["units"])
    for c in g["groups"]:
        mine += walk(c, depth + 1)
    us = [units[i] for i in mine if units[i]["enabled"]]
    assert g["enabled_units"] == len(us), (g["path"], g["enabled_units"], len(us))
    assert g["instructions"] == sum(u["instructions"] for u in us), g["path"]
    assert g["issue_cycles"] == sum(t["issue_cycles"] for u in us for t in u["threads"]), g["path"]
    assert g["cycles"] == max([u["cycles"] for u in us] + [0]), g["path"]
    for k, v in g["stalls"].items():
        assert v == sum(t["stalls"][k] for u in us for t in u["threads"]), (g["path"], k)
    for k, v in g["counters"].items():
        assert v == sum(u["counters"].get(k, 0) for u in us), (g["path"], k)
    if g["clock_hz"]:
        assert abs(g["seconds"] - g["cycles"] / g["clock_hz"]) <= 1e-9 * g["seconds"] + 1e-18, g["path"]
    return mine
seen = []
for g in s["groups"]:
    seen += walk(g, 0)
print("groups ok: %d top-level, %d units, %d instructions" % (len(s["groups"]), len(seen),
      sum(g["instructions"] for g in s["groups"])))
EOF
}

if "$X" isas | grep -q '^ipu'; then
    "$X" asm --isa ipu programs/ipu/bench/loop6.S -o "$T/loop6.elf" || { echo "FAIL: asm loop6"; exit 1; }
    printf '\007\000\000\000' > "$T/n7.bin"
    printf '\011\000\000\000' > "$T/n9.bin"
    "$X" run "$T/loop6.elf" -o tiles=3 --set @1:bench_iters="$T/n7.bin" --set @0:bench_iters="$T/n9.bin" \
        --set @2:bench_iters="$T/n9.bin" --quiet --stats=json --stats-file "$T/ipu.json" || no "ipu run"
    check_groups "$T/ipu.json" || no "ipu groups do not add up"
    grep -q '^  "groups": \[{"name": "ipu0", "path": "ipu0", "index": 0, "threads_per_unit": 7, "clock_hz": [0-9]*, "units": \[0, 1, 2\], "enabled_units": 3, "cycles": [0-9]*, "seconds": [0-9.e-]*, "instructions": 1161, ' "$T/ipu.json" \
        && echo "ok: ipu0 holds tiles 0..2, 1161 instructions" || no "ipu0 group line: $(grep '"groups"' "$T/ipu.json" | cut -c1-300)"
    addr=$("$X" info "$T/loop6.elf" | awk '$NF == "bench_iters" { print $1 }')
    "$X" run "$T/loop6.elf" -o tiles=3 --set @1:bench_iters="$T/n7.bin" --set @0:bench_iters="$T/n9.bin" \
        --set @2:bench_iters="$T/n9.bin" --dump tmem@ipu0.tile1:$addr:4="$T/g1.bin" > "$T/ipu.txt" 2>&1 \
        || no "ipu text run: $(tail -3 "$T/ipu.txt")"
    grep -q '^group ipu0: units 3 (7 threads each, [0-9]* MHz), cycles [0-9]* ([0-9.]* s), instructions 1161, ' "$T/ipu.txt" \
        && echo "ok: text statistics: group ipu0 line" || no "text group line: $(grep '^group' "$T/ipu.txt")"
    head -c 4 "$T/g1.bin" > "$T/g1w.bin" 2>/dev/null
    cmp -s "$T/g1w.bin" "$T/n7.bin" && echo "ok: --dump tmem@ipu0.tile1 reads tile 1's 7" \
        || no "--dump tmem@ipu0.tile1: $(od -An -tu4 "$T/g1.bin" 2>&1)"
    # --symbols PATH=FILE: vadd_f32.S's symbols name tile 1's addresses (its `out`, 0x4c300,
    # is past loop6's image, which neither program touches), so @ipu0.tile1:out is a
    # place --set writes and --get reads back; tile 0 keeps loop6's symbols (no `out`)
    "$X" asm --isa ipu -I programs/ipu programs/ipu/vadd_f32.S -o "$T/vadd.elf" || { echo "FAIL: asm vadd"; exit 1; }
    "$X" run "$T/loop6.elf" -o tiles=3 --symbols ipu0.tile1="$T/vadd.elf" --set @ipu0.tile1:out="$T/n7.bin" \
        --get @ipu0.tile1:out:4="$T/o1.bin" --quiet > "$T/sym.out" 2>&1 || no "--symbols run: $(cat "$T/sym.out")"
    cmp -s "$T/o1.bin" "$T/n7.bin" && echo "ok: --symbols ipu0.tile1: --set/--get @ipu0.tile1:out" \
        || no "--symbols: $(od -An -tu4 "$T/o1.bin" 2>&1)"
    "$X" run "$T/loop6.elf" -o tiles=3 --symbols ipu0.tile1="$T/vadd.elf" --get @0:out:4 --quiet > "$T/sym.out" 2>&1 \
        && no "tile 0 found vadd's out"
    grep -q "no symbol 'out' in .*loop6.elf" "$T/sym.out" || no "tile 0 symbols: $(cat "$T/sym.out")"
    "$X" run "$T/loop6.elf" -o tiles=3 --symbols ipu0="$T/vadd.elf" --get @2:out:4 --quiet > "$T/sym.out" 2>&1 \
        || no "--symbols ipu0 (the group's): $(cat "$T/sym.out")"
    "$X" run "$T/loop6.elf" --symbols ipu0.tile9="$T/vadd.elf" --quiet > "$T/sym.out" 2>&1 && no "--symbols to no unit"
    grep -q "no unit or group 'ipu0.tile9'" "$T/sym.out" || no "bad --symbols path: $(cat "$T/sym.out")"
    # the debugger: the tree and selection by path
    cat > "$T/s.x" <<'EOS'
info units
unit ipu0.tile2
unit
thread ipu0.tile1.3
unit ipu0.tile9
info groups
threads ipu0.tile1
threads nosuch
EOS
    "$X" debug "$T/loop6.elf" -o tiles=3 -x "$T/s.x" > "$T/dbg.out" 2>&1
    for want in 'machine (ipu): 1 group(s), 3 unit(s)' '  group ipu0: 3 unit(s) of 7 thread(s) at [0-9]* MHz' \
        '    unit ipu0.tile2 (#2): 7 thread(s) at [0-9]* MHz' 'thread #14: tile2 thread 0' \
        'unit ipu0.tile2 (#2), thread 0' 'thread #10: tile1 thread 3' "error: unit: no unit 'ipu0.tile9'"; do
        grep -q "^$want" "$T/dbg.out" || no "debugger: no line '$want' in: $(cat "$T/dbg.out")"
    done
    [ "$(grep -c '^machine (ipu)' "$T/dbg.out")" = 2 ] || no "info groups is not info units"
    # `threads ipu0.tile1`: tile 1's seven threads only (flat numbers 7..13)
    [ "$(grep -c '^[ *]  [0-9]* *tile1 ' "$T/dbg.out")" = 7 ] && ! grep -q '^[ *]  [0-9]* *tile[02] ' "$T/dbg.out" \
        || no "threads ipu0.tile1: $(grep 'tile[0-9] ' "$T/dbg.out")"
    grep -q "^error: threads: no group or unit 'nosuch'" "$T/dbg.out" || no "threads nosuch"
    [ $fail -eq 0 ] && echo "ok: debugger info units, unit PATH, thread PATH.N"
    # the GDB stub: thread names carry the path
    timeout 60 "$PY" - "$X" "$T/loop6.elf" <<'EOF' || no "gdb qXfer:threads"
import sys
sys.path.insert(0, "tests/cli")
from gdb_rsp import Server, Fail
s = Server([sys.argv[1], "gdbserver", sys.argv[2], "-o", "tiles=3", "--port", "0", "--quiet"])
try:
    sup = s.ask("qSupported")
    assert "qXfer:threads:read+" in sup, sup
    xml = ""
    while True:
        r = s.ask("qXfer:threads:read::%x,80" % len(xml))
        xml += r[1:]
        if r[0] == "l":
            break
        assert r[0] == "m", r[:20]
    assert xml.count("<thread ") == 21, xml
    assert '<thread id="b" core="1" name="ipu0.tile1.3"/>' in xml, xml
    assert '<thread id="14" core="2" name="ipu0.tile2.5"/>' in xml, xml
    info = bytes.fromhex(s.ask("qThreadExtraInfo,b")).decode()
    assert info.startswith("ipu0.tile1 thread 3, "), info
    tree = s.monitor("units")
    assert "machine (ipu): 1 group(s), 3 unit(s)" in tree and "unit ipu0.tile2 (#2)" in tree, tree
    s.send("k")
    s.close()
except (Fail, AssertionError) as e:
    s.kill()
    print("FAIL:", e)
    sys.exit(1)
print("ok: gdb qXfer:threads names ipu0.tile1.3 (21 threads), qThreadExtraInfo the path")
EOF
fi

if "$X" isas | grep -q '^cert'; then
    # two columns: multi_uc has control code for uCs in both (-o columns=2)
    "$X" asm --isa cert -o aiebu=2025.02 programs/cert/multi_uc.asm -o "$T/c.elf" || { echo "FAIL: asm multi_uc"; exit 1; }
    "$X" run "$T/c.elf" --quiet --stats=json --stats-file "$T/cert.json" > "$T/cert.out" 2>&1 \
        || no "cert run: $(tail -3 "$T/cert.out")"
    check_groups "$T/cert.json" || no "cert groups do not add up"
    # uC 1's control code is its own space: by its path (ctrl@col1.uc1) as by ctrl.1
    printf 'x ctrl@col1.uc1:0 4\nx ctrl.1:0 4\nx ctrl@col1.uc7:0 4\n' > "$T/c.x"
    "$X" debug "$T/c.elf" -x "$T/c.x" > "$T/c.out" 2>&1
    [ "$(grep -c '^ctrl.1:0x00000000: 0x[0-9a-f]* ' "$T/c.out")" = 2 ] \
        && [ "$(grep '^ctrl.1:0x0' "$T/c.out" | sort -u | wc -l)" = 1 ] && grep -q "no memory space 'ctrl@col1.uc7'" "$T/c.out" \
        && echo "ok: cert ctrl@col1.uc1 is ctrl.1" || no "cert unit space by path: $(cat "$T/c.out")"
    grep -q '^  "groups": \[{"name": "col0", "path": "col0", "index": 0, ' "$T/cert.json" \
        && echo "ok: cert uCs in column groups" || no "cert groups line: $(grep '"groups"' "$T/cert.json" | cut -c1-200)"
fi
[ $fail -eq 0 ] && echo "ok: group statistics, paths, debugger and GDB"
exit $fail
