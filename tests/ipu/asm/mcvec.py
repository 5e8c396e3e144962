#!/usr/bin/env python3
# tests/ipu/asm/mcvec.py: ad hoc validation (docs/validation/ipu.md): assemble the text of each
# LLVM MC / bootloader vector (vectors file format of /tmp/ipu/vectors) and compare the bytes.
# Assemble each MC/bootloader vector's text with the IPU assembler and compare bytes.
import sys, subprocess, struct, os, collections
drv = sys.argv[1]  # the xpusim binary
files = sys.argv[2:]; TMP = os.environ.get('TMPDIR', '/tmp')
zones = dict(SYNCZONE_RECV=0, SYNCZONE_ANS=1, SYNCZONE_LOCAL=2, SYNCZONE_INTERNAL=3,
             SYNCZONE_GS1=4, SYNCZONE_GS1H=5, SYNCZONE_GS2=6, SYNCZONE_GS2H=7)
def text_bytes(path):
    d = open(path, 'rb').read()
    shoff, = struct.unpack_from('<I', d, 0x20); shnum, shstrndx = struct.unpack_from('<HH', d, 0x30)
    secs = [struct.unpack_from('<10I', d, shoff + 40 * i) for i in range(shnum)]
    strs = secs[shstrndx]
    for s in secs:
        name = d[strs[4] + s[0]:].split(b'\0')[0]
        if name == b'.text': return d[s[4]:s[4] + s[5]]
    return b''
stats = collections.OrderedDict(); bad = []; fallback = [0]
for f in files:
    for n, line in enumerate(open(f)):
        if line.startswith('#') or not line.strip(): continue
        src, ctx, arch, hexb, text = line.rstrip('\n').split('|')
        key = src.split(' ')[0] if 'bootloader' not in src else 'bootloader'
        st = stats.setdefault(key, [0, 0, 0, 0])
        if text == 'INVALID': st[3] += 1; continue
        want = bytes(int(x, 16) for x in hexb.split())
        S = os.path.join(TMP, 'v.S')
        with open(S, 'w') as o:
            for k, v in zones.items(): o.write('.set %s, %d\n' % (k, v))
            o.write('.%s\n%s\n' % (ctx, text.replace('{', '{ ').replace('}', ' }')))
        r = subprocess.run([drv, 'asm', '--isa', 'ipu', S, '-o', os.path.join(TMP, 'v.o'), '-o', 'arch=' + arch], capture_output=True, text=True)
        if r.returncode and ctx == 'supervisor':  # worker code in the listing: llvm-objdump's fallback
            open(S, 'a').write('')
            src2 = open(S).read().replace('.supervisor\n', '.worker\n')
            open(S, 'w').write(src2)
            r = subprocess.run([drv, 'asm', '--isa', 'ipu', S, '-o', os.path.join(TMP, 'v.o'), '-o', 'arch=' + arch], capture_output=True, text=True)
            if not r.returncode: fallback[0] += 1
        st[0] += 1
        if r.returncode:
            st[2] += 1; bad.append('%s: %s | %s' % (text, hexb, r.stderr.strip().split('error: ')[-1])); continue
        got = text_bytes(os.path.join(TMP, 'v.o'))
        if got == want: st[1] += 1
        else:
            st[2] += 1; bad.append('%s: want %s got %s' % (text, hexb, ' '.join('%02x' % b for b in got)))
for k, (t, ok, no, inv) in stats.items(): print('%-60s vectors %3d  match %3d  mismatch %3d  (INVALID skipped %d)' % (k, t, ok, no, inv))
print('assembled as worker code after supervisor failed:', fallback[0])
for b in bad: print('  ', b)
