#!/bin/sh
# tests/unit/layering.t.sh: the architecture as the linker sees it. From the built objects
# (nm: who defines and who uses each symbol): no circle between files of core/ or of
# loaders/ (tsort reports a loop), core/ calls nothing in isa/, loaders/ or frontends/,
# loaders/ call nothing in isa/ or frontends/ (loaders only turn files into images), and
# frontends/ call nothing inside an ISA (only isa/registry.c and the isa_ops tables).
B=${XPUSIM_BUILD:-build}
O=$B/obj
[ -d "$O/core" ] || { echo "FAIL: no objects under $O"; exit 1; }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
for f in $(find "$O/core" "$O/loaders" "$O/isa" "$O/frontends" -name '*.o' | sort); do
    n=${f#$O/}
    nm -g --defined-only "$f" | awk -v n="$n" 'NF == 3 && $2 ~ /[TDBR]/ { print $3, n }'
done > "$T/defs"
fail=0
for dir in core loaders; do
    : > "$T/edges.$dir"
    for f in $(find "$O/$dir" -name '*.o' | sort); do
        n=${f#$O/}
        nm -u "$f" | awk '{ print $NF }' | while read -r sym; do
            awk -v s="$sym" -v n="$n" '$1 == s && $2 != n { print n, $2 }' "$T/defs"
        done
    done | sort -u > "$T/uses.$dir"
    # inside the directory: no loops
    awk -v d="$dir/" 'index($1, d) == 1 && index($2, d) == 1' "$T/uses.$dir" > "$T/edges.$dir"
    if ! tsort "$T/edges.$dir" >/dev/null 2>"$T/tsort.$dir"; then
        echo "FAIL: files of $dir/ call each other in a circle:"; cat "$T/tsort.$dir"; fail=1
    else
        echo "ok: no circle in $dir/ ($(wc -l < "$T/edges.$dir") calls between its files)"
    fi
done
bad=$(awk 'index($2, "isa/") == 1 && $2 != "isa/registry.o" || index($2, "frontends/") == 1 || index($2, "loaders/") == 1' "$T/uses.core")
[ -z "$bad" ] && echo "ok: core/ calls nothing in isa/, loaders/ or frontends/" || { echo "FAIL: core/ calls out:"; echo "$bad"; fail=1; }
bad=$(awk 'index($2, "isa/") == 1 || index($2, "frontends/") == 1' "$T/uses.loaders")
[ -z "$bad" ] && echo "ok: loaders/ call nothing in isa/ or frontends/" || { echo "FAIL: loaders/ call out:"; echo "$bad"; fail=1; }
for f in $(find "$O/frontends" -name '*.o' | sort); do
    n=${f#$O/}
    nm -u "$f" | awk '{ print $NF }' | while read -r sym; do
        awk -v s="$sym" -v n="$n" '$1 == s && index($2, "isa/") == 1 && $2 != "isa/registry.o" { print n, "->", $2, s }' "$T/defs"
    done
done > "$T/front"
[ -s "$T/front" ] && { echo "FAIL: frontends/ reach into an ISA:"; cat "$T/front"; fail=1; } || echo "ok: frontends/ reach ISAs only through isa/registry.c and isa_ops"
exit $fail
