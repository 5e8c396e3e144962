#!/usr/bin/env python3
# tests/nyuzi/rtl/cmp_grants.py STATETRACE MODELTRACE S [N [stores]]: every L2 grant of a traced RTL run
# (docs/validation/nyuzi.md 5b, session 28: the `+statetrace` GNT lines of loads, code lines,
# load_sync ty1, store_sync ty3) against the model's (xpusim built with
# EXTRA_CFLAGS=-DNYZ_MEMTRACE, its stderr: bus_log.c's GR lines for loads and code lines,
# l2_sync.c's GRANT lines, a cycle after the grant, for synchronized requests), the model's
# time less S (its lead over the RTL). Prints how many (cycle, core, thread, kind) are the
# RTL's and the first N places where the two lists in order differ. Not a test: a tool
# (session 29: llsc.c2t4 968 of 1258 at S = 2, the same list to the 935th grant but for
# core 1's first load_syncs).
# With `stores`: store-queue operations too (RTL ty2; the model's GR lines of kind 4, made
# on several cores since session 31).
import sys, re
st, mt, S = sys.argv[1], sys.argv[2], int(sys.argv[3]); N = int(sys.argv[4]) if len(sys.argv) > 4 else 10
K = {'ty0ct0': 'code', 'ty0ct1': 'load', 'ty1ct1': 'load_sync', 'ty3ct1': 'store_sync'}
if len(sys.argv) > 5 and sys.argv[5] == 'stores':
    K['ty2ct1'] = 'store'
rtl = []
for l in open(st):
    f = l.split()
    if len(f) > 6 and f[0].isdigit() and f[1] == 'GNT' and f[4] + f[5] in K:
        k = K[f[4] + f[5]]
        rtl.append((int(f[0]), int(f[2][1:]), 0 if k == 'code' else int(f[3][2:]), k))
mod = []
for l in open(mt):
    m = re.match(r'(\d+) GR c(\d+) t(\d+) k([134]) ', l)
    if m and (m.group(4) != '4' or 'ty2ct1' in K):
        k = {'1': 'load', '3': 'code', '4': 'store'}[m.group(4)]
        mod.append((int(m.group(1)) - S, int(m.group(2)), 0 if k == 'code' else int(m.group(3)), k))
        continue
    m = re.match(r'(\d+) GRANT c(\d+) t(\d+) (\S+)', l)
    if m:
        mod.append((int(m.group(1)) - 1 - S, int(m.group(2)), int(m.group(3)), m.group(4)))
mod.sort()
same = len(set(rtl) & set(mod))
print('same', same, 'of', len(rtl), 'model', len(mod))
n = 0
for i in range(min(len(rtl), len(mod))):
    if rtl[i] != mod[i]:
        print(i, rtl[i], '|', mod[i]); n += 1
        if n >= N: break
