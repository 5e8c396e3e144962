#!/bin/sh
# tests/ipu/asm_macro.t.sh: the macro and preprocessor forms PopLibs' codelets rely on, each on
# our own small source, checked by assembling the same instructions written out by hand and
# comparing the words: llvm-mc's macro rules (a quoted argument or default loses its quotes,
# `:vararg` takes the rest of the line with its commas, `:req` is accepted), clang's
# preprocessor keeping a `##` paste that makes no token (`x_##\ARG`) in one piece, a `.equ`
# symbol redefined between uses taking its value at each use, and `$aN:B`
# on an f16v4 form taking its :BL row (docs/isa/ipu.md, "Assembler").
R=${XPUSIM_ROOT:-.}; X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export XPUSIM_ROOT="$R"
fail=0
words() { readelf -x .text "$1" | awk '/^  0x/ { for (i = 2; i <= 5; i++) if ($i ~ /^[0-9a-f]+$/ && length($i) == 8) print $i }' | tr '\n' ' '; }
# same NAME MACRO_SOURCE PLAIN_SOURCE [OPTIONS]: both assemble to the same .text words
same() {
    printf '%s\n' "$2" > "$T/m.S"; printf '%s\n' "$3" > "$T/p.S"
    if ! "$X" asm --isa ipu "$T/m.S" -o "$T/m.o" $4 2>"$T/e"; then echo "FAIL $1: $(cat "$T/e")"; fail=1; return; fi
    "$X" asm --isa ipu "$T/p.S" -o "$T/p.o" || { echo "FAIL $1: plain source"; fail=1; return; }
    a=$(words "$T/m.o"); b=$(words "$T/p.o")
    if [ -n "$a" ] && [ "$a" = "$b" ]; then echo "ok $1"; else echo "FAIL $1: got $a want $b"; fail=1; fi
}

# quoted arguments and defaults: "" is empty, "void" is void (so .ifc "\X","void" holds)
same quoted-default '.macro OP2 INSN OPT="void"
.ifc "\OPT","void"
  \INSN $a0, $a1, $a2
.else
  \INSN $a0, $a1, $a2 \OPT
.endif
.endm
.macro ADDNOP EXTRA=""
  add $m1, $m2, $m3
\EXTRA
.endm
OP2 f32add
OP2 f32sub, "void"
ADDNOP ""
ADDNOP "add $m4, $m5, $m6"' 'f32add $a0, $a1, $a2
f32sub $a0, $a1, $a2
add $m1, $m2, $m3
add $m1, $m2, $m3
add $m4, $m5, $m6'

# a quoted name pasted into a label: "L"_START is L_START
same quoted-label '.macro SZ N
\N\()_START:
  add $m1, $m1, 1
.size \N, . - \N\()_START
.endm
SZ "fn"' 'fn_START:
  add $m1, $m1, 1'

# :vararg takes the rest with its commas; :req is accepted; blanks still separate fixed ones
same vararg '.macro DO N:req, REST:vararg
  \REST
  add $m\N, $m\N, 1
.endm
DO 2, f32add $a0, $a1, $a2
DO 3 f32sub $a4, $a5, $a6' 'f32add $a0, $a1, $a2
add $m2, $m2, 1
f32sub $a4, $a5, $a6
add $m3, $m3, 1'

# a symbol given a new value by each macro use (PopLibs' workDivision.h.S: `.equ SHIFT, ...`
# inside SPLIT_BETWEEN_WORKERS): an instruction takes the value it has where it stands
same equ-redefined '.macro SH D
.equ S, \D
  shl $m1, $m1, S
.endm
SH 2
SH 3
  shl $m2, $m2, S' 'shl $m1, $m1, 2
shl $m1, $m1, 3
shl $m2, $m2, 3'

# $a0:B on f16v4mul (only :BL/:BU rows) is the :BL form
same f16-broadcast 'f16v4mul $a2:3, $a0:B, $a4:5' 'f16v4mul $a2:3, $a0:BL, $a4:5'

# x_##\ARG with a blank before the argument (PopLibs' MultiUpdateOp.S writes
# `NAME(half,  \SCALE_TYPE\())`): GCC's cpp keeps the blank, so the label is split in two;
# clang's cpp pastes the pieces, and the macro then makes fn_x_abc_end
SRC='#define NAME(a, t) fn_##a##_##t##_end
.macro DEF T
.globl NAME(x,  \T\())
NAME(x,  \T\()):
  add $m1, $m1, 1
.endm
DEF abc'
if command -v clang >/dev/null 2>&1; then
    same clang-paste "$SRC" 'fn_x_abc_end:
  add $m1, $m1, 1' "-o cpp=clang"
    readelf -s "$T/m.o" | grep -q ' fn_x_abc_end$' && echo "ok clang-paste symbol" || { echo "FAIL clang-paste symbol"; fail=1; }
    printf '%s\n' "$SRC" > "$T/g.S"
    if "$X" asm --isa ipu "$T/g.S" -o "$T/g.o" -o cpp=gcc 2>/dev/null; then
        echo "FAIL gcc-paste: GCC's cpp was expected to split the name"; fail=1
    else echo "ok gcc-paste (GCC's cpp splits fn_x_ and \\T: why -o cpp prefers clang)"; fi
else
    echo "skip clang-paste: no clang on PATH"
fi
# errors: a :vararg that is not last, an unknown qualifier
printf '.macro M A:vararg, B\n.endm\n' > "$T/e1.S"
"$X" asm --isa ipu "$T/e1.S" -o "$T/e1.o" 2>"$T/e" && { echo "FAIL vararg-not-last assembled"; fail=1; }
grep -q ":1:.*a :vararg parameter must be the last" "$T/e" && echo "ok vararg-not-last error" || { echo "FAIL: $(cat "$T/e")"; fail=1; }
printf '.macro M A:opt\n.endm\n' > "$T/e2.S"
"$X" asm --isa ipu "$T/e2.S" -o "$T/e2.o" 2>"$T/e" && { echo "FAIL qualifier assembled"; fail=1; }
grep -q "unknown parameter qualifier in 'A:opt'" "$T/e" && echo "ok qualifier error" || { echo "FAIL: $(cat "$T/e")"; fail=1; }
# section flags must be a string (llvm-mc); a bare name is an undefined macro
printf '.section .text.x, NOT_DEFINED\n  add $m1, $m1, 1\n' > "$T/e3.S"
"$X" asm --isa ipu "$T/e3.S" -o "$T/e3.o" 2>"$T/e" && { echo "FAIL bare section flags assembled"; fail=1; }
grep -q ":1:.*expected the section flags as a string, got 'NOT_DEFINED'" "$T/e" && echo "ok section flags error" || { echo "FAIL: $(cat "$T/e")"; fail=1; }
exit $fail
