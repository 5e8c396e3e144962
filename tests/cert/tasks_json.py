"""tests/cert/tasks_json.py: checks the "tasks" member of a JSON statistics file
(docs/stats-schema.md, core/task.h) and prints one line per task for the shell tests
(tests/cert/tasks.t.sh, tests/ipu/tasks.t.sh) to compare with their hand-derived cycles.

usage: tasks_json.py STATS.json [--busy]

Checks: every task object has exactly the documented members with their types (a summary
object of the tasks past the kept ones its own set); stalls and counters name the unit's
stall causes and thread counters; cycles = end - begin; and for every thread that had
tasks (none summed), the tasks' instructions, issue cycles, stalls and counters add up to
the thread's own. --busy also asks that each task's cycles are its issue cycles plus its
stalls (the CERT runner books every cycle of a job as one or the other).
Output: "UNIT THREAD SEQ STATE BEGIN END INSTRUCTIONS | NAME" per task, in file order;
exit status 1 with "FAIL: ..." lines on stderr when a check fails."""
import json
import sys

TASK = {"unit": int, "thread": int, "seq": int, "name": str, "id": int, "state": str, "begin": int, "end": int,
        "cycles": int, "instructions": int, "issue_cycles": int, "stalls": dict}
SUMMARY = {"unit": int, "summed": int, "begin": int, "end": int, "cycles": int, "instructions": int,
           "issue_cycles": int, "stalls": dict}


def main():
    path = sys.argv[1]
    busy = "--busy" in sys.argv[2:]
    fails = []
    with open(path) as f:
        st = json.load(f)
    tasks = st.get("tasks")
    if not isinstance(tasks, list) or not tasks:
        print("FAIL: no \"tasks\" array in %s" % path, file=sys.stderr)
        return 1
    units = st["units"]
    sums = {}
    summed_units = set()
    seqs = set()
    for k, t in enumerate(tasks):
        want = dict(SUMMARY if "summed" in t else TASK)
        u = units[t["unit"]] if isinstance(t.get("unit"), int) and 0 <= t["unit"] < len(units) else None
        if u is None:
            fails.append("task %d: unit %r is not a unit of the file" % (k, t.get("unit")))
            continue
        th0 = u["threads"][0]
        if "counters" in th0:
            want["counters"] = dict
        if set(t) != set(want):
            fails.append("task %d: members %s, expected %s" % (k, sorted(t), sorted(want)))
            continue
        for key, typ in want.items():
            if not isinstance(t[key], typ) or isinstance(t[key], bool):
                fails.append("task %d: %s is %r, not %s" % (k, key, t[key], typ.__name__))
        if list(t["stalls"]) != list(th0["stalls"]):
            fails.append("task %d: stall causes %s, the unit's %s" % (k, list(t["stalls"]), list(th0["stalls"])))
        if "counters" in want and list(t["counters"]) != list(th0["counters"]):
            fails.append("task %d: counters %s, the unit's %s" % (k, list(t["counters"]), list(th0["counters"])))
        if "summed" in t:
            summed_units.add(t["unit"])
            continue
        if t["state"] not in ("ended", "running"):
            fails.append("task %d: state %r" % (k, t["state"]))
        if t["end"] < t["begin"] or t["cycles"] != t["end"] - t["begin"]:
            fails.append("task %d: begin %d end %d cycles %d" % (k, t["begin"], t["end"], t["cycles"]))
        if (t["unit"], t["seq"]) in seqs:
            fails.append("task %d: seq %d twice on unit %d" % (k, t["seq"], t["unit"]))
        seqs.add((t["unit"], t["seq"]))
        if busy and t["cycles"] != t["issue_cycles"] + sum(t["stalls"].values()):
            fails.append("task %d (%s): cycles %d != issue cycles %d + stalls %d" %
                         (k, t["name"], t["cycles"], t["issue_cycles"], sum(t["stalls"].values())))
        s = sums.setdefault((t["unit"], t["thread"]), {"instructions": 0, "issue_cycles": 0, "stalls": {},
                                                        "counters": {}})
        s["instructions"] += t["instructions"]
        s["issue_cycles"] += t["issue_cycles"]
        for part in ("stalls", "counters"):
            for name, v in t.get(part, {}).items():
                s[part][name] = s[part].get(name, 0) + v
        print("%s %d %d %s %d %d %d | %s" % (u["name"], t["thread"], t["seq"], t["state"], t["begin"], t["end"],
                                             t["instructions"], t["name"]))
    for (ui, ti), s in sorted(sums.items()):
        if ui in summed_units:
            continue
        th = units[ui]["threads"][ti]
        for key in ("instructions", "issue_cycles"):
            if s[key] != th[key]:
                fails.append("%s thread %d: tasks' %s %d, the thread's %d" % (units[ui]["name"], ti, key, s[key], th[key]))
        for part in ("stalls", "counters"):
            for name, v in th.get(part, {}).items():
                if s[part].get(name, 0) != v:
                    fails.append("%s thread %d: tasks' %s %s %d, the thread's %d" %
                                 (units[ui]["name"], ti, part, name, s[part].get(name, 0), v))
    for f in fails:
        print("FAIL: " + f, file=sys.stderr)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
