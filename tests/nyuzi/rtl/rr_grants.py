#!/usr/bin/env python3
# tests/nyuzi/rtl/rr_grants.py STATETRACE MEMTRACE CORES THREADS END [S]: checks the L2's
# request order rule against a traced RTL run (docs/validation/nyuzi.md 5b, session 28: the
# `+statetrace` lines GNT, STALL/UNSTALL, RST, IFD) over its cycles 0..END. Not a test: a tool
# (since session 29 the model itself takes loads and code lines by this rule, isa/nyuzi/
# bus_log.c nyz_arb_run; its NYZ_MEMTRACE "GR" lines are its final grants).
#
# The rule, simulated cycle by cycle in the RTL's time:
# - the L2 takes one request a cycle, none while l2bi_stall is up (STALL..UNSTALL) nor in a
#   cycle a restarted fill enters its pipeline (RST: l2_cache_arb_stage.sv takes restarts first);
# - between the cores round robin, the pointer moving to the core after the one taken, only
#   when one is taken (rr_arbiter, update_lru = can_accept_request);
# - each core offers one request a cycle, data loads before its code line (l1_l2_interface.sv:
#   dcache, then icache, then the store queue), its loads round robin over its threads with a
#   pointer that moves every cycle the queue has one, taken or not (l1_load_miss_queue.sv,
#   update_lru = 1).
# Arrivals: a data load at its issue + 3 from the model's NYZ_MEMTRACE "LD" lines (build with
# EXTRA_CFLAGS=-DNYZ_MEMTRACE, run with 2> MEMTRACE) less S, the model's lead over the RTL there
# (3 on four cores, 4 on two in session 28's cold starts); a code line a cycle after the RTL's
# first IFD miss of it on that core. A load's thread is the one the RTL's grant of that core and
# line names (so only cold starts, where each line is loaded once per core); load_syncs and
# stores are not simulated. Prints the simulated and the RTL's grants side by side (** differ).
import sys, re
st, xt, NC, NT, END = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
S = int(sys.argv[6]) if len(sys.argv) > 6 else 3
loads = []
for l in open(xt):
    m = re.match(r'(\d+) LD c(\d+) a([0-9a-f]+)', l)
    if m:
        loads.append((int(m.group(1)) + 3 - S, int(m.group(2)), m.group(3)[-4:]))
rtl, stall, ifd, rst = [], [], {}, set()
for l in open(st):
    f = l.split()
    if len(f) < 2 or not f[0].isdigit():
        continue
    y = int(f[0])
    if y > END:
        break
    if f[1] == 'GNT':
        rtl.append((y, int(f[2][1:]), 'i' if f[5] == 'ct0' else int(f[3][2:]), f[6][-4:]))
    elif f[1] == 'RST':
        rst.add(y)
    elif f[1] == 'STALL':
        stall.append([y, None])
    elif f[1] == 'UNSTALL' and stall:
        stall[-1][1] = y
    elif f[1] == 'IFD' and f[-1] == 'miss1':
        ifd.setdefault((int(f[2][1:]), f[4][-4:]), y + 1)
tid = {(c, a): t for (y, c, t, a) in rtl if t != 'i'}
pend = [(x, c, tid[(c, a)], a) for x, c, a in loads if (c, a) in tid]
coded = {(c, a) for (_, c, t, a) in rtl if t == 'i'}
code = sorted((x, c, 'i', a) for (c, a), x in ifd.items() if (c, a) in coded)


def stalled(y):
    return y in rst or any(a <= y and (b is None or y < b) for a, b in stall)


cptr, tptr, out = 0, [0] * NC, []
for y in range(END + 1):
    offer = {}
    for c in range(NC):
        mine = {r[2]: r for r in pend if r[1] == c and r[0] <= y}
        if not mine:
            ci = [r for r in code if r[1] == c and r[0] <= y]
            if ci:
                offer[c] = ci[0]
            continue
        for i in range(NT):
            t = (tptr[c] + i) % NT
            if t in mine:
                offer[c] = mine[t]
                break
        tptr[c] = offer[c][2] + 1
    if offer and not stalled(y):
        for i in range(NC):
            c = (cptr + i) % NC
            if c in offer:
                r = offer[c]
                (code if r[2] == 'i' else pend).remove(r)
                out.append((y, c, r[2], r[3]))
                cptr = c + 1
                break
ok = 0
for i in range(max(len(out), len(rtl))):
    a = out[i] if i < len(out) else ''
    b = rtl[i] if i < len(rtl) else ''
    ok += a == b
    print('  ' if a == b else '**', a, '|', b)
print('same', ok, 'of', len(rtl))
