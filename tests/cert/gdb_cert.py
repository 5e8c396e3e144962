#!/usr/bin/env python3
"""tests/cert/gdb_cert.py: the GDB remote protocol on CERT control code, with the RSP client
of tests/cli/gdb_rsp.py. Run by tests/cert/gdbstub.t.sh on tests/cert/debug/two.asm (its
comment derives the cycles): every job-table slot of every uC is a GDB thread (uC u slot s
= thread u * 32 + s + 1); registers r0-r7 (0-7) belong to the job, g0-g15 (8-23) to its uC,
then pc (24, page * 8192 + offset), job_id (25), page (26) and offset (27)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
from gdb_rsp import Fail, _server, check, reg, stop_fields  # noqa: E402

SLOTS = 32
R0, G0, PC, JOB_ID, PAGE, OFFSET = 0, 8, 24, 25, 26, 27


def tid(uc, slot):
    return uc * SLOTS + slot + 1


def extra(s, t):
    return bytes.fromhex(s.ask("qThreadExtraInfo,%x" % t)).decode()


def two(xpusim, prog, end_cycle):
    s = _server(xpusim, prog)
    try:
        s.ask("qSupported")
        xml = ""
        while True:
            r = s.ask("qXfer:features:read:target.xml:%x,400" % len(xml))
            xml += r[1:]
            if r[0] == "l":
                break
        import xml.etree.ElementTree as ET
        regs = ET.fromstring(xml).findall(".//reg")
        names = [r.get("name") for r in regs]
        want = ["r%d" % i for i in range(8)] + ["g%d" % i for i in range(16)] + ["pc", "job_id", "page", "offset"]
        check(names == want, "target.xml: r0-r7, g0-g15, pc, job_id, page, offset: %s" % names)
        check(regs[PC].get("type") == "code_ptr" and regs[PC].get("bitsize") == "32", "pc is a 32-bit code_ptr")
        check(s.ask("QStartNoAckMode") == "OK", "QStartNoAckMode")
        s.noack = True

        ids = s.ask("qfThreadInfo")
        check(ids == "m" + ",".join("%x" % (t + 1) for t in range(2 * SLOTS)) and s.ask("qsThreadInfo") == "l",
              "qfThreadInfo: 2 uCs x %d job slots = threads 1..%d" % (SLOTS, 2 * SLOTS))
        check(extra(s, tid(1, 0)) == "col1.uc1 thread 0, disabled: free job-table slot", "before the run no job exists")

        # job 1 (uC 0 slot 0) at its LOCAL_BARRIER: job 2 waits there, job 4 on uC 1 at $rb0
        check(s.ask("Z0,44,1") == "OK", "Z0 at 0x44")
        sig, f = stop_fields(s.ask("vCont;c"))
        check(sig == 5 and f.get("thread") == "%x" % tid(0, 0), "continue stops with T05 on uC 0's job 1 (%s)" % f)
        jobs = {}
        for t in range(1, 2 * SLOTS + 1):
            e = extra(s, t)
            if "free job-table slot" not in e:
                jobs[t] = e
        check(jobs == {
            tid(0, 0): "col0.uc0 thread 0, ready: job 1 running at page 0 offset 0x44",
            tid(0, 1): "col0.uc0 thread 1, sleeping: job 2 blocked at page 0 offset 0x5c: waits for local barrier $lb1: "
                       "1 of 2 participants arrived (jobs 2), 1 missing",
            tid(1, 0): "col1.uc1 thread 0, sleeping: job 4 blocked at page 0 offset 0x34: waits for remote barrier $rb0 "
                       "(party_mask 0x3): arrived uC 1; missing uC 0"}, "qThreadExtraInfo: the three jobs: %s" % jobs)
        check(s.ask("Hg%x" % tid(0, 0)) == "OK", "Hg: uC 0 job 1")
        check(reg(s, PC) == 0x44 and reg(s, PAGE) == 0 and reg(s, OFFSET) == 0x44, "pc 0x44 = page 0 offset 0x44")
        check(reg(s, R0) == 0x33 and reg(s, R0 + 1) == 1 and reg(s, JOB_ID) == 1,
              "job 1: r0 = 0x33 (MOV + ADD), r1 = uC-DMA handle 1, job_id 1")
        check(reg(s, G0 + 3) == 0x1005, "uC 0: g3 = 0x1005")
        g = s.ask("g")
        check(len(g) == 2 * (25 * 4 + 2 + 4 + 4) and int.from_bytes(bytes.fromhex(g[:8]), "little") == 0x33,
              "g: every register (%d hex digits), r0 first" % len(g))
        mon = s.monitor("info jobs")
        check("uc0: page 0, parser at 0x80 (EOF), time 556" in mon and
              "slot  1 job 2    page 0 offset 0x005c LOCAL_BARRIER $lb1, 0x2" in mon and "job 4" not in mon,
              "monitor info jobs: uC 0's job table: %r" % mon)
        check(s.ask("Hg%x" % tid(0, 1)) == "OK" and reg(s, R0 + 5) == 0x55 and reg(s, R0) == 0 and
              reg(s, JOB_ID) == 2 and reg(s, G0 + 3) == 0x1005 and reg(s, PC) == 0x5c,
              "job 2: r5 = 0x55, r0 its own (0), the uC's g3, pc 0x5c")
        check(s.ask("Hg%x" % tid(1, 0)) == "OK" and reg(s, R0 + 2) == 0x222 and reg(s, G0 + 15) == 0xabce and
              reg(s, G0 + 3) == 0 and reg(s, PC) == 0x34, "uC 1 job 4: r2 = 0x222, g15 = 0xabce, g3 = 0, pc 0x34")
        mon = s.monitor("info jobs")
        check("slot  0 job 4    page 0 offset 0x0034 REMOTE_BARRIER $rb0, 0x3" in mon,
              "monitor info jobs follows the selected thread's uC: %r" % mon)
        check("$rb0: party_mask 0x3, arrived 0x2" in s.monitor("info barriers"), "monitor info barriers")

        # page 1 offset 0x24: job 3 reuses slot 0
        check(s.ask("z0,44,1") == "OK" and s.ask("Z0,2024,1") == "OK", "Z0 at 0x2024 (page 1 offset 0x24)")
        sig, f = stop_fields(s.ask("c"))
        check(sig == 5 and f.get("thread") == "%x" % tid(0, 0), "stops on uC 0 slot 0 (%s)" % f)
        s.ask("Hg%x" % tid(0, 0))
        check(reg(s, PC) == 0x2024 and reg(s, PAGE) == 1 and reg(s, OFFSET) == 0x24 and reg(s, JOB_ID) == 3 and
              reg(s, R0 + 7) == 0x77, "job 3 at page 1 offset 0x24 with r7 = 0x77")
        check(s.monitor("cycle").startswith("cycle 927,"), "at cycle 927")
        sig, f = stop_fields(s.ask("vCont;s:%x" % tid(0, 0)))
        check(sig == 5 and reg(s, PC) == 0x202c, "a step runs the SAVE_TIMESTAMPS (pc 0x202c)")
        check("uc0 page 1 offset 0x0024 SAVE_TIMESTAMPS id 9: cycle 927" in s.monitor("info records"),
              "monitor info records")
        s.ask("z0,2024,1")
        r = s.ask("c")
        check(r == "W00", "runs to W00: %s" % r)
        cyc = s.monitor("cycle")
        check(cyc.startswith("cycle %s," % end_cycle), "end cycle as a plain run (%s): %r" % (end_cycle, cyc))
        s.send("k")
        s.close()
    finally:
        s.kill()


if __name__ == "__main__":
    try:
        two(*sys.argv[1:])
    except (Fail, OSError, ValueError) as e:
        print("FAIL:", e)
        sys.exit(1)
