#!/bin/sh
# tests/nyuzi/hex_address.t.sh: elf2hex images with "@address" lines load as the RTL's
# testbench ($readmemh) and the reference emulator load them (issue 15 point 4): the generic
# image loader used to refuse the file before the Nyuzi reader saw it. The same program as
# one contiguous image, as two halves each after its own @ line, and with the halves in the
# opposite order must all PASS with identical statistics.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
"$X" asm --isa nyuzi tests/nyuzi/progs/alu.S -o "$T/alu.elf" || exit 1
sh scripts/bench/elf2hex.sh "$T/alu.elf" "$T/a.hex" || exit 1
n=$(wc -l < "$T/a.hex"); h=$((n / 2))
{ printf '@0\n'; head -n $h "$T/a.hex"; printf '// second half\n@%x\n' $h; tail -n +$((h + 1)) "$T/a.hex"; } > "$T/b.hex"
{ printf '@%x\n' $h; tail -n +$((h + 1)) "$T/a.hex"; printf '@00000000\n'; head -n $h "$T/a.hex"; } > "$T/c.hex"
for v in a b c; do
    out=$("$X" run "$T/$v.hex" --isa nyuzi --quiet --stats=json --stats-file "$T/$v.json" 2>&1); rc=$?
    case "$out" in PASS*) [ $rc -eq 0 ] || { echo "FAIL $v.hex: exit $rc"; fail=1; } ;; *) echo "FAIL $v.hex: $out"; fail=1 ;; esac
    grep -v '"host":' "$T/$v.json" > "$T/$v.stats"
done
cmp -s "$T/a.stats" "$T/b.stats" && cmp -s "$T/a.stats" "$T/c.stats" || { echo "FAIL: statistics differ between the layouts"; fail=1; }
[ $fail -eq 0 ] && echo "ok: @address images run as the contiguous one ($n words)"
exit $fail
