#!/bin/sh
# tests/cli/debug_hostile.t.sh: every debugger command is untrusted input (issue 8): counts,
# addresses, thread numbers and values beyond 64 bits, negative or past the memory get an
# "error: ..." line naming what was expected, never a crash, a hang or a huge allocation;
# the session goes on and ends normally. Runs under ASan+UBSan in the second pass of
# make test, where an overflow would abort.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
"$X" asm --isa mccp programs/mccp/demo.mccp -o "$T/d.out" || exit 1
cat > "$T/h.gdb" <<'EOS'
x ram:99999999999 999999999
x ram:0 99999999999999999999
disasm -1 -5
disasm 0 999999999999
step 99999999999999999999
step -3
thread 99
thread -1
set reg1 99999999999999999999999
print $nosuch
watch ram:99999999999
history 99999999999999
frobnicate 1 2 3
until cycle 18446744073709551615
echo still here
quit
EOS
timeout 60 "$X" debug "$T/d.out" --load ram:0=programs/mccp/demo-input.txt --max-cycles 200000 -x "$T/h.gdb" >"$T/out" 2>&1
rc=$?
fail=0
[ $rc -eq 0 ] || { echo "FAIL: exit $rc"; fail=1; }
for want in "x: bad count '99999999999999999999'" "disasm: bad count '999999999999'" \
            "step: '99999999999999999999' is not a positive count" "step: '-3' is not a positive count" \
            "thread: no thread '99'" "set: bad value '99999999999999999999999'" "no register 'nosuch'" \
            "watch: ram:0x174876e7ff,1 is not all mapped memory" "unknown command 'frobnicate'" \
            "cycle limit 200000 reached" "still here"; do
    grep -qF -- "$want" "$T/out" || { echo "FAIL: no '$want' in the transcript"; fail=1; }
done
[ $fail -eq 0 ] && echo "ok: hostile debugger commands answered with errors; the session ended normally"
[ $fail -eq 0 ] || tail -40 "$T/out"
exit $fail
