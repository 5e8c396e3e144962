#!/bin/sh
# tests/cli/profile_lines.t.sh: --profile's source lines from DWARF (issue 10 point 3).
# Our assemblers emit no line tables yet, so the test makes an ELF that has them: the DPU
# program tests/cli/progs/dpu_nested.s (main calls outer 3 times, outer calls inner twice; one tasklet) is
# assembled by xpusim, and the host's GNU assembler builds a .debug_line whose rows give
# each IRAM instruction (8 bytes from main's address) the line of nested.s it comes from,
# except inner's second instruction, which says inner.h line 7 (as inlined code would);
# crt0's instructions have no rows. objcopy adds the .debug_* sections to the DPU ELF. Done
# for DWARF 3 (gas's default) and DWARF 5 (.debug_line_str, file entry formats).
# Expected Instructions per source line, by hand: main's lines run once, its loop body
# (call, add, jnz) 3 times; outer's 4 lines 3 times; inner's lines 6 times (2 calls x 3).
# So main = 15, outer = 12 and inner = 18 (12 in nested.s, 6 at inner.h:7), and every line's
# Cycles is 11 x its Instructions (one tasklet issues once every 11 cycles, docs/isa/dpu.md).
# The per-line numbers add up to the per-function totals, in the file and in
# callgrind_annotate's own per-function table and annotated source.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$X" isas | grep -q '^dpu' || { echo "SKIP: no dpu"; exit 0; }
command -v python3 > /dev/null || { echo "SKIP: no python3"; exit 0; }
for t in as ld objcopy readelf; do command -v $t > /dev/null || { echo "SKIP: no $t (binutils)"; exit 0; }; done
cp tests/cli/progs/dpu_nested.s "$T/nested.s" || fail "no tests/cli/progs/dpu_nested.s"
printf '/* inner.h */\n\n\n\n\n\nstatic inline int two(int x) { return x + 2; }\n' > "$T/inner.h"
"$X" asm --isa dpu -o tasklets=1 programs/dpu/rt/crt0.s "$T/nested.s" -o "$T/n.elf" || fail "dpu asm"
main=$(readelf -sW "$T/n.elf" | awk '$8 == "main" {print $2}')
[ -n "$main" ] || fail "no main in the ELF"
# the line program: one row per instruction of nested.s, in order, 8 bytes (8 nops) each
python3 - "$T/nested.s" > "$T/lines.s" <<'PY'
import sys
src = open(sys.argv[1]).read().split("\n")
ins = [i + 1 for i, l in enumerate(src) if l.startswith("\t") and not l.startswith("\t.")]
print('.file 1 "nested.s"\n.file 2 "inner.h"\n.text\n.globl _start\n_start:')
for k, ln in enumerate(ins):
    print(".loc 2 7" if k == len(ins) - 2 else ".loc 1 %d" % ln)
    print("nop;" * 7 + "nop")
PY
build_elf() { # DWARF-VERSION OUT
    (cd "$T" && as --32 --gdwarf-$1 lines.s -o l$1.o 2> /dev/null && ld -m elf_i386 -Ttext=0x$main -e _start l$1.o -o l$1.x) ||
        return 1
    args=""
    for sec in $(readelf -SW "$T/l$1.x" | sed -n 's/.*\] \(\.debug_[a-z_]*\) .*/\1/p'); do
        objcopy --dump-section $sec="$T/s$1$sec" "$T/l$1.x" || return 1
        args="$args --add-section $sec=$T/s$1$sec"
    done
    # the generic ELF target writes e_machine 0: put the DPU's back
    objcopy -I elf32-little -O elf32-little $args "$T/n.elf" "$2" &&
        python3 -c "import sys; o = open(sys.argv[1], 'rb').read(); n = bytearray(open(sys.argv[2], 'rb').read())
n[18:20] = o[18:20]; open(sys.argv[2], 'wb').write(n)" "$T/n.elf" "$2"
}
build_elf 3 "$T/g3.elf" || { echo "SKIP: the host's binutils cannot build the i386 line table"; exit 0; }
build_elf 5 "$T/g5.elf" || fail "DWARF 5 line table"
for v in 3 5; do
    readelf --debug-dump=rawline "$T/g$v.elf" | grep -q "DWARF Version: *$v" || fail "g$v.elf: not DWARF $v"
    "$X" run "$T/g$v.elf" --quiet --profile "$T/p$v" > /dev/null 2> "$T/err$v" || fail "run g$v.elf"
    [ ! -s "$T/err$v" ] || fail "g$v.elf: $(cat "$T/err$v")"
    python3 - "$T/p$v" <<'PY' || fail "DWARF $v: profile lines"
import sys, os
path = sys.argv[1]
want = {("nested.s", 4): 1, ("nested.s", 5): 1, ("nested.s", 6): 1, ("nested.s", 8): 3, ("nested.s", 9): 3,
        ("nested.s", 10): 3, ("nested.s", 11): 1, ("nested.s", 12): 1, ("nested.s", 13): 1,
        ("nested.s", 15): 3, ("nested.s", 16): 3, ("nested.s", 17): 3, ("nested.s", 18): 3,
        ("nested.s", 20): 6, ("inner.h", 7): 6, ("nested.s", 22): 6}
fnfile = {"main": "nested.s", "outer": "nested.s", "inner": "nested.s"}
lines, funcs, fl, fi, fn, call = {}, {}, None, None, None, False
for l in open(path).read().split("\n"):
    if l.startswith("positions:"): assert l == "positions: instr line", l
    elif l.startswith("fl="): fl = fi = os.path.basename(l[3:])
    elif l.startswith("fi="): fi = os.path.basename(l[3:])
    elif l.startswith("fn="):
        fn = l[3:]
        if fn in fnfile: assert fl == fnfile[fn], "fn=%s in fl=%s" % (fn, fl)
        else: assert fl == "???", "%s has no line rows, fl=%s" % (fn, fl)
    elif l.startswith("calls="): call = True
    elif l.startswith("0x"):
        f = l.split()
        if call: call = False; continue
        ln, ins, cyc = int(f[1]), int(f[2]), int(f[3])
        if fn not in fnfile:
            assert ln == 0, "%s: a line for crt0's %s" % (l, fn); continue
        assert cyc == 11 * ins, l
        lines[(fi, ln)] = lines.get((fi, ln), 0) + ins
        funcs[fn] = funcs.get(fn, 0) + ins
assert lines == want, "per line %s, want %s" % (sorted(lines.items()), sorted(want.items()))
assert funcs == {"main": 15, "outer": 12, "inner": 18}, funcs
# the per-line numbers add up to the per-function totals
assert sum(v for (f, n), v in want.items() if 4 <= n <= 13 and f == "nested.s") == funcs["main"]
assert sum(v for (f, n), v in want.items() if 15 <= n <= 18 and f == "nested.s") == funcs["outer"]
assert sum(v for (f, n), v in want.items() if n >= 20 or f == "inner.h") == funcs["inner"]
print("ok: %s: %d source lines, main 15 outer 12 inner 18" % (os.path.basename(path), len(lines)))
PY
done
cmp -s "$T/p3" "$T/p5" || diff "$T/p3" "$T/p5" | grep -v "^[<>] cmd:\|^[<>] ob=\|^---\|^[0-9c,]*$" | grep -q . &&
    fail "DWARF 3 and 5 give different profiles"
# callgrind_annotate reads the lines: its annotated nested.s and inner.h carry the counts,
# and per function they add up to its table (inner: nested.s:inner 12 + inner.h:inner 6)
if command -v callgrind_annotate > /dev/null; then
    (cd "$T" && callgrind_annotate --auto=yes p5 > ann 2> ann.err) || fail "callgrind_annotate"
    [ ! -s "$T/ann.err" ] || fail "callgrind_annotate: $(head -2 "$T/ann.err")"
    python3 - "$T/ann" <<'PY' || fail "callgrind_annotate's view of the lines"
import re, sys
text = open(sys.argv[1]).read()
table = {m.group(2): int(m.group(1)) for m in re.finditer(r"^ *([0-9,]+) \([ 0-9.]+%\).* (\S+:\S+)(?: \[.*\])?$", text, re.M)}
assert table.get("nested.s:main") == 15 and table.get("nested.s:outer") == 12, table
assert table.get("nested.s:inner") == 12 and table.get("inner.h:inner") == 6, table
def annotated(name):
    part = text.split("-- Auto-annotated source: " + name)[1].split("\n--------")[1]
    rows = []
    for l in part.split("\n"):
        m = re.match(r"^ *([0-9,]+|\.) ", l)
        if m and "=>" not in l:
            rows.append((0 if m.group(1) == "." else int(m.group(1).replace(",", "")), l.split("  ")[-1]))
    return rows
src = annotated("nested.s")
counts = [c for c, _ in src]
assert counts[3:13] == [1, 1, 1, 0, 3, 3, 3, 1, 1, 1], counts
assert sum(counts[3:13]) == table["nested.s:main"] and sum(counts[14:18]) == table["nested.s:outer"], counts
assert counts[19:22] == [6, 0, 6] and sum(counts[19:22]) == table["nested.s:inner"], counts
inner = annotated("inner.h")
assert [c for c, _ in inner][6] == 6 and sum(c for c, _ in inner) == table["inner.h:inner"], inner
print("ok: callgrind_annotate: per-line counts add up to main 15, outer 12, inner 12 + 6")
PY
fi
# bad line tables cost the profile its lines, not the run: a warning, positions: instr
cp "$T/s5.debug_line" "$T/bad_line"
printf '\360\377\377\377' | dd of="$T/bad_line" bs=1 seek=0 conv=notrunc 2> /dev/null # reserved unit_length
objcopy -I elf32-little -O elf32-little --update-section .debug_line="$T/bad_line" "$T/g5.elf" "$T/bad.elf" &&
    python3 -c "import sys; o = open(sys.argv[1], 'rb').read(); n = bytearray(open(sys.argv[2], 'rb').read())
n[18:20] = o[18:20]; open(sys.argv[2], 'wb').write(n)" "$T/n.elf" "$T/bad.elf" || fail "bad ELF"
"$X" run "$T/bad.elf" --quiet --profile "$T/pb" > /dev/null 2> "$T/errb" || fail "a bad line table failed the run"
grep -q "bad.elf: .*the profile has no source lines" "$T/errb" || fail "bad line table: $(cat "$T/errb")"
grep -q "^positions: instr$" "$T/pb" || fail "bad line table: $(grep positions "$T/pb")"
grep -q "^summary: 53 " "$T/pb" || fail "bad line table: the profile lost its counts: $(grep summary "$T/pb")"
echo ok
