#!/bin/sh
# tests/mccp/grant.t.sh: the arbiter's grants made inside a core's burst (isa/mccp/cluster.c
# mccp_cluster_grant, called by the fast loop's load or store in a plain run) give the
# results the event queue gives. With `--trace /dev/null` every core runs one instruction
# at a time in step with the queue (the arbiter's grants are events taken in cycle order),
# so the full statistics, the RAM and the output of each program must be the same with and
# without it. The programs make the cores contend for the arbiter at changing distances
# (core c spins c + 1 times between its accesses, loads what it stored, and branches on it),
# so that some grants can be made inside a burst and others must wait for another core's
# event; one core alone (every grant inside its burst); and the bench's draw.mccp (a store
# every 7 instructions) on 4 cores and on one, with a warm restart and cut by cycle limits.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
n=0
# same NAME RUN-ARGS...: the plain run and the traced run agree
same() {
    name=$1; shift
    "$X" run "$@" --headless --quiet --stats=json --stats-file "$T/a.json" --mem-hash "$T/a.mem" > "$T/a.out" 2>&1
    echo "exit $?" >> "$T/a.out"
    "$X" run "$@" --headless --quiet --stats=json --stats-file "$T/b.json" --mem-hash "$T/b.mem" \
        --trace /dev/null > "$T/b.out" 2>&1
    echo "exit $?" >> "$T/b.out"
    grep -v '"host"' "$T/a.json" > "$T/a.j" && grep -v '"host"' "$T/b.json" > "$T/b.j" || fail "$name: no statistics"
    cmp -s "$T/a.j" "$T/b.j" || fail "$name: the statistics differ: $(diff "$T/a.j" "$T/b.j" | head -6)"
    cmp -s "$T/a.mem" "$T/b.mem" || fail "$name: the RAM differs"
    cmp -s "$T/a.out" "$T/b.out" || fail "$name: the output differs: $(diff "$T/a.out" "$T/b.out" | head -4)"
    n=$((n + 1))
}
cat > "$T/mix.mccp" << 'EOF'
xor reg3 reg3
coreidx reg3
movimm reg1 300
mov reg4 reg3
add reg4 100
OUTER:
store reg1 reg4
mov reg2 reg3
inc reg2
INNER:
dec reg2
jne INNER
load reg0 reg4
add reg0 reg3
cmp reg0 reg1
jne ODD
inc reg0
ODD:
store reg0 reg4
dec reg1
jne OUTER
int 1
EOF
"$X" asm --isa mccp "$T/mix.mccp" -o "$T/mix.out" || fail "asm mix"
same mix "$T/mix.out"
same mix-1core "$T/mix.out" -o cores=2
same mix-2cores "$T/mix.out" -o cores=1,2
same mix-3cores "$T/mix.out" -o cores=0,2,3 -o arbiter_phase=1
same mix-restart "$T/mix.out" -o warm_restart=2 -o arbiter_phase=0
for mc in 3001 7777 12346; do
    same "mix --max-cycles $mc" "$T/mix.out" --max-cycles $mc
done
"$X" asm --isa mccp programs/mccp/draw.mccp -o "$T/draw.out" || fail "asm draw"
same draw "$T/draw.out" -o warm_restart=1
same draw-1core "$T/draw.out" -o cores=0 -o warm_restart=1
same "draw-1core --max-cycles 50001" "$T/draw.out" -o cores=3 --max-cycles 50001
same "draw --max-cycles 100003" "$T/draw.out" --max-cycles 100003
echo "ok: $n programs, the same results with the grants inside the bursts and in the queue's order"
