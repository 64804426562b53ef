#!/usr/bin/env python3
"""`bootbench report` over the results folders of two machines: a report per
machine and the pooled line, the disagreement warning, and the messages of
bad input (exit 2).

usage: hosts_cli_test.py BOOTBENCH_BINARY
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import xml.dom.minidom

failures = []


def check(name, ok, detail=""):
    print(("ok: " if ok else "FAIL: ") + name)
    if not ok:
        failures.append(name)
        print("   ", str(detail)[:3000].replace("\n", "\n    "))


# a: 10.01 .. 10.06 ms (median 10.035); b on lab1 5.035 (ratio 10.035 / 5.035 = 1.99x),
# on lab2 20.035 (10.035 / 20.035 = 0.50x).
def run_json(run, target, lat, machine, hostname, experiment="lab", loops="1000"):
    env = {"hostname": hostname, "cpu_model": "CPU of " + hostname, "nproc": 4}
    if machine:
        env["machine_id"] = machine
    bench = {"name": "b", "kind": "perf-sched-pipe", "argv": ["perf", "bench", "sched", "pipe", "-l", loops],
             "exit_status": 0, "wall_s": 1, "status": "ok", "reason": "", "log": "b"}
    return {"schema": "bootbench-run/1", "experiment": experiment, "run": run, "target": target, "attempt": 1,
            "started_at": f"2026-07-01T10:00:{int(run.split('-')[1]):02d}+00:00", "status": "ok",
            "deployment": {"stateroot": "fedora", "checksum": "c", "serial": 0},
            "environment": env, "benches": [bench],
            "metrics": {"lat": {"value": lat, "unit": "ms", "better": "lower", "bench": "b"}}}


def results(folder, machine, hostname, a_lat, b_lat, **experiment):
    os.makedirs(f"{folder}/runs")
    for i in range(1, 7):
        for target, lat in (("a", a_lat), ("b", b_lat)):
            run = f"{target}-{i}"
            with open(f"{folder}/runs/{run}.json", "w") as f:
                json.dump(run_json(run, target, lat + i * 0.01, machine, hostname, **experiment), f)
    with open(f"{folder}/bootbench.log", "w") as f:
        f.write("")


def report(binary, *args):
    return subprocess.run([binary, "report", "--baseline", "a", *args], capture_output=True, text=True)


def different_experiments(binary, tmp):
    """Two folders of one host, two experiments: never pooled as two machines."""
    results(f"{tmp}/night2", "3333333333333333", "lab1", 10, 5, experiment="lab-long", loops="5000")
    p = report(binary, "--out-prefix", f"{tmp}/out/n", f"{tmp}/lab1", f"{tmp}/night2")
    check("two experiments of one host are refused, naming the difference", p.returncode == 2 and p.stderr ==
          f"bootbench: error: cannot report {tmp}/lab1 and {tmp}/night2 together: they are different "
          f"experiments (experiment: {tmp}/lab1 lab; {tmp}/night2 lab-long; bench b: {tmp}/lab1 -l 1000; "
          f"{tmp}/night2 -l 5000); report each folder on its own\n", p.stderr)
    check("nothing is written for refused folders", not os.path.exists(f"{tmp}/out/n.md"))
    results(f"{tmp}/lab3", "4444444444444444", "lab3", 10, 5, loops="5000")
    p = report(binary, "--out-prefix", f"{tmp}/out/m", f"{tmp}/lab1", f"{tmp}/lab2", f"{tmp}/lab3")
    check("a machine whose bench ran other parameters is refused", p.returncode == 2 and p.stderr ==
          f"bootbench: error: cannot report {tmp}/lab1 and {tmp}/lab3 together: they are different "
          f"experiments (bench b: {tmp}/lab1 -l 1000; {tmp}/lab3 -l 5000); report each folder on its own\n", p.stderr)


def main():
    binary = os.path.abspath(sys.argv[1])
    tmp = tempfile.mkdtemp(prefix="bootbench-hosts-")
    try:
        results(f"{tmp}/lab1", "1111111111111111", "lab1", 10, 5)   # b 2x faster
        results(f"{tmp}/lab2", "2222222222222222", "lab2", 10, 20)  # b 2x slower
        p = report(binary, "--out-prefix", f"{tmp}/out/report", f"{tmp}/lab1", f"{tmp}/lab2")
        check("report over two machines exits 0", p.returncode == 0, p.stderr)
        check("it prints each machine", "== machine lab1 (CPU of lab1, 4 CPUs), 12 runs" in p.stdout
              and "== machine lab2" in p.stdout, p.stdout)
        check("it prints the pooled line", "pooled over 2 machines, b vs a (baseline):\n"
              "  lat                       ~       1.00x (95% CI 0.50x to 2.00x)\n" in p.stdout, p.stdout)
        check("it warns of the disagreement", "warning: machines disagree on lat: b is better on lab1 1.99x "
              "and worse on lab2 0.50x" in p.stdout, p.stdout)
        with open(f"{tmp}/out/report.json") as f:
            j = json.load(f)
        check("report.json has both machines", [h["label"] for h in j["hosts"]] == ["lab1", "lab2"], j["hosts"])
        check("report.json pools lat over both", j["pooled"][0]["key"] == "lat"
              and [h["verdict"] for h in j["pooled"][0]["hosts"]] == ["better", "worse"], j["pooled"])
        with open(f"{tmp}/out/report.md") as f:
            md = f.read()
        check("report.md has the pooled table and a section per machine", "## Pooled over machines" in md
              and "## machine lab1 (CPU of lab1, 4 CPUs)" in md and "## machine lab2" in md, md[:2000])
        with open(f"{tmp}/out/report.svg") as f:
            try:
                xml.dom.minidom.parseString(f.read())
                check("report.svg is XML", True)
            except Exception as e:
                check("report.svg is XML", False, e)

        p = report(binary, "--exclude", "nope", "--out-prefix", f"{tmp}/out/x", f"{tmp}/lab1", f"{tmp}/lab2")
        check("an exclusion no machine has: exit 2 and the message", p.returncode == 2 and p.stderr ==
              "bootbench: error: cannot exclude 'nope': no machine has a run with that id\n", p.stderr)
        results(f"{tmp}/old1", "", "lab1", 10, 5)
        results(f"{tmp}/old2", "", "lab2", 10, 20)
        p = report(binary, "--out-prefix", f"{tmp}/out/y", f"{tmp}/old1", f"{tmp}/old2")
        check("results without machine ids are one machine: a run twice is an error", p.returncode == 2 and
              p.stderr == f"bootbench: error: run 'a-1' appears twice: in {tmp}/old1/runs/a-1.json and "
              f"{tmp}/old2/runs/a-1.json; pass only one of them\n", p.stderr)
        shutil.copytree(f"{tmp}/lab1", f"{tmp}/lab1-again")
        p = report(binary, "--out-prefix", f"{tmp}/out/z", f"{tmp}/lab1", f"{tmp}/lab1-again")
        check("one machine's run given twice is an error", p.returncode == 2 and "appears twice" in p.stderr,
              p.stderr)
        different_experiments(binary, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
