#!/usr/bin/env python3
"""README's first command as a new user meets it: `bootbench simulate
configs/demo.toml` (issue 34). The real demo, real benches on this machine:
every metric of its A/A report has a 95% interval and each ~ verdict says
why, the noise floor is stated in one sentence, the terminal has one line a
run, and the end says what to do next on a real machine.

    demo_test.py BOOTBENCH SOURCE_ROOT
"""
import os
import re
import subprocess
import sys
import tempfile

failures = []
RUNS = 12
MAX_LINES = 40  # the bound for 12 runs, outlier lines aside


def check(name, ok, detail=""):
    print(("ok: " if ok else "FAIL: ") + name)
    if not ok:
        failures.append(name)
        print("   ", str(detail).replace("\n", "\n    "))


def main():
    bootbench, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        p = subprocess.run([bootbench, "simulate", "--results", f"{tmp}/results", f"{root}/configs/demo.toml"],
                           cwd=tmp, capture_output=True, text=True, timeout=600)
        said = p.stdout + p.stderr
        check("the demo finishes", p.returncode == 0, said)
        if p.returncode != 0:
            return 1
        report = p.stdout[p.stdout.find("system-b vs system-a (baseline):"):].split("\n\n")[0].splitlines()[1:]
        check("the report compares metrics", len(report) >= 5, p.stdout)
        for line in report:
            check(f"an interval: {line.split()[0]}", "; 95% CI " in line, line)
            if re.match(r"\s+\S+\s+~\s", line):
                check(f"~ says why: {line.split()[0]}", "; ~ as " in line, line)
        floor = [l for l in p.stdout.splitlines() if l.startswith("On this machine, differences below ")]
        check("the noise floor in one sentence", len(floor) == 1 and "are noise for these benches" in floor[0],
              p.stdout)
        md = open(f"{tmp}/results/report.md").read()
        check("report.md states it too", floor and f"> {floor[0]}" in md.replace("\\", ""), md[:1500])
        progress = re.findall(r"^bootbench: run (\d+)/12 \(system-[ab]\): ok, perf-sched-pipe \S+ us/op, "
                              r"sysbench-threads \S+ events; (about .* left|the last run)$", p.stderr, re.M)
        check("one line a run, with the benches' results and the time left",
              [int(k) for k, _ in progress] == list(range(1, RUNS + 1)), p.stderr)
        lines = [l for l in said.splitlines() if not l.startswith("flagged ")]
        check(f"at most {MAX_LINES} lines on the terminal (outliers' lines aside)", len(lines) <= MAX_LINES,
              f"{len(lines)} lines:\n{said}")
        check("what to do next on a real machine", "\nnext, on the ostree machine to measure" in p.stdout and
              "bootbench doctor YOURS.toml" in p.stdout and "sudo bootbench start YOURS.toml" in p.stdout,
              p.stdout)
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
