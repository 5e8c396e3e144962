#!/usr/bin/env python3
"""tests/cli/gdb_rsp.py: a small GDB Remote Serial Protocol client for the gdbserver tests.

Starts `xpusim gdbserver ... --port 0`, reads the chosen port from its stderr line
"listening on 127.0.0.1:NNNNN", and offers packet send/receive with a timeout on every socket
read, so a broken server fails the test instead of hanging it. Used by tests/cli/gdb*.t.sh
(no gdb needed)."""
import socket
import subprocess
import sys
import time

TIMEOUT = 20.0  # seconds for any one reply (the runs under test take well under a second)


class Fail(Exception):
    pass


def checksum(data: bytes) -> bytes:
    return b"%02x" % (sum(data) & 255)


def escape(data: bytes) -> bytes:
    out = bytearray()
    for b in data:
        if b in b"$#}*":
            out += bytes([0x7D, b ^ 0x20])
        else:
            out.append(b)
    return bytes(out)


class Server:
    def __init__(self, argv):
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.port = None
        self.console = ""
        deadline = time.time() + TIMEOUT
        self.errlines = []
        while time.time() < deadline:
            line = self.proc.stderr.readline().decode(errors="replace")
            if not line:
                break
            self.errlines.append(line)
            if "listening on " in line:
                self.port = int(line.rsplit(":", 1)[1])
                break
        if self.port is None:
            self.kill()
            raise Fail("server did not print 'listening on': %r" % self.errlines)
        self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=TIMEOUT)
        self.sock.settimeout(TIMEOUT)
        self.buf = b""
        self.noack = False

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=TIMEOUT)

    def _byte(self):
        if not self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise Fail("server closed the connection")
            self.buf = chunk
        b, self.buf = self.buf[0], self.buf[1:]
        return b

    def send_raw(self, data: bytes):
        self.sock.sendall(data)

    def send(self, payload):
        if isinstance(payload, str):
            payload = payload.encode()
        self.sock.sendall(b"$" + payload + b"#" + checksum(payload))
        if not self.noack:
            ack = self._byte()
            if ack != ord("+"):
                raise Fail("expected '+' after %r, got %r" % (payload[:40], chr(ack)))

    def recv(self) -> bytes:
        while self._byte() != ord("$"):
            pass
        data = bytearray()
        while True:
            b = self._byte()
            if b == ord("#"):
                break
            data.append(b)
        cs = bytes([self._byte(), self._byte()])
        if cs != checksum(bytes(data)):
            raise Fail("bad checksum in reply %r" % bytes(data[:60]))
        if not self.noack:
            self.sock.sendall(b"+")
        return bytes(data)

    def ask(self, payload) -> str:
        """Send a packet and return its reply; console output (O packets, sent while the
        target runs, before the stop reply) is kept in self.console."""
        self.send(payload)
        while True:
            r = self.recv().decode("latin-1")
            if r.startswith("O") and r != "OK" and len(r) % 2 == 1:
                self.console += bytes.fromhex(r[1:]).decode(errors="replace")
                continue
            return r

    def monitor(self, cmd: str) -> str:
        self.send("qRcmd," + cmd.encode().hex())
        out = ""
        while True:
            r = self.recv().decode("latin-1")
            if r.startswith("O") and r != "OK":
                out += bytes.fromhex(r[1:]).decode()
                continue
            if r == "OK":
                return out
            if r.startswith("E"):
                raise Fail("monitor %s: %s" % (cmd, r))
            return out + bytes.fromhex(r).decode()

    def close(self):
        try:
            self.sock.close()
        finally:
            try:
                self.proc.wait(timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                self.kill()
                raise Fail("server did not exit after the session")
        if self.proc.returncode != 0:  # also catches sanitizer reports, which exit non-zero
            err = self.proc.stderr.read().decode(errors="replace")
            raise Fail("server exited %d:\n%s" % (self.proc.returncode, err[-3000:]))


def check(cond, what):
    if not cond:
        raise Fail(what)
    print("ok:", what)


def le32(v: int) -> str:
    return v.to_bytes(4, "little").hex()


def reg(s: Server, n: int) -> int:
    r = s.ask("p%x" % n)
    if r.startswith("E") or "x" in r:
        raise Fail("p%x: %s" % (n, r))
    return int.from_bytes(bytes.fromhex(r), "little")


def stop_fields(r: str):
    """'T05thread:1;watch:2;' -> (5, {'thread': '1', 'watch': '2'})"""
    if not r.startswith("T"):
        return None, {}
    sig = int(r[1:3], 16)
    fields = {}
    for part in r[3:].split(";"):
        if ":" in part:
            k, v = part.split(":", 1)
            fields[k] = v
    return sig, fields


def main(argv):
    if len(argv) < 2 or argv[1] not in SCENARIOS:
        print("usage: gdb_rsp.py SCENARIO ARGS... (%s)" % ", ".join(SCENARIOS))
        return 2
    try:
        SCENARIOS[argv[1]](*argv[2:])
    except (Fail, OSError, ValueError) as e:
        print("FAIL:", e)
        return 1
    return 0


SCENARIOS = {}


def scenario(fn):
    SCENARIOS[fn.__name__] = fn
    return fn


def _server(xpusim, *args):
    return Server([xpusim, "gdbserver"] + list(args) + ["--port", "0", "--quiet"])


@scenario
def mccp_sum4(xpusim, prog, ramfile, store_slot, wait_slot, next_slot, loop_slot, end_cycle):
    """sum4 on 4 MCCP cores: see tests/cli/gdbstub.t.sh for the addresses."""
    store_slot, wait_slot, next_slot, loop_slot = (int(x, 0) for x in (store_slot, wait_slot, next_slot, loop_slot))
    s = _server(xpusim, prog, "--load", "ram:0=" + ramfile)
    try:
        sup = s.ask("qSupported:multiprocess+;swbreak+;hwbreak+")
        check("PacketSize=" in sup and "qXfer:features:read+" in sup and "vContSupported+" in sup,
              "qSupported: %s" % sup)
        check(s.ask("vMustReplyEmpty") == "", "unknown packets get an empty reply")
        # target.xml in chunks of 0x100 bytes, as GDB reads it
        xml, off = "", 0
        while True:
            r = s.ask("qXfer:features:read:target.xml:%x,100" % off)
            if not r or r[0] not in "ml":
                raise Fail("qXfer chunk at %d: %r" % (off, r[:40]))
            xml += r[1:]
            off += len(r) - 1
            if r[0] == "l":
                break
            if off > 100000:
                raise Fail("target.xml does not end")
        import xml.etree.ElementTree as ET
        regs = ET.fromstring(xml).findall(".//reg")
        names = [r.get("name") for r in regs]
        check(names[:9] == ["reg0", "reg1", "reg2", "reg3", "reg4", "reg5", "sp", "ip", "pc"],
              "target.xml lists the MCCP registers in table order: %s" % names)
        check(regs[8].get("bitsize") == "32" and regs[8].get("type") == "code_ptr", "pc is a 32-bit code_ptr")
        check(regs[9].get("name") == "flags" and regs[9].get("bitsize") == "8", "flags widens to 8 bits")
        check(s.ask("QStartNoAckMode") == "OK", "QStartNoAckMode")
        s.noack = True
        sig, f = stop_fields(s.ask("?"))
        check(sig == 5 and f.get("thread") == "1", "initial stop T05 on thread 1")
        check(s.ask("qfThreadInfo") == "m1,2,3,4" and s.ask("qsThreadInfo") == "l",
              "four threads: one per core")
        check(s.ask("qC") == "QC1", "current thread 1")
        info = bytes.fromhex(s.ask("qThreadExtraInfo,3")).decode()
        check(info.startswith("core2 thread 0"), "thread 3 is core2: %r" % info)
        check(s.ask("T4") == "OK" and s.ask("T9").startswith("E"), "T: thread 4 alive, 9 unknown")
        g = s.ask("g")
        check(len(g) == 2 * (13 * 4 + 2) and int.from_bytes(bytes.fromhex(g[64:72]), "little") == reg(s, 8),
              "g holds every register (%d hex digits), pc at bytes 32..35" % len(g))
        check(s.ask("vCont?").startswith("vCont;c;C;s;S"), "vCont? lists c C s S")
        check(s.ask("qAttached") in ("0", "1"), "qAttached")
        g2 = g[:8] + le32(0xCAFE) + g[16:]  # reg1 = 0xcafe through G, then back
        check(s.ask("G" + g2) == "OK" and reg(s, 1) == 0xCAFE, "G writes every register (reg1 = 0xcafe)")
        check(s.ask("G" + g) == "OK" and s.ask("g") == g, "G of the old set restores it")
        check(s.ask("G" + g[:-2]).startswith("E"), "a short G is refused")

        # a breakpoint every core reaches: each stops at the store with reg1 = 4 + core index
        check(s.ask("Z0,%x,2" % store_slot) == "OK", "Z0 at the partial-sum store 0x%x" % store_slot)
        sig, f = stop_fields(s.ask("vCont;c"))
        tid = int(f.get("thread", "0"), 16)
        check(sig == 5 and 1 <= tid <= 4, "continue stops with T05 on a core thread (%s)" % f)
        check(s.ask("Hg%x" % tid) == "OK", "Hg%x" % tid)
        check(reg(s, 8) == store_slot, "pc of the stopped thread is the breakpoint")
        check(reg(s, 1) == 4 + (tid - 1), "reg1 = 4 + core index at the store (%d)" % reg(s, 1))
        check(s.ask("z0,%x,2" % store_slot) == "OK", "z0 removes it")

        # a breakpoint only core 0 reaches, then a step of that thread
        check(s.ask("Z0,%x,2" % wait_slot) == "OK", "Z0 at core 0's join 0x%x" % wait_slot)
        sig, f = stop_fields(s.ask("vCont;c"))
        check(sig == 5 and f.get("thread") == "1", "stops on thread 1 (core0): %s" % f)
        s.ask("Hg1")
        check(reg(s, 8) == wait_slot, "thread 1 pc = 0x%x" % wait_slot)
        sig, f = stop_fields(s.ask("vCont;s:1;c"))
        check(sig == 5 and f.get("thread") == "1", "step reports thread 1")
        check(reg(s, 8) == next_slot, "step moved pc to 0x%x (%x)" % (next_slot, reg(s, 8)))
        check(reg(s, 1) == 9, "the stepped movl wrote reg1 = 9")
        out = s.monitor("regs 1 reg1")
        check("core0 thread 0" in out and "reg1" in out and "0x00000009" in out, "monitor regs 1 reg1: %r" % out)
        out = s.monitor("regs 2")
        check("core1" in out and "stack_exc_addr" in out and out.count("\n") == 16, "monitor regs 2 lists 15 registers")
        # the ISA's views are the debugger's table: listed by `monitor help`, shown by `monitor info NAME`
        out = s.monitor("help")
        check("info arbiter" in out and "info stack" in out, "monitor help lists the MCCP views: %r" % out)
        out = s.monitor("info stack")
        check("core0: stack_begin" in out and "core3" not in out, "monitor info stack shows the Hg thread's core0 only: %r" % out)
        check(s.ask("z0,%x,2" % wait_slot) == "OK", "z0")
        # step onto a breakpoint, then continue: the thread must move on, not stop at once
        # where it stands (the WAIT loop brings core 0 back to that address later)
        check(s.ask("Z0,%x,2" % loop_slot) == "OK", "Z0 at the WAIT loop 0x%x" % loop_slot)
        sig, f = stop_fields(s.ask("vCont;s:1"))
        check(sig == 5 and reg(s, 8) == loop_slot, "step onto it")
        before = s.monitor("cycle").split()
        sig, f = stop_fields(s.ask("vCont;c"))
        after = s.monitor("cycle").split()
        check(sig == 5 and f.get("thread") == "1" and reg(s, 8) == loop_slot and
              int(after[2]) > int(before[2]), "continue runs the loop before stopping there again (%s -> %s)"
              % (" ".join(before[:3]), " ".join(after[:3])))
        check(s.ask("z0,%x,2" % loop_slot) == "OK", "z0")
        # register write and read back (restored: the program continues unchanged)
        old = reg(s, 4)
        check(s.ask("P4=%s" % le32(0x12345678)) == "OK" and reg(s, 4) == 0x12345678, "P/p reg4")
        check(s.ask("P4=%s" % le32(old)) == "OK" and reg(s, 4) == old, "reg4 restored")

        # memory: RAM words (the data space), lengths in bytes
        check(s.ask("m0,8") == le32(100) + le32(16), "m0,8 reads RAM[0..1] = n, vector address")
        check(s.ask("m10,8") == le32(1) + le32(2), "m10,8 reads the vector's first elements")
        check(s.ask("Mc8,8:0102030405060708") == "OK", "M writes RAM[200..201]")
        check(s.ask("mc8,8") == "0102030405060708", "and m reads it back")
        data = bytes([0x23, 0x7D, 0x24, 0x2A])  # '#', '}', '$', '*' must travel escaped
        check(s.ask(b"Xc9,4:" + escape(data)) == "OK", "X binary write with escaped bytes")
        check(s.ask("mc8,8") == "0102030423" + "7d242a", "X wrote RAM[201] byte for byte")
        check(s.ask("m7fffffff,4").startswith("E"), "unmapped memory reads as an error")

        # a write watchpoint on the total, RAM[2]: core 0 stores 5050 there
        check(s.ask("Z2,2,4") == "OK", "Z2 on RAM[2]")
        sig, f = stop_fields(s.ask("vCont;c"))
        check(sig == 5 and f.get("thread") == "1" and int(f.get("watch", "-1"), 16) == 2,
              "write watchpoint stops thread 1 with watch:2 (%s)" % f)
        check(s.ask("m2,4") == le32(5050), "RAM[2] = 5050 after the watched store")
        check(s.ask("z2,2,4") == "OK", "z2")
        r = s.ask("vCont;c")
        check(r == "W00", "continuing to the end gives W00 (%s)" % r)
        cyc = s.monitor("cycle")
        check(cyc.startswith("cycle %s," % end_cycle), "monitor cycle after the end = plain run's %s: %r" % (end_cycle, cyc))
        st = s.monitor("stats")
        check("cycles: %s" % end_cycle in st and "core3" in st, "monitor stats (%d bytes)" % len(st))
        check(s.ask("vCont;c") == "W00", "continuing after the end gives W00 again")
        s.send("D")
        check(s.recv() == b"OK", "D detaches")
        s.close()
        check(s.proc.returncode == 0, "server exits 0")
    finally:
        s.kill()


@scenario
def mccp_interrupt(xpusim, prog, flag):
    """Every core spins until RAM[flag] != 0: only Ctrl-C stops the continue; then the
    client sets the flag and the program ends."""
    s = _server(xpusim, prog)
    try:
        s.ask("qSupported")
        s.send("vCont;c")
        time.sleep(0.05)
        s.send_raw(b"\x03")
        sig, f = stop_fields(s.recv().decode())
        check(sig == 2 and "thread" in f, "Ctrl-C stops the spinning run with T02 (%s)" % f)
        cyc = int(s.monitor("cycle").split()[1].rstrip(","))
        check(cyc > 0, "stopped at cycle %d" % cyc)
        s.send("vCont;s:2;c")
        sig, f = stop_fields(s.recv().decode())
        check(sig == 5 and f.get("thread") == "2", "then a step of thread 2")
        check(s.ask("M%x,4:%s" % (int(flag, 0), le32(1))) == "OK", "set the flag RAM[%s]" % flag)
        r = s.ask("c")
        check(r == "W00", "the cores see it and halt: %s" % r)
        s.send("k")
        s.close()
    finally:
        s.kill()


@scenario
def hostile(xpusim, prog):
    """Every packet is untrusted (issue 8): bad checksums are NAKed, bad hex, huge lengths in
    m/M/X, unknown queries and packets, over-long packets and stray bytes get an error or an
    empty reply, never a crash, a hang or an allocation sized by the client; the session
    still works afterwards and the server exits cleanly (a sanitizer report would not)."""
    s = _server(xpusim, prog)
    try:
        s.sock.sendall(b"$g#00")                      # bad checksum: '-' (resend)
        check(s._byte() == ord("-"), "bad checksum is NAKed")
        check(s.ask("mzz,4").startswith("E"), "m with bad hex: error")
        r = s.ask("m0,ffffffffffffffff")              # huge read length: capped, not allocated
        check(r.startswith("E") or (len(r) % 2 == 0 and len(r) <= 16384), "m with a 2^64 length: %d chars" % len(r))
        check(s.ask("M0,ffffffffffff:00").startswith("E"), "M with a 2^48 length: error, nothing allocated")
        check(s.ask("M0,4:0g0g0g0g").startswith("E"), "M with bad hex data: error")
        check(s.ask(b"X0,ffffffffff:" + b"a").startswith("E"), "X with a length beyond the packet: error")
        check(s.ask("mffffffffffffffff,4").startswith("E"), "m at the end of the address space: error")
        check(s.ask("qNoSuchQuery") == "", "unknown query: empty reply")
        check(s.ask("\x01\x02junk") == "", "unknown packet: empty reply")
        r = s.ask("Hg99999999999999999999")
        check(r.startswith("E"), "Hg with a thread id beyond 64 bits: error (%s)" % r)
        r = s.ask("Hg7fffffff")
        check(r.startswith("E"), "Hg with a thread that does not exist: error (%s)" % r)
        r = s.ask("Z0,ffffffffffffffff,4")
        check(r in ("OK", "") or r.startswith("E"), "Z0 at a wild address answered (%s)" % r)
        s.sock.sendall(b"$" + b"m0,4" * 8000 + b"#00")  # longer than PacketSize: dropped or NAKed
        b = s._byte()
        check(b in (ord("-"), ord("+"), ord("$")), "over-long packet answered (%r)" % chr(b))
        if b == ord("$"):
            s.buf = b"$" + s.buf
            s.recv()
        s.sock.sendall(b"garbage without a dollar")
        check(s.ask("?") != "", "the session works after all of it")
        s.send("k")
        s.close()
    finally:
        s.kill()


@scenario
def mccp_run(xpusim, prog, end_cycle):
    """A continue of several GDB_SLICE slices ends at the plain run's cycle."""
    s = _server(xpusim, prog)
    try:
        r = s.ask("c")
        check(r == "W00", "continue to the end: %s" % r)
        cyc = s.monitor("cycle")
        check(cyc.startswith("cycle %s," % end_cycle), "same end cycle as a plain run (%s): %r" % (end_cycle, cyc))
        s.send("k")
        s.close()
    finally:
        s.kill()


@scenario
def mccp_limit(xpusim, prog, option, value):
    """--max-cycles / --max-insns on a program that never ends: a continue stops with T18
    (SIGXCPU) at the limit instead of running on, and again if continued."""
    s = Server([xpusim, "gdbserver", prog, option, value, "--port", "0"])
    try:
        sig, f = stop_fields(s.ask("c"))
        check(sig == 0x18, "%s %s stops with T18 (%s)" % (option, value, f))
        out = s.monitor("cycle")
        n = int(out.split()[1 if option == "--max-cycles" else 2].rstrip(","))
        check(n == int(value) if option == "--max-cycles" else n >= int(value),
              "at the limit: %r" % out)
        # issue 11: a run that ends on a limit lists each waiting thread and what it waits
        # for, as console output (O packets) before the stop reply
        check("waiting threads:" in s.console and "core0 thread 0: " in s.console and "core3 thread 0: " in s.console,
              "the limit's stop lists the waiting threads: %r" % s.console[:300])
        out = s.monitor("waiting")
        check(out.count("thread 0: ") == 4, "monitor waiting: one line per core: %r" % out)
        sig, f = stop_fields(s.ask("c"))
        check(sig == 0x18, "continuing at the limit stops there again")
        s.send("k")
        s.close()
    finally:
        s.kill()


@scenario
def mccp_fault(xpusim, prog):
    """A load outside the stack bounds: a fault stops with SIGSEGV (T0b) at the faulting
    thread; continuing reports the end by that signal (X0b)."""
    s = _server(xpusim, prog)
    try:
        # as GDB: it names itself with xmlRegisters= in qSupported, rejects our target.xml and
        # reads registers at its own architecture's sizes: 'g' is registers 0 and 1 as 4
        # bytes each, 'p' gives registers of up to 32 bits as 4 bytes (flags, 8 bits, too)
        # and 'xx' (unavailable) past the table
        s.ask("qSupported:multiprocess+;xmlRegisters=i386")
        sig, f = stop_fields(s.ask("c"))
        tid = int(f.get("thread", "0"), 16)
        check(sig == 11 and 1 <= tid <= 4, "fault stops with T0b on a core (%s)" % f)
        s.ask("Hg%x" % tid)
        check(reg(s, 1) == 0x7FFFFFFF, "the faulting thread's reg1 holds the bad address")
        g = s.ask("g")
        check(len(g) == 16 and g[8:] == le32(0x7FFFFFFF), "GDB's short 'g': reg0 and reg1 (%s)" % g)
        check(len(s.ask("p9")) == 8 and s.ask("p28") == "xx", "p9 (flags) as 4 bytes, p28 unavailable")
        check(s.ask("c") == "X0b", "continuing ends with X0b")
        s.send("k")
        s.close()
    finally:
        s.kill()


@scenario
def dpu_vecadd(xpusim, prog, main_pc, tasklets, end_cycle):
    """programs/dpu/vecadd.s on one DPU: threads are tasklets, memory is WRAM."""
    main_pc, tasklets = int(main_pc, 0), int(tasklets)
    s = _server(xpusim, prog, "-o", "tasklets=%d" % tasklets)
    try:
        s.ask("qSupported")
        ids = s.ask("qfThreadInfo")
        check(ids == "m" + ",".join("%x" % (t + 1) for t in range(tasklets)) and s.ask("qsThreadInfo") == "l",
              "one GDB thread per tasklet: %s" % ids)
        xml = ""
        while True:
            r = s.ask("qXfer:features:read:target.xml:%x,400" % len(xml))
            xml += r[1:]
            if r[0] == "l":
                break
        check('name="r23" bitsize="32"' in xml and 'name="pc" bitsize="16"' in xml and
              'name="d0" bitsize="64"' in xml, "target.xml has r0..r23, a 16-bit pc and 64-bit pairs")
        check(s.ask("Z0,%x,1" % main_pc) == "OK", "Z0 at main (instruction 0x%x)" % main_pc)
        sig, f = stop_fields(s.ask("vCont;c"))
        tid = int(f.get("thread", "0"), 16)
        check(sig == 5 and 1 <= tid <= tasklets, "stops on a tasklet (%s)" % f)
        s.ask("Hg%x" % tid)
        check(reg(s, 24) == main_pc, "its pc is main")
        check(reg(s, 27) == tid - 1, "its id register is the tasklet number")
        sig, f = stop_fields(s.ask("vCont;s:%x;c" % tid))
        check(sig == 5 and f.get("thread") == "%x" % tid and reg(s, 24) == main_pc + 1, "step to main+1")
        s.ask("z0,%x,1" % main_pc)
        check(s.ask("M100,4:efbeadde") == "OK" and s.ask("m100,4") == "efbeadde", "WRAM write and read")
        r = s.ask("c")
        check(r == "W00", "runs to W00: %s" % r)
        cyc = s.monitor("cycle")
        check(cyc.startswith("cycle %s," % end_cycle), "end cycle as a plain run (%s): %r" % (end_cycle, cyc))
        s.send("k")
        s.close()
    finally:
        s.kill()


@scenario
def dpu_watch_thread(xpusim, prog):
    """Four tasklets each write their id at result + 4 * id (tests/cli/gdbstub.t.sh): a write
    watchpoint on all four words narrowed to GDB thread 3 (tasklet 2) with the xpusim
    extension Z2,ADDR,LEN;thread:TID stops only for that tasklet's store; `monitor disasm`
    lists from the stopped thread's pc, marking it; Z0;thread:TID stops only that thread."""
    s = _server(xpusim, prog, "-o", "tasklets=4")
    try:
        s.ask("qSupported")
        check(s.ask("Z2,0,10;thread:3") == "OK", "Z2 on result[0..3] for thread 3 only")
        check(s.ask("Z2,0,4;thread:9").startswith("E"), "Z2 for a thread that does not exist: error")
        sig, f = stop_fields(s.ask("c"))
        check(sig == 5 and f.get("thread") == "3" and int(f.get("watch", "-1"), 16) == 8,
              "the watch stops tasklet 2 (thread 3) at its store to result+8: %s" % f)
        check(s.ask("m0,10") == le32(0) + le32(1) + le32(2) + le32(7),
              "tasklets 0 and 1 stored before without a stop, tasklet 3 not yet")
        s.ask("Hg3")
        out = s.monitor("disasm")
        check(out.startswith("dpu0 thread 2:") and "\n=> 0x" in out, "monitor disasm from the pc: %r" % out)
        check(s.ask("z2,0,10") == "OK", "remove the watch")
        # a breakpoint at the `stop` (instruction 5) for thread 4 (tasklet 3) only: tasklet 2,
        # stopped there, and the others pass it; tasklet 3 stops
        check(s.ask("Z0,5,1;thread:4") == "OK", "Z0 at the stop for thread 4 only")
        sig, f = stop_fields(s.ask("c"))
        check(sig == 5 and f.get("thread") == "4", "only tasklet 3 stops at the breakpoint: %s" % f)
        s.ask("Hg4")
        check(reg(s, 24) == 5, "at the stop instruction")
        check(s.ask("m0,10") == le32(0) + le32(1) + le32(2) + le32(3), "all four stored")
        check(s.ask("z0,5,1") == "OK", "remove it")
        check(s.ask("c") == "W00", "runs to the end")
        s.send("k")
        s.close()
    finally:
        s.kill()


@scenario
def dpu_fast_forward(xpusim, prog, region_pc):
    """gdbserver --fast-forward region (issue 11 pt 4): the first continue runs functionally
    to `region` and stops there with SIGTRAP, the switch to the cycle model made; the rest
    runs timed. tests/cli/fastforward.t.sh derives the cycles: 51 functional issue steps,
    then 243 timed cycles, the end at cycle 294."""
    s = Server([xpusim, "gdbserver", prog, "-o", "tasklets=1", "--fast-forward", "region", "--port", "0", "--quiet"])
    try:
        s.ask("qSupported")
        sig, f = stop_fields(s.ask("c"))
        check(sig == 5 and f.get("thread") == "1", "the marker stops thread 1 with T05 (%s)" % f)
        check(reg(s, 24) == int(region_pc, 0), "its pc is region")
        out = s.monitor("stop")
        check("fast-forward marker region reached after 51 instructions" in out, "monitor stop: %r" % out)
        check(s.ask("c") == "W00", "then runs to the end")
        cyc = s.monitor("cycle")
        check(cyc.startswith("cycle 294,"), "ends at cycle 51 + 243: %r" % cyc)
        s.send("k")
        s.close()
    finally:
        s.kill()


@scenario
def dpu_two(xpusim, prog):
    """Two DPUs of 4 tasklets: thread ids 1..8 (DPU 1's tasklet 0 is 5), and memory follows
    the selected thread's DPU (its own WRAM)."""
    s = _server(xpusim, prog, "-o", "dpus=2", "-o", "tasklets=4")
    try:
        check(s.ask("qfThreadInfo") == "m1,2,3,4,5,6,7,8" and s.ask("qsThreadInfo") == "l", "threads 1..8")
        info = bytes.fromhex(s.ask("qThreadExtraInfo,5")).decode()
        check(info.startswith("dpu1 thread 0"), "thread 5 is dpu1 tasklet 0: %r" % info)
        check(s.ask("Hg5") == "OK" and s.ask("M100,4:11223344") == "OK", "write DPU 1's WRAM")
        check("wram.1" in s.monitor("space"), "the memory view is wram.1")
        check(s.ask("Hg1") == "OK" and s.ask("m100,4") != "11223344", "DPU 0's WRAM differs")
        check(s.ask("Hg6") == "OK" and s.ask("m100,4") == "11223344", "DPU 1's reads it back")
        check(s.ask("Hg9").startswith("E"), "no thread 9")
        s.send("k")
        s.close()
    finally:
        s.kill()


@scenario
def nyuzi_alu(xpusim, prog, pass_addr, end_cycle):
    """Nyuzi alu.S: 512-bit vector registers at full width (v1 holds lanes 0..15 at `pass`)."""
    pass_addr = int(pass_addr, 0)
    s = _server(xpusim, prog)
    try:
        xml = ""
        while True:
            r = s.ask("qXfer:features:read:target.xml:%x,800" % len(xml))
            xml += r[1:]
            if r[0] == "l":
                break
        check('<vector id="v16u32" type="uint32" count="16"/>' in xml and
              '<reg name="v1" bitsize="512" regnum="34" type="v16u32" group="vector"/>' in xml,
              "target.xml: v1 is a 512-bit vector of 16 x uint32")
        check(s.ask("Z0,%x,4" % pass_addr) == "OK", "Z0 at pass")
        sig, f = stop_fields(s.ask("c"))
        s.ask("Hg%s" % f.get("thread", "1"))
        check(sig == 5 and reg(s, 32) == pass_addr, "stops at pass (%s)" % f)
        v1 = s.ask("p22")
        check(v1 == "".join(le32(i) for i in range(16)), "p v1: 64 bytes, lanes 0..15")
        import re
        nbytes = sum(int(b) for b in re.findall(r'bitsize="(\d+)"', xml)) // 8
        g = s.ask("g")
        check(len(g) == 2 * nbytes and g[2 * (33 * 4 + 64):2 * (33 * 4 + 128)] == v1,
              "g: %d bytes as target.xml says, v1 at its offset" % nbytes)
        s.ask("z0,%x,4" % pass_addr)
        r = s.ask("c")
        check(r == "W00", "runs to W00: %s" % r)
        cyc = s.monitor("cycle")
        check(cyc.startswith("cycle %s," % end_cycle), "end cycle as a plain run (%s): %r" % (end_cycle, cyc))
        s.send("k")
        s.close()
    finally:
        s.kill()


@scenario
def dpu_gdb_compat(xpusim, prog, main_pc):
    """As GDB sees a DPU: its i386 layout has the PC at register 8, so p8 is the DPU pc and
    the DPU's r8 moves to the pc's number (24)."""
    main_pc = int(main_pc, 0)
    s = _server(xpusim, prog, "-o", "tasklets=4")
    try:
        s.ask("qSupported:multiprocess+;xmlRegisters=i386")
        check(s.ask("Z0,%x,1" % main_pc) == "OK", "Z0 at main")
        sig, f = stop_fields(s.ask("c"))
        s.ask("Hg%s" % f.get("thread", "1"))
        check(sig == 5 and reg(s, 8) == main_pc, "GDB's register 8 ($pc on i386) is the DPU pc")
        out = s.monitor("regs %d r8" % int(f.get("thread", "1"), 16))
        r8 = int(out.split()[-2], 16)
        check(reg(s, 24) == r8, "and register 24 is r8 (0x%x)" % r8)
        check(s.ask("P18=%s" % le32(0x1234)) == "OK" and "0x00001234" in s.monitor("regs r8"), "P18 writes r8")
        s.send("k")
        s.close()
    finally:
        s.kill()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
