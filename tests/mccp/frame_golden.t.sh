#!/bin/sh
# Headless frame dump compared with a golden image: programs/mccp/draw.mccp on 4 cores,
# --headless --frame-dump, byte-compared with tests/mccp/golden/draw.ppm (made from the
# program's specification by golden/draw_spec.py, not from simulator output). Also checks
# that the window is not needed: DISPLAY is unset.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
unset DISPLAY
"$X" asm --isa mccp programs/mccp/draw.mccp -o "$T/draw.out" || exit 1
"$X" run "$T/draw.out" --headless --quiet --frame-dump "$T/frame.ppm" || { echo "run failed"; exit 1; }
if ! cmp "$T/frame.ppm" tests/mccp/golden/draw.ppm; then
    echo "frame differs from the golden image"; exit 1
fi
# the golden file is what the specification script produces
if command -v python3 >/dev/null 2>&1; then
    python3 tests/mccp/golden/draw_spec.py "$T/spec.ppm" && cmp "$T/spec.ppm" tests/mccp/golden/draw.ppm || {
        echo "golden image out of date with draw_spec.py"; exit 1; }
fi
echo "frame matches the golden image"
