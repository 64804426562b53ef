#!/usr/bin/env python3
"""The command line as a new user meets it: help for every command through
`help CMD`, `CMD --help` and `CMD -h`; named option values; the version;
unknown commands exit 2 with the message.

    help_test.py BOOTBENCH
"""
import os
import subprocess
import sys
import tempfile

BOOTBENCH = os.path.abspath(sys.argv[1])
COMMANDS = ["plan", "doctor", "simulate", "start", "resume", "status", "abort", "run-suite", "report", "reproduce"]
failures = []


def run(*args):
    p = subprocess.run([BOOTBENCH, *args], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def check(name, ok, detail=""):
    print(("ok: " if ok else "FAIL: ") + name)
    if not ok:
        failures.append(name)
        print("   ", detail.replace("\n", "\n    "))


def main():
    for cmd in COMMANDS:
        rc, want, err = run("help", cmd)
        check(f"help {cmd}", rc == 0 and want.startswith(f"usage: bootbench {cmd} "), f"{rc} {want} {err}")
        for flag in ("--help", "-h"):
            rc, out, err = run(cmd, flag)
            check(f"{cmd} {flag} is the command's help", rc == 0 and out == want and err == "",
                  f"exit {rc}\nstdout:\n{out}\nstderr:\n{err}")
    rc, out, _ = run("plan", "configs/nothing.toml", "--help")
    check("--help after other arguments", rc == 0 and out.startswith("usage: bootbench plan "), out)
    rc, out, err = run("help", "nosuch")
    check("help nosuch exits 2", rc == 2 and err.startswith("bootbench: error: unknown command 'nosuch'\n"),
          f"exit {rc}\n{err}")
    rc, out, _ = run("help", "status")
    check("option values are named", "--sysroot PATH" in out, out)
    rc, out, _ = run("help", "report")
    check("--exclude RUN_ID", "--exclude RUN_ID" in out and "--out-prefix PATH" in out, out)
    rc, out, _ = run("--help")
    check("--version is listed", rc == 0 and "--version" in out, out)
    rc, out, _ = run("--version")
    check("--version prints it", rc == 0 and out.startswith("bootbench "), out)
    with tempfile.TemporaryDirectory() as empty:
        p = subprocess.run([BOOTBENCH, "report"], capture_output=True, text=True, timeout=60, cwd=empty)
        check("report with nothing to read says what it needs", p.returncode == 2 and p.stderr ==
              "bootbench: error: report needs results: 'bootbench report results/NAME' (a results folder), "
              "result files, or a published folder; the current folder has none\n", f"{p.returncode} {p.stderr}")
        exp = f"{empty}/e.toml"
        with open(exp, "w") as f:
            f.write('[experiment]\nname = "x"\nruns = 1\nbaseline = "a"\n[[target]]\nname = "a"\ndeployment = 0\n'
                    '[[target]]\nname = "b"\ndeployment = 1\n[[bench]]\nkind = "perf-sched-pipe"\n')
        rc, out, err = run("start", "--dry-run", "--sysroot", empty, exp)
        check("start on a machine that is not ostree says so, as plan does", rc == 2 and out == "" and err ==
              f"bootbench: error: {empty} is not an ostree sysroot (no ostree/repo): start runs on the Fedora "
              "Atomic, Universal Blue or bootc machine it measures; 'bootbench simulate FILE' rehearses the "
              "experiment on a sandbox here\n", f"exit {rc}\n{out}\n{err}")
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
