#!/usr/bin/env python3
# tests/nyuzi/rtl/mem_report.py: how close xpusim is to the Nyuzi RTL on every measured
# memory-system and multi-core micro-benchmark (issue 15 pt 3). For each configuration of
# measured_mem.txt it generates the program with gen_mem.py (checked against
# programs_mem.sha256, the programs the RTL ran), assembles it with xpusim, turns it into the
# elf2hex image the RTL ran, runs it with -o cores=C and sums the threads' second passes
# against the RTL's. It prints one line per configuration and the summary the validation
# notes quote: how many are within 1% and exact, and the mean |error|, three ways: against
# the RTL whose simulation RAM holds its read data where that build differs (the hardware's
# behaviour, docs/validation/nyuzi.md 5c), against the stock build alone, and against the
# closer of the two (the figure sessions 34-36 quoted; the two builds differ only in a way
# the stock testbench picks at random, so either is a behaviour of the RTL). A sum can match
# with its threads far off each way, so a last line gives the threads themselves against
# the closer set: how many equal the RTL's and their mean |error|. A developer's
# tool, not a test: the configurations the model matches are regression tests in
# rtl_mem.t.sh.
#
# usage: mem_report.py XPUSIM [REGEX] [-j JOBS] [-o OPTION]... [--values]
import argparse
import concurrent.futures
import contextlib
import hashlib
import io
import os
import re
import runpy
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.join(HERE, '..', 'tools')
# a thread's line on the serial port: rank, first pass, second pass (hex)
RESULT = re.compile(r'^.:[0-9a-f]{8} ([0-9a-f]{8})$')


def read_measured():
    """[(program, stock numbers, holding numbers or None)] from measured_mem.txt."""
    out = []
    with open(os.path.join(HERE, 'measured_mem.txt')) as f:
        for n, line in enumerate(f, 1):
            if line.startswith('#') or not line.strip():
                continue
            fields = [x.strip() for x in line.split('|')]
            if len(fields) != 3:
                sys.exit('measured_mem.txt:%d: expected "program | stock | holding"' % n)
            stock = [int(x) for x in fields[1].split()]
            hold = None if fields[2] == '=' else [int(x) for x in fields[2].split()]
            out.append((fields[0], stock, hold))
    return out


def read_sums():
    sums = {}
    with open(os.path.join(HERE, 'programs_mem.sha256')) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 2 and not line.startswith('#'):
                sums[parts[1]] = parts[0]
    return sums


def run_script(path, argv, stdout=None):
    """Run one of our python tools in this process, as from the command line."""
    saved = sys.argv
    sys.argv = [path] + argv
    try:
        with contextlib.redirect_stdout(stdout or io.StringIO()):
            runpy.run_path(path, run_name='__main__')
    finally:
        sys.argv = saved


def build(prog, tmp, sums):
    """Write TMP/PROG.S from gen_mem.py and check it is the program the RTL ran."""
    name, cfg = prog.rsplit('.', 1)
    cores, threads = cfg[1:].split('t')
    text = io.StringIO()
    run_script(os.path.join(HERE, 'gen_mem.py'), [name, cores, threads], text)
    src = text.getvalue().encode()
    if hashlib.sha256(src).hexdigest() != sums.get(prog + '.S'):
        return 'gen_mem.py writes a different program than the one the RTL ran'
    with open(os.path.join(tmp, prog + '.S'), 'wb') as f:
        f.write(src)
    return None


def run(xpusim, prog, tmp, opts):
    """The second pass of every thread, in rank order, or an error string."""
    base = os.path.join(tmp, prog)
    cores = prog.rsplit('.', 1)[1][1:].split('t')[0]
    cmd = [xpusim, 'run', base + '.hex', '--isa', 'nyuzi', '-o', 'cores=' + cores, '--quiet',
           '--max-cycles', '5000000']
    for o in opts:
        cmd += ['-o', o]
    r = subprocess.run(cmd, capture_output=True)
    out = r.stdout.replace(b'\0', b'').decode('ascii', 'replace')
    got = [int(m.group(1), 16) for m in map(RESULT.match, out.splitlines()) if m]
    if r.returncode:
        return 'xpusim run exited %d: %s' % (r.returncode, r.stderr.decode().strip()[:200])
    return got


def error(got, want):
    return 100.0 * (sum(got) - sum(want)) / sum(want)


def summary(label, rows):
    n = len(rows)
    within = sum(1 for e, _ in rows if abs(e) <= 1.0)
    exact = sum(1 for _, x in rows if x)
    mean = sum(abs(e) for e, _ in rows) / n if n else 0.0
    print('%s: %d configurations, %d within 1%%, %d exact, mean |error| %.2f%%'
          % (label, n, within, exact, mean))


def main():
    ap = argparse.ArgumentParser(description='xpusim against the RTL on the 128 memory '
                                 'micro-benchmark configurations')
    ap.add_argument('xpusim')
    ap.add_argument('regex', nargs='?', default='')
    ap.add_argument('-j', type=int, default=2, help='runs at once (default 2)')
    ap.add_argument('-o', action='append', default=[], help='an xpusim option, NAME=VALUE')
    ap.add_argument('--values', action='store_true', help='print the threads\' numbers too')
    a = ap.parse_args()
    try:
        pick = re.compile(a.regex)
    except re.error as e:
        sys.exit('mem_report.py: bad REGEX %r: %s' % (a.regex, e))
    if a.j < 1:
        sys.exit('mem_report.py: -j needs a positive number')
    xpusim = os.path.abspath(a.xpusim)
    if not (os.path.isfile(xpusim) and os.access(xpusim, os.X_OK)):
        sys.exit('mem_report.py: %s: not an executable file (expected the xpusim binary)' % a.xpusim)
    todo = [m for m in read_measured() if pick.search(m[0])]
    sums = read_sums()
    bad = False
    with tempfile.TemporaryDirectory() as tmp:
        errors = {}
        for prog, _, _ in todo:
            errors[prog] = build(prog, tmp, sums)
            if errors[prog] is None and not os.path.exists(os.path.join(tmp, prog + '.S')):
                errors[prog] = 'no source'
        # assemble and run in parallel; elf2hex (ours, in python) after each asm, here
        with concurrent.futures.ThreadPoolExecutor(a.j) as pool:
            asm = {p: pool.submit(subprocess.run, [xpusim, 'asm', '--isa', 'nyuzi',
                                                   os.path.join(tmp, p + '.S'), '-o',
                                                   os.path.join(tmp, p + '.elf')],
                                  capture_output=True, text=True)
                   for p, _, _ in todo if errors[p] is None}
            for p, f in asm.items():
                r = f.result()
                if r.returncode:
                    errors[p] = 'xpusim asm failed: ' + r.stderr.strip()
                    continue
                run_script(os.path.join(TOOLS, 'elf2hex.py'),
                           [os.path.join(tmp, p + '.elf'), os.path.join(tmp, p + '.hex')])
            runs = {p: pool.submit(run, xpusim, p, tmp, a.o)
                    for p, _, _ in todo if errors[p] is None}
            results = {p: f.result() for p, f in runs.items()}
    best, hold_only, stock_only, threads = [], [], [], []
    for prog, stock, hold in todo:
        got = errors[prog] or results[prog]
        if isinstance(got, str) or len(got) != len(stock):
            why = got if isinstance(got, str) else '%d threads printed, RTL %d' % (len(got), len(stock))
            print('%-22s ERROR %s' % (prog, why))
            bad = True
            continue
        es = error(got, stock)
        stock_only.append((es, got == stock))
        ref = hold or stock
        eh = error(got, ref)
        hold_only.append((eh, got == ref))
        closer = min((abs(eh), eh, got == ref, ref), (abs(es), es, got == stock, stock))
        best.append(closer[1:3])
        threads += [(100.0 * abs(g - w) / w, g == w) for g, w in zip(got, closer[3])]
        line = '%-22s %+7.2f%%' % (prog, eh)
        if hold:
            line += ' (stock %+.2f%%)' % es
        line += ' exact' if got == ref else ''
        if a.values:
            line += '\n    xpusim %s\n    RTL    %s' % (' '.join(map(str, got)),
                                                     ' '.join(map(str, ref)))
        print(line)
    summary('closer of stock / holding', best)
    summary('holding RAM where it differs', hold_only)
    summary('stock RTL only', stock_only)
    if threads:
        print('threads against the closer set: %d threads, %d equal, mean |error| %.2f%%'
              % (len(threads), sum(1 for _, x in threads if x),
                 sum(e for e, _ in threads) / len(threads)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
