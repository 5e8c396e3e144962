#!/bin/sh
# The SDL2 window shows the framebuffer: an MCCP program fills framebuffer rows 10..19 with
# green (0x00ff00) and halts; `xpusim run` shows it in a real window on a virtual X server
# (Xvfb), and a screenshot of the whole X screen (Xvfb's -fbdir mirror, an XWD file) must
# hold exactly that band. Expected geometry, from frontends/view.c: the 1024 x 64 frame is
# scaled by ceil(384 / 64) = 6 vertically and 1 horizontally (1024 >= 512), so the window is
# 1024 x 384 and the band is 1024 pixels wide and 10 * 6 = 60 pixels high: 61440 green
# pixels, nothing else lit. Skips (exit 0, with the reason) only when the build has no SDL,
# no mccp ISA, or the machine lacks xvfb-run or python3.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
skip() { echo "SKIP: $*"; exit 0; }
command -v xvfb-run >/dev/null || skip "xvfb-run is not installed"
command -v python3 >/dev/null || skip "python3 is not installed (reads the screenshot)"
"$X" isas | grep -q '^mccp' || skip "this build has no mccp ISA"
nm "$X" 2>/dev/null | grep -q SDL_CreateWindow || ldd "$X" 2>/dev/null | grep -q SDL2 || skip "built without SDL2"

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
# Count the lit pixels of an XWD screenshot (Xvfb -fbdir): header fields are big-endian
# CARD32s; pixels follow the colour map, 32 bits each in the byte order the header gives.
import struct, sys
d = open(sys.argv[1], 'rb').read()
h = struct.unpack('>25I', d[:100])
hsize, byte_order, bpp, bpl, ncolors, w, hgt = h[0], h[7], h[11], h[12], h[19], h[4], h[5]
assert bpp == 32, 'expected a 32-bit screen, got %d' % bpp
off = hsize + ncolors * 12
fmt = ('<' if byte_order == 0 else '>') + '%dI' % w
colours, xs, ys = {}, [], []
zero = bytes(w * 4)
for y in range(hgt):
    if d[off + y * bpl:off + y * bpl + w * 4] == zero:
        continue  # a black row: skip the per-pixel work
    for x, p in enumerate(struct.unpack_from(fmt, d, off + y * bpl)):
        p &= 0xffffff
        if p:
            colours[p] = colours.get(p, 0) + 1
            xs.append(x); ys.append(y)
if not xs:
    print('nothing lit'); sys.exit(1)
print('colours %s; box x %d..%d y %d..%d' % (colours, min(xs), max(xs), min(ys), max(ys)))
ok = colours == {0x00ff00: 61440} and max(xs) - min(xs) + 1 == 1024 and max(ys) - min(ys) + 1 == 60
sys.exit(0 if ok else 1)
EOF

mkdir "$T/fb"
# Inside the virtual X session: start the run with the window held open, then poll the
# screen until the band shows (or 20 s pass), then end the run.
cat >"$T/session.sh" <<EOF
XPUSIM_VIEW_HOLD_MS=30000 "$X" run "$T/band.out" --quiet </dev/null >"$T/run.log" 2>&1 &
pid=\$!
end=\$((\$(date +%s) + 20))
while [ \$(date +%s) -lt \$end ]; do
    if python3 "$T/check.py" "$T/fb/Xvfb_screen0" >"$T/check.log" 2>&1; then
        kill \$pid 2>/dev/null; wait \$pid 2>/dev/null; exit 0
    fi
    sleep 0.1
done
kill \$pid 2>/dev/null; wait \$pid 2>/dev/null; exit 1
EOF
if timeout 120 xvfb-run -a -s "-screen 0 1280x1024x24 -fbdir $T/fb" sh "$T/session.sh"; then
    echo "ok: the window shows the band: $(cat "$T/check.log")"
    exit 0
fi
echo "FAIL: the screenshot does not show the expected band"
echo "last check: $(cat "$T/check.log" 2>/dev/null)"
echo "run log: $(cat "$T/run.log" 2>/dev/null)"
exit 1
