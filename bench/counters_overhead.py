#!/usr/bin/env python3
"""What does `[[bench]] counters` cost the bench it counts?

sysbench cpu, interleaved, with and without perf stat around it, two ways:
directly (`perf stat -x, -o FILE -e EVENTS -- sysbench cpu ...`, the command
line bootbench builds: sys/run/perf_counters) and through `bootbench
run-suite` with a command bench whose `counters` is true or false (what a
run does: perf tried once, then the bench under it). Prints each way's
median events per second, the ratio counted / plain (1.00: no cost; below:
counting slows the bench) and the range of the per-round ratios, and the
time of perf's check before a bench (`perf stat -- sleep 0`). And the CPU
time (user + system, perf's own included) of a fixed number of sysbench
events with and without perf: on a busy machine a rate moves with the other
users, CPU time much less.

    bench/counters_overhead.py --bootbench build/bootbench [--rounds 9] [--time 5] [--cpu N] [--events 5000]
"""
import argparse
import json
import pathlib
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from overhead import EXPERIMENT as TOOLS_EXPERIMENT  # noqa: E402

EVENTS = "cycles,instructions,context-switches,cpu-migrations,page-faults,cache-misses,branch-misses"

# overhead.py's experiment up to its [tools] table: the host's tools here
HEAD = TOOLS_EXPERIMENT[:TOOLS_EXPERIMENT.index("[tools]")].replace("{", "{{").replace("}", "}}")
EXPERIMENT = HEAD + """[boot]
measure = false
[[bench]]
kind = "command"
name = "cpu"
argv = ["sysbench", "cpu", "--threads=1", "--time={time}", "run"]
timeout_s = {timeout}
counters = {counters}
[[bench.metric]]
key = "cpu_events_per_s"
regex = 'events per second:\\s+([0-9.]+)'
better = "higher"
"""


def events_per_s(text):
    m = re.search(r"events per second:\s+([0-9.]+)", text)
    if not m:
        raise SystemExit("no 'events per second' in:\n" + text)
    return float(m.group(1))


def direct(pin, seconds, counted, tmp):
    argv = ["sysbench", "cpu", "--threads=1", f"--time={seconds}", "run"]
    if counted:
        argv = ["perf", "stat", "-x,", "-o", str(tmp / "direct.csv"), "-e", EVENTS, "--"] + argv
    return events_per_s(subprocess.run(pin + argv, capture_output=True, text=True, check=True).stdout)


def cpu_seconds(pin, events, counted, tmp):
    """CPU time (user + system) of a fixed amount of work, perf's own
    included when it counts: less disturbed by a busy machine than a rate."""
    argv = ["sysbench", "cpu", "--threads=1", "--time=0", f"--events={events}", "run"]
    if counted:
        argv = ["perf", "stat", "-x,", "-o", str(tmp / "cpu.csv"), "-e", EVENTS, "--"] + argv
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(pin + argv, capture_output=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def through_bootbench(bootbench, pin, seconds, counted, tmp, n):
    exp = tmp / f"exp-{n}.toml"
    exp.write_text(EXPERIMENT.format(time=seconds, timeout=seconds * 4 + 60, counters="true" if counted else "false"))
    out = tmp / f"results-{n}"
    subprocess.run(pin + [bootbench, "run-suite", str(exp), "--target", "a", "--out", str(out)], check=True,
                   capture_output=True)
    run = json.loads((out / "runs/a-1.json").read_text())
    if counted and not run.get("counters"):
        raise SystemExit("run-suite recorded no counters: " + json.dumps(run.get("benches")))
    return run["metrics"]["cpu_events_per_s"]["value"], run.get("counters", [])


def check_seconds(rounds):
    times = []
    for _ in range(rounds):
        start = time.monotonic()
        subprocess.run(["perf", "stat", "-x,", "-o", "/dev/null", "-e", EVENTS, "--", "sleep", "0"], check=True)
        times.append(time.monotonic() - start)
    return statistics.median(times)


def summary(name, plain, counted):
    ratios = [c / p for c, p in zip(counted, plain)]
    print(f"{name}: plain {statistics.median(plain):.1f} events/s, counted {statistics.median(counted):.1f} events/s, "
          f"counted/plain {statistics.median(counted) / statistics.median(plain):.4f} "
          f"(rounds {min(ratios):.4f}..{max(ratios):.4f})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bootbench", required=True)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--time", type=int, default=5, help="seconds of sysbench cpu per run")
    ap.add_argument("--cpu", help="pin every run to this CPU (taskset -c)")
    ap.add_argument("--events", type=int, default=5000, help="sysbench cpu events of the CPU-time measurement")
    a = ap.parse_args()
    pin = ["taskset", "-c", a.cpu] if a.cpu else []
    res = {k: [] for k in ("direct_plain", "direct_counted", "suite_plain", "suite_counted", "cpu_plain",
                           "cpu_counted")}
    unavailable = set()
    with tempfile.TemporaryDirectory(prefix="bootbench-counters-") as d:
        tmp = pathlib.Path(d)
        for n in range(a.rounds):
            # the order inside a round alternates, so a drift does not favour one way
            for counted in ((False, True) if n % 2 == 0 else (True, False)):
                key = "counted" if counted else "plain"
                res["direct_" + key].append(direct(pin, a.time, counted, tmp))
                value, counters = through_bootbench(a.bootbench, pin, a.time, counted, tmp, f"{n}-{key}")
                res["suite_" + key].append(value)
                res["cpu_" + key].append(cpu_seconds(pin, a.events, counted, tmp))
                for c in counters:
                    unavailable.update(c.get("unavailable", {}).keys())
        print(f"sysbench cpu --threads=1 --time={a.time}, {a.rounds} interleaved rounds"
              + (f", pinned to CPU {a.cpu}" if a.cpu else ""))
        summary("perf stat directly", res["direct_plain"], res["direct_counted"])
        summary("bootbench run-suite", res["suite_plain"], res["suite_counted"])
        plain, counted = statistics.median(res["cpu_plain"]), statistics.median(res["cpu_counted"])
        ratios = [c / p for c, p in zip(res["cpu_counted"], res["cpu_plain"])]
        print(f"CPU time of --events={a.events} (perf's own included): plain {plain:.3f} s, counted {counted:.3f} s, "
              f"counted/plain {counted / plain:.4f} (rounds {min(ratios):.4f}..{max(ratios):.4f})")
        print(f"perf's check before a bench (perf stat -- sleep 0): {check_seconds(a.rounds) * 1000:.1f} ms (median)")
        print("events perf could not count here: " + (", ".join(sorted(unavailable)) or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
