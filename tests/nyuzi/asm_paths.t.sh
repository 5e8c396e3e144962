#!/bin/sh
# tests/nyuzi/asm_paths.t.sh: the assembler runs the C preprocessor with an argument vector,
# never a shell (issue 8). A source directory and an include directory whose names hold a
# quote, a double quote, `;`, `$(...)` and spaces must work as plain names, and nothing in a
# name may run: before the fix, -o include= was pasted into a shell command line, so the
# directory below ran `touch` and the directory named it's broke the command.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
cd "$T" || exit 1
inc="inc'; touch PWNED1; echo '"
src="it's \"dir\" \$(touch PWNED2); x"
mkdir -p "$inc" "$src"
printf '#define VALUE 0x1234\n' > "$inc/defs.h"
printf '#define OTHER 7\n' > "$src/local.h"
cat > "$src/prog.S" <<'EOS'
#include "defs.h"
#include "local.h"
                .globl _start
_start:         li s0, VALUE
                move s1, OTHER
                setcr s0, 29
EOS
if ! "$XPUSIM" asm --isa nyuzi "$src/prog.S" -o "$T/out.elf" -o "include=$inc" 2>"$T/err"; then
    echo "FAIL: assembling from odd directory names: $(cat "$T/err")"; fail=1
fi
for p in PWNED1 PWNED2; do
    if [ -e "$T/$p" ] || [ -e "$T/$src/$p" ] || [ -e "$p" ]; then
        echo "FAIL: a directory name ran a command ($p exists)"; fail=1
    fi
done
# the assembled words: li s0, 0x1234 must hold the value from the include directory
if [ $fail -eq 0 ] && ! "$XPUSIM" disasm "$T/out.elf" | grep -q 'move s0, 4660'; then
    echo "FAIL: the include file's value is not in the program"; "$XPUSIM" disasm "$T/out.elf" | head; fail=1
fi
# a source file whose name starts with '-' is a file, not a cpp option
cp "$src/prog.S" -- "-o.S" 2>/dev/null || cp "$src/prog.S" "./-o.S"
cp "$src/local.h" .
if ! "$XPUSIM" asm --isa nyuzi ./-o.S -o "$T/dash.elf" -o "include=$inc" 2>"$T/err2"; then
    echo "FAIL: a source named -o.S: $(cat "$T/err2")"; fail=1
fi
[ $fail -eq 0 ] && echo "ok: cpp arguments are names, never shell syntax"
exit $fail
