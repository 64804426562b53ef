#!/usr/bin/env python3
"""The Ansible collection end to end on this machine: two inventory hosts
(ansible_connection=local, each its own working folder) run one experiment
through ansible/playbooks/experiment.yml with the role's sandbox variables
(`bootbench simulate --quick`), and the controller's merged report has both
machines and the pooled line. lab2 is unreachable for its first 3 status
checks (connection_plugins/flaky_local.py: a host rebooting), and must be
waited for across them; lab3 never answers one and is reported as not
finished (the play fails at its end) without keeping the others out of the
report. Then one host runs the playbook twice (runs = 3, then runs = 2):
the controller keeps only the second night in the host's folder (the first
moved aside), and the lab report counts 4 runs. Last, a host whose simulate
refuses fails at once with simulate's message.

usage: lab_test.py BOOTBENCH_BINARY SOURCE_ROOT
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

EXPERIMENT = """\
[experiment]
name = "lab-test"
runs = 2
order = "interleaved"
baseline = "a"

[[target]]
name = "a"
refspec = "sandbox:bootbench/a"

[[target]]
name = "b"
refspec = "sandbox:bootbench/b"

[conditions]
governor = ""
sched_ext = ""
settle_s = 0
max_start_temp_c = 100.0
temp_wait_timeout_s = 5

[load]
cpu_workers = 0

[[bench]]
kind = "perf-sched-pipe"
loops = 2000
"""


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


def inventory(tmp):
    lines = ["[lab]"]
    for host, connection in (("lab1", "local"), ("lab2", "flaky_local"), ("lab3", "flaky_local")):
        lines.append(f"{host} ansible_connection={connection} bootbench_workdir={tmp}/{host}")
    lines[-1] += " bootbench_timeout=15"
    lines += ["", "[lab:vars]", "bootbench_sandbox=true", "bootbench_quick=true", "bootbench_poll=1",
              "ansible_python_interpreter=/usr/bin/python3"]
    return "\n".join(lines) + "\n"


def playbook(tmp, binary, root, experiment_text):
    """ansible-playbook experiment.yml on tmp/inventory with experiment_text; the process."""
    with open(f"{tmp}/experiment.toml", "w") as f:
        f.write(experiment_text)
    here = os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ, ANSIBLE_HOME=f"{tmp}/ansible-home", FLAKY_DIR=f"{tmp}/flaky",
               ANSIBLE_CONNECTION_PLUGINS=f"{here}/connection_plugins", ANSIBLE_LOCAL_TEMP=f"{tmp}/ansible-tmp",
               ANSIBLE_ASYNC_DIR=f"{tmp}/ansible-async", ANSIBLE_REMOTE_TMP=f"{tmp}/ansible-remote",
               ANSIBLE_NOCOWS="1", ANSIBLE_RETRY_FILES_ENABLED="0", BOOTBENCH_REGISTRY_URL="http://127.0.0.1:9")
    argv = ["ansible-playbook", "-i", f"{tmp}/inventory", f"{root}/ansible/playbooks/experiment.yml",
            "-e", "experiment=experiment.toml",  # relative: the current folder's, as in the README
            "-e", f"bootbench_binary={binary}",
            "-e", f"bootbench_results={tmp}/out"]
    started = time.monotonic()
    p = subprocess.run(argv, env=dict(env, PWD=tmp), capture_output=True, text=True, cwd=tmp)
    print(p.stdout[-6000:], p.stderr[-3000:])
    print(f"playbook: {time.monotonic() - started:.1f} s")
    return p


def run_playbook(tmp, binary, root):
    with open(f"{tmp}/inventory", "w") as f:
        f.write(inventory(tmp))
    os.makedirs(f"{tmp}/flaky")
    with open(f"{tmp}/flaky/lab2.down", "w") as f:
        f.write("3")
    with open(f"{tmp}/flaky/lab3.down", "w") as f:
        f.write("always")
    p = playbook(tmp, binary, root, EXPERIMENT)
    # lab3 did not finish: the play fails at its very end, after the report.
    check(p.returncode == 2, f"ansible-playbook exited {p.returncode}, not 2")
    check("not finished: lab3" in p.stdout, "the play does not name lab3 as not finished")
    check("lab3: the experiment did not finish within 15 s (bootbench_timeout)" in p.stdout,
          "lab3's outcome is not the wait's bound")
    with open(f"{tmp}/flaky/lab2.resets") as f:
        resets = len(f.readlines())
    check(resets == 3, f"lab2's connection was reset {resets} times, not once per failed status check (3)")


def report_runs(tmp):
    """How many runs the controller's report counts (over every machine it
    found: each sandbox has a machine id of its own)."""
    with open(f"{tmp}/out/report.json") as f:
        report = json.load(f)
    reports = [h["report"] for h in report["hosts"]] if "hosts" in report else [report]
    return sum(len(t["runs"]) for r in reports for t in r["targets"])


def two_nights(tmp, binary, root):
    """One host, two playbook runs (runs = 3, then runs = 2): the controller's
    folder of the host is replaced, never unpacked over, and the earlier copy
    (with an adaptive.json of its night) is kept aside."""
    with open(f"{tmp}/inventory", "w") as f:
        f.write(f"night ansible_connection=local bootbench_workdir={tmp}/night bootbench_sandbox=true "
                "bootbench_quick=true bootbench_poll=1 ansible_python_interpreter=/usr/bin/python3\n")
    p = playbook(tmp, binary, root, EXPERIMENT.replace("runs = 2", "runs = 3"))
    check(p.returncode == 0 and report_runs(tmp) == 6, f"night 1: exit {p.returncode}, not 0 with 6 runs")
    with open(f"{tmp}/out/night/adaptive.json", "w") as f:
        f.write('{"stopped": "night 1 stopped here"}\n')
    p = playbook(tmp, binary, root, EXPERIMENT)
    check(p.returncode == 0, f"night 2: ansible-playbook exited {p.returncode}, not 0")
    check(report_runs(tmp) == 4, f"the lab report of night 2 counts {report_runs(tmp)} runs, not 4")
    runs = sorted(os.listdir(f"{tmp}/out/night/runs"))
    check(runs == ["a-1", "a-1.json", "a-2", "a-2.json", "b-1", "b-1.json", "b-2", "b-2.json"],
          f"the host's folder on the controller is not night 2's: {runs}")
    check(not os.path.exists(f"{tmp}/out/night/adaptive.json"), "night 1's adaptive.json survived")
    aside = [d for d in os.listdir(f"{tmp}/out") if d.startswith("night.earlier-")]
    check(len(aside) == 1 and os.path.isfile(f"{tmp}/out/{aside[0]}/runs/a-3.json")
          and os.path.isfile(f"{tmp}/out/{aside[0]}/adaptive.json"), f"night 1 is not kept aside: {aside}")
    check(f"night: the earlier results on the controller were moved aside to {tmp}/out/{aside[0]}" in p.stdout,
          "the play does not say where night 1's results went")


def check_report(tmp):
    with open(f"{tmp}/out/report.json") as f:
        report = json.load(f)
    hosts = report.get("hosts", [])
    check(len(hosts) == 2, f"the merged report has {len(hosts)} machines, not 2")
    check(all(h["report"] is not None for h in hosts), "a machine has no report: " + json.dumps(hosts)[:500])
    check(len({h["machine_id"] for h in hosts}) == 2, "the two sandboxes share a machine id")
    check(report["pooled"] and len(report["pooled"][0]["hosts"]) == 2, "no pooled metric over both machines")
    with open(f"{tmp}/out/report.md") as f:
        md = f.read()
    check("## Pooled over machines" in md, "report.md has no pooled section")
    for h in hosts:
        check(f"## machine {h['label']}" in md, f"report.md has no section for {h['label']}")
    for host in ("lab1", "lab2"):
        check(os.path.isfile(f"{tmp}/out/{host}/runs/a-1.json"), f"{host}'s results were not fetched")


def run_test(prefix, body):
    """Skips (77) without Ansible; else body(tmp) in a new folder, removed
    afterwards (a sandbox's deployments are immutable: chattr -i first)."""
    if not shutil.which("ansible-playbook"):
        print("SKIP: ansible-playbook is not installed (apt-get install ansible-core)")
        sys.exit(77)
    tmp = tempfile.mkdtemp(prefix=prefix)
    try:
        body(tmp)
    finally:
        subprocess.run(["chattr", "-R", "-i", tmp], capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)
    print("ok")


def refused_start(tmp, binary, root):
    """A host whose simulate refuses at once (its results folder is the
    user's): the wait fails with simulate's own message as soon as the job
    ended, not after the grace or the bound."""
    with open(f"{tmp}/inventory", "w") as f:
        f.write(f"refused ansible_connection=local bootbench_workdir={tmp}/refused bootbench_sandbox=true "
                "bootbench_quick=true bootbench_poll=1 ansible_python_interpreter=/usr/bin/python3\n")
    os.makedirs(f"{tmp}/refused/results")
    with open(f"{tmp}/refused/results/thesis.txt", "w") as f:
        f.write("mine\n")
    started = time.monotonic()
    p = playbook(tmp, binary, root, EXPERIMENT)
    results = f"{tmp}/refused/results"
    check(p.returncode == 2, f"ansible-playbook exited {p.returncode}, not 2")
    check(f"refused: bootbench simulate failed (exit 2): bootbench: error: cannot put the results in {results}: "
          f"{results} is not empty and is not a bootbench results folder (it has no .bootbench-results, nor "
          "runs/ and bootbench.log); bootbench replaces only a results folder of its own: give a new or empty "
          "folder with --results, or move those files out" in p.stdout, "the host's outcome is not simulate's refusal")
    check(time.monotonic() - started < 120, "the wait did not end when simulate had refused")


def main():
    binary, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])

    def body(tmp):
        run_playbook(tmp, binary, root)
        check_report(tmp)
    run_test("bootbench-lab-", body)
    run_test("bootbench-nights-", lambda tmp: two_nights(tmp, binary, root))
    run_test("bootbench-refused-", lambda tmp: refused_start(tmp, binary, root))


if __name__ == "__main__":
    main()
