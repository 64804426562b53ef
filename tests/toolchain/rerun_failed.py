#!/usr/bin/env python3
"""Runs once more the non-VM tests that failed in BUILD's last `meson test`.

    tests/toolchain/rerun_failed.py BUILD [MESON_TEST_ARGS...]

A CI run is one sample: a test that fails there and passes on its rerun is
flaky, and that is a defect to find, not a reason to throw the night's other
results away. So .ci/run reruns each failed test once (never a VM scenario:
those take minutes and their failures are not noise), and its closing lines
name every test that needed the rerun, with what it printed the first time
(BUILD/meson-logs/rerun.json beside testlog.json). Exit status: 0 when every
failed test passed its rerun, 1 otherwise (also when one cannot be rerun).
"""
import json
import subprocess
import sys
from pathlib import Path


def failed_tests(log):
    """(name, suite) of the tests that did not pass in testlog.json, whose
    names read "project:suite / name"."""
    out = []
    for line in log.read_text().splitlines():
        t = json.loads(line)
        if t["result"] not in ("OK", "SKIP", "EXPECTEDFAIL"):
            where, _, name = t["name"].rpartition(" / ")
            out.append((name, where.rpartition(":")[2]))
    return out


def main():
    build, extra = Path(sys.argv[1]), sys.argv[2:]
    log = build / "meson-logs" / "testlog.json"
    if not log.exists():
        print(f"rerun: {log}: no test log (the build did not get as far as its tests)")
        return 1
    failed = failed_tests(log)
    if not failed:
        return 0
    vm = [n for n, suite in failed if suite == "vm"]
    if vm:
        print(f"rerun: not rerunning VM scenarios ({', '.join(vm)}): their failures stand")
        return 1
    names = [n for n, _ in failed]
    print(f"rerun: {len(names)} failed test(s) once more: {' '.join(names)}")
    r = subprocess.run(["meson", "test", "-C", str(build), "--logbase", "rerun", "--print-errorlogs", *extra,
                        *names])
    return 0 if r.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
