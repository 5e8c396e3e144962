#!/bin/sh
# tests/cli/outputs.t.sh: output that cannot be written is an error (issue 8). Every output
# file option and standard output are pointed at /dev/full (every write fails with ENOSPC):
# each must print "xpusim: FILE: No space left on device" and exit non-zero. Before the fix
# --stats-file and --trace were ignored silently, --dump/--profile/--frame-dump/--gather
# exited 1 with no message, and a listing or dump on a full stdout exited 0.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
[ -w /dev/full ] || { echo "SKIP: no /dev/full on this host"; exit 0; }
"$X" asm --isa mccp programs/mccp/demo.mccp -o "$T/d.out" || { echo "FAIL asm"; exit 1; }
"$X" asm --isa dpu programs/dpu/vecadd.s programs/dpu/rt/*.s -o "$T/va.elf" || { echo "FAIL asm dpu"; exit 1; }
RUN="$X run $T/d.out --load ram:0=programs/mccp/demo-input.txt --headless --quiet"
expect_full() { # WHAT PATTERN COMMAND...: exit non-zero with PATTERN on stderr
    what=$1; pat=$2; shift 2
    "$@" >"$T/out" 2>"$T/err"; rc=$?
    if [ $rc -ne 0 ] && grep -q -- "$pat" "$T/err"; then ok "$what"; else bad "$what: exit $rc: $(tail -c 300 "$T/err")"; fi
}
F="/dev/full: No space left on device"
expect_full "--stats-file" "$F" $RUN --stats-file /dev/full
expect_full "--stats=json --stats-file" "$F" $RUN --stats=json --stats-file /dev/full
expect_full "--trace" "$F" $RUN --trace /dev/full
expect_full "--dump =FILE" "$F" $RUN --dump ram:0:4=/dev/full
expect_full "--profile" "$F" $RUN --profile /dev/full
expect_full "--frame-dump" "$F" $RUN --frame-dump /dev/full
expect_full "--get =FILE" "$F" "$X" run "$T/va.elf" --quiet --get vecadd_n:4=/dev/full
expect_full "--gather =FILE" "$F" "$X" run "$T/va.elf" -o dpus=2 --quiet --gather vecadd_n:4=/dev/full
for isa in mccp dpu nyuzi; do
    case $isa in
        mccp) src=programs/mccp/demo.mccp ;;
        dpu) src="programs/dpu/vecadd.s programs/dpu/rt/crt0.s programs/dpu/rt/mutex.s programs/dpu/rt/barrier.s programs/dpu/rt/perfcounter.s programs/dpu/rt/mram.s" ;;
        nyuzi) src=tests/nyuzi/progs/alu.S ;;
    esac
    expect_full "asm --isa $isa -o /dev/full" "$F" "$X" asm --isa $isa $src -o /dev/full
done
# standard output: a dump, a listing and program output on a full stdout
$RUN --dump ram:0:4 >/dev/full 2>"$T/err"; rc=$?
[ $rc -ne 0 ] && grep -q "standard output: No space left on device" "$T/err" && ok "--dump to a full stdout" || bad "--dump to a full stdout: exit $rc: $(cat "$T/err")"
"$X" disasm "$T/d.out" >/dev/full 2>"$T/err"; rc=$?
[ $rc -ne 0 ] && grep -q "standard output: No space left on device" "$T/err" && ok "disasm to a full stdout" || bad "disasm to a full stdout: exit $rc: $(cat "$T/err")"
for cmd in --help --version isas; do
    "$X" $cmd >/dev/full 2>"$T/err"; rc=$?
    [ $rc -ne 0 ] && grep -q "standard output: " "$T/err" && ok "$cmd to a full stdout" || bad "$cmd to a full stdout: exit $rc: $(cat "$T/err")"
done
# and the same outputs to a real file still work, with exit status 0
$RUN --stats-file "$T/s.txt" --trace "$T/t.txt" --dump "ram:0:4=$T/d.bin" --profile "$T/p.out" >/dev/null 2>"$T/err" \
    && [ -s "$T/s.txt" ] && [ -s "$T/t.txt" ] && [ -s "$T/d.bin" ] && [ -s "$T/p.out" ] && ok "writable outputs" || bad "writable outputs: $(cat "$T/err")"
exit $fail
