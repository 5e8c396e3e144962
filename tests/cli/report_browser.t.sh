#!/bin/sh
# tests/cli/report_browser.t.sh: the HTML report in a real browser (Debian's chromium,
# headless, installed by make deps). The page must load with no console message (nothing to
# fetch, no script), and the screenshot must show the bars: MCCP demo, 4 cores; in the
# screenshot's pixels, the issue green (#5cb85c) and the memory-stall red (#d9534f) must be
# there, and core1's bar (53721 of the longest 318098 cycles) must end well before core0's
# (at 480 * 53721 / 318098 = 81 of 480 pixels): its row has far fewer green pixels.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
"$X" isas | grep -q '^mccp' || { echo "SKIP: no mccp"; exit 0; }
command -v chromium >/dev/null || { echo "FAIL: chromium is not installed (make deps installs it)"; exit 1; }
"$X" asm --isa mccp programs/mccp/demo.mccp -o "$T/demo.out" || exit 1
"$X" run "$T/demo.out" --load ram:0=programs/mccp/demo-input.txt --stats=json --stats-file "$T/s.json" --quiet > /dev/null
"$X" report "$T/s.json" -o "$T/r.html" || { echo "FAIL: report"; exit 1; }
HOME="$T" timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
    --enable-logging=stderr --v=0 --window-size=900,700 --screenshot="$T/r.png" "file://$T/r.html" > "$T/log" 2>&1
[ -s "$T/r.png" ] || { echo "FAIL: no screenshot"; cat "$T/log"; exit 1; }
if grep -q 'CONSOLE' "$T/log"; then echo "FAIL: console messages:"; grep CONSOLE "$T/log"; exit 1; fi
python3 - "$T/r.png" <<'EOF'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat, w = 8, b"", 0
while pos < len(data):
    n, typ = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if typ == b"IHDR":
        w, h, depth, ctype, _, _, inter = struct.unpack(">IIBBBBB", body)
        assert depth == 8 and ctype in (2, 6) and inter == 0, (depth, ctype, inter)
        bpp = 3 if ctype == 2 else 4
    elif typ == b"IDAT":
        idat += body
    pos += 12 + n
raw = zlib.decompress(idat)
stride = w * bpp
rows, prev, i = [], bytearray(stride), 0
for y in range(h):
    f = raw[i]; line = bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b = prev[x]
        c = prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(bytes(line)); prev = line
def count(row, rgb):
    return sum(1 for x in range(w) if tuple(row[x * bpp:x * bpp + 3]) == rgb)
green, red = (0x5c, 0xb8, 0x5c), (0xd9, 0x53, 0x4f)
bars = [(y, count(r, green)) for y, r in enumerate(rows) if count(r, green) > 20]
assert bars, "no green bar pixels in the screenshot"
assert any(count(r, red) > 5 for r in rows), "no memory-stall red in the screenshot"
# the bar rows, one run of rows per thread: their longest green run per thread
groups, last = [], -10
for y, g in bars:
    if y > last + 1: groups.append([])
    groups[-1].append(g); last = y
widths = [max(g) for g in groups]
assert len(widths) >= 2, widths
assert widths[1] < widths[0] / 3, ("core1's bar is not shorter", widths)
print("ok: browser: %dx%d screenshot, bar widths (green pixels) %s" % (w, h, widths))
EOF
