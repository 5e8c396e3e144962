#!/bin/sh
# Bad input to the xpusim command line gives a clear message and a non-zero exit, never a
# crash: unknown commands and options, missing values, missing files, unknown ISAs, malformed
# images (the message names file, line and what was expected).
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
# expect EXIT-CODE PATTERN -- ARGS...: run xpusim, check exit status and that stderr matches
expect() {
    code=$1; pat=$2; shift 3
    "$X" "$@" >"$T/out" 2>"$T/err"; rc=$?
    if [ "$rc" != "$code" ] || ! grep -q -- "$pat" "$T/err"; then
        echo "FAIL: xpusim $* -> exit $rc (want $code), stderr: $(cat "$T/err")"; fail=1
    else
        echo "ok: xpusim $* -> $rc: $(head -n 1 "$T/err")"
    fi
}
expect 1 "usage" -- 
expect 1 "unknown command 'fly'" -- fly prog
expect 1 "unknown option '--bogus'" -- run --bogus prog
expect 1 "--isa needs a value" -- run prog --isa
expect 1 "missing PROGRAM" -- run
expect 1 "cannot open" -- run "$T/nonexistent.out"
printf '0101\n' > "$T/short.out"
expect 1 "short.out:1: expected 32 binary digits, found 4" -- run "$T/short.out"
printf '00000000000000000000000000000000\n0000000000000000000000000000000x\n' > "$T/bad.out"
expect 1 "bad.out:2: column 32: expected '0' or '1'" -- info "$T/bad.out"
printf '1 2 three\n' > "$T/bad.txt"
expect 1 "bad.txt:1: column 5: expected a decimal integer" -- info "$T/bad.txt"
printf '\177ELF\001\001\001' > "$T/trunc.elf"
expect 1 "truncated ELF header" -- info "$T/trunc.elf"
expect 1 "no ISA recognises ELF e_machine 62" -- run /bin/true
expect 1 "unknown ISA 'z80'" -- run /bin/true --isa z80
expect 1 "expected text or json" -- run x --stats=xml
expect 1 "max-cycles 'ten': expected a number" -- run x --max-cycles ten
expect 1 "-o 'cores': expected KEY=VALUE" -- run x -o cores
expect 1 "usage: xpusim asm" -- asm foo.s
# assembler options are checked against the ISA's table: a typo is an error, not the default
expect 1 "unknown assembler option 'taskelts' for ISA dpu; known: tasklets stack gc lib" -- asm --isa dpu programs/dpu/vecadd.s -o "$T/x.elf" -o taskelts=4
expect 1 "unknown assembler option 'foo' for ISA mccp; known: (none)" -- asm --isa mccp programs/mccp/demo.mccp -o "$T/x.out" -o foo=1
"$X" --help | grep -q "xpusim run PROGRAM" || { echo "FAIL: --help"; fail=1; }
# --version: one line naming the commit built (git describe), "unknown" only outside git
v=$("$X" --version) && echo "$v" | grep -Eqx 'xpusim [A-Za-z0-9._+-]+' || { echo "FAIL: --version: $v"; fail=1; }
[ "$("$X" version)" = "$v" ] || { echo "FAIL: version differs from --version"; fail=1; }
if git rev-parse --git-dir >/dev/null 2>&1 && [ "$v" = "xpusim unknown" ]; then
    echo "FAIL: --version built in a git checkout says unknown"; fail=1
fi
"$X" isas >"$T/isas" || { echo "FAIL: isas"; fail=1; }
exit $fail
