#!/bin/sh
# `xpusim debug` on a terminal: readline's prompt, tab completion of command and register
# names (and, with Nyuzi, of symbols of an ELF), an empty line repeating `step`, Ctrl-C
# stopping a run that would never end (and being ignored at the prompt), and `quit`. A
# pseudo-terminal (python3's pty module) plays the user. The MCCP program loops forever:
# loop: inc reg1; jmp loop.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed (drives the terminal)"; exit 0; }
"$X" isas | grep -q '^mccp' || { echo "SKIP: this build has no mccp ISA"; exit 0; }
printf 'loop:\ninc reg1\njmp loop\n' >"$T/spin.asm"
"$X" asm --isa mccp "$T/spin.asm" -o "$T/spin.out" || { echo "FAIL: assembling"; exit 1; }
cat >"$T/drive.py" <<'EOF'
import os, pty, select, signal, sys, time
xpusim, prog = sys.argv[1], sys.argv[2]
pid, fd = pty.fork()
if pid == 0:
    os.environ['TERM'] = 'dumb'
    os.environ.pop('DISPLAY', None)  # no window: this test is about the terminal
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
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            chunk = b''
        if not chunk:
            sys.stdout.write(seen.decode(errors='replace'))
            sys.exit('FAIL: xpusim ended while waiting for %r' % text)
        seen += chunk
    i = seen.index(text.encode()) + len(text)
    seen = seen[i:]
def send(s):
    os.write(fd, s.encode())
def step(name):
    print('ok:', name)
expect('(xpusim) ')
send('hel\t\n');            expect('List the commands'); expect('(xpusim) '); step('command completion')
send('regs fla\t\n');       expect('flags'); expect('(xpusim) '); step('register completion')
send('step\n');             expect('step done'); expect('(xpusim) ')
send('\n');                 expect('step done'); expect('(xpusim) '); step('empty line repeats step')
send('\x03');               time.sleep(0.3)
send('cycle\n');            expect('instructions retired'); expect('(xpusim) '); step('Ctrl-C at the prompt is ignored')
send('continue\n');         expect('continue'); time.sleep(0.5)
os.kill(pid, signal.SIGINT) # what the terminal sends for Ctrl-C, to the whole foreground group
expect('interrupted (Ctrl-C)'); expect('(xpusim) '); step('Ctrl-C stops a run')
send('assert stop interrupted\n'); expect('assert ok'); expect('(xpusim) ')
send('quit\n')
_, status = os.waitpid(pid, 0)
if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
    sys.exit('FAIL: quit gave status %r' % status)
step('quit exits with 0')
EOF
timeout 120 python3 "$T/drive.py" "$X" "$T/spin.out" || exit 1

# Symbol completion needs a program with symbols: a Nyuzi ELF, when this build has Nyuzi.
"$X" isas | grep -q '^nyuzi' || { echo "SKIP: symbol completion (no nyuzi ISA)"; exit 0; }
printf '_start:\nmove s1, 1\nspin_here: b spin_here\n' >"$T/sym.s"
"$X" asm --isa nyuzi "$T/sym.s" -o "$T/sym.elf" || { echo "FAIL: assembling the Nyuzi program"; exit 1; }
cat >"$T/drive2.py" <<'PYEOF'
import os, pty, select, sys, time
xpusim, prog = sys.argv[1], sys.argv[2]
pid, fd = pty.fork()
if pid == 0:
    os.environ['TERM'] = 'dumb'
    os.environ.pop('DISPLAY', None)  # no window: this test is about the terminal
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
expect('(xpusim) ')
os.write(fd, b'break spin_h\t\n'); expect('<spin_here>'); expect('(xpusim) ')
print('ok: symbol completion')
os.write(fd, b'quit\n')
os.waitpid(pid, 0)
PYEOF
timeout 60 python3 "$T/drive2.py" "$X" "$T/sym.elf"
