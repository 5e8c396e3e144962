#!/bin/sh
# SDL2 is loaded only when a window opens (frontends/view.c dlopens it): the binary does not
# name it as a dependency (ldd), and the dynamic loader's own log (LD_DEBUG=libs, which lists
# every object it initialises) shows no libSDL2 for --version, a headless run, or a run of an
# ISA with a framebuffer when there is no display (DISPLAY unset: the run does not try a
# window). The control: the same run with a display named and SDL's "dummy" video driver
# opens a window, and there the log does show libSDL2 initialised (so the grep can see it).
# Skips (exit 0, with the reason) when the build has no SDL or no mccp ISA.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
skip() { echo "SKIP: $*"; exit 0; }
grep -qa "libSDL2-2.0.so.0" "$X" || skip "built without SDL2"
"$X" isas | grep -q '^mccp' || skip "this build has no mccp ISA"
printf 'movl reg1 10240\nmovl reg2 65280\nstore reg2 reg1\nint 0\n' >"$T/dot.asm"
"$X" asm --isa mccp "$T/dot.asm" -o "$T/dot.out" || { echo "FAIL: assembling"; exit 1; }
fail=0
if ldd "$X" | grep -q SDL; then
    echo "FAIL: $X is linked against SDL2: $(ldd "$X" | grep SDL)"; fail=1
else
    echo "ok: ldd lists no SDL2 ($(ldd "$X" | wc -l) objects)"
fi
# loads NAME CMD...: run CMD with the loader's log; fail if it did (not) initialise libSDL2
loads() {
    want=$1; shift
    LD_DEBUG=libs "$@" </dev/null >"$T/log" 2>&1
    rc=$?
    got=no; grep -q 'calling init: .*libSDL2' "$T/log" && got=yes
    if [ "$got" = "$want" ] && [ $rc -eq 0 ]; then
        echo "ok: libSDL2 loaded: $got: $*"
    else
        echo "FAIL: libSDL2 loaded: $got (want $want), exit $rc: $*"; grep -v '^ *[0-9]*:' "$T/log" | head -5; fail=1
    fi
}
loads no "$X" --version
loads no env DISPLAY=:99 "$X" run "$T/dot.out" --headless --quiet
loads no env -u DISPLAY "$X" run "$T/dot.out" --quiet
# (under ASan, SDL's start-up leaves ~1 KB inside libdbus, none from xpusim: see debug_view.t.sh)
loads yes env DISPLAY=:99 SDL_VIDEODRIVER=dummy XPUSIM_NO_WAIT=1 ASAN_OPTIONS=detect_leaks=0 "$X" run "$T/dot.out" --quiet
exit $fail
