#!/bin/sh
# tests/nyuzi/hostile.t.sh: Nyuzi guest programs that try to leave the core (issue 8), each
# stopping with a reason and the right exit status (under ASan + UBSan in the second pass
# of make test): a load at the last word of memory and one past it, a jump far outside
# memory, an endless loop (--max-cycles, exit 3), unbounded recursion that runs the stack
# below address 0, self-modifying code (a store over the next instruction, flushed and
# invalidated), and an illegal instruction word with no trap handler.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
SUFFIX=S OUT=elf
. tests/hostile_lib.sh
prog() { # NAME EXIT PATTERN BODY: BODY after _start
    printf '.globl _start\n_start:\n%b' "$4" > "$T/$1.S"
    hostile_case "$1" "$2" "$3" --isa nyuzi -- --quiet --max-cycles 2000000
}
prog mem_end 2 "out of range at physical address 0x01000000 (memory is 0x1000000 bytes" \
    '  li s0, 0xffffc\n  load_32 s1, (s0)\n  li s0, 0x1000000\n  load_32 s1, (s0)\n'
prog wild_jump 2 "instruction fetch from 0x7ffffff0 outside memory" '  li s0, 0x7ffffff0\n  b s0\n'
prog endless 3 "core0 thread 0: running" '1: b 1b\n'
prog recurse 2 "memory access out of range at physical address 0xfffe" 'f: sub_i sp, sp, 64\n  store_32 ra, (sp)\n  call f\n'
prog selfmod 3 "cycle limit 2000000 reached" \
    '  lea s0, target\n  li s1, 0\n  store_32 s1, (s0)\n  dflush s0\n  iinvalidate s0\ntarget: nop\n  li s2, 0xffffffff\n  setcr s2, 29\n'
prog illegal 2 "caught fault PRIVILEGED_OP" '  .long 0xffffffff\n'
exit $fail
