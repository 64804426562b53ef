#!/usr/bin/env python3
"""How far plan's estimate, and the time left that each run announces, are
from what a simulation takes.

    bench/estimate.py --bootbench build/bootbench [--config configs/demo.toml] [--quick]

Runs `bootbench plan` (its "as a simulation" line), then `bootbench simulate`
on the same file, timing it and every "run k/N (...), about T left" line it
prints. Prints the estimate beside the measured time, and each progress
line's "left" beside the time that was really left. Figures in
docs/performance.md ("Estimates").
"""
import argparse
import re
import shutil
import subprocess
import tempfile
import time

DURATION = r"((?:\d+ h )?(?:\d+ min )?(?:\d+ s)?|\d+ h \d+ min)"


def seconds(text):
    total = 0
    for value, unit in re.findall(r"(\d+) (h|min|s)\b", text):
        total += int(value) * {"h": 3600, "min": 60, "s": 1}[unit]
    return total


def plan_estimate(bootbench, config, quick):
    out = subprocess.run([bootbench, "plan", *quick, config], capture_output=True, text=True, check=True).stdout
    m = re.search(r"as a simulation \(bootbench simulate, no reboots\): (.+)", out)
    return seconds(m.group(1))


def simulate(bootbench, config, quick):
    """Wall time and [(time of the line, announced seconds left)] of one simulation."""
    results = tempfile.mkdtemp(prefix="bootbench-estimate-")
    shutil.rmtree(results)
    t0 = time.monotonic()
    # --verbose: the line each run begins with ("run k/N (t), about T left")
    # is a detail; without it only the line each run ends with is printed
    p = subprocess.Popen([bootbench, "simulate", "--verbose", *quick, "--results", results, config],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    progress = []
    for line in p.stderr:
        m = re.search(r"run \d+/\d+ \(.*\), about (.+) left", line)
        if m:
            progress.append((time.monotonic() - t0, seconds(m.group(1))))
    if p.wait() != 0:
        raise SystemExit(f"simulate failed (exit {p.returncode})")
    shutil.rmtree(results, ignore_errors=True)
    return time.monotonic() - t0, progress


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bootbench", required=True)
    ap.add_argument("--config", default="configs/demo.toml")
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    quick = ["--quick"] if a.quick else []
    estimate = plan_estimate(a.bootbench, a.config, quick)
    wall, progress = simulate(a.bootbench, a.config, quick)
    print(f"{a.config}{' --quick' if a.quick else ''}: plan said {estimate} s, simulate took {wall:.0f} s "
          f"(ratio {estimate / wall:.2f})")
    for k, (at, left) in enumerate(progress, 1):
        print(f"  run {k}: announced {left} s left, really {wall - at:.0f} s")


if __name__ == "__main__":
    main()
