#!/usr/bin/env python3
"""Mutation check: does the non-VM suite catch small bugs in src/core/?

Applies each mutation of tests/mutation/mutations.toml, one at a time, to a
scratch copy of HEAD (never to this checkout), rebuilds what the mutation's
suites need, runs them with `meson test --no-rebuild`, and reports whether a
test failed (killed), the build failed (killed by the build) or everything
passed (SURVIVED). A failed test is run once more before it counts: the
`sys` tests share the machine's cgroup with any other run of them, and a
failure that does not repeat is such a flake, not a kill. The unmutated copy
must pass first. Exit 1 when a mutation survived, 2 on a setup problem.

    nice python3 tests/mutation/run.py                 # all mutations
    nice python3 tests/mutation/run.py --only stats-ci-90 plan-random-sattolo
    python3 tests/mutation/run.py --check              # only check that every `find` matches HEAD

The scratch copy and its build (default /var/tmp/bootbench-mutation) are
removed at the end unless --keep; a kept one is reused by the next run when
it was made from the same commit. Python standard library only.
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_SCRATCH = Path("/var/tmp/bootbench-mutation")


def die(message, code=2):
    print(f"mutation: {message}", file=sys.stderr)
    sys.exit(code)


def run(cmd, **kw):
    return subprocess.run(cmd, text=True, capture_output=True, **kw)


def load_mutations(path):
    with open(path, "rb") as f:
        doc = tomllib.load(f)
    default_suites = doc.get("defaults", {}).get("suites", ["core"])
    mutations, seen = [], set()
    for i, m in enumerate(doc.get("mutation", [])):
        for key in ("id", "file", "find", "replace", "why"):
            if not isinstance(m.get(key), str):
                die(f"{path}: mutation #{i + 1} ({m.get('id', '?')}) has no text field '{key}'")
        if m["id"] in seen:
            die(f"{path}: mutation id '{m['id']}' appears twice")
        if not m["file"].startswith("src/"):
            die(f"{path}: mutation '{m['id']}': file '{m['file']}' is not under src/")
        if m["find"] == m["replace"]:
            die(f"{path}: mutation '{m['id']}': replace is the same as find")
        seen.add(m["id"])
        m.setdefault("suites", default_suites)
        mutations.append(m)
    return mutations


def head_text(repo, commit, path):
    p = run(["git", "-C", str(repo), "show", f"{commit}:{path}"])
    if p.returncode != 0:
        die(f"{path} is not in {commit[:12]}: {p.stderr.strip()}")
    return p.stdout


def check_finds(repo, commit, mutations):
    """Every `find` occurs exactly once in its file at `commit`; loud otherwise."""
    bad = []
    for m in mutations:
        n = head_text(repo, commit, m["file"]).count(m["find"])
        if n != 1:
            bad.append(f"  {m['id']}: `find` occurs {n} times in {m['file']} (must be exactly once)")
    if bad:
        die(f"mutations that do not match {commit[:12]}:\n" + "\n".join(bad))


# ---- scratch copy and build ------------------------------------------------

def make_scratch(repo, commit, scratch):
    src, build = scratch / "src", scratch / "build"
    stamp = scratch / "COMMIT"
    if stamp.exists() and stamp.read_text().strip() == commit and (build / "build.ninja").exists():
        print(f"mutation: reusing {scratch} (made from {commit[:12]})")
        return src, build
    if scratch.exists():
        shutil.rmtree(scratch)
    src.mkdir(parents=True)
    print(f"mutation: copying {commit[:12]} to {src}")
    archive = subprocess.Popen(["git", "-C", str(repo), "archive", commit], stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", str(src)], stdin=archive.stdout, check=True)
    if archive.wait() != 0:
        die("git archive failed")
    print(f"mutation: meson setup {build} -Dvm_tests=false")
    p = run(["meson", "setup", str(build), str(src), "-Dvm_tests=false"])
    if p.returncode != 0:
        die(f"meson setup failed:\n{p.stdout}{p.stderr}")
    stamp.write_text(commit + "\n")
    return src, build


def restore_sources(repo, commit, src, mutations):
    """A kept scratch copy may hold a mutation of an interrupted run: rewrite
    any differing file (a fresh mtime, so ninja rebuilds it)."""
    for path in sorted({m["file"] for m in mutations}):
        original = head_text(repo, commit, path)
        target = src / path
        if target.read_text() != original:
            print(f"mutation: restoring {path} in the scratch copy")
            target.write_text(original)


def test_targets(build):
    """meson test name -> (ninja targets it needs, its timeout in seconds)."""
    tests = json.loads(run(["meson", "introspect", str(build), "--tests"], check=True).stdout)
    targets = json.loads(run(["meson", "introspect", str(build), "--targets"], check=True).stdout)
    files_of = {t["id"]: t["filename"] for t in targets}
    build_abs = str(build.resolve())
    out = {}
    for t in tests:
        files = set()
        for dep in t.get("depends", []):
            files.update(files_of.get(dep, []))
        for arg in t["cmd"]:
            if any(arg in f for f in files_of.values()):
                files.add(arg)
        rel = sorted(os.path.relpath(f, build_abs) for f in files if f.startswith(build_abs))
        out[t["name"]] = (rel, t.get("timeout", 30) or 30)
    return out


def ninja(build, targets):
    p = run(["ninja", "-C", str(build), *targets])
    errors = [l for l in (p.stdout + p.stderr).splitlines() if "error" in l.lower()]
    return p.returncode == 0, (errors[0].strip() if errors else p.stdout.strip()[-300:])


# ---- running the suites ----------------------------------------------------

DASHES = re.compile(r"^-{70,}$")
LOCATION = re.compile(r"^\S+:\d+(: .*)?$")


def failing_names(stdout):
    """Names of failed checks in a test's output: Catch2 test-case headers,
    `FAIL: name` lines of the Python tests, unittest's FAIL/ERROR lines."""
    names = []
    lines = stdout.splitlines()
    for i, line in enumerate(lines[:-1]):
        nxt = lines[i + 1].rstrip()
        if DASHES.match(line) and nxt and not DASHES.match(nxt) and not LOCATION.match(nxt):
            # Catch2: only a header starting a block whose second dashes line follows
            if any(DASHES.match(l) for l in lines[i + 2:i + 8]):
                names.append(nxt.strip())
        m = re.match(r"^(?:FAIL|ERROR):\s+(.+)$", line)
        if m:
            names.append(m.group(1).strip())
    unique = []
    for n in names:
        if n not in unique:
            unique.append(n)
    return unique


def run_suites(build, names, timeout_s, logbase):
    """-> (passed, description of what failed, names of the failed meson tests)."""
    log = build / "meson-logs" / f"{logbase}.json"
    if log.exists():
        log.unlink()
    cmd = ["meson", "test", "-C", str(build), "--no-rebuild", "--logbase", logbase, *names]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return False, f"the suites did not end within {timeout_s} s", []
    results = []
    if log.exists():
        with open(log) as f:
            results = [json.loads(l) for l in f if l.strip()]
    bad = [t for t in results if t["result"] not in ("OK", "SKIP", "EXPECTEDFAIL")]
    if p.returncode == 0 and not bad:
        if len(results) != len(names):
            return False, f"meson ran {len(results)} tests, not {len(names)}: {out[-300:]}", []
        return True, "", []
    if not bad:
        return False, f"meson test exited {p.returncode}: {out.strip()[-300:]}", []
    parts = []
    for t in bad:
        name = t["name"].split("/")[-1].strip()
        failed = failing_names(t.get("stdout") or "")
        what = f"`{failed[0]}`" if failed else t["result"]
        if len(failed) > 1:
            what += f" (+{len(failed) - 1} more)"
        parts.append(f"{name}: {what}" if failed else f"{name} ({t['result']})")
    return False, "; ".join(parts), [t["name"].split("/")[-1].strip() for t in bad]


def run_confirmed(build, names, timeout_s, logbase):
    """run_suites, with every failed test run once more: a failure that does
    not repeat is a flake (other runs of the same tests on this machine, load),
    not a kill. -> (passed, description, flaky description)."""
    passed, why, failed = run_suites(build, names, timeout_s, logbase)
    if passed or not failed:
        return passed, why, ""
    again, why_again, _ = run_suites(build, failed, timeout_s, logbase + "-again")
    if again:
        return True, "", f"{why} failed once, passed when run again"
    return False, why, ""


def mutate(src, m):
    path = src / m["file"]
    original = path.read_text()
    n = original.count(m["find"])
    if n != 1:
        die(f"{m['id']}: `find` occurs {n} times in {m['file']} of the scratch copy")
    path.write_text(original.replace(m["find"], m["replace"]))
    return path, original


def table(rows):
    lines = ["| id | file | result | killed by |", "| --- | --- | --- | --- |"]
    for r in rows:
        cell = r["by"].replace("|", "\\|")
        lines.append(f"| {r['id']} | {r['file']} | {r['result']} | {cell} |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="+", metavar="ID", help="run only these mutations")
    ap.add_argument("--keep", action="store_true", help="keep the scratch copy and its build")
    ap.add_argument("--check", action="store_true", help="only check the mutations against HEAD")
    ap.add_argument("--scratch", type=Path, default=DEFAULT_SCRATCH,
                    help=f"scratch folder (default {DEFAULT_SCRATCH})")
    ap.add_argument("--mutations", type=Path, default=HERE / "mutations.toml")
    args = ap.parse_args()

    repo = Path(run(["git", "-C", str(HERE), "rev-parse", "--show-toplevel"], check=True).stdout.strip())
    commit = run(["git", "-C", str(repo), "rev-parse", "HEAD"], check=True).stdout.strip()
    mutations = load_mutations(args.mutations)
    if args.only:
        unknown = sorted(set(args.only) - {m["id"] for m in mutations})
        if unknown:
            die(f"no mutation with id {', '.join(unknown)}")
        mutations = [m for m in mutations if m["id"] in args.only]
    check_finds(repo, commit, mutations)
    if args.check:
        print(f"mutation: all {len(mutations)} mutations match {commit[:12]} exactly once")
        return 0
    if args.scratch.resolve() == repo or repo in args.scratch.resolve().parents:
        die("the scratch folder must be outside the repository")

    t0 = time.monotonic()
    rows = []
    try:
        src, build = make_scratch(repo, commit, args.scratch)
        restore_sources(repo, commit, src, mutations)
        known = test_targets(build)
        for m in mutations:
            unknown = [s for s in m["suites"] if s not in known]
            if unknown:
                die(f"{m['id']}: no meson test named {', '.join(unknown)} (see meson test --list)")

        def needs(suites):
            return sorted({t for s in suites for t in known[s][0]})

        def limit(suites):
            return int(sum(known[s][1] for s in suites) * 1.5) + 120

        # The unmutated copy must pass every suite used, or a kill means nothing.
        all_suites = sorted({s for m in mutations for s in m["suites"]})
        print(f"mutation: baseline build and {' '.join(all_suites)}", flush=True)
        ok, why = ninja(build, needs(all_suites))
        if not ok:
            die(f"the unmutated copy does not build: {why}")
        ok, why, flake = run_confirmed(build, all_suites, limit(all_suites), "mutation-baseline")
        if not ok:
            die(f"the unmutated copy fails its suites: {why}")
        if flake:
            print(f"mutation: baseline flake: {flake}")
        print(f"mutation: baseline passes ({time.monotonic() - t0:.0f} s)", flush=True)

        for i, m in enumerate(mutations, 1):
            t1 = time.monotonic()
            path, original = mutate(src, m)
            try:
                built, why = ninja(build, needs(m["suites"]))
                if not built:
                    result, by = "killed by the build", why
                else:
                    passed, by, flake = run_confirmed(build, m["suites"], limit(m["suites"]),
                                                      f"mutation-{m['id']}")
                    result = "SURVIVED" if passed else "killed"
                    if passed:
                        by = f"nothing in {', '.join(m['suites'])}" + (f" ({flake})" if flake else "")
            finally:
                path.write_text(original)
            rows.append({"id": m["id"], "file": m["file"], "result": result, "by": by})
            print(f"mutation: [{i}/{len(mutations)}] {m['id']}: {result} "
                  f"({time.monotonic() - t1:.0f} s){': ' + by if by else ''}", flush=True)
        # Leave the copy's build matching HEAD again for a reuse.
        ninja(build, needs(all_suites))
    finally:
        if not args.keep and args.scratch.exists():
            shutil.rmtree(args.scratch)

    wall = time.monotonic() - t0
    killed = sum(r["result"] != "SURVIVED" for r in rows)
    by_build = sum(r["result"] == "killed by the build" for r in rows)
    survived = len(rows) - killed
    print()
    print(table(rows))
    print()
    print(f"{len(rows)} mutations: {killed} killed, {survived} survived "
          f"({by_build} of the kills by the build; commit {commit[:12]}, {wall / 60:.1f} min)")
    for r in rows:
        if r["result"] == "SURVIVED":
            m = next(x for x in mutations if x["id"] == r["id"])
            print(f"survived: {m['id']}: {m['why']}")
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
