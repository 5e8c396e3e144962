#!/bin/sh
# scripts/bench/elf2hex.sh IN.elf OUT.hex: the Nyuzi program image that both xpusim and the
# reference emulator run in `make bench` (so a peer row runs the very same image), without
# Python: the PT_LOAD segments of a 32-bit little-endian ELF at their addresses, word 0
# replaced by a branch to the entry, one 32-bit word per line in memory byte order (the
# elf2hex format; tests/nyuzi/tools/elf2hex.py writes the same text).
[ $# -eq 2 ] || { echo "usage: elf2hex.sh IN.elf OUT.hex" >&2; exit 2; }
[ -r "$1" ] || { echo "elf2hex.sh: cannot read $1" >&2; exit 1; }
od -An -v -tu1 "$1" | awk -v f="$1" '
function u(o, n,   v, i) { v = 0; for (i = n - 1; i >= 0; i--) v = v * 256 + b[o + i]; return v }
function fail(m) { printf "elf2hex.sh: %s: %s\n", f, m > "/dev/stderr"; bad = 1; exit 1 }
{ for (i = 1; i <= NF; i++) b[n++] = $i }
END {
    if (bad) exit 1
    if (n < 52 || b[0] != 127 || b[1] != 69 || b[2] != 76 || b[3] != 70)
        fail("not an ELF file")
    if (b[4] != 1 || b[5] != 1) fail("not a 32-bit little-endian ELF (class " b[4] ", data " b[5] ")")
    entry = u(24, 4); phoff = u(28, 4); phent = u(42, 2); phnum = u(44, 2)
    if (phent < 32 || phoff + phnum * phent > n) fail("program headers beyond the end of the file")
    if (entry % 4 != 0 || entry >= 67108864) fail("entry " entry " is not a reachable aligned address")
    top = 0
    for (p = 0; p < phnum; p++) {
        h = phoff + p * phent
        if (u(h, 4) != 1) continue
        off = u(h + 4, 4); va = u(h + 8, 4); fs = u(h + 16, 4); ms = u(h + 20, 4)
        if (fs > ms || off + fs > n) fail("segment " p ": file bytes beyond the end of the file")
        if (va + ms > 16777216) fail("segment " p ": ends beyond 16 MB")
        for (i = 0; i < fs; i++) m[va + i] = b[off + i]
        if (va + ms > top) top = va + ms
    }
    if (top < 4) top = 4
    w = 4127195136 + entry / 4               # 0xf6000000 | entry/4: b entry
    for (i = 0; i < 4; i++) { m[i] = w % 256; w = int(w / 256) }
    for (a = 0; a < top; a += 4) {
        line = ""
        for (i = a; i < a + 4 && i < top; i++) line = line sprintf("%02x", m[i] + 0)
        print line
    }
}' > "$2" || { rm -f "$2"; echo "elf2hex.sh: $1 -> $2 failed" >&2; exit 1; }
