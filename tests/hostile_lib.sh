# tests/hostile_lib.sh: what the per-ISA hostile-program tests share (sourced, not run).
# hostile_case NAME EXIT PATTERN ASM_ARGS -- RUN_ARGS: assemble $T/NAME.$SUFFIX with
# `xpusim asm ASM_ARGS`, run it with RUN_ARGS under a 60 s timeout, and require exit status
# EXIT and PATTERN (grep, may be empty) in what it printed. Needs X, T, SUFFIX (source) and
# OUT (program file: out, elf); sets fail=1
# on a failure.
hostile_case() {
    name=$1 want=$2 pat=$3
    shift 3
    asm_args=""
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do asm_args="$asm_args $1"; shift; done
    [ "$1" = "--" ] && shift
    if ! "$X" asm $asm_args "$T/$name.$SUFFIX" -o "$T/$name.$OUT" >"$T/$name.log" 2>&1; then
        echo "FAIL $name: asm: $(cat "$T/$name.log")"; fail=1; return
    fi
    timeout 60 "$X" run "$T/$name.$OUT" "$@" >"$T/$name.log" 2>&1
    rc=$?
    if [ $rc -eq "$want" ] && { [ -z "$pat" ] || grep -q -- "$pat" "$T/$name.log"; }; then
        echo "ok $name: $(head -1 "$T/$name.log" | cut -c1-150)"
    else
        echo "FAIL $name: exit $rc (expected $want), '$pat' not in: $(head -c 300 "$T/$name.log")"; fail=1
    fi
}
