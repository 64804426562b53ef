#!/usr/bin/env python3
"""What compile flags cost: CPU time of a sample of a build's compile commands,
as they are and with flags replaced.

    bench/compile_cost.py BUILD_DIR STEP [NAME=SCOPE:OLD=>NEW[;SCOPE:OLD=>NEW]...]...

Takes every STEP-th command of BUILD_DIR/compile_commands.json, runs it
without ccache (its object goes to a scratch file), once as it is and once
per variant, and prints the CPU time (user + system of the compiler) of the
tests' sources and of the rest. SCOPE is `test` (sources under tests/),
`src` (the others) or `all`. Example, the figures in docs/testing.md
("Where CI's time goes"):

    bench/compile_cost.py build-san 12 'tests-O0=test: -O2 -g => -O0 ' \\
        'all-O0-g1=all: -O2 -g => -O0 -g1 '
"""
import json
import re
import resource
import subprocess
import sys
import tempfile


def variant_command(command, is_test, replacements):
    for scope, old, new in replacements:
        if scope == "all" or (scope == "test") == is_test:
            command = command.replace(old, new)
    return command


def parse_variant(text):
    name, _, spec = text.partition("=")
    out = []
    for part in spec.split(";"):
        scope, _, rep = part.partition(":")
        old, _, new = rep.partition("=>")
        out.append((scope.strip(), old, new))
    return name, out


def cpu_seconds(command, cwd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, shell=True, cwd=cwd, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main():
    build, step = sys.argv[1], int(sys.argv[2])
    variants = [("as it is", [])] + [parse_variant(v) for v in sys.argv[3:]]
    commands = json.load(open(f"{build}/compile_commands.json"))[::step]
    scratch = tempfile.NamedTemporaryFile(suffix=".o").name
    totals = {name: [0.0, 0.0] for name, _ in variants}
    for c in commands:
        base = re.sub(r" -o \S+ ", f" -o {scratch} ", c["command"].replace("ccache ", ""))
        base = re.sub(r" -MD -MQ \S+ -MF \S+", "", base)
        is_test = "tests/" in c["file"]
        for name, replacements in variants:
            totals[name][0 if is_test else 1] += cpu_seconds(variant_command(base, is_test, replacements),
                                                             c["directory"])
    print(f"{len(commands)} of the compile commands of {build}")
    for name, (tests, rest) in totals.items():
        print(f"{name}: tests {tests:.1f} s, the rest {rest:.1f} s, all {tests + rest:.1f} s of CPU")


if __name__ == "__main__":
    main()
