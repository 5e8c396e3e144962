#!/bin/sh
# tests/dpu/host_bounds.t.sh: host transfers by symbol check every number the user gives
# before using it (issue 8): a SYMBOL+OFF that would wrap the 64-bit address around, an
# offset or a write past the end of a sized symbol, a --scatter chunk whose product with
# the unit count wraps, and a --get length over the transfer limit are errors that name
# the option, with exit status 1, never a write somewhere else or a crash.
# vecadd_n is a 4-byte WRAM word (programs/dpu/vecadd.s: .size vecadd_n, 4).
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
"$X" asm --isa dpu programs/dpu/vecadd.s programs/dpu/rt/*.s -o "$T/va.elf" || { echo "FAIL asm"; exit 1; }
printf '\100\000\000\000' > "$T/n4.bin"
printf '\100\000\000\000\000\000\000\000' > "$T/n8.bin"
expect_err() { # WHAT PATTERN ARGS...: must exit 1 with PATTERN on stderr
    what=$1; pat=$2; shift 2
    "$X" run "$T/va.elf" --quiet "$@" >"$T/out" 2>"$T/err"; rc=$?
    if [ $rc -eq 1 ] && grep -q -- "$pat" "$T/err"; then ok "$what"; else bad "$what: exit $rc: $(cat "$T/err")"; fi
}
# 2^64 - 4: SYMBOL+OFF used to wrap around to the address just before the symbol
expect_err "--set offset past the symbol" "past the end of 'vecadd_n'" --set "vecadd_n+18446744073709551612=$T/n4.bin"
expect_err "--get offset past the symbol" "past the end of 'vecadd_n'" --get "vecadd_n+18446744073709551612:4"
expect_err "--set 8 bytes into a 4-byte symbol" "8 bytes at offset 0 do not fit in 'vecadd_n' (4 bytes)" --set "vecadd_n=$T/n8.bin"
expect_err "--set 4 bytes at offset 2" "4 bytes at offset 2 do not fit" --set "vecadd_n+2=$T/n4.bin"
expect_err "--get :LEN past the symbol" "do not fit in 'vecadd_n'" --get "vecadd_n:5"
# chunk * 2 units = 2^64 + 8 wraps to 8 = the file's size: it used to pass and copy 2^63 bytes
"$X" run "$T/va.elf" -o dpus=2 -o mram=1 --quiet --scatter "vecadd_n=$T/n8.bin:9223372036854775812" >"$T/out" 2>"$T/err"; rc=$?
if [ $rc -eq 1 ] && grep -q "are not 2 chunks" "$T/err"; then ok "--scatter chunk overflow"; else bad "--scatter chunk overflow: exit $rc: $(cat "$T/err")"; fi
# a length the host could not allocate is refused by its number, not tried
"$X" run "$T/va.elf" --quiet --get "__sys_used_mram_end:99999999999999" >"$T/out" 2>"$T/err"; rc=$?
if [ $rc -eq 1 ] && grep -q "over the 1073741824-byte limit" "$T/err"; then ok "--get huge length"; else bad "--get huge length: exit $rc: $(cat "$T/err")"; fi
# a symbol without a size: the sum itself must not wrap around
expect_err "offset wrapping the address space" "wraps around the address space" --set "vecadd_bufb+18446744073709551615=$T/n4.bin"
# the legitimate transfers still work
"$X" run "$T/va.elf" --quiet --set "vecadd_n=$T/n4.bin" --get "vecadd_n:4" >"$T/out" 2>"$T/err" || bad "plain --set/--get: $(cat "$T/err")"
grep -q "^40 00 00 00" "$T/out" && ok "plain --set/--get" || bad "plain --set/--get output: $(cat "$T/out")"
# as many --get options as the command line holds (they were limited to 64)
args=""; i=0; while [ $i -lt 100 ]; do args="$args --get vecadd_n:4"; i=$((i + 1)); done
"$X" run "$T/va.elf" --quiet --set "vecadd_n=$T/n4.bin" $args >"$T/out" 2>"$T/err"; rc=$?
n=$(grep -c "^40 00 00 00" "$T/out")
[ $rc -eq 0 ] && [ "$n" -eq 100 ] && ok "100 --get options" || bad "100 --get options: exit $rc, $n outputs: $(head -c 200 "$T/err")"
exit $fail
