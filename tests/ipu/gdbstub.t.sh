#!/bin/sh
# tests/ipu/gdbstub.t.sh: `xpusim gdbserver --vertex FILE` on the IPU tile, driven by the RSP
# client of tests/cli/gdb_rsp.py (no gdb needed), on programs/ipu/vertex/scaled_add.vertex:
# target.xml (m0-m15, a0-a15, pc, the status and CSR registers), the supervisor and W0..W5
# as threads 1..7 with their state (qThreadExtraInfo), Z0 at the vertex entry and a
# continue to it (W1 first, at cycle 13), $m13 = the vertex state, `monitor info csr` and
# `monitor info vertex`, and W00 at the cycle of a plain run (427).
R=${XPUSIM_ROOT:-.}; X=${XPUSIM:-build/xpusim}
export XPUSIM_ROOT=$R
PY=$(command -v python3) || { echo "SKIP: no python3"; exit 0; }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
V=$(cd "$R/programs/ipu/vertex" && pwd)
sed "s|^codelet = .*|codelet = $V/scaled_add.S|" "$V/scaled_add.vertex" >"$T/sa.vertex"
cat >"$T/g.py" <<'EOP'
import sys
sys.path.insert(0, sys.argv[3])
from gdb_rsp import Fail, _server, check, reg, stop_fields
xpusim, vfile = sys.argv[1], sys.argv[2]
s = _server(xpusim, "--vertex", vfile)
try:
    s.ask("qSupported")
    xml = ""
    while True:
        r = s.ask("qXfer:features:read:target.xml:%x,400" % len(xml))
        xml += r[1:]
        if r[0] == "l":
            break
    import xml.etree.ElementTree as ET
    names = [r.get("name") for r in ET.fromstring(xml).findall(".//reg")]
    check(names[:33] == ["m%d" % i for i in range(16)] + ["a%d" % i for i in range(16)] + ["pc"],
          "target.xml: m0-m15, a0-a15, pc: %s" % names[:33])
    check("cause" in names and "wsr" in names and "tas" in names, "target.xml: cause, wsr, tas: %s" % names[33:])
    PC = names.index("pc")
    ids = s.ask("qfThreadInfo")
    check(ids == "m1,2,3,4,5,6,7", "qfThreadInfo: the supervisor and W0..W5: %s" % ids)
    ex = lambda t: bytes.fromhex(s.ask("qThreadExtraInfo,%x" % t)).decode()
    check("supervisor" in ex(1) and "W0: idle" in ex(2), "thread names: %r %r" % (ex(1), ex(2)))
    check(s.ask("Z0,4c000,1") == "OK", "Z0 at the vertex entry 0x4c000")
    sig, f = stop_fields(s.ask("c"))
    check(sig == 5 and f.get("thread") == "3", "continue stops with T05 on W1 (thread 3): %s" % f)
    check(s.ask("Hg3") == "OK" and reg(s, PC) == 0x4c000 and reg(s, 13) == 0x4c0b8,
          "W1 at the entry with $m13 = the vertex state 0x4c0b8")
    check("W1: running in slot 1" in ex(3), "W1's state: %r" % ex(3))
    mon = s.monitor("info csr")
    check("W1: $WSR 0x00000001 (CTXTID 1" in mon, "monitor info csr: %r" % mon[:300])
    s.ask("z0,4c000,1")
    r = s.ask("c")
    check(r == "W00", "runs to W00: %s" % r)
    check(s.monitor("cycle").startswith("cycle 427,"), "ends at cycle 427 as a plain run")
    mon = s.monitor("info vertex")
    check("W0         69 bundle(s)" in mon and "tensor data = f32[100]" in mon, "monitor info vertex: %r" % mon[:400])
    s.send("k")
    s.close()
    print("ok ipu gdbstub: all checks")
except (Fail, OSError, ValueError) as e:
    print("FAIL:", e)
    s.kill()
    sys.exit(1)
EOP
timeout 60 "$PY" "$T/g.py" "$X" "$T/sa.vertex" "$(cd "$R/tests/cli" && pwd)"
