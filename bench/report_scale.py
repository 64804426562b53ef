#!/usr/bin/env python3
"""bootbench report at scale: 10,000 synthetic runs (2 targets x 5,000, the 8
built-in metrics, a realistic environment and bench list per run) in a temp
folder, then `bootbench report` under /usr/bin/time -v. Prints the wall time,
the CPU time and the peak memory, and fails when they exceed 1 s and 200 MB.

On a machine shared with other work (parallel compiles), wall time measures
the neighbours as much as bootbench. As root, the script also measures under
`chrt -f 10` (real-time priority, so other processes wait for the ~1 s it
takes) and judges the time limit on that figure; the plain figure is printed
beside it.

    bench/report_scale.py [build/bootbench] [--runs 10000]
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

METRICS = [  # key, unit, better, baseline centre, subject factor
    ("sched_pipe_usecs_op", "us/op", "lower", 7.97, 0.56),
    ("sched_pipe_ops_sec", "ops/s", "higher", 125436, 1.79),
    ("sched_messaging_total_s", "s", "lower", 3.25, 0.92),
    ("sysbench_events", "events", "higher", 57084, 1.54),
    ("sysbench_lat_avg_ms", "ms", "lower", 6.3, 0.65),
    ("sysbench_lat_95th_ms", "ms", "lower", 21.3, 1.12),
    ("schbench_p50_us", "us", "lower", 2980, 0.70),
    ("schbench_p99_us", "us", "lower", 10720, 1.12),
]
LIMIT_S, LIMIT_MB = 1.0, 200


def run_doc(rng, run_id, target, index):
    subject = target == "subject"
    metrics = {}
    for key, unit, better, centre, factor in METRICS:
        value = centre * (factor if subject else 1) * rng.gauss(1, 0.02)
        metrics[key] = {"value": round(value, 6), "unit": unit, "better": better, "bench": key.split("_")[0]}
    t = f"2026-07-{1 + index // 1440:02d}T{(index // 60) % 24:02d}:{index % 60:02d}:00+00:00"
    return {
        "schema": "bootbench-run/1", "experiment": "scale", "run": run_id, "target": target, "attempt": 1,
        "started_at": t, "finished_at": t, "status": "ok", "failure": "",
        "deployment": {"stateroot": "default", "checksum": "%064x" % index, "serial": 0,
                       "origin": "ostree-image-signed:docker://ghcr.io/example/" + target, "version": "44.1"},
        "environment": {"kernel_release": "7.0.8-200.fc44.x86_64", "cpu_model": "AMD Ryzen 5 7640U",
                        "nproc": 12, "smt": "on", "governor": "performance", "epp": "performance",
                        "mitigations": {"spectre_v2": "Mitigation: Retpolines", "meltdown": "Not affected"},
                        "sched_ext_state": "disabled", "ac_power": True, "hostname": "bench",
                        "temp_start_c": round(rng.uniform(45, 52), 1), "temp_end_c": 90.0},
        "conditions": [{"gate": "temperature", "decision": "ok"}],
        "benches": [{"name": b, "kind": "command", "argv": [b], "exit_status": 0, "wall_s": 30.0,
                     "status": "ok", "reason": "", "log": b} for b in ("pipe", "messaging", "sysbench", "schbench")],
        "metrics": metrics, "missing": {},
    }


def generate(folder, runs, seed=1):
    rng = random.Random(seed)
    os.makedirs(os.path.join(folder, "runs"))
    for i in range(runs):
        target = "baseline" if i % 2 == 0 else "subject"
        run_id = f"{target}-{i // 2 + 1}"
        with open(os.path.join(folder, "runs", run_id + ".json"), "w") as f:
            json.dump(run_doc(rng, run_id, target, i), f)


def measure(bootbench, folder, prefix=(), baseline="baseline"):
    """Wall seconds, CPU seconds and peak MB of `bootbench report` on `folder`."""
    cmd = [*prefix, "/usr/bin/time", "-v", bootbench, "report", folder, "--baseline", baseline]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("report failed:\n" + p.stdout + p.stderr)
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", p.stderr)
    hours, minutes, seconds = wall.groups()
    wall_s = int(hours or 0) * 3600 + int(minutes) * 60 + float(seconds)
    rss_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr).group(1))
    cpu_s = sum(float(re.search(rf"{kind} time \(seconds\): ([\d.]+)", p.stderr).group(1))
                for kind in ("User", "System"))
    return wall_s, cpu_s, rss_kb / 1024


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bootbench", nargs="?", default="build/bootbench")
    ap.add_argument("--runs", type=int, default=10000)
    args = ap.parse_args()
    folder = tempfile.mkdtemp(prefix="bootbench-report-scale-")
    try:
        generate(folder, args.runs)
        measure(args.bootbench, folder)  # warm the page cache: measure the program, not the disk
        # best of 5: other processes on the machine only ever add time
        plain = min(measure(args.bootbench, folder) for _ in range(5))
        isolated = None
        if os.geteuid() == 0 and shutil.which("chrt"):
            isolated = min(measure(args.bootbench, folder, ("chrt", "-f", "10")) for _ in range(5))
        sizes = {ext: os.path.getsize(os.path.join(folder, "report." + ext)) for ext in ("md", "json", "svg", "html")}
    finally:
        shutil.rmtree(folder)
    print(f"runs: {args.runs} (2 targets, {len(METRICS)} metrics)")
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for name, (wall_s, cpu_s, rss_mb) in (("plain", plain), ("chrt -f 10", isolated)) if isolated else (("plain", plain),):
        print(f"{name}: wall {wall_s:.2f} s, CPU (user + system) {cpu_s:.2f} s, max RSS {rss_mb:.0f} MB (best of 5)")
    print("output sizes: " + ", ".join(f"report.{k} {v // 1024} KiB" for k, v in sizes.items()))
    judged = isolated or plain
    ok = judged[0] < LIMIT_S and max(plain[2], judged[2]) < LIMIT_MB
    print(f"{'PASS' if ok else 'FAIL'}: limits {LIMIT_S} s and {LIMIT_MB} MB"
          + (" (time judged under chrt)" if isolated else ""))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
