#!/bin/sh
# tests/ipu/vertex_state.t.sh: the compact vertex-state field types of `--vertex` files
# (isa/ipu/vertex_state.c; docs/isa/ipu.md "Running a vertex"): sptr32, sptr64, sptr128, sspan,
# deltan, ptrs, spans and sspans. A small worker (tests/ipu/vertex_state/copy.S) copies the state's words into an
# output tensor; every expected word is computed here from the tensors' addresses that the
# report prints and the encodings PopLibs' codelets decode (SCALED_PTR32 = (address -
# 0x4c000) / 4 on ipu2, SCALED_PTR64 = address / 8, ShortSpan = address | count << 20, DeltaN =
# base | vectors << 20 and a ScaledPtr32 to entries offset | count << 18). Then the errors.
R=${XPUSIM_ROOT:-.}; X=${XPUSIM:-build/xpusim}
export XPUSIM_ROOT=$R
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
S=$(cd "$R/tests/ipu/vertex_state" && pwd)
# Layout (each field aligned to its size): 0 ptr out; 4 sptr32 a (u16); 6 sptr64 b (u16);
# 8 sspan c; 12 deltan (u32 base|n at 12, u16 table pointer at 16); 18 u16 0x1234; the
# DeltaN table at 20 (4-aligned), 2 entries: the state is 28 bytes, words 1..6 are copied.
cat >"$T/s.vertex" <<EOV
codelet = $S/copy.S
entry = copy
workers = 1
tensor out = u32[6]
tensor a = f32[4]
tensor b = f16[8]
tensor c = u8[10]
state ptr out
state sptr32 a
state sptr64 b
state sspan c
state deltan a+8:2,
             c:3
state u16 0x1234
output out
output a
output b
output c
EOV
"$X" run --vertex "$T/s.vertex" >"$T/out" 2>"$T/err" || no "run: $(cat "$T/err")"
addr() { sed -n "s/^tensor $1 = .* at 0x\([0-9a-f]*\):.*/\1/p" "$T/out"; }
A=$((0x$(addr a))); B=$((0x$(addr b))); C=$((0x$(addr c)))
ST=$((0x$(sed -n 's/.*state at 0x\([0-9a-f]*\) (28 bytes).*/\1/p' "$T/out")))
[ "$ST" -gt 0 ] || no "no 'state at ... (28 bytes)' in: $(cat "$T/out")"
BASE=$(( A + 8 < C ? A + 8 : C ))
W0=$(( ((A - 0x4c000) / 4) | ((B / 8) << 16) ))
W1=$(( C | (10 << 20) ))
W2=$(( BASE | (2 << 20) ))
W3=$(( ((ST + 20 - 0x4c000) / 4) | (0x1234 << 16) ))
W4=$(( (A + 8 - BASE) | (2 << 18) ))
W5=$(( (C - BASE) | (3 << 18) ))
want="$W0 $W1 $W2 $W3 $W4 $W5"
got=$(sed -n '/^tensor out /{n;p}' "$T/out" | sed 's/^ *\[0\] //')
[ "$got" = "$want" ] && echo "ok compact fields: $got" || no "state words: got '$got' want '$want'"

# ptrs, spans (Vector<Vector<T>>) and sptr128: 0 ptr out; 4 ptrs (u32 -> table 1); 8 spans
# (u32 -> table 2); 12 sptr128 q (u16 = address / 16), 14 pad; table 1 at 16: A, B+4; table 2
# at 24: C, 3. 32 bytes; words 1..6 are copied: ST+16, ST+24, Q/16, A, B+4, C.
sed -e '/^state /d' -e '/^output /d' -e '/^ *c:3$/d' "$T/s.vertex" >"$T/l.vertex"
printf '%s\n' 'tensor q = f32[4] align 16' 'state ptr out' 'state ptrs a, b+4' 'state spans c:3' 'state sptr128 q' \
    'output out' 'output a' 'output b' 'output c' 'output q' >>"$T/l.vertex"
"$X" run --vertex "$T/l.vertex" >"$T/out" 2>"$T/err" || no "run lists: $(cat "$T/err")"
A=$((0x$(addr a))); B=$((0x$(addr b))); C=$((0x$(addr c))); Q=$((0x$(addr q)))
ST=$((0x$(sed -n 's/.*state at 0x\([0-9a-f]*\) (32 bytes).*/\1/p' "$T/out")))
want="$((ST + 16)) $((ST + 24)) $((Q / 16)) $A $((B + 4)) $C"
got=$(sed -n '/^tensor out /{n;p}' "$T/out" | sed 's/^ *\[0\] //')
[ "$got" = "$want" ] && echo "ok ptrs/spans tables, sptr128: $got" || no "list words: got '$got' want '$want'"

# sspans: 0 ptr out; 4 sspans (u32 -> table at 8: A | 3 << 20, C | 10 << 20): 16 bytes; the
# first 3 copied words are the state's (what follows it is the output tensor itself)
sed -e '/^state /d' -e '/^output /d' -e '/^ *c:3$/d' "$T/s.vertex" >"$T/ss.vertex"
printf '%s\n' 'state ptr out' 'state sspans a:3, c' 'output out' 'output a' 'output c' >>"$T/ss.vertex"
"$X" run --vertex "$T/ss.vertex" >"$T/out" 2>"$T/err" || no "run sspans: $(cat "$T/err")"
A=$((0x$(addr a))); C=$((0x$(addr c)))
ST=$((0x$(sed -n 's/.*state at 0x\([0-9a-f]*\) (16 bytes).*/\1/p' "$T/out")))
want="$((ST + 8)) $((A | (3 << 20))) $((C | (10 << 20)))"
got=$(sed -n '/^tensor out /{n;p}' "$T/out" | sed 's/^ *\[0\] //' | cut -d' ' -f1-3)
[ "$got" = "$want" ] && echo "ok sspans table: $got" || no "sspans words: got '$got' want '$want'"

# errors, each naming file:line
err() { printf '%s\n' "codelet = $S/copy.S" "entry = copy" "tensor a = f32[4]" "tensor u = u8[5000]" "$2" > "$T/e.vertex"
        if "$X" run --vertex "$T/e.vertex" >/dev/null 2>"$T/e"; then no "$1: accepted"
        elif grep -q -- "$3" "$T/e"; then echo "ok error $1"; else no "$1: $(cat "$T/e")"; fi; }
err sptr32-align 'state sptr32 a+2' 'e.vertex:5: state sptr32 a: address 0x[0-9a-f]* is not 4-byte aligned'
err sptr64-align 'state sptr64 a+4' 'e.vertex:5: state sptr64 a: address 0x[0-9a-f]* is not 8-byte aligned'
err sptr128-align 'state sptr128 a+4' 'e.vertex:5: state sptr128 a: address 0x[0-9a-f]* is not 16-byte aligned'
err sspan-count 'state sspan u' 'e.vertex:5: state sspan u: address 0x[0-9a-f]* or count 5000 does not fit'
err sspans-count 'state sspans a, u' 'e.vertex:5: state sspans u: address 0x[0-9a-f]* or count 5000 does not fit'
err deltan-ref 'state deltan a, nope' 'e.vertex:5: state: no tensor .nope.'
err deltan-syntax 'state deltan a+x' "e.vertex:5: state deltan: expected NAME\[+BYTES\]\[:COUNT\], got 'a+x'"
err ptr-count 'state ptr a:2' "e.vertex:5: state ptr: expected NAME\[+BYTES\], got 'a:2'"
err past-end 'state span a+8:3' 'e.vertex:5: state: a+8:3: past the end of the tensor (16 bytes)'
err kind 'state sptr16 a' "e.vertex:5: state: unknown field kind 'sptr16'"
exit $fail
