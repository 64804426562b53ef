#!/usr/bin/env python3
"""The bash completion in a real bash, as <TAB> would call it: commands,
each command's options (exactly those `bootbench help COMMAND` lists, read
from the binary, so a new option without completion fails here), experiment
files (*.toml, and folders) for the commands that take one, and target names
from the file on the line for --target.

usage: completion_test.py BOOTBENCH COMPLETION_FILE
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

failures = []
BASH = """source "$1"; shift; cd "$1"; shift
COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
_bootbench; printf '%s\\n' "${COMPREPLY[@]}"
"""


def check(name, ok, detail=""):
    print(("ok: " if ok else "FAIL: ") + name)
    if not ok:
        failures.append(name)
        print("   ", str(detail).replace("\n", "\n    "))


def complete(script, cwd, *words):
    """What <TAB> offers after `words` (the last one is the word being completed)."""
    p = subprocess.run(["bash", "--norc", "--noprofile", "-c", BASH, "bash", script, cwd, *words],
                       capture_output=True, text=True, timeout=30)
    if p.returncode != 0 or p.stderr:
        return [f"<bash exit {p.returncode}: {p.stderr.strip()}>"]
    return sorted(p.stdout.split())


def bootbench(binary, *args):
    return subprocess.run([binary, *args], capture_output=True, text=True, timeout=60, check=True).stdout


def main():
    binary, script = sys.argv[1], os.path.abspath(sys.argv[2])
    if not shutil.which("bash"):
        print("SKIP: no bash")
        return 77
    usage = bootbench(binary, "help")
    commands = re.findall(r"^  (\S+)  ", usage.split("commands:\n", 1)[1], re.M)
    with tempfile.TemporaryDirectory(prefix="completion-") as d:
        for name in ("exp.toml", "other.toml", "notes.txt", "results.json"):
            open(os.path.join(d, name), "w").close()
        os.mkdir(os.path.join(d, "configs"))
        with open(os.path.join(d, "configs", "ab.toml"), "w") as f:
            f.write('[experiment]\nname = "x"\n[[target]]\nname = "alpha"\n[[target]]\nname = "beta"\n'
                    '[[bench]]\nname = "not-a-target"\n')

        got = complete(script, d, "bootbench", "pl")
        check("bootbench pl<TAB> completes to plan", got == ["plan"], got)
        got = complete(script, d, "bootbench", "")
        check("bootbench <TAB> offers every command", set(commands) <= set(got), f"{got}\nwant {commands}")
        got = complete(script, d, "bootbench", "help", "run")
        check("bootbench help run<TAB> completes to run-suite", got == ["run-suite"], got)
        for cmd in commands:
            want = sorted(re.findall(r"^  (--[a-z0-9-]+)", bootbench(binary, "help", cmd), re.M) + ["--help"])
            got = complete(script, d, "bootbench", cmd, "--")
            check(f"bootbench {cmd} --<TAB> offers its options", got == want, f"got  {got}\nwant {want}")
        got = complete(script, d, "bootbench", "start", "--dry")
        check("bootbench start --dry<TAB> completes to --dry-run", got == ["--dry-run"], got)
        for cmd in ("plan", "simulate", "start", "bisect", "run-suite"):
            got = complete(script, d, "bootbench", cmd, "")
            check(f"bootbench {cmd} <TAB> offers *.toml and folders", got == ["configs", "exp.toml", "other.toml"], got)
        got = complete(script, d, "bootbench", "plan", "--quick", "configs/")
        check("experiment files in a folder", got == ["configs/ab.toml"], got)
        got = complete(script, d, "bootbench", "start", "--sysroot", "")
        check("--sysroot <TAB> offers folders", got == ["configs"], got)
        got = complete(script, d, "bootbench", "run-suite", "configs/ab.toml", "--target", "")
        check("--target <TAB> offers the file's targets", got == ["alpha", "beta"], got)
        got = complete(script, d, "bootbench", "status", "")
        check("status takes no file", got == [], got)
    print(f"{len(failures)} failed" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
