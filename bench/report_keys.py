#!/usr/bin/env python3
"""bootbench report on runs with many metric keys (issue "hostile inputs",
item 15): two targets with N runs each, every run with the same K command
metrics, then `bootbench report` under /usr/bin/time -v. Prints the wall time,
the CPU time and the peak memory (best of 3).

    bench/report_keys.py [build/bootbench] [--keys 80000] [--runs 1]
"""
import argparse
import json
import os
import shutil
import sys
import tempfile

import report_scale  # beside this file: the same /usr/bin/time measurement


def run_doc(run_id, target, keys, offset):
    metrics = {f"m{k:06d}": {"value": 1.0 + (k % 7) + offset, "unit": "ms", "better": "lower",
                             "bench": "many"} for k in range(keys)}
    return {
        "schema": "bootbench-run/1", "experiment": "keys", "run": run_id, "target": target,
        "attempt": 1, "started_at": "2026-07-01T00:00:00+00:00",
        "finished_at": "2026-07-01T00:01:00+00:00", "status": "ok", "failure": "",
        "deployment": {"stateroot": "default", "checksum": "%064x" % len(run_id), "serial": 0,
                       "origin": "", "version": "44.1"},
        "environment": {}, "conditions": [],
        "benches": [{"name": "many", "kind": "command", "argv": ["many"], "exit_status": 0,
                     "wall_s": 1.0, "status": "ok", "reason": "", "log": "many"}],
        "metrics": metrics, "missing": {},
    }


def measure(bootbench, folder):
    return report_scale.measure(bootbench, folder, baseline="a")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bootbench", nargs="?", default="build/bootbench")
    ap.add_argument("--keys", type=int, default=80000)
    ap.add_argument("--runs", type=int, default=1, help="runs per target")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    folder = tempfile.mkdtemp(prefix="bootbench-report-keys-")
    try:
        os.makedirs(os.path.join(folder, "runs"))
        for target, offset in (("a", 0.0), ("b", 0.5)):
            for i in range(1, args.runs + 1):
                run_id = f"{target}-{i}"
                with open(os.path.join(folder, "runs", run_id + ".json"), "w") as f:
                    json.dump(run_doc(run_id, target, args.keys, offset), f)
        wall_s, cpu_s, rss_mb = min(measure(args.bootbench, folder) for _ in range(args.repeat))
    finally:
        shutil.rmtree(folder)
    print(f"keys: {args.keys}, runs: {2 * args.runs} (2 targets)")
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"wall {wall_s:.2f} s, CPU (user + system) {cpu_s:.2f} s, max RSS {rss_mb:.0f} MB "
          f"(best of {args.repeat})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
