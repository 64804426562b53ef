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


def section(text, start, end):
    return text[text.find(start):text.find(end) if end else len(text)]


# Each machine's adaptive.json says why that machine stopped.
def check_stopped_per_machine(binary, tmp):
    results(f"{tmp}/st1", "1111111111111111", "lab1", 10, 5)
    results(f"{tmp}/st2", "2222222222222222", "lab2", 10, 20)
    for folder, why in (("st1", "max 6 runs reached"), ("st2", "the next round would end after 06:30")):
        with open(f"{tmp}/{folder}/adaptive.json", "w") as f:
            json.dump({"stopped": why, "reason": "max_runs"}, f)
    p = report(binary, "--out-prefix", f"{tmp}/out/st", f"{tmp}/st1", f"{tmp}/st2")
    check("an adaptive lab: report exits 0", p.returncode == 0, p.stderr)
    lab1, lab2 = section(p.stdout, "== machine lab1", "== machine lab2"), section(p.stdout, "== machine lab2", None)
    check("each machine prints its own stop", "stopped: max 6 runs reached\n" in lab1 and
          "stopped: the next round would end after 06:30\n" in lab2 and "06:30" not in lab1, p.stdout)
    with open(f"{tmp}/out/st.md") as f:
        md = f.read()
    md1, md2 = section(md, "## machine lab1", "## machine lab2"), section(md, "## machine lab2", None)
    check("report.md: each machine's section has its own stop",
          "*Stopped: max 6 runs reached.*" in md1 and "*Stopped: the next round would end after 06:30.*" in md2
          and "06:30" not in md1, md)
    with open(f"{tmp}/out/st.json") as f:
        j = json.load(f)
    check("report.json: each machine's report has its own stop", [h["report"].get("stopped") for h in j["hosts"]]
          == ["max 6 runs reached", "the next round would end after 06:30"], j["hosts"])


# Two machines cloned from one image share /etc/machine-id, so their runs
# share the machine id: the message names the id, both hosts and the fix.
def check_cloned_machine_id(binary, tmp):
    results(f"{tmp}/clone1", "3333333333333333", "lab1", 10, 5)
    results(f"{tmp}/clone2", "3333333333333333", "lab2", 10, 20)
    p = report(binary, "--out-prefix", f"{tmp}/out/c", f"{tmp}/clone1", f"{tmp}/clone2")
    check("two hosts with one machine id: exit 2, the id, both hosts and how to tell them apart",
          p.returncode == 2 and p.stderr ==
          f"bootbench: error: {tmp}/clone1/runs/a-1.json (host lab1) and {tmp}/clone2/runs/a-1.json (host lab2) "
          "have the same machine id 3333333333333333: the machines were cloned from one image and share "
          "/etc/machine-id, so their runs cannot be told apart. Give each machine a new id (sudo sh -c "
          "'systemd-id128 new > /etc/machine-id', then reboot) and run the experiment again, or report each "
          "machine's folder on its own\n", p.stderr)


# A symlink loop among the results is bad input naming the file, not an internal error.
def check_symlink_loop(binary, tmp):
    results(f"{tmp}/loop", "4444444444444444", "lab1", 10, 5)
    os.symlink("c-1.json", f"{tmp}/loop/runs/c-1.json")
    p = report(binary, "--out-prefix", f"{tmp}/out/l", f"{tmp}/loop")
    check("a symlink loop in runs/: exit 2 naming the file", p.returncode == 2 and p.stderr ==
          f"bootbench: error: cannot read {tmp}/loop/runs/c-1.json: Too many levels of symbolic links "
          "(a symbolic link that points to itself, directly or through others): remove it or point it "
          "at a result file\n", p.stderr)
    os.remove(f"{tmp}/loop/runs/c-1.json")
    os.symlink("loop-b", f"{tmp}/loop-a")
    os.symlink("loop-a", f"{tmp}/loop-b")
    p = report(binary, "--out-prefix", f"{tmp}/out/l", f"{tmp}/loop-a")
    check("a results folder that is a symlink loop: exit 2 naming it", p.returncode == 2 and p.stderr ==
          f"bootbench: error: cannot read {tmp}/loop-a: Too many levels of symbolic links (a symbolic link "
          "that points to itself, directly or through others): remove it or point it at a result file\n",
          p.stderr)


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
        check_stopped_per_machine(binary, tmp)
        check_cloned_machine_id(binary, tmp)
        check_symlink_loop(binary, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
