"""The bisect scenario's checks (issue 30; by hand, not in the suite:
`vm_test.py --scenario bisect`, about 26 boots).

hist:vm/hist has four builds of vm/a on the guest's `hist` remote (a bare
repository read over file://); the third enables bootbench-vm-busy.service,
which keeps a CPU busy. The first boot runs `bootbench bisect` with good =
the oldest build and bad = the ref's head, five runs a round (guest/
bisect.toml). bisect must name build 3 as the first bad build against
build 2, list the unit in "what changed", pull each build it tests from the
remote, and leave the machine as it was."""
import json
from pathlib import Path

from vm_checks import check_default_is_base, expect, read_deployments, read_results

EXPERIMENT = "vm-bisect"
BUSY_UNIT = "bootbench-vm-busy.service"


def results_dir(out):
    return Path(out) / "bootbench" / "results" / EXPERIMENT


def check_verdict(img, report):
    builds = {b["commit"]: b for b in report.get("builds", [])}
    commits = [img.commit(f"hist{n}") for n in (1, 2, 3, 4)]
    expect(sorted(builds) == sorted(commits),
           f"bisect.json's builds {sorted(builds)}; expected the four of vm/hist {commits}")
    culprit = report.get("culprit") or {}
    expect(report.get("outcome") == "culprit", f"the search ended {report.get('outcome')!r}: {report.get('headline')}")
    first_bad = report["builds"][culprit.get("first_bad", -1)]["commit"]
    last_good = report["builds"][culprit.get("last_good", -1)]["commit"]
    expect(first_bad == commits[2] and last_good == commits[1],
           f"bisect named {first_bad[:12]} as the first bad build against {last_good[:12]}; "
           f"expected build 3 {commits[2][:12]} against build 2 {commits[1][:12]}: {report.get('headline')}")
    print(f"bisect: {report.get('headline')}")
    for s in report.get("steps", []):
        print(f"  step: {s.get('phase')} build {s.get('build')} round {s.get('round')}: {s.get('call')} ({s.get('why')})")


def check_changes(out, report):
    changes = json.dumps(report.get("changes", {}))
    expect(BUSY_UNIT in changes, f"bisect.json's 'what changed' does not name {BUSY_UNIT}: {changes[:1500]}")
    md = (results_dir(out) / "bisect.md").read_text()
    expect(BUSY_UNIT in md, f"bisect.md does not name {BUSY_UNIT}")
    start = md.find("## What changed")
    print(md[start:md.find("\n## ", start + 1)].rstrip() if start >= 0 else "bisect.md: no 'What changed' section")


def check_runs(img, out):
    """Every run ok, each in a deployment of the build it measured."""
    runs = [r for r in read_results(out).values() if r.get("experiment") == EXPERIMENT]
    bad = [f"{r.get('run')}: {r.get('status')} ({r.get('failure')})" for r in runs if r.get("status") != "ok"]
    expect(runs, "no run results")
    for r in runs:
        target, commit = r.get("target", ""), r.get("deployment", {}).get("checksum", "")
        expect(commit.startswith(target), f"run {r.get('run')} of build {target} measured commit {commit}")
    # The image's sysroot repository holds none of vm/hist's builds (only
    # the hist remote does): each build measured was pulled from there.
    builds = sorted({r.get("target") for r in runs})
    print(f"runs: {len(runs)}, {len(runs) - len(bad)} ok, of {len(builds)} builds pulled from the hist remote "
          f"({', '.join(builds)})" + (f"; not ok: {bad}" if bad else ""))


def check_restored(img, out):
    info = read_deployments(out)
    deps = sorted(info["deployments"])
    expected = sorted(img.deployment(v) for v in ("base", "a", "b"))
    expect(deps == expected, f"deployments after the bisection: {deps}; expected the image's three {expected}")
    check_default_is_base(info)
    print("restored: base is the default, every build bootbench deployed is gone")


def check_bisect(boots, img, out, lines):
    variants = [b["variant"] for b in boots]
    print(f"boots: {len(boots)} ({' '.join(variants)})")
    expect(variants[0] == "base" and variants[-1] == "base",
           f"expected the first and the last boot to be base; saw {' '.join(variants)}")
    report = json.loads((results_dir(out) / "bisect.json").read_text())
    check_verdict(img, report)
    check_changes(out, report)
    check_runs(img, out)
    check_restored(img, out)
