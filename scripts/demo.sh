#!/bin/sh
# `make run`: assemble the MCCP demo, run it on 4 cores, print its results and statistics,
# and show the framebuffer (a window when a display is there, else build/demo-frame.ppm).
X=${1:-build/xpusim}
set -e
mkdir -p build
$X asm --isa mccp programs/mccp/demo.mccp -o build/demo.out
set -- run build/demo.out -o cores=0,1,2,3
[ -f programs/mccp/demo-input.txt ] && set -- "$@" --load ram:0=programs/mccp/demo-input.txt
[ -n "${DISPLAY:-}" ] || set -- "$@" --headless
echo "== xpusim $*"
XPUSIM_NO_WAIT=${XPUSIM_NO_WAIT:-} $X "$@" --dump ram:0:16 --frame-dump build/demo-frame.ppm
echo "== framebuffer written to build/demo-frame.ppm"
