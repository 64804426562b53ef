#!/usr/bin/env python3
"""bootbench report / reproduce end to end: the published set, a results
folder with an experiment file, every bad-input path (exact message, exit 2),
and the SVG checked as XML.

    cli_test.py BOOTBENCH DATA_DIR CONFIGS_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

BOOTBENCH, DATA, CONFIGS = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
PUBLISHED = os.path.join(DATA, "published", "margine-2026-06-16")
failures = []


def run(*args):
    p = subprocess.run([BOOTBENCH, *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def check(name, ok, detail=""):
    print(("ok: " if ok else "FAIL: ") + name)
    if not ok:
        failures.append(name)
        if detail:
            print("   ", detail.replace("\n", "\n    "))


def expect_error(name, args, code, message):
    rc, out, err = run(*args)
    want = "bootbench: error: " + message + "\n"
    check(name, rc == code and err == want, f"exit {rc}, stderr:\n{err}\nwanted exit {code}:\n{want}")


def write_json(path, doc):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(doc, f)


def bench_run(run_id, target, metrics, status="ok", failure="", started="2026-07-01T10:00:00+00:00"):
    return {
        "schema": "bootbench-run/1", "experiment": "margine-vs-bluefin", "run": run_id, "target": target,
        "attempt": 1, "started_at": started, "finished_at": started, "status": status, "failure": failure,
        "deployment": {"stateroot": "default", "checksum": "abc", "serial": 0},
        "environment": {"governor": "performance", "temp_start_c": 50.0}, "benches": [],
        "metrics": {k: {"value": v, "unit": "us/op" if "usecs" in k else "", "better":
                        "higher" if k in ("sched_pipe_ops_sec", "sysbench_events") else "lower"}
                    for k, v in metrics.items()},
    }


def results_folder(root, exclude=()):
    """Fresh results in bootbench-run/1: 6 interleaved runs per target.
    sched_pipe reproduces the published 1.79x, sysbench_events is flat (the
    published 1.54x is not reproduced), schbench_p50 is too noisy to tell."""
    base_pipe = [7.95, 7.97, 7.99, 7.96, 7.98, 7.97]
    subj_pipe = [4.44, 4.46, 4.45, 4.43, 4.47, 4.45]
    base_p50 = [2000, 3000, 4000, 2500, 3500, 3000]
    subj_p50 = [1800, 3300, 2500, 3900, 2100, 2900]
    for i in range(6):
        t = f"2026-07-01T1{i}:00:00+00:00"
        t2 = f"2026-07-01T1{i}:30:00+00:00"
        write_json(f"{root}/runs/bluefin-dx-{i+1}.json", bench_run(
            f"bluefin-dx-{i+1}", "bluefin-dx", {"sched_pipe_usecs_op": base_pipe[i],
                                               "sched_pipe_ops_sec": 1e6 / base_pipe[i],
                                               "sysbench_events": 57000 + 10 * i,
                                               "schbench_p50_us": base_p50[i]}, started=t))
        write_json(f"{root}/runs/margine-cachyos-{i+1}.json", bench_run(
            f"margine-cachyos-{i+1}", "margine-cachyos", {"sched_pipe_usecs_op": subj_pipe[i],
                                                         "sched_pipe_ops_sec": 1e6 / subj_pipe[i],
                                                         "sysbench_events": 57005 + 10 * i,
                                                         "schbench_p50_us": subj_p50[i]}, started=t2))
    write_json(f"{root}/runs/margine-cachyos-7.json", bench_run(
        "margine-cachyos-7", "margine-cachyos", {}, status="failed", failure="boot timed out after 600 s",
        started="2026-07-01T17:00:00+00:00"))
    with open(os.path.join(CONFIGS, "margine-vs-bluefin.toml")) as f:
        toml = f.read().replace("runs = 4", "runs = 7").replace("exclude = []", "exclude = [" + ", ".join(f'"{e}"' for e in exclude) + "]")
    with open(f"{root}/experiment.toml", "w") as f:
        f.write(toml)


def published_tests(tmp):
    prefix = os.path.join(tmp, "pub", "report")
    rc, out, err = run("report", PUBLISHED, "--baseline", "bluefin-dx", "--exclude", "margine-cachyos-1",
                       "--out-prefix", prefix)
    check("published report runs", rc == 0, err)
    check("the exclusion is printed with its reason",
          "excluded margine-cachyos-1: excluded with --exclude on the command line\n" in out, out)
    rep = json.load(open(prefix + ".json"))
    pipe = next(m for m in rep["metrics"] if m["key"] == "sched_pipe_usecs_op")
    # (7.95377 + 7.990634) / 2 = 7.972202 against 4.45432 (margine-cachyos 2-4)
    check("published median and ratio", abs(pipe["targets"]["bluefin-dx"]["median"] - 7.972202) < 1e-9
          and pipe["targets"]["margine-cachyos"]["median"] == 4.45432
          and abs(pipe["ratio"] - 7.972202 / 4.45432) < 1e-9, json.dumps(pipe))
    check("report.json names the exclusion", rep["targets"][1]["excluded"] ==
          [{"run": "margine-cachyos-1", "reason": "excluded with --exclude on the command line"}])
    md = open(prefix + ".md").read()
    check("report.md links the chart", "](report.svg)" in md)
    check("no arms data: no explanations in report.json or report.md",
          "arms" not in rep and "explanations" not in rep and "Likely explanations" not in md)
    check("report.md says it the right way round", "1.79x faster (4.45 vs 7.97 us/op, -44%)" in md)
    svg_text = open(prefix + ".svg", "rb").read()
    try:
        root = ET.fromstring(svg_text)
        check("report.svg is valid XML with an svg root", root.tag == "{http://www.w3.org/2000/svg}svg")
    except ET.ParseError as e:
        check("report.svg is valid XML", False, str(e))
    check("report.svg is ASCII", all(b < 0x80 for b in svg_text))
    flat = os.path.join(tmp, "flat")
    shutil.copytree(PUBLISHED, flat)
    os.chmod(flat, 0o755)  # the copy keeps the source folder's mode, which may be read-only
    rc1, _, err1 = run("report", flat, "--baseline", "bluefin-dx", "--out-prefix", f"{flat}/report")
    rc2, _, err2 = run("report", flat, "--baseline", "bluefin-dx", "--out-prefix", f"{flat}/report")
    check("a report written into a flat folder is skipped when reading it again",
          rc1 == 0 and rc2 == 0 and os.path.exists(f"{flat}/report.json"), err1 + err2)
    expect_error("a report named as a result", ["report", f"{flat}/report.json"], 2,
                 f"{flat}/report.json: this is a bootbench report, not a result; pass the results "
                 "folder or its run files")
    published_report_lands_here(tmp)
    rc, out, err = run("report", PUBLISHED, "--baseline", "bluefin-dx", "--out-prefix", prefix)
    check("margine-cachyos-1 is flagged when included",
          rc == 0 and "flagged margine-cachyos-1 on sched_pipe_usecs_op (7.75, 1.74x the median of the other runs, 4.45)" in out, out + err)


def published_report_lands_here(tmp):
    """A published folder is someone else's: its report goes to the current folder."""
    theirs, here = os.path.join(tmp, "theirs"), os.path.join(tmp, "here")
    shutil.copytree(PUBLISHED, theirs)
    os.mkdir(here)
    p = subprocess.run([BOOTBENCH, "report", theirs, "--baseline", "bluefin-dx"], capture_output=True,
                       text=True, timeout=120, cwd=here)
    check("report on a published folder writes into the current folder, not the input",
          p.returncode == 0 and os.path.exists(f"{here}/report.md") and not os.path.exists(f"{theirs}/report.md")
          and p.stdout.endswith("wrote report.md, report.json, report.svg, report.html\n"), p.stdout + p.stderr)


def results_folder_tests(tmp):
    root = os.path.join(tmp, "fresh")
    results_folder(root, exclude=["bluefin-dx-6"])
    rc, out, err = run("report", root)
    check("results folder: baseline and exclusions from experiment.toml", rc == 0 and
          f"excluded bluefin-dx-6: listed in {root}/experiment.toml [report] exclude\n" in out, out + err)
    check("results folder: the failed run is printed with its failure",
          "failed margine-cachyos-7: boot timed out after 600 s\n" in out, out)
    check("results folder: report files land in the folder",
          all(os.path.exists(f"{root}/report.{ext}") for ext in ("md", "json", "svg", "html")))
    md = open(f"{root}/report.md").read()
    check("results folder: title from the experiment file", md.startswith("# Margine kernel vs stock Fedora\n"))
    check("results folder: failed runs section", "## Failed runs\n\n- margine-cachyos-7 (margine-cachyos): "
          "boot timed out after 600 s" in md, md)


def per_watt_tests(tmp):
    """[report] per_watt in the results folder's experiment.toml reaches the
    report: sysbench_events per watt of its bench's power, compared like any
    metric (the baseline 20 W, the subject 25 W: 1.25x worse per watt)."""
    root = os.path.join(tmp, "per-watt")
    results_folder(root)
    for name in os.listdir(f"{root}/runs"):
        path = f"{root}/runs/{name}"
        with open(path) as f:
            doc = json.load(f)
        if doc["status"] == "ok":
            doc["metrics"]["sysbench_events"]["bench"] = "sysbench-threads"
            watts = 20.0 if doc["target"] == "bluefin-dx" else 25.0
            doc["metrics"]["sysbench-threads_power_w"] = {"value": watts, "unit": "W", "better": "lower",
                                                          "bench": "sysbench-threads"}
        write_json(path, doc)
    toml = open(f"{root}/experiment.toml").read().replace("exclude = []", 'exclude = []\nper_watt = ["sysbench_events"]')
    with open(f"{root}/experiment.toml", "w") as f:
        f.write(toml)
    rc, out, err = run("report", root)
    metrics = {m["key"]: m for m in json.load(open(f"{root}/report.json"))["metrics"]} if rc == 0 else {}
    m = metrics.get("sysbench_events_per_watt", {})
    check("per_watt: the experiment file's per_watt gives a metric with a verdict",
          m.get("verdict") == "worse" and abs(m.get("ratio", 0) - 1 / 1.25) < 0.01 and m.get("unit") == "/W",
          f"exit {rc}\n{err}\n{json.dumps(m)}")


def direction_tests(tmp):
    root = os.path.join(tmp, "direction")
    results_folder(root)
    path = f"{root}/runs/bluefin-dx-2.json"
    doc = json.load(open(path))
    doc["metrics"]["sched_pipe_usecs_op"]["better"] = "higher"
    write_json(path, doc)
    rc, out, err = run("report", root)
    warnings = json.load(open(f"{root}/report.json"))["warnings"] if rc == 0 else []
    check("a run file that disagrees with the catalog on direction is named",
          f"sched_pipe_usecs_op: {path} says higher is better; the metric catalog says lower, "
          "and the report uses lower." in warnings, out + err + json.dumps(warnings))


def reproduce_tests(tmp):
    root = os.path.join(tmp, "repro")
    results_folder(root)
    rc, out, err = run("reproduce", "--published", PUBLISHED, "--results", root)
    check("reproduce runs", rc == 0, err)
    check("reproduce takes the README's exclusion", "excluded margine-cachyos-1: excluded by the publisher "
          "(README.md): taken on an older candidate deployment" in out, out)
    rows = {line.split()[0]: line for line in out.splitlines() if line.startswith(("sched_", "sysbench", "schbench"))}
    check("reproduce: sched_pipe reproduced", "1.79x" in rows.get("sched_pipe_usecs_op", "")
          and "  reproduced  " in rows.get("sched_pipe_usecs_op", ""), out)
    check("reproduce: flat sysbench_events not reproduced",
          "not reproduced" in rows.get("sysbench_events", ""), out)
    check("reproduce: noisy schbench_p50 inconclusive", "inconclusive" in rows.get("schbench_p50_us", ""), out)
    check("reproduce: a metric the fresh runs lack is inconclusive",
          "the fresh results do not compare this metric" in rows.get("sysbench_lat_avg_ms", ""), out)
    sandboxed = os.path.join(tmp, "repro-sandbox")
    results_folder(sandboxed)
    for name in os.listdir(f"{sandboxed}/runs"):
        doc = json.load(open(f"{sandboxed}/runs/{name}"))
        doc["environment"].update({"sandbox": True, "cpu_model": "AMD EPYC", "nproc": 2})
        write_json(f"{sandboxed}/runs/{name}", doc)
    rc, out, err = run("reproduce", "--published", PUBLISHED, "--results", sandboxed)
    rows = {line.split()[0]: line for line in out.splitlines() if line.startswith(("sched_", "sysbench", "schbench"))}
    check("reproduce: a sandbox's miss is not comparable, not 'not reproduced'",
          "not comparable: the fresh runs are a sandbox simulation" in rows.get("sysbench_events", ""), out)
    check("reproduce: another experiment reproduces nothing, a hit no more than a miss (issue 32, item 8)",
          rows and all("  not comparable  not comparable: " in r for r in rows.values())
          and "  reproduced  " not in out, out)
    check("reproduce: says first how the experiments differ",
          "not the same experiment: the fresh runs are a sandbox simulation\n"
          "not the same experiment: CPU: published " in out and "; fresh AMD EPYC, 2 CPUs\n" in out, out)
    rc, out, err = run("reproduce", "--published", PUBLISHED, "--results", root, "--exclude", "bluefin-dx-1")
    check("reproduce --exclude replaces the README's list",
          "excluded bluefin-dx-1: excluded with --exclude" in out and "margine-cachyos-1:" not in out, out)


def bad_input_tests(tmp):
    bad = os.path.join(tmp, "bad")
    os.makedirs(bad)
    missing = os.path.join(bad, "nope.json")
    expect_error("unreadable file", ["report", missing, "--baseline", "a"], 2,
                 f"cannot read {missing}: No such file or directory (check the path and its permissions)")
    broken = os.path.join(bad, "broken.json")
    open(broken, "w").write("{")
    rc, out, err = run("report", broken, "--baseline", "a")
    check("not JSON", rc == 2 and err.startswith(f"bootbench: error: {broken}: not valid JSON (")
          and err.endswith("); fix or remove the file\n"), err)
    wrong = os.path.join(bad, "wrong.json")
    write_json(wrong, {"schema": "other/7"})
    expect_error("wrong schema", ["report", wrong], 2, f"{wrong}: schema 'other/7' is not one bootbench reads "
                 "(bootbench-run/1 or margine-bench-kernel/1)")
    noschema = os.path.join(bad, "noschema.json")
    write_json(noschema, {"run": "x"})
    expect_error("no schema", ["report", noschema], 2, f"{noschema}: no \"schema\" field; bootbench reads "
                 "bootbench-run/1 and margine-bench-kernel/1 files")
    badrun = os.path.join(bad, "badrun.json")
    write_json(badrun, {"schema": "bootbench-run/1", "run": "x"})
    expect_error("bootbench-run/1 with a missing field", ["report", badrun], 2,
                 f"{badrun}: missing field 'experiment'")
    argv = os.path.join(bad, "argv.json")
    write_json(argv, {**json.load(open(os.path.join(os.path.dirname(DATA), "fuzz", "corpus", "run-json",
                                                    "bootbench-run.json"))),
                      "benches": [{"name": "p", "kind": "perf-sched-pipe", "argv": ["perf", {"x": 1}],
                                   "wall_s": 1, "status": "ok"}]})
    expect_error("a bench's argv that is not all strings (found by fuzzing)", ["report", argv], 2,
                 f"{argv}: benches: field 'argv' must be an array of strings")
    expect_error("unknown --baseline", ["report", PUBLISHED, "--baseline", "fedora", "--out-prefix",
                 f"{tmp}/x"], 2, "unknown baseline 'fedora': the results have targets bluefin-dx, "
                 "margine-cachyos (pass --baseline with one of them)")
    expect_error("no baseline", ["report", PUBLISHED, "--out-prefix", f"{tmp}/x"], 2,
                 "no baseline: pass --baseline with one of the targets bluefin-dx, margine-cachyos "
                 "(or set baseline in the experiment file)")
    expect_error("exclude of an unknown run", ["report", PUBLISHED, "--baseline", "bluefin-dx", "--exclude",
                 "margine-9", "--out-prefix", f"{tmp}/x"], 2,
                 "cannot exclude 'margine-9': no run with that id in the results (runs: bluefin-dx-1, "
                 "bluefin-dx-2, bluefin-dx-3, bluefin-dx-4, margine-cachyos-1, margine-cachyos-2, "
                 "margine-cachyos-3, margine-cachyos-4)")
    disjoint = os.path.join(bad, "disjoint")
    write_json(f"{disjoint}/a-1.json", {"schema": "margine-bench-kernel/1", "label": "a", "sysbench_events": 5})
    write_json(f"{disjoint}/b-1.json", {"schema": "margine-bench-kernel/1", "label": "b", "schbench_p50_us": 5})
    expect_error("no common metric", ["report", disjoint, "--baseline", "a", "--out-prefix", f"{tmp}/x"], 2,
                 "no metric common to baseline 'a' and subject 'b' (a: sysbench_events; b: schbench_p50_us): "
                 "check that both targets ran the same benches")
    empty = os.path.join(bad, "empty")
    os.makedirs(empty)
    expect_error("empty folder", ["report", empty], 2,
                 f"{empty}: no results (expected runs/*.json or *.json files)")
    twice = os.path.join(PUBLISHED, "bluefin-dx-1.json")
    expect_error("a run given twice", ["report", PUBLISHED, twice, "--baseline", "bluefin-dx"], 2,
                 f"run 'bluefin-dx-1' appears twice: in {twice} and {twice}; pass only one of them")
    expect_error("unknown option", ["report", "--frobnicate"], 2,
                 "bootbench report: unknown option '--frobnicate' (see 'bootbench help report')")
    expect_error("reproduce without --published", ["reproduce", "--results", PUBLISHED], 2,
                 "bootbench reproduce: --published DIR is required (see 'bootbench help reproduce')")
    rc, out, err = run("report", PUBLISHED, "--baseline", "bluefin-dx", "--out-prefix", "/proc/no/report")
    check("unwritable output says where to write instead",
          rc == 1 and err.rstrip().endswith("(choose another place with --out-prefix)"), err)


def main():
    tmp = tempfile.mkdtemp(prefix="bootbench-report-test-")
    try:
        published_tests(tmp)
        results_folder_tests(tmp)
        per_watt_tests(tmp)
        direction_tests(tmp)
        reproduce_tests(tmp)
        bad_input_tests(tmp)
    finally:
        shutil.rmtree(tmp)
    if failures:
        print(f"{len(failures)} failed: " + ", ".join(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
