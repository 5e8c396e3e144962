# scripts/bench/parts.awk: host instructions by part of the simulator, from two
# `callgrind_annotate --auto=yes` outputs of the same program at two sizes (FILE1, FILE2) and
# the difference of their simulated instructions (-v d=N). A part is the source function that
# contains the line (found by reading the source: a line at column 0 with a "(" that does not
# end in ";"), so inlined helpers count as themselves. Prints the parts that cost at least
# 0.5 host instructions per simulated instruction, largest first (used by hostinsns.sh).
function fn_of(file, line,   l, n, s, name) {
    if (!(file in loaded)) {
        loaded[file] = 1; n = 0; name = "(file scope)"
        while ((getline s < file) > 0) {
            n++
            if (s ~ /^[A-Za-z_][^;]*\(/ && s !~ /^(#|typedef)/ && s !~ /;[ \t]*$/ && s !~ /^[A-Za-z_]+:/) {
                name = s; gsub(/__attribute__ *\(\([^)]*\)\)/, "", name)
                sub(/\(.*/, "", name); sub(/.*[^A-Za-z0-9_]/, "", name)
            }
            fn[file, n] = name
        }
        close(file)
    }
    return (file, line) in fn ? fn[file, line] : "?"
}
FNR == 1 { run++ ; file = ""; ln = 0 }
/^-- Auto-annotated source: / { file = $4; ln = 0; next }
/^-- line [0-9]+ / { ln = $3; next }
/^--/ { ln = 0; next }
ln > 0 && / => / { next }
ln > 0 {
    if (match($0, /^ *[0-9,]+/)) {
        v = substr($0, RSTART, RLENGTH); gsub(/[ ,]/, "", v)
        cost[run, file ":" fn_of(file, ln)] += v
        parts[file ":" fn_of(file, ln)] = 1
    }
    ln++
}
END {
    n = 0
    for (p in parts) { c = (cost[2, p] - cost[1, p]) / d; if (c >= 0.5) { key[++n] = p; val[n] = c } }
    for (i = 2; i <= n; i++)
        for (j = i; j > 1 && val[j] > val[j - 1]; j--) { t = val[j]; val[j] = val[j - 1]; val[j - 1] = t; t = key[j]; key[j] = key[j - 1]; key[j - 1] = t }
    for (i = 1; i <= n; i++) { p = key[i]; sub(/^.*\.\.\//, "", p); printf "    %7.1f  %s\n", val[i], p }
}
