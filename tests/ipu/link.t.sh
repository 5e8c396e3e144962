#!/bin/sh
# tests/ipu/link.t.sh: the IPU linker from the command line (isa/ipu/link.c; the relocation
# types themselves are checked in tests/ipu/test_link.c). Our vadd_f32 kernel assembled to
# an object and linked alone (`xpusim asm --isa ipu vadd_f32.o -o x.elf`) gives the same
# allocated sections and entry as assembling the source straight to an executable, and both
# images compute the same output with the same cycle count; `xpusim run` still refuses the
# object itself; linking into a .o (a partial link) is refused with a clear message.
R=${XPUSIM_ROOT:-.}; X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export XPUSIM_ROOT="$R"
fail=0
P=$R/programs/ipu
"$X" asm --isa ipu "$P/vadd_f32.S" -o "$T/direct.elf" || exit 1
"$X" asm --isa ipu "$P/vadd_f32.S" -o "$T/v.o" || exit 1
"$X" asm --isa ipu "$T/v.o" -o "$T/linked.elf" || { echo "FAIL: linking v.o"; exit 1; }
# every allocated section: name, address, size and bytes
secs() { readelf -SW "$1" | sed 's/^ *\[ *[0-9]*\] //' | awk '$1 ~ /^\./ && $7 ~ /A/ && $5 != "000000" { print $1, $3, $5 }' |
         while read -r s a n; do echo "$s $a $n"; readelf -x "$s" "$1" | grep '^  0x'; done; }
secs "$T/direct.elf" > "$T/d.txt"; secs "$T/linked.elf" > "$T/l.txt"
if [ -s "$T/d.txt" ] && cmp -s "$T/d.txt" "$T/l.txt"; then echo "ok linked object = direct image ($(grep -c '^[.]' "$T/d.txt") sections)"
else echo "FAIL: the linked image differs"; diff "$T/d.txt" "$T/l.txt" | head; fail=1; fi
e1=$(readelf -h "$T/direct.elf" | grep Entry); e2=$(readelf -h "$T/linked.elf" | grep Entry)
[ -n "$e1" ] && [ "$e1" = "$e2" ] && echo "ok same entry" || { echo "FAIL entry: $e1 / $e2"; fail=1; }
# the same inputs (96 floats of a fixed pattern, 0x3f80xxxx) through both images
awk 'BEGIN { for (i = 0; i < 96; i++) printf "%c%c%c%c", 0, 0, 128 + i % 64, 63 }' > "$T/a"
cp "$T/a" "$T/b"
for k in direct linked; do
    "$X" run "$T/$k.elf" --quiet --stats=text --stats-file "$T/$k.stats" --set in_a="$T/a" --set in_b="$T/b" \
        --get out:384="$T/$k.out" || { echo "FAIL: running $k"; fail=1; }
done
cmp -s "$T/direct.out" "$T/linked.out" && [ -s "$T/direct.out" ] && echo "ok same output" || { echo "FAIL output"; fail=1; }
# cycles: both halt at 6 x 44 + 13 = 277 (44 bundles per worker, derived in programs.t.sh)
c1=$(awk '/^cycles:/ { print $2 }' "$T/direct.stats"); c2=$(awk '/^cycles:/ { print $2 }' "$T/linked.stats")
[ "$c1" = 277 ] && [ "$c2" = 277 ] && echo "ok same cycles (277)" || { echo "FAIL cycles: $c1 / $c2, want 277"; fail=1; }
# errors
if "$X" run "$T/v.o" --quiet 2>"$T/e.txt"; then echo "FAIL: run accepted an object"; fail=1
else echo "ok run refuses the object: $(head -1 "$T/e.txt")"; fi
if "$X" asm --isa ipu "$T/v.o" -o "$T/p.o" 2>"$T/e.txt"; then echo "FAIL: partial link accepted"; fail=1
elif grep -q "partial link" "$T/e.txt"; then echo "ok partial link refused"
else echo "FAIL partial link message: $(cat "$T/e.txt")"; fail=1; fi
printf '.data\n.word nowhere\n' > "$T/u.S"
if "$X" asm --isa ipu "$T/v.o" "$T/u.S" -o "$T/u.elf" 2>"$T/e.txt"; then echo "FAIL: undefined symbol linked"; fail=1
elif grep -q "u.S (assembled): section .data offset 0x0: R_COLOSSUS_32: undefined symbol 'nowhere'" "$T/e.txt"; then
    echo "ok undefined symbol named with the source"
else echo "FAIL undefined message: $(cat "$T/e.txt")"; fail=1; fi
exit $fail
