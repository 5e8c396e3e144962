#!/bin/sh
# An interactive `xpusim debug` session with a display shows the framebuffer in a window
# that follows the stops. On a virtual X server (Xvfb, screenshot = its -fbdir XWD file) a
# pseudo-terminal plays the user on the MCCP band program of view.t.sh (framebuffer rows
# 10..19 turn green). At the start nothing is lit. After `continue` to the end the window
# must show the whole band: 1024 x (10 rows * 6) = 61440 green pixels (the scale
# derivation is in view.t.sh). `quit` must close the window and exit 0. Skips (exit 0,
# with the reason) without SDL, the mccp ISA, xvfb-run or python3.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
skip() { echo "SKIP: $*"; exit 0; }
command -v xvfb-run >/dev/null || skip "xvfb-run is not installed"
command -v python3 >/dev/null || skip "python3 is not installed"
"$X" isas | grep -q '^mccp' || skip "this build has no mccp ISA"
grep -qa "libSDL2-2.0.so.0" "$X" || skip "built without SDL2" # the soname view.c loads
printf 'movl reg1 10240\nmovl reg3 20480\nmovl reg2 65280\nloop:\nstore reg2 reg1\ninc reg1\ncmp reg1 reg3\njne loop\nint 0\n' >"$T/band.asm"
"$X" asm --isa mccp "$T/band.asm" -o "$T/band.out" || { echo "FAIL: assembling"; exit 1; }
mkdir "$T/fb"
cat >"$T/drive.py" <<'EOF'
import os, pty, select, struct, sys, time
xpusim, prog, shot = sys.argv[1:4]
def lit(path):
    # lit pixels of the XWD screenshot: {colour: count}
    d = open(path, 'rb').read()
    h = struct.unpack('>25I', d[:100])
    hsize, byte_order, bpl, ncolors, w, hgt = h[0], h[7], h[12], h[19], h[4], h[5]
    off, fmt, out, zero = hsize + ncolors * 12, ('<' if byte_order == 0 else '>') + '%dI' % w, {}, bytes(w * 4)
    for y in range(hgt):
        if d[off + y * bpl:off + y * bpl + w * 4] != zero:
            for p in struct.unpack_from(fmt, d, off + y * bpl):
                if p & 0xffffff:
                    out[p & 0xffffff] = out.get(p & 0xffffff, 0) + 1
    return out
pid, fd = pty.fork()
if pid == 0:
    os.environ['TERM'] = 'dumb'
    # Under ASan, SDL's X11 video start-up leaves allocations inside libdbus and the GL
    # driver it loads (about 1.3 KB, none from xpusim: test_debugger_view checks view.c's
    # own memory under LeakSanitizer), which would turn `quit` into exit 1 here.
    os.environ['ASAN_OPTIONS'] = os.environ.get('ASAN_OPTIONS', '') + ':detect_leaks=0'
    os.execv(xpusim, [xpusim, 'debug', prog])
seen = b''
def expect(text, timeout=20):
    global seen
    end = time.time() + timeout
    while text.encode() not in seen:
        left = end - time.time()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            sys.stdout.write(seen.decode(errors='replace'))
            sys.exit('FAIL: timed out waiting for %r' % text)
        seen += os.read(fd, 4096)
    seen = seen[seen.index(text.encode()) + len(text):]
def wait_screen(want, timeout=20):
    end = time.time() + timeout
    while time.time() < end:
        have = lit(shot)
        if have == want:
            return have
        time.sleep(0.1)
    sys.exit('FAIL: the screen shows %r, want %r' % (have, want))
expect('(xpusim) ')
time.sleep(0.5)
wait_screen({})
print('ok: nothing lit before the run')
os.write(fd, b'continue\n'); expect('halted at cycle'); expect('(xpusim) ')
wait_screen({0x00ff00: 61440})
print('ok: the window shows the band after continue')
os.write(fd, b'quit\n')
_, status = os.waitpid(pid, 0)
if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
    sys.exit('FAIL: quit gave status %r' % status)
print('ok: quit exits with 0')
EOF
timeout 120 xvfb-run -a -s "-screen 0 1280x1024x24 -fbdir $T/fb" python3 "$T/drive.py" "$X" "$T/band.out" "$T/fb/Xvfb_screen0"
