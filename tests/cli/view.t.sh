#!/bin/sh
# The SDL2 window shows the framebuffer, checked on a real window on a virtual X server
# (Xvfb) through a screenshot of the whole X screen (Xvfb's -fbdir mirror, an XWD file).
# 1. An MCCP program fills framebuffer rows 10..19 with green (0x00ff00) and halts. Expected
#    geometry, from frontends/view.c: the 1024 x 64 frame is scaled by ceil(384 / 64) = 6
#    vertically and 1 horizontally (1024 >= 512), so the window is 1024 x 384 and the band
#    is 1024 pixels wide and 10 * 6 = 60 pixels high: 61440 green pixels, nothing else lit.
# 2. Every program in programs/mccp/ (with its NAME-input.txt or NAME.txt loaded at RAM 0)
#    that draws (its --frame-dump has lit pixels) must show the same colours in the
#    window, each colour's pixel count times 6 (the row scale).
# Skips (exit 0, with the reason) only when the build has no SDL, no mccp ISA, or the
# machine lacks xvfb-run or python3.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
skip() { echo "SKIP: $*"; exit 0; }
command -v xvfb-run >/dev/null || skip "xvfb-run is not installed"
command -v python3 >/dev/null || skip "python3 is not installed (reads the screenshot)"
"$X" isas | grep -q '^mccp' || skip "this build has no mccp ISA"
grep -qa "libSDL2-2.0.so.0" "$X" || skip "built without SDL2" # the soname view.c loads

cat >"$T/band.asm" <<'EOF'
// fill RAM words 10240..20479 = framebuffer rows 10..19 (1024 words a row) with green
movl reg1 10240
movl reg3 20480
movl reg2 65280
loop:
store reg2 reg1
inc reg1
cmp reg1 reg3
jne loop
int 0
EOF
"$X" asm --isa mccp "$T/band.asm" -o "$T/band.out" || { echo "FAIL: assembling the drawing program"; exit 1; }

cat >"$T/check.py" <<'EOF'
# check.py count FILE.ppm: print the lit colours of a P6 frame dump as "colour:count ...".
# check.py screen FILE.xwd EXPECTED [W H]: the lit pixels of an XWD screenshot (Xvfb
# -fbdir: big-endian CARD32 header, colour map, then 32-bit pixels in the header's byte
# order) must be exactly EXPECTED ("colour:count ..."), within a W x H bounding box if given.
import struct, sys
def ppm_colours(path):
    d = open(path, 'rb').read()
    parts = d.split(b'\n', 3)
    w, h = map(int, parts[1].split())
    px, out = parts[3], {}
    for i in range(0, w * h * 3, 3):
        p = px[i] << 16 | px[i + 1] << 8 | px[i + 2]
        if p:
            out[p] = out.get(p, 0) + 1
    return out
def screen(path):
    d = open(path, 'rb').read()
    h = struct.unpack('>25I', d[:100])
    hsize, byte_order, bpp, bpl, ncolors, w, hgt = h[0], h[7], h[11], h[12], h[19], h[4], h[5]
    assert bpp == 32, 'expected a 32-bit screen, got %d' % bpp
    off = hsize + ncolors * 12
    fmt = ('<' if byte_order == 0 else '>') + '%dI' % w
    colours, xs, ys, zero = {}, [], [], bytes(w * 4)
    for y in range(hgt):
        if d[off + y * bpl:off + y * bpl + w * 4] == zero:
            continue  # a black row: skip the per-pixel work
        for x, p in enumerate(struct.unpack_from(fmt, d, off + y * bpl)):
            p &= 0xffffff
            if p:
                colours[p] = colours.get(p, 0) + 1
                xs.append(x); ys.append(y)
    return colours, xs, ys
if sys.argv[1] == 'count':
    print(' '.join('%d:%d' % kv for kv in sorted(ppm_colours(sys.argv[2]).items())))
    sys.exit(0)
want = dict(tuple(map(int, kv.split(':'))) for kv in sys.argv[3].split())
colours, xs, ys = screen(sys.argv[2])
if not xs:
    print('nothing lit'); sys.exit(1)
shown = colours if len(colours) <= 4 else '%d colours, %d pixels' % (len(colours), sum(colours.values()))
print('colours %s; box x %d..%d y %d..%d' % (shown, min(xs), max(xs), min(ys), max(ys)))
ok = colours == want
if len(sys.argv) > 5:
    ok = ok and max(xs) - min(xs) + 1 == int(sys.argv[4]) and max(ys) - min(ys) + 1 == int(sys.argv[5])
sys.exit(0 if ok else 1)
EOF

# show "PROGRAM [OPTIONS]" EXPECTED [W H]: run PROGRAM with the window held open in a fresh virtual
# X session, poll the screen until it shows EXPECTED (or 20 s pass), then end the run.
show() {
    rm -rf "$T/fb"; mkdir "$T/fb"
    cat >"$T/session.sh" <<EOF
XPUSIM_VIEW_HOLD_MS=30000 "$X" run $1 --quiet </dev/null >"$T/run.log" 2>&1 &
pid=\$!
end=\$((\$(date +%s) + 20))
while [ \$(date +%s) -lt \$end ]; do
    if python3 "$T/check.py" screen "$T/fb/Xvfb_screen0" "$2" $3 $4 >"$T/check.log" 2>&1; then
        kill \$pid 2>/dev/null; wait \$pid 2>/dev/null; exit 0
    fi
    sleep 0.1
done
kill \$pid 2>/dev/null; wait \$pid 2>/dev/null; exit 1
EOF
    timeout 120 xvfb-run -a -s "-screen 0 1280x1024x24 -fbdir $T/fb" sh "$T/session.sh"
}

fail=0
if show "$T/band.out" "65280:61440" 1024 60; then
    echo "ok: the window shows the band: $(cat "$T/check.log")"
else
    echo "FAIL: the screenshot does not show the expected band"
    echo "last check: $(cat "$T/check.log" 2>/dev/null)"
    echo "run log: $(cat "$T/run.log" 2>/dev/null)"
    fail=1
fi

found=0
for src in programs/mccp/*.mccp programs/mccp/*.asm programs/mccp/*.out; do
    [ -f "$src" ] || continue
    case "$src" in
        *.out) prog=$src ;;
        *) "$X" asm --isa mccp "$src" -o "$T/p.out" >/dev/null 2>&1 || continue; prog=$T/p.out ;;
    esac
    # inputs go to RAM word 0 (the programs' convention): NAME-input.txt, else NAME.txt
    base=${src%.*}; load=
    for inp in "$base-input.txt" "$base.txt"; do
        [ -f "$inp" ] && { load="--load ram:0=$inp"; break; }
    done
    "$X" run "$prog" $load --headless --quiet --max-cycles 50000000 --frame-dump "$T/p.ppm" >/dev/null 2>&1
    [ -f "$T/p.ppm" ] || continue
    frame=$(python3 "$T/check.py" count "$T/p.ppm"); rm -f "$T/p.ppm"
    [ -n "$frame" ] || continue # draws nothing
    found=$((found + 1))
    want=$(for kv in $frame; do printf '%s:%s ' "${kv%%:*}" $(( ${kv##*:} * 6 )); done)
    if show "$prog $load" "$want"; then
        echo "ok: $src in the window: $(cat "$T/check.log")"
    else
        echo "FAIL: $src: the window does not show its frame (want $want)"
        echo "last check: $(cat "$T/check.log" 2>/dev/null)"
        fail=1
    fi
done
[ $found -gt 0 ] || echo "note: no drawing program in programs/mccp/ yet (only the built-in band was checked)"
exit $fail
