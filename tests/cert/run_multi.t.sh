#!/bin/sh
# tests/cert/run_multi.t.sh: two uCs (.attach_to_group 0 and 1) meeting at a remote barrier,
# run and debugged from the command line. Both pages are 56 bytes: fetch 250 + 7 = 257;
# START_JOB 287, EOF 317, dispatch 329. uC 0: MOV 339, REMOTE_BARRIER 364 (blocks). uC 1:
# NOP 339, NOP 349, REMOTE_BARRIER 374 (matures), SAVE_TIMESTAMPS at 374 -> 394, END 424.
# uC 0: dispatch 386, SAVE_TIMESTAMPS at 386 -> 406, END 436. The debugger stops uC 1 at its
# second NOP (0x1c, cycle 339), when uC 0 already waits at $rb0, and checks the views, a
# job's register, the pc (page * 8192 + offset) and per-uC disassembly ("ctrl.1").
set -u
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
cat > "$T/rb.asm" <<'EOS'
.attach_to_group 0
START_JOB 1
  MOV $r3, 0x1234
  REMOTE_BARRIER $rb0, 0x3
  SAVE_TIMESTAMPS 1
END_JOB
EOF
.attach_to_group 1
START_JOB 1
  NOP
  NOP
  REMOTE_BARRIER $rb0, 0x3
  SAVE_TIMESTAMPS 2
END_JOB
EOF
EOS
if ! "$X" asm --isa cert "$T/rb.asm" -o "$T/rb.elf" 2>"$T/asm.err"; then
    echo "SKIP: the CERT assembler cannot build rb.asm yet: $(head -c 200 "$T/asm.err")"
    exit 0
fi
"$X" run "$T/rb.elf" >"$T/out" 2>&1 || no "run: $(tail -3 "$T/out")"
grep -q '^cycles: 436 ' "$T/out" || no "$(grep '^cycles' "$T/out"), expected 436"
grep -q '^uc1: cycles 424,' "$T/out" || no "uc1: $(grep '^uc1' "$T/out")"
grep -q 'stall remote_barrier 10' "$T/out" || no "uc0's barrier stall (374 - 364): $(grep 'thread 0' "$T/out")"

cat > "$T/cmds" <<'EOS'
break 0x1c
continue
assert cycle == 339
info barriers
thread 0.0
info jobs
assert $r3 == 0x1234
assert $pc == 0x20
disasm 0x18 2
thread 1.0
disasm 0x18 2
delete
continue
assert stop halted
assert cycle == 436
thread 0.0
info records
EOS
"$X" debug "$T/rb.elf" -x "$T/cmds" >"$T/dbg" 2>&1 || no "debugger session (an assert failed?): $(cat "$T/dbg")"
grep -q '^\$rb0: party_mask 0x3, arrived 0x1$' "$T/dbg" || no "info barriers: $(cat "$T/dbg")"
grep -q 'REMOTE_BARRIER \$rb0, 0x3 *remote barrier \$rb0 (party_mask 0x3): arrived uC 0; missing uC 1' "$T/dbg" ||
    no "info jobs: $(grep -A3 'info jobs' "$T/dbg")"
grep -q '0x00000018 *MOV \$r3, 0x1234' "$T/dbg" || no "uc0 disassembly: $(grep -A2 'disasm' "$T/dbg")"
grep -q '0x00000018 *NOP' "$T/dbg" || no "uc1 disassembly (ctrl.1): $(grep -A2 'disasm' "$T/dbg")"
grep -q 'uc0 page 0 offset 0x0028 SAVE_TIMESTAMPS id 1: cycle 386' "$T/dbg" || no "info records: $(tail -3 "$T/dbg")"
[ $fail -eq 0 ] && echo ok
exit $fail
