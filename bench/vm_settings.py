#!/usr/bin/env python3
"""Which qemu settings keep the VM test robust on a loaded 2-core machine.

    bench/vm_settings.py --bootbench build/bootbench [--runs 5] [--load-build DIR]
                         [--setting multi:2 --setting multi:1 ...]

Runs tests/vm/vm_test.py --scenario experiment RUNS times per setting
(thread mode : vCPUs), the settings interleaved so that a drift in the
machine's load hits them alike, while a parallel build of this project loads
the machine (ninja -j2 in a scratch build dir, cleaned and rebuilt in a loop,
ccache off). Prints and writes a table: per setting, passes, power cuts for
stalls, and the median and range of the whole test's wall time. Each run's
outcome and timings.json go to bench/out/vm_settings.jsonl (appended).
Needs root and what the VM test needs; takes RUNS x settings x ~7 minutes.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VM_TEST = ROOT / "tests" / "vm" / "vm_test.py"


class LoadBuild:
    """A build of this project, over and over, as the load."""

    def __init__(self, build_dir):
        self.dir = Path(build_dir)
        self.proc = None

    def __enter__(self):
        if not (self.dir / "build.ninja").exists():
            subprocess.run(["meson", "setup", str(self.dir), str(ROOT), "-Dvm_tests=false"],
                           check=True, stdout=subprocess.DEVNULL)
        loop = f"while true; do ninja -C {self.dir} -t clean >/dev/null; ninja -C {self.dir} -j2 >/dev/null; done"
        self.proc = subprocess.Popen(["bash", "-c", loop], env=dict(os.environ, CCACHE_DISABLE="1"),
                                     start_new_session=True)
        return self

    def __exit__(self, *exc):
        os.killpg(self.proc.pid, 15)
        self.proc.wait()


def run_once(bootbench, thread, smp):
    work = Path(tempfile.mkdtemp(prefix="bootbench-vm-settings-", dir="/var/tmp"))
    env = dict(os.environ, BOOTBENCH_VM_TCG_THREAD=thread, BOOTBENCH_VM_SMP=smp,
               BOOTBENCH_VM_WORKDIR=str(work), KEEP="1")
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, str(VM_TEST), "--scenario", "experiment", "--bootbench", bootbench],
                       env=env, capture_output=True, text=True)
    row = {"setting": f"{thread}:{smp}", "rc": r.returncode, "wall_s": round(time.monotonic() - t0, 1),
           "load": os.getloadavg()[0]}
    timings = work / "timings.json"
    if timings.exists():
        t = json.loads(timings.read_text())
        row["stall_cuts"] = len(t.get("power_cuts", []))
        row["boots_s"] = t.get("boots_total_s")
    if r.returncode != 0:
        row["why"] = [l for l in r.stdout.splitlines() if l.startswith(("FAIL", "SKIP"))][-1:]
    subprocess.run(["bash", "-c", f'. "{ROOT}/tests/vm/lib.sh" && vm_remove_tree "{work}"'])
    return row


def table(rows):
    out = ["| setting (thread:vCPUs) | passed | stall cuts | whole test, median (min-max) s |",
           "| --- | ---: | ---: | --- |"]
    for s in sorted({r["setting"] for r in rows}):
        rs = [r for r in rows if r["setting"] == s]
        walls = [r["wall_s"] for r in rs if r["rc"] == 0]
        span = f"{statistics.median(walls):.0f} ({min(walls):.0f}-{max(walls):.0f})" if walls else "-"
        out.append(f"| {s} | {len(walls)}/{len(rs)} | {sum(r.get('stall_cuts', 0) for r in rs)} | {span} |")
    return "\n".join(out)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bootbench", required=True)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--setting", action="append", help="thread:vcpus, e.g. multi:2 (repeatable)")
    p.add_argument("--load-build", default="/var/tmp/bootbench-load-build")
    args = p.parse_args()
    settings = [s.split(":") for s in (args.setting or ["multi:2", "multi:1"])]
    out = ROOT / "bench" / "out"
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    with LoadBuild(args.load_build):
        for i in range(args.runs):
            for thread, smp in settings:
                row = run_once(os.path.abspath(args.bootbench), thread, smp)
                rows.append(row)
                print(json.dumps(row), flush=True)
                with open(out / "vm_settings.jsonl", "a") as f:
                    f.write(json.dumps(row) + "\n")
    print(table(rows))
    shutil.rmtree(args.load_build, ignore_errors=True)


if __name__ == "__main__":
    main()
