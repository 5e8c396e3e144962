#!/bin/sh
# tests/nyuzi/rtl_mem.t.sh: memory-system and multi-core timing regression against numbers
# measured on Verilator builds of the NyuziProcessor RTL with 1, 2 and 4 cores
# (tests/nyuzi/rtl/expected_mem.txt; how they were measured is in docs/validation/nyuzi.md).
# Each program comes from gen_mem.py (checked byte for byte against programs_mem.sha256,
# the programs the RTL ran), is turned into the elf2hex image the RTL ran and runs with
# -o cores=C; every thread prints the cycles of its timed body (first and second pass), and
# the second pass must equal the RTL's number within the stated tolerance: each thread's,
# or with `sum` in the fourth field the sum over the threads (bodies whose threads share a
# resource in an order the model does not reproduce thread for thread). Only bodies the
# model matches are listed; the others and their errors are in the docs.
set -u
command -v python3 >/dev/null || { echo "SKIP: python3 not found"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
D=tests/nyuzi/rtl
fail=0; n=0
# expected_mem.txt's numbers are a subset of the measurements (measured_mem.txt, every
# configuration the RTL ran, stock and holding-RAM builds): one edited without the other fails
python3 - <<'PY' || fail=1
import sys
m = {}
for line in open('tests/nyuzi/rtl/measured_mem.txt'):
    if line.startswith('#') or not line.strip():
        continue
    p, s, h = [x.strip() for x in line.split('|')]
    m[p] = [s.split()] + ([] if h == '=' else [h.split()])
bad = 0
for line in open('tests/nyuzi/rtl/expected_mem.txt'):
    if line.startswith('#') or not line.strip():
        continue
    f = [x.strip() for x in line.split('|')]
    if f[1].split() not in m.get(f[0], []):
        print('FAIL %s: expected_mem.txt has %s, measured_mem.txt %s' % (f[0], f[1], m.get(f[0])))
        bad = 1
sys.exit(bad)
PY
# every program's source and image first, with one python3 each for gen_mem.py and elf2hex.py
# (run as scripts, as from the command line: sys.argv set, stdout to the file): T/PROG.S, .hex
progs=$(awk -F'|' '!/^#/ && NF > 1 {gsub(/ /, "", $1); print $1}' $D/expected_mem.txt)
python3 - "$T" $progs <<'PY' || { echo "FAIL gen"; exit 1; }
import runpy, sys, contextlib
t, progs = sys.argv[1], sys.argv[2:]
for prog in progs:
    name, cfg = prog.rsplit('.', 1); cores, threads = cfg[1:].split('t')
    with open('%s/%s.S' % (t, prog), 'w') as f, contextlib.redirect_stdout(f):
        sys.argv = ['gen_mem.py', name, cores, threads]
        runpy.run_path('tests/nyuzi/rtl/gen_mem.py')
PY
for prog in $progs; do
    sum=$(sha256sum "$T/$prog.S" | cut -d' ' -f1)
    ref=$(awk -v f="$prog.S" '$2 == f {print $1}' $D/programs_mem.sha256)
    [ "$sum" = "$ref" ] || { echo "FAIL $prog: gen_mem.py writes a different program than the one the RTL ran"; fail=1; rm -f "$T/$prog.S"; continue; }
    "$XPUSIM" asm --isa nyuzi "$T/$prog.S" -o "$T/$prog.elf" || { echo "FAIL build $prog"; fail=1; }
done
python3 - "$T" $progs <<'PY'
import os, runpy, sys
t, progs = sys.argv[1], sys.argv[2:]
for prog in progs:
    e = '%s/%s.elf' % (t, prog)
    if os.path.exists(e):
        sys.argv = ['elf2hex.py', e, '%s/%s.hex' % (t, prog)]
        runpy.run_path('tests/nyuzi/tools/elf2hex.py')
PY
while IFS='|' read -r prog want tol mode; do
    case "$prog" in '#'*|'') continue ;; esac
    prog=$(echo $prog); tol=$(echo $tol); mode=$(echo ${mode:-})
    cfg=${prog##*.}; cores=${cfg#c}; cores=${cores%t*}
    [ -f "$T/$prog.hex" ] || { fail=1; continue; } # (said above)
    got=$("$XPUSIM" run "$T/$prog.hex" --isa nyuzi -o cores=$cores --quiet --max-cycles 2000000 2>/dev/null | tr -d '\000' |
          sed -n 's/^.:[0-9a-f]\{8\} \([0-9a-f]\{8\}\)$/\1/p' | while read -r h; do printf '%d ' $((0x$h)); done)
    ok=1; i=0
    if [ "$mode" = sum ]; then # one number per thread, then the sums within tolerance
        [ $(echo $got | wc -w) = $(echo $want | wc -w) ] || ok=0
        w=0; for x in $want; do w=$((w + x)); done
        g=0; for x in $got; do g=$((g + x)); done
        d=$((g > w ? g - w : w - g))
        [ $((d * 100)) -le $((tol * w)) ] || ok=0
        got="$got(sum $g, RTL $w)"; want=""
    fi
    for w in $want; do
        i=$((i + 1))
        g=$(echo $got | cut -d' ' -f$i)
        [ -n "$g" ] || { ok=0; break; }
        d=$((g > w ? g - w : w - g))
        [ $((d * 100)) -le $((tol * w)) ] || ok=0
    done
    n=$((n + 1))
    if [ $ok = 1 ]; then echo "ok $prog ($got)"; else echo "FAIL $prog: got $got, RTL $want (tolerance $tol%)"; fail=1; fi
done < $D/expected_mem.txt
echo "$n programs"
exit $fail
