#!/bin/sh
# tests/cli/report.t.sh: `xpusim report STATS.json [-o OUT.html] [--profile FILE]` (issue 10).
# The page must be self-contained (no script, nothing fetched), and its numbers must be the
# run's own: each thread's bar is split into rects whose data-cycles add up to the thread's
# cycles in the statistics (issue cycles, then each stall cause, then the rest), whose widths
# are those cycles at one scale for the run (the longest thread fills 480 pixels), and whose
# IPC cell is instructions / cycles;
# the options table lists every option; the top-functions table sums the profile (MCCP demo:
# no symbols, so one row "(no symbol)" holding the profile's whole summary: cycles,
# instructions, then one column per stall cause the profile charged to a shown function). Text from the
# inputs is escaped; bad inputs and unwritable output are errors.
X=${XPUSIM:-build/xpusim}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
"$X" isas | grep -q '^mccp' || { echo "SKIP: no mccp"; exit 0; }
fail=0
"$X" asm --isa mccp programs/mccp/demo.mccp -o "$T/demo.out" || exit 1
"$X" run "$T/demo.out" --load ram:0=programs/mccp/demo-input.txt --profile "$T/p.cg" --stats=json \
    --stats-file "$T/s.json" --quiet > /dev/null || { echo "FAIL: run"; exit 1; }
"$X" report "$T/s.json" --profile "$T/p.cg" -o "$T/r.html" || { echo "FAIL: report exit $?"; fail=1; }
python3 - "$T/r.html" "$T/s.json" "$T/p.cg" <<'EOF' || fail=1
import json, re, sys, html.parser
page = open(sys.argv[1]).read(); s = json.load(open(sys.argv[2]))
summary = [l for l in open(sys.argv[3]) if l.startswith("summary:")][0].split()
assert "<script" not in page.lower() and "http://" not in page and "https://" not in page, "not self-contained"
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.rows = []; self.cells = []; self.intable = None; self.cell = None; self.tables = {}
    def handle_starttag(self, tag, a):
        a = dict(a)
        if tag == "table": self.intable = a.get("class"); self.tables.setdefault(self.intable, [])
        if tag == "tr": self.row = {"cells": [], "rects": []}
        if tag == "td": self.cell = ""
        if tag == "rect": self.row["rects"].append(a)
    def handle_data(self, d):
        if self.cell is not None: self.cell += d
    def handle_endtag(self, tag):
        if tag == "td": self.row["cells"].append(self.cell); self.cell = None
        if tag == "tr" and self.intable: self.tables[self.intable].append(self.row)
p = P(); p.feed(page)
rows = [r for r in p.tables["unit"] if r["cells"]]
threads = [th for u in s["units"] for th in u["threads"]]
assert len(rows) == len(threads), (len(rows), len(threads))
longest = max(th["cycles"] for th in threads)
for r, th in zip(rows, threads):
    cyc = th["cycles"]
    total = sum(float(x["data-cycles"]) for x in r["rects"])
    assert total == cyc, ("bar cycles", total, cyc)
    assert abs(sum(float(x["width"]) for x in r["rects"]) - 480 * cyc / longest) < 0.01
    for x in r["rects"]:
        assert abs(float(x["width"]) - 480 * float(x["data-cycles"]) / longest) < 0.002, x
    issue = [x for x in r["rects"] if x["class"] == "issue"][0]
    assert float(issue["data-cycles"]) == th["issue_cycles"]
    for x in r["rects"]:
        if x["class"] == "stall":
            assert float(x["data-cycles"]) == th["stalls"][x["data-cause"]], x
    assert r["cells"][3] == "%.3f" % (th["instructions"] / cyc), (r["cells"][3], th)
opts = {r["cells"][0]: r["cells"][1] for r in p.tables["options"]}
assert opts == s["options"], (opts, s["options"])
funcs = [r["cells"] for r in p.tables["funcs"] if r["cells"]]
# the stall columns: each Stall_ event of the profile that the function has (the MCCP demo
# stalls on memory and the arbiter, never on an exception dump: no column for that one)
events = [l for l in open(sys.argv[3]) if l.startswith("events:")][0].split()[1:]
shown = [(e, v) for e, v in zip(events, summary[1:]) if e.startswith("Stall_") and v != "0"]
assert len(shown) >= 2, ("want at least two stall causes to check", events, summary)
assert funcs == [["(no symbol)", summary[2], summary[1]] + [v for e, v in shown]], (funcs, summary)
heads = re.findall(r'<th class="stall">stall: ([^<]*)</th>', page)
assert heads == [e[6:] for e, v in shown], (heads, shown)
print("ok: report: %d thread bars, options, top functions match the statistics and the profile" % len(rows))
EOF
# a profile with source lines and call edges: the table sums each function's own lines
# (the address and line columns are positions, not counts) and never a call's inclusive cost,
# which is the callee's: main = 22 + 11 cycles, 2 + 1 instructions; leaf = 66, 6, dma 5; the
# column of cycles with calls adds the calls' inclusive cycles: main 33 + 66 = 99, leaf 66
cat > "$T/lines.cg" <<'EOF'
# callgrind format
version: 1
positions: instr line
events: Instructions Cycles Stall_dma Stall_revolver

fl=a.c
fn=main
0x10 4 2 22 0 20
cfl=a.c
cfn=leaf
calls=2 0x20 9
0x10 4 6 66 5 60
0x11 5 1 11 0 10
fn=leaf
0x20 9 6 66 5 60
EOF
"$X" report "$T/s.json" --profile "$T/lines.cg" -o "$T/l.html" || { echo "FAIL: report of a profile with lines"; fail=1; }
python3 - "$T/l.html" <<'PY' || fail=1
import re, sys
page = open(sys.argv[1]).read()
table = page.split('<table class="funcs">')[1].split("</table>")[0]
rows = [re.findall(r"<t[dh][^>]*>([^<]*)</t[dh]>", r) for r in table.split("</tr>") if "<t" in r]
want = [["function", "cycles", "cycles with calls", "instructions", "stall: dma", "stall: revolver"],
        ["leaf", "66", "66", "6", "5", "60"], ["main", "33", "99", "3", "0", "30"]]
assert rows == want, (rows, want)
print("ok: report: self costs per function from a profile with lines and calls")
PY
# escaping: text from the statistics never becomes markup
sed 's/"fb_palette": "rgb"/"fb_palette": "<b>x<\/b>\&"/' "$T/s.json" > "$T/esc.json"
"$X" report "$T/esc.json" -o "$T/esc.html" || { echo "FAIL: escaped report"; fail=1; }
grep -q '&lt;b&gt;x&lt;/b&gt;&amp;' "$T/esc.html" || { echo "FAIL: not escaped"; fail=1; }
grep -q '<b>x</b>' "$T/esc.html" && { echo "FAIL: markup from the input"; fail=1; }
# the build that made the statistics is named (escaped like the rest), none when not known
v=$("$X" --version | sed 's/^xpusim //')
grep -qF "<p>Simulated by xpusim $v.</p>" "$T/r.html" || { echo "FAIL: the build $v not named"; fail=1; }
grep -qxF "creator: xpusim $v (mccp)" "$T/p.cg" || { echo "FAIL: the profile's creator: $(grep creator "$T/p.cg")"; fail=1; }
sed 's/, "xpusim": "[^"]*"}/, "xpusim": "<i>"}/' "$T/s.json" > "$T/b.json"
"$X" report "$T/b.json" -o "$T/b.html" && grep -qF "Simulated by xpusim &lt;i&gt;." "$T/b.html" || { echo "FAIL: build not escaped"; fail=1; }
sed 's/, "xpusim": "[^"]*"}/}/' "$T/s.json" > "$T/n.json"
"$X" report "$T/n.json" -o "$T/n.html" && ! grep -q "Simulated by" "$T/n.html" || { echo "FAIL: a build named in an older file"; fail=1; }
# trouble
printf '{"units": [1,\n' > "$T/bad.json"
"$X" report "$T/bad.json" -o "$T/x.html" 2> "$T/err" && { echo "FAIL: bad JSON accepted"; fail=1; }
grep -q "$T/bad.json:2:" "$T/err" || { echo "FAIL: bad JSON: $(cat "$T/err")"; fail=1; }
printf 'fn=main\nzz\n0x10 1\n' > "$T/bad.cg"
"$X" report "$T/s.json" --profile "$T/bad.cg" -o "$T/x.html" 2> "$T/err" && { echo "FAIL: bad profile accepted"; fail=1; }
grep -q "$T/bad.cg:3: expected ADDRESS INSTRUCTIONS CYCLES" "$T/err" || { echo "FAIL: bad profile: $(cat "$T/err")"; fail=1; }
"$X" report "$T/s.json" -o /dev/full 2> "$T/err" && { echo "FAIL: /dev/full accepted"; fail=1; }
grep -q "/dev/full" "$T/err" || { echo "FAIL: /dev/full: $(cat "$T/err")"; fail=1; }
"$X" report 2> "$T/err" && { echo "FAIL: no arguments accepted"; fail=1; }
grep -q "usage: xpusim report" "$T/err" || { echo "FAIL: usage: $(cat "$T/err")"; fail=1; }
[ $fail -eq 0 ] && echo "ok: report"
exit $fail
