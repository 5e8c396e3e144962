#!/usr/bin/env python3
# tests/nyuzi/rtl/cmp_issues.py STATETRACE MODELTRACE CORE LO HI [S]: one core's issues side by
# side, in the RTL's time: the `+statetrace` ISS and RB lines of core CORE (docs/validation/
# nyuzi.md 5b, session 28) on the left, the model's `--trace` lines of that core (issue cycle
# less S, its lead over the RTL: 0 unless given, 2 for a model before session 30's boot
# change) on the right, cycles LO..HI. The RTL lists
# every issue (a rolled-back one is issued again), the model one line per instruction executed.
# Not a test: a tool (session 30: llsc.c4t4's core 3, whose thread 2 waited 170 cycles for a
# provisional answer, then issue for issue the RTL's from 560 to 660).
import sys
st, mt, core, lo, hi = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
S = int(sys.argv[6]) if len(sys.argv) > 6 else 0
rows = []
for l in open(st):
    f = l.split()
    if len(f) >= 5 and f[0].isdigit() and f[1] in ('ISS', 'RB') and f[2] == f'c{core}':
        t = int(f[0])
        if lo <= t <= hi:
            rows.append((t, 0, f'{t:6d}  {f[1]:3} t{int(f[3][1:])} {int(f[4][2:], 16):x}'))
for l in open(mt):
    f = l.split()
    if len(f) >= 4 and f[1] == f'core{core}' and f[0].isdigit():
        t = int(f[0]) - S
        if lo <= t <= hi:
            rows.append((t, 1, f'{"":30}{t:6d} t{int(f[2][1:])} {int(f[3], 16):x}  {" ".join(f[4:])}'))
for r in sorted(rows):
    print(r[2])
