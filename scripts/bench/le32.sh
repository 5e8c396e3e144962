#!/bin/sh
# scripts/bench/le32.sh N FILE: write N (0..4294967295) as one 32-bit little-endian word, the
# form `xpusim run --set SYMBOL=FILE` takes, so .bench lines can set iteration counts.
case "$1" in ''|*[!0-9]*) echo "le32.sh: '$1' is not a decimal number" >&2; exit 2 ;; esac
[ -n "$2" ] || { echo "usage: le32.sh N FILE" >&2; exit 2; }
esc=$(awk -v n="$1" 'BEGIN { if (n > 4294967295) exit 1
    for (i = 0; i < 4; i++) { printf "\\%03o", n % 256; n = int(n / 256) } }') ||
    { echo "le32.sh: $1 does not fit in 32 bits" >&2; exit 2; }
printf "$esc" > "$2" || { echo "le32.sh: cannot write $2" >&2; exit 1; }
