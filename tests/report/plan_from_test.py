#!/usr/bin/env python3
"""Iterations inside a boot, end to end: a pilot results folder whose bench
ran twice per boot; its report's variance section (md, json, html) and
`plan --from` on it, against values computed by hand; the refusals.

    plan_from_test.py BOOTBENCH CONFIGS_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

BOOTBENCH, CONFIGS = os.path.abspath(sys.argv[1]), sys.argv[2]
DEMO = os.path.join(CONFIGS, "repeat-demo.toml")
failures = []


def run(*args):
    p = subprocess.run([BOOTBENCH, *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def check(name, ok, detail=""):
    print(("ok: " if ok else "FAIL: ") + name)
    if not ok:
        failures.append(name)
        if detail:
            print("   ", detail.replace("\n", "\n    "))


def stamp(seconds):
    return f"2026-07-01T{10 + seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}+00:00"


def run_file(run_id, target, iterations, started, repeat=True):
    value = sorted(iterations)[len(iterations) // 2 - 1: len(iterations) // 2 + 1]
    metric = {"value": sum(value) / len(value), "unit": "us/op", "better": "lower", "bench": "perf-sched-pipe"}
    bench = {"name": "perf-sched-pipe", "kind": "perf-sched-pipe", "argv": ["perf"], "wall_s": 2.0,
             "status": "ok", "reason": "", "log": "perf-sched-pipe", "exit_status": 0}
    if repeat:
        metric["iterations"] = iterations
        bench["iterations"] = len(iterations)
    return {"schema": "bootbench-run/1", "experiment": "repeat-demo", "run": run_id, "target": target,
            "attempt": 1, "started_at": stamp(started), "finished_at": stamp(started + 3), "status": "ok",
            "failure": "", "deployment": {"stateroot": "default", "checksum": "abc", "serial": 0},
            "environment": {}, "benches": [bench], "metrics": {"sched_pipe_usecs_op": metric}}


def pilot(root, repeat=True):
    """Three boots per target, two iterations each, a run every 62 s: a boot
    costs 62 - 2 s of benches = 60 s, an iteration 2 s / 2 = 1 s. system-a's
    boots {10,12} {14,16} {11,13}: S1^2 = 2, S2^2 = 13/3, T2^2 = 10/3 (shares
    37.5% / 62.5%); r1 = ceil(sqrt(60 * 2 / (10/3))) = 6; for the ratio of
    the two medians (issue 32, item 7; 222 sized a's mean alone) w = (10/3 +
    pi * 2/6) / (38/3)^2 per target and n2 = 827 for +-2%. system-b is
    system-a times 2: the same shares and advice."""
    os.makedirs(f"{root}/runs")
    shutil.copy(DEMO, f"{root}/experiment.toml")
    boots = [[10, 12], [14, 16], [11, 13]]
    at = 0
    for i, b in enumerate(boots):
        for target, scale in (("system-a", 1), ("system-b", 2)):
            doc = run_file(f"{target}-{i + 1}", target, [x * scale for x in b], at, repeat)
            with open(f"{root}/runs/{target}-{i + 1}.json", "w") as f:
                json.dump(doc, f)
            at += 62


def report_tests(tmp):
    root = os.path.join(tmp, "pilot")
    pilot(root)
    rc, out, err = run("report", root)
    check("report of a pilot runs", rc == 0, err)
    md = open(os.path.join(root, "report.md")).read()
    line = ("- sched\\_pipe\\_usecs\\_op on system-a (3 boots x 2 iterations): within a boot 37.5%, "
            "between boots 62.5% of the variance; for the ratio's 95% CI within +-2%: about 827 boots x 6 "
            "iterations per target")
    check("report.md: the variance section with the hand-computed split and advice",
          "## Iterations inside a boot" in md and line in md, md)
    check("report.md: the costs and where they come from",
          "Costs used: a boot 60.0 s (measured: the median time from one run's start to the next, minus the "
          "first one's benches); one iteration (measured wall time): sched\\_pipe\\_usecs\\_op 1.00 s." in md, md)
    rep = json.load(open(os.path.join(root, "report.json")))
    m = rep["metrics"][0]
    va = m["variance"][0]
    check("report.json: the split per target",
          va["target"] == "system-a" and abs(va["s1_sq"] - 2) < 1e-9 and abs(va["t2_sq"] - 10 / 3) < 1e-9
          and abs(va["within_share"] - 0.375) < 1e-9 and va["advice"]["boots"] == 827
          and va["advice"]["iterations"] == 6, json.dumps(va))
    check("report.json: every iteration beside the per-boot values",
          m["targets"]["system-a"]["iterations"] == [[10, 12], [14, 16], [11, 13]]
          and m["targets"]["system-a"]["values"] == [11, 15, 12], json.dumps(m["targets"]["system-a"]))
    check("report.json: the boot cost, measured", rep["boot_cost"] == {"seconds": 60, "from": "measured"},
          json.dumps(rep.get("boot_cost")))
    html = open(os.path.join(root, "report.html")).read()
    check("report.html: the variance section", "<h2>Iterations inside a boot</h2>" in html
          and "about 827 boots x 6 iterations per target" in html)
    check("terminal: the variance lines", "iterations inside a boot:\n  sched_pipe_usecs_op on system-a" in out, out)


def plan_tests(tmp):
    root = os.path.join(tmp, "pilot2")
    pilot(root)
    rc, out, err = run("plan", "--from", root, DEMO)
    check("plan --from runs", rc == 0, err)
    check("plan --from proposes runs and repeat from the hand-computed advice",
          f"for the ratio's 95% CI within +-2% on every metric of the pilot, set in {DEMO}:\n"
          "  [experiment] runs = 827 (now 4), for sched_pipe_usecs_op on system-a\n"
          "  [[bench]] 'perf-sched-pipe' repeat = 6 (now 3), for sched_pipe_usecs_op on system-a\n" in out, out)
    check("plan --from: the estimate of the sized experiment", "estimate with these: " in out
          and "(1654 runs of " in out, out)
    flat = os.path.join(tmp, "flat")
    pilot(flat, repeat=False)
    rc, out, err = run("plan", "--from", flat, DEMO)
    want = ("bootbench: error: the pilot's results have no bench that ran more than once per boot and is in "
            f"{DEMO}: run a pilot with repeat = 3 (or more) on the benches, e.g. runs = 4, then plan --from "
            "its results\n")
    check("plan --from a pilot without repeat: exit 2, says what to do", rc == 2 and err == want and out == "",
          f"{rc}\n{out}\n{err}")
    rc, out, err = run("report", flat)
    md = open(os.path.join(flat, "report.md")).read()
    check("no repeat: no variance section, no iterations in report.json",
          rc == 0 and "Iterations inside a boot" not in md
          and "iterations" not in json.load(open(os.path.join(flat, "report.json")))["metrics"][0]["targets"]["system-a"],
          md)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        report_tests(tmp)
        plan_tests(tmp)
    if failures:
        print(f"{len(failures)} failed")
        sys.exit(1)


main()
