#!/bin/sh
# tests/nyuzi/rtl/make_program.sh NAME.THREADS OUT.S: writes the timing micro-benchmark
# NAME for THREADS threads (gen.py) to OUT.S and checks it is byte for byte the program the
# RTL numbers were measured on (programs.sha256). Exits 1 with the reason otherwise.
d=$(dirname "$0")
p=$1; out=$2
want=$(awk -v f="$p.S" '$2 == f {print $1}' "$d/programs.sha256")
[ -n "$want" ] || { echo "make_program: $p is not in $d/programs.sha256" >&2; exit 1; }
python3 "$d/gen.py" "${p%.*}" "${p##*.}" > "$out" || { echo "make_program: gen.py $p failed" >&2; exit 1; }
got=$(sha256sum "$out" | cut -d' ' -f1)
[ "$got" = "$want" ] || { echo "make_program: gen.py writes a different $p.S than the one measured on the RTL" >&2; exit 1; }
