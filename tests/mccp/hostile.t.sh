#!/bin/sh
# tests/mccp/hostile.t.sh: MCCP guest programs that try to leave the core (issue 8), each
# stopping with a reason and the right exit status (under ASan + UBSan in the second pass of
# make test): a load/store at the last RAM word (inside the stack region: a stack
# protection fault, exit 2), an endless loop and unbounded recursion (stopped by
# --max-cycles, exit 3, with the core's state listed), a jump to the last ROM word (the
# rest of the ROM runs as zero words until the limit).
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
SUFFIX=mccp OUT=out
. tests/hostile_lib.sh
prog() { # NAME EXIT PATTERN BODY
    printf '%b' "$4" > "$T/$1.mccp"
    hostile_case "$1" "$2" "$3" --isa mccp -- -o cores=0 --headless --quiet --max-cycles 2000000
}
prog ram_end 2 "stack protection fault: core 0 load from address 0x0000ffff" 'movimm reg1 65535\nload reg2 reg1\nstore reg2 reg1\nint 1\n'
prog endless 3 "core0 thread 0: running" 'L:\njmp L\n'
prog recurse 3 "cycle limit 2000000 reached" 'F:\ncall F\n'
prog jump_past 3 "cycle limit 2000000 reached" 'movimm reg5 8191\njmp reg5\n'
exit $fail
