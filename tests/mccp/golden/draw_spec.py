#!/usr/bin/env python3
"""tests/mccp/golden/draw_spec.py: the expected frame of programs/mccp/draw.mccp, computed
from the program's specification (not from the simulator): a 1024x64 XRGB8888 view of RAM
from word 0; core c fills x = 16 + 252c .. 16 + 252c + 235, y = 4 .. 55 with brightness
k = x - x0 times the colour step 0x010000 (red), 0x000100 (green), 0x000001 (blue) or
0x010101 (grey), and sets RAM[c] = 1 (pixels (0..3, 0) = 0x000001) when it finishes.
Writes a binary PPM (P6) to the path given."""
import sys

W, H = 1024, 64
ram = [0] * (W * H)
steps = [0x010000, 0x000100, 0x000001, 0x010101]
for c in range(4):
    x0 = 16 + 252 * c
    for y in range(4, 56):
        for k in range(236):
            ram[y * W + x0 + k] = k * steps[c]
    ram[c] = 1
out = bytearray(b"P6\n%d %d\n255\n" % (W, H))
for p in ram:
    out += bytes(((p >> 16) & 255, (p >> 8) & 255, p & 255))
open(sys.argv[1], "wb").write(out)
