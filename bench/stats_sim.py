#!/usr/bin/env python3
"""What the statistics of `bootbench report` do on synthetic experiments
(issue 12, item 6): the false-verdict rate when nothing changed (A/A), the
power to see a true 5% or 10% improvement, and how often the 95% interval
contains the true ratio. It measures the real program: every experiment is
written as bootbench-run/1 files (two targets, 8 independent metrics, one file
per boot), `bootbench report` compares them, and the script reads report.json.

Per-boot values are log-normal around a centre: value = centre * exp(N(0, s)),
s = 0.03 or 0.10 ("3% / 10% boot-to-boot noise"). The subject's centre is
better by the true ratio r on every metric (divided by r where lower is
better, times r where higher is better), so the true ratio of medians, in the
report's own sense (> 1 means the subject is better), is r.

One cell = (noise, runs per target n, true ratio r), simulated N times:

    r = 1.00, 1.05, 1.10 at n = 4, 6, 8, 12, 20 (A/A; power; coverage at 6, 20)
    r = 1.00, 1.10 at n = 10 (coverage only)

The coverage table at n = 6 and 20 reuses the A/A (r = 1.00) and power
(r = 1.10) experiments of those cells; n = 10 has its own.

Every experiment has its own seed derived from --seed and its cell, so the
numbers do not depend on the worker count or the order workers finish in.

    bench/stats_sim.py --bootbench build/bootbench [--experiments 1000]
                       [--quick] [--seed 1] [--workers 2] [--scratch /var/tmp]

--repeat R measures the two-level (hierarchical) interval of `repeat = R`
instead: R iterations per boot around the boot's own value (--within, noise
inside a boot), the boot's value their median; the coverage cells only.

--adaptive measures the stopping rule of `runs = { min, max }` with
`precision` instead (docs/statistics.md, "An experiment that fits the
night"): A/A experiments of up to max rounds, `bootbench report` run after
every round from min on, stopped at the first round where every metric's
interval half-width ((ci hi - ci lo) / 2 / ratio, from report.json: the
interval the experiment's rule reads) is within each precision; the false
verdicts at the round it stopped against those of fixed runs (min and max)
on the same boots.

    bench/stats_sim.py --bootbench build/bootbench --adaptive [--experiments 1000]
                       [--noise 0.03] [--min 6] [--max 20] [--precision 0.04 0.05]

--lab measures the pooled verdicts of a report over several machines
(issue 32, item 6): A/A labs of --hosts machines (each with its own level,
exp(N(0, 0.2)) times the centre, and its own machine_id), --lab-runs runs
per target on each, the 8 metrics; one `bootbench report` over all their
files per lab; the share of labs whose pooled table shows any verdict.

    bench/stats_sim.py --bootbench build/bootbench --lab [--experiments 1000]
                       [--hosts 2] [--lab-runs 3 8] [--noise 0.03]

--plan-from measures `plan --from` (issue 32, item 7): a pilot of
--pilot-runs boots x --pilot-repeat iterations per target (one metric,
--noise between boots, --within inside a boot, no true difference),
`bootbench plan --from` on it, then a fresh experiment of the runs and
repeat it advises from the same truth, and `bootbench report` on that: the
share of fresh experiments whose interval half-width ((hi - lo) / 2 /
ratio) is within the advice's +-2%.

    bench/stats_sim.py --bootbench build/bootbench --plan-from [--experiments 200]
                       [--pilot-runs 4] [--pilot-repeat 3] [--noise 0.03] [--within 0.03]
"""
import argparse
import json
import math
import multiprocessing
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

METRICS = [  # key, unit, better, baseline centre (as in bench/report_scale.py)
    ("sched_pipe_usecs_op", "us/op", "lower", 7.97),
    ("sched_pipe_ops_sec", "ops/s", "higher", 125436),
    ("sched_messaging_total_s", "s", "lower", 3.25),
    ("sysbench_events", "events", "higher", 57084),
    ("sysbench_lat_avg_ms", "ms", "lower", 6.3),
    ("sysbench_lat_95th_ms", "ms", "lower", 21.3),
    ("schbench_p50_us", "us", "lower", 2980),
    ("schbench_p99_us", "us", "lower", 10720),
]
NOISES = (0.03, 0.10)
RUNS = (4, 6, 8, 12, 20)
EFFECTS = (1.05, 1.10)
COVERAGE_RUNS = (6, 10, 20)
COVERAGE_RATIOS = (1.00, 1.10)
BASELINE, SUBJECT = "a", "b"


def cells():
    """(noise, n, true ratio) for every simulated cell, in a fixed order."""
    out = []
    for noise in NOISES:
        for n in sorted(set(RUNS) | set(COVERAGE_RUNS)):
            ratios = (1.00, *EFFECTS) if n in RUNS else COVERAGE_RATIOS
            out += [(noise, n, r) for r in ratios]
    return out


def run_doc(run_id, target, index, values, iterations=None):
    """A minimal bootbench-run/1 document (the writer of bench/report_scale.py);
    with `iterations` (key -> the boot's values), a bench run `repeat` times."""
    t = f"2026-07-{1 + index // 1440:02d}T{(index // 60) % 24:02d}:{index % 60:02d}:00+00:00"
    metrics = {key: {"value": values[key], "unit": unit, "better": better, "bench": key.split("_")[0]}
               for key, unit, better, _ in METRICS}
    for key, its in (iterations or {}).items():
        metrics[key]["iterations"] = its
    return {
        "schema": "bootbench-run/1", "experiment": "stats-sim", "run": run_id, "target": target,
        "attempt": 1, "started_at": t, "finished_at": t, "status": "ok", "failure": "",
        "deployment": {"stateroot": "default", "checksum": "%064x" % (target == SUBJECT), "serial": 0,
                       "origin": "ostree-image-signed:docker://ghcr.io/example/" + target, "version": "44.1"},
        "environment": {"kernel_release": "7.0.8-200.fc44.x86_64", "cpu_model": "AMD Ryzen 5 7640U",
                        "nproc": 12, "smt": "on", "governor": "performance", "epp": "performance",
                        "mitigations": {"spectre_v2": "Mitigation: Retpolines"},
                        "sched_ext_state": "disabled", "ac_power": True, "hostname": "bench"},
        "conditions": [],
        "benches": [{"name": b, "kind": "command", "argv": [b], "exit_status": 0, "wall_s": 30.0,
                     "status": "ok", "reason": "", "log": b} for b in ("sched", "sysbench", "schbench")],
        "metrics": metrics, "missing": {},
    }


def experiment_seed(seed, cell_index, i):
    return (seed * 1000 + cell_index) * 1_000_000 + i


def boot_values(rng, centre, noise, repeat, within):
    """One boot's value of a metric and, with repeat > 1, its iterations: a
    boot effect exp(N(0, noise)) shared by the boot's iterations, each with
    its own exp(N(0, within)); the boot's value is their median, as the suite
    folds them."""
    boot = centre * math.exp(rng.gauss(0, noise))
    if repeat <= 1:
        return boot, None
    its = [boot * math.exp(rng.gauss(0, within)) for _ in range(repeat)]
    return sorted(its)[repeat // 2] if repeat % 2 else sum(sorted(its)[repeat // 2 - 1:repeat // 2 + 1]) / 2, its


def simulate(task):
    """Write one experiment, run `bootbench report`, return per metric
    (verdict, ci lo, ci hi, p_value, p_holm) in METRICS order."""
    bootbench, scratch, cell_index, i, seed, (noise, n, ratio), repeat, within = task
    rng = random.Random(experiment_seed(seed, cell_index, i))
    folder = tempfile.mkdtemp(dir=scratch)
    try:
        files = []
        # alternate a, b, a, b... as an interleaved experiment would boot them
        for k in range(2 * n):
            target = BASELINE if k % 2 == 0 else SUBJECT
            values, iterations = {}, {}
            for key, _, better, centre in METRICS:
                c = centre
                if target == SUBJECT:
                    c = centre * ratio if better == "higher" else centre / ratio
                values[key], its = boot_values(rng, c, noise, repeat, within)
                if its:
                    iterations[key] = its
            run_id = f"{target}-{k // 2 + 1}"
            path = os.path.join(folder, run_id + ".json")
            with open(path, "w") as f:
                json.dump(run_doc(run_id, target, k, values, iterations), f)
            files.append(path)
        prefix = os.path.join(folder, "report")
        p = subprocess.run([bootbench, "report", *files, "--baseline", BASELINE,
                            "--out-prefix", prefix], capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"bootbench report failed ({p.returncode}):\n{p.stdout}{p.stderr}")
        with open(prefix + ".json") as f:
            report = json.load(f)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    by_key = {m["key"]: m for m in report["metrics"]}
    out = []
    for key, *_ in METRICS:
        m = by_key[key]
        ci = m.get("ci")
        lo, hi = (ci[0], ci[1]) if ci else (None, None)
        out.append((m["verdict"], lo, hi, m["p_value"], m["p_holm"]))
    return cell_index, out


def pct(x, total):
    return f"{100.0 * x / total:.1f}%" if total else "-"


def wilson_halfwidth(k, total):
    """Half-width of the 95% Wilson interval of k/total, in percentage points."""
    if not total:
        return 0.0
    z, p = 1.959964, k / total
    centre_den = 1 + z * z / total
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / centre_den
    return 100 * half


def aa_table(results, experiments):
    lines = ["| noise | runs per target | experiments | any verdict != same | per metric: verdict != same"
             " | per metric: raw p < 0.05 | smallest p_holm seen |",
             "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for noise in NOISES:
        for n in RUNS:
            exps = results[(noise, n, 1.00)]
            any_false = sum(any(v != "same" for v, *_ in e) for e in exps)
            metrics = [m for e in exps for m in e]
            false_metric = sum(v != "same" for v, *_ in metrics)
            raw = sum(p < 0.05 for _, _, _, p, _ in metrics)
            smallest = min(ph for *_, ph in metrics)
            lines.append(f"| {noise:.0%} | {n} | {len(exps)} | {pct(any_false, len(exps))}"
                         f" (± {wilson_halfwidth(any_false, len(exps)):.1f}) | {pct(false_metric, len(metrics))}"
                         f" | {pct(raw, len(metrics))} | {smallest:.3g} |")
    return "\n".join(lines)


def power_table(results):
    lines = ["| true ratio | noise | runs per target | metrics | verdict better | verdict worse (wrong way)"
             " | experiments with all 8 better |",
             "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for effect in EFFECTS:
        for noise in NOISES:
            for n in RUNS:
                exps = results[(noise, n, effect)]
                metrics = [m for e in exps for m in e]
                better = sum(v == "better" for v, *_ in metrics)
                worse = sum(v == "worse" for v, *_ in metrics)
                all8 = sum(all(v == "better" for v, *_ in e) for e in exps)
                lines.append(f"| {effect:.2f}x | {noise:.0%} | {n} | {len(metrics)} | {pct(better, len(metrics))}"
                             f" | {worse} | {pct(all8, len(exps))} |")
    return "\n".join(lines)


def coverage_table(results, noises=NOISES):
    lines = ["| true ratio | noise | runs per target | metrics | interval contains true ratio"
             " | below (hi < true) | above (lo > true) | median width (hi/lo - 1) |",
             "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for ratio in COVERAGE_RATIOS:
        for noise in noises:
            for n in COVERAGE_RUNS:
                metrics = [m for e in results[(noise, n, ratio)] for m in e]
                with_ci = [(lo, hi) for _, lo, hi, _, _ in metrics if lo is not None]
                if len(with_ci) != len(metrics):
                    raise RuntimeError(f"n = {n}: {len(metrics) - len(with_ci)} metrics without an interval")
                inside = sum(lo <= ratio <= hi for lo, hi in with_ci)
                below = sum(hi < ratio for lo, hi in with_ci)
                above = sum(lo > ratio for lo, hi in with_ci)
                widths = sorted(hi / lo - 1 for lo, hi in with_ci)
                lines.append(f"| {ratio:.2f}x | {noise:.0%} | {n} | {len(metrics)} | {pct(inside, len(metrics))}"
                             f" (± {wilson_halfwidth(inside, len(metrics)):.1f})"
                             f" | {pct(below, len(metrics))} | {pct(above, len(metrics))}"
                             f" | {100 * widths[len(widths) // 2]:.1f}% |")
    return "\n".join(lines)


def write_rounds(folder, rounds, upto):
    """Run files of rounds 1..upto (a, b interleaved); their paths."""
    files = []
    for k in range(upto):
        for t, target in enumerate((BASELINE, SUBJECT)):
            run_id = f"{target}-{k + 1}"
            path = os.path.join(folder, run_id + ".json")
            if not os.path.exists(path):
                with open(path, "w") as f:
                    json.dump(run_doc(run_id, target, 2 * k + t, rounds[k][t]), f)
            files.append(path)
    return files


def report_json(bootbench, folder, files):
    prefix = os.path.join(folder, "report")
    p = subprocess.run([bootbench, "report", *files, "--baseline", BASELINE, "--out-prefix", prefix],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"bootbench report failed ({p.returncode}):\n{p.stdout}{p.stderr}")
    with open(prefix + ".json") as f:
        return json.load(f)


def round_outcome(report):
    """(any verdict != same, largest relative half-width or None) of one report."""
    any_false = any(m["verdict"] != "same" for m in report["metrics"])
    widths = []
    for m in report["metrics"]:
        ci = m.get("ci")
        if not ci:
            return any_false, None
        widths.append((ci[1] - ci[0]) / 2 / m["ratio"])
    return any_false, max(widths)


def simulate_adaptive(task):
    """One A/A experiment of up to `hi` rounds: {round: (any false, widest half-width)}
    for every round from `lo` until every precision stopped it, and for `hi`."""
    bootbench, scratch, i, seed, noise, lo, hi, precisions = task
    rng = random.Random(experiment_seed(seed, 999, i))
    rounds = [[{key: centre * math.exp(rng.gauss(0, noise)) for key, _, _, centre in METRICS}
               for _ in (BASELINE, SUBJECT)] for _ in range(hi)]
    folder = tempfile.mkdtemp(dir=scratch)
    out = {}
    try:
        for n in range(lo, hi + 1):
            if n < hi and all(any(w is not None and w <= p for _, w in out.values()) for p in precisions):
                continue  # every precision has stopped: only the fixed max is left
            out[n] = round_outcome(report_json(bootbench, folder, write_rounds(folder, rounds, n)))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return out


def stop_round(outcomes, lo, hi, precision):
    for n in range(lo, hi + 1):
        if n in outcomes and outcomes[n][1] is not None and outcomes[n][1] <= precision:
            return n
    return hi


def adaptive_table(results, lo, hi, precisions):
    total = len(results)
    lines = ["| rule | experiments | runs per target (median, range) | any verdict != same |",
             "| --- | ---: | ---: | ---: |"]
    for n in (lo, hi):
        k = sum(r[n][0] for r in results)
        lines.append(f"| fixed runs = {n} | {total} | {n} | {pct(k, total)} (± {wilson_halfwidth(k, total):.1f}) |")
    for p in precisions:
        stops = [stop_round(r, lo, hi, p) for r in results]
        k = sum(r[n][0] for r, n in zip(results, stops))
        srt = sorted(stops)
        lines.append(f"| runs = {{ min = {lo}, max = {hi} }}, precision = {p:g} | {total} | {srt[total // 2]}"
                     f" ({srt[0]}-{srt[-1]}) | {pct(k, total)} (± {wilson_halfwidth(k, total):.1f}) |")
    return "\n".join(lines)


def run_pool(args, bootbench, simulate_one, make_tasks, chunksize=4):
    """simulate_one over make_tasks(private copy of bootbench, scratch folder)
    on args.workers processes: (results in task order, task count, wall s)."""
    scratch = tempfile.mkdtemp(prefix="statsim-", dir=args.scratch)
    bootbench = shutil.copy2(bootbench, os.path.join(scratch, "bootbench"))
    tasks = make_tasks(bootbench, scratch)
    start = time.monotonic()
    try:
        with multiprocessing.Pool(args.workers) as pool:
            results = list(pool.imap(simulate_one, tasks, chunksize=chunksize))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return results, len(tasks), time.monotonic() - start


def main_adaptive(args, bootbench):
    experiments = 40 if args.quick else args.experiments
    results, _, wall = run_pool(args, bootbench, simulate_adaptive, lambda b, s: [
        (b, s, i, args.seed, args.noise, args.min, args.max, args.precision) for i in range(experiments)])
    reports = sum(len(r) for r in results)
    print(f"`bootbench report` after every round of {experiments} synthetic A/A experiments "
          f"({len(METRICS)} independent log-normal metrics, {args.noise:.0%} boot-to-boot noise, seed {args.seed}, "
          f"{args.workers} workers): {reports} reports, wall {wall:.0f} s ({wall / 60:.1f} min)\n")
    print(adaptive_table(results, args.min, args.max, args.precision) + "\n")
    print("± is the 95% Wilson half-width of the any-verdict rate, in percentage points.")
    return 0


def lab_doc(run_id, target, index, values, host):
    """run_doc of one machine of a lab: its own machine_id and hostname."""
    doc = run_doc(run_id, target, index, values)
    doc["environment"].update({"machine_id": "%016x" % (host + 1), "hostname": f"lab{host + 1}"})
    return doc


def simulate_lab(task):
    """One A/A lab: (any pooled verdict != same, any machine's verdict != same)."""
    bootbench, scratch, i, seed, hosts, n, noise = task
    rng = random.Random(experiment_seed(seed, 500 + n, i))
    folder = tempfile.mkdtemp(dir=scratch)
    try:
        files = []
        for h in range(hosts):
            level = {key: centre * math.exp(rng.gauss(0, 0.2)) for key, _, _, centre in METRICS}
            for k in range(2 * n):
                target = BASELINE if k % 2 == 0 else SUBJECT
                values = {key: level[key] * math.exp(rng.gauss(0, noise)) for key, *_ in METRICS}
                path = os.path.join(folder, f"h{h}-{target}-{k // 2 + 1}.json")
                with open(path, "w") as f:
                    json.dump(lab_doc(f"{target}-{k // 2 + 1}", target, k, values, h), f)
                files.append(path)
        report = report_json(bootbench, folder, files)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    pooled = any(m["verdict"] != "same" for m in report["pooled"])
    machine = any(m["verdict"] != "same" for h in report["hosts"] for m in h["report"]["metrics"])
    return n, pooled, machine, len(report["pooled"])


def main_lab(args, bootbench):
    experiments = 40 if args.quick else args.experiments
    results, count, wall = run_pool(args, bootbench, simulate_lab, lambda b, s: [
        (b, s, i, args.seed, args.hosts, n, args.noise) for n in args.lab_runs for i in range(experiments)])
    print(f"`bootbench report` over {count} synthetic A/A labs ({args.hosts} machines each, "
          f"{len(METRICS)} independent log-normal metrics, {args.noise:.0%} boot-to-boot noise, seed {args.seed}, "
          f"{args.workers} workers): wall {wall:.0f} s ({wall / 60:.1f} min)\n")
    print("| machines | runs per target per machine | lab reports | pooled metrics | any pooled verdict != same"
          " | any machine's verdict != same |\n| ---: | ---: | ---: | ---: | ---: | ---: |")
    for n in args.lab_runs:
        rows = [r for r in results if r[0] == n]
        k, m = sum(r[1] for r in rows), sum(r[2] for r in rows)
        print(f"| {args.hosts} | {n} | {len(rows)} | {rows[0][3]} | {pct(k, len(rows))} "
              f"(± {wilson_halfwidth(k, len(rows)):.1f}) | {pct(m, len(rows))} |")
    print("\n± is the 95% Wilson half-width of the rate, in percentage points.")
    return 0


PLAN_KEY, PLAN_BENCH = "sched_pipe_usecs_op", "perf-sched-pipe"


def plan_doc(run_id, target, index, its):
    """A run of the one bench perf-sched-pipe `len(its)` times; runs start 62 s
    apart and the bench takes 2 s, so a boot costs 60 s as plan_from_test's."""
    srt = sorted(its)
    value = srt[len(its) // 2] if len(its) % 2 else (srt[len(its) // 2 - 1] + srt[len(its) // 2]) / 2
    t = 62 * index
    stamp = f"2026-07-{1 + t // 86400:02d}T{t // 3600 % 24:02d}:{t // 60 % 60:02d}:{t % 60:02d}+00:00"
    metric = {"value": value, "unit": "us/op", "better": "lower", "bench": PLAN_BENCH}
    bench = {"name": PLAN_BENCH, "kind": "perf-sched-pipe", "argv": ["perf"], "wall_s": 2.0, "status": "ok",
             "reason": "", "log": PLAN_BENCH, "exit_status": 0}
    if len(its) > 1:
        metric["iterations"], bench["iterations"] = its, len(its)
    return {"schema": "bootbench-run/1", "experiment": "repeat-demo", "run": run_id, "target": target,
            "attempt": 1, "started_at": stamp, "finished_at": stamp, "status": "ok", "failure": "",
            "deployment": {"stateroot": "default", "checksum": "abc", "serial": 0}, "environment": {},
            "benches": [bench], "metrics": {PLAN_KEY: metric}}


def write_experiment(folder, rng, runs, repeat, noise, within, config):
    os.makedirs(os.path.join(folder, "runs"))
    shutil.copy(config, os.path.join(folder, "experiment.toml"))  # the baseline: system-a
    for k in range(2 * runs):
        target = ("system-a", "system-b")[k % 2]
        boot = 7.97 * math.exp(rng.gauss(0, noise))
        its = [boot * math.exp(rng.gauss(0, within)) for _ in range(repeat)]
        with open(os.path.join(folder, "runs", f"{target}-{k // 2 + 1}.json"), "w") as f:
            json.dump(plan_doc(f"{target}-{k // 2 + 1}", target, k, its), f)


def advised(out):
    """(runs, repeat) from `plan --from`'s lines."""
    runs = int(out.split("[experiment] runs = ")[1].split()[0])
    repeat = int(out.split(f"'{PLAN_BENCH}' repeat = ")[1].split()[0])
    return runs, repeat


def simulate_plan(task):
    """One pilot, its advice, and the fresh experiment of that size:
    (runs, repeat, the fresh interval's relative half-width)."""
    bootbench, scratch, config, i, seed, pilot_runs, pilot_repeat, noise, within = task
    rng = random.Random(experiment_seed(seed, 777, i))
    folder = tempfile.mkdtemp(dir=scratch)
    try:
        write_experiment(os.path.join(folder, "pilot"), rng, pilot_runs, pilot_repeat, noise, within, config)
        p = subprocess.run([bootbench, "plan", "--from", os.path.join(folder, "pilot"), config],
                           capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"bootbench plan --from failed ({p.returncode}):\n{p.stdout}{p.stderr}")
        runs, repeat = advised(p.stdout)
        fresh = os.path.join(folder, "fresh")
        write_experiment(fresh, rng, runs, repeat, noise, within, config)
        p = subprocess.run([bootbench, "report", fresh], capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"bootbench report failed ({p.returncode}):\n{p.stdout}{p.stderr}")
        with open(os.path.join(fresh, "report.json")) as f:
            report = json.load(f)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    m = report["metrics"][0]
    if not m.get("ci"):  # advised below 6 runs: no interval, the target not reached
        return runs, repeat, math.inf
    return runs, repeat, (m["ci"][1] - m["ci"][0]) / 2 / m["ratio"]


def main_plan(args, bootbench):
    config = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "configs", "repeat-demo.toml")
    experiments = 40 if args.quick else args.experiments
    results, _, wall = run_pool(args, bootbench, simulate_plan, lambda b, s: [
        (b, s, config, i, args.seed, args.pilot_runs, args.pilot_repeat, args.noise, args.within)
        for i in range(experiments)], chunksize=2)
    hit = sum(w <= 0.02 for *_, w in results)
    runs = sorted(r for r, *_ in results)
    reps = sorted(r for _, r, _ in results)
    widths = sorted(w for *_, w in results)
    no_ci = sum(w == math.inf for *_, w in results)
    half = len(results) // 2
    print(f"{experiments} pilots of {args.pilot_runs} boots x {args.pilot_repeat} iterations per target "
          f"({args.noise:.0%} between boots, {args.within:.0%} within, seed {args.seed}, {args.workers} workers), "
          f"`plan --from` on each, and the fresh experiment it advises: wall {wall:.0f} s ({wall / 60:.1f} min)\n")
    print("| pilots | advised runs (median, range) | advised repeat (median, range) | fresh half-width (median,"
          " 10%-90%) | fresh experiments within +-2% |\n| ---: | ---: | ---: | ---: | ---: |")
    print(f"| {len(results)} | {runs[half]} ({runs[0]}-{runs[-1]}) | {reps[half]} ({reps[0]}-{reps[-1]}) | "
          f"{100 * widths[half]:.2f}% ({100 * widths[len(widths) // 10]:.2f}-{100 * widths[len(widths) * 9 // 10]:.2f}%)"
          f" | {pct(hit, len(results))} (± {wilson_halfwidth(hit, len(results)):.1f}) |")
    print(f"\n± is the 95% Wilson half-width of the share, in percentage points. {no_ci} fresh experiments "
          "were advised fewer than 6 runs and have no interval: counted as not within.")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bootbench", required=True, help="the bootbench binary to measure")
    ap.add_argument("--experiments", type=int, default=1000, help="experiments per cell (default 1000)")
    ap.add_argument("--quick", action="store_true", help="a smoke run: 40 experiments per cell")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--scratch", default="/var/tmp", help="where the temporary run files go")
    ap.add_argument("--adaptive", action="store_true", help="the stopping rule of runs = { min, max } instead")
    ap.add_argument("--noise", type=float, default=0.03, help="--adaptive: boot-to-boot noise (default 0.03)")
    ap.add_argument("--min", type=int, default=6, help="--adaptive: runs.min (default 6)")
    ap.add_argument("--max", type=int, default=20, help="--adaptive: runs.max (default 20)")
    ap.add_argument("--precision", type=float, nargs="+", default=[0.04, 0.05],
                    help="--adaptive: precision targets, each evaluated on the same experiments")
    ap.add_argument("--repeat", type=int, default=1,
                    help="iterations per boot (repeat = N): then only the coverage of the two-level "
                         "interval, at 3%% boot-to-boot noise")
    ap.add_argument("--within", type=float, default=0.03, help="--repeat: noise within a boot (default 0.03)")
    ap.add_argument("--lab", action="store_true", help="pooled verdicts of A/A labs instead")
    ap.add_argument("--hosts", type=int, default=2, help="--lab: machines per lab (default 2)")
    ap.add_argument("--lab-runs", type=int, nargs="+", default=[3, 8],
                    help="--lab: runs per target per machine, each a cell (default 3 8)")
    ap.add_argument("--plan-from", action="store_true", help="the advice of plan --from instead")
    ap.add_argument("--pilot-runs", type=int, default=4, help="--plan-from: the pilot's runs (default 4)")
    ap.add_argument("--pilot-repeat", type=int, default=3, help="--plan-from: the pilot's repeat (default 3)")
    args = ap.parse_args()
    experiments = 40 if args.quick else args.experiments
    bootbench = os.path.abspath(args.bootbench)
    if not os.access(bootbench, os.X_OK):
        sys.exit(f"not an executable: {bootbench}")
    if args.adaptive:
        return main_adaptive(args, bootbench)
    if args.lab:
        return main_lab(args, bootbench)
    if args.plan_from:
        return main_plan(args, bootbench)

    noises = NOISES if args.repeat <= 1 else (0.03,)
    all_cells = cells() if args.repeat <= 1 else [(0.03, n, r) for n in COVERAGE_RUNS for r in COVERAGE_RATIOS]
    scratch = tempfile.mkdtemp(prefix="statsim-", dir=args.scratch)
    # a private copy: a rebuild of the original during the run must not
    # change (or briefly remove) the program measured
    bootbench = shutil.copy2(bootbench, os.path.join(scratch, "bootbench"))
    tasks = [(bootbench, scratch, ci, i, args.seed, cell, args.repeat, args.within)
             for ci, cell in enumerate(all_cells) for i in range(experiments)]
    results = {cell: [] for cell in all_cells}
    start = time.monotonic()
    try:
        with multiprocessing.Pool(args.workers) as pool:
            for done, (ci, out) in enumerate(pool.imap(simulate, tasks, chunksize=8), 1):
                results[all_cells[ci]].append(out)
                if done % 2000 == 0:
                    print(f"  {done}/{len(tasks)} reports, {time.monotonic() - start:.0f} s",
                          file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    wall = time.monotonic() - start

    print(f"`bootbench report` on {len(tasks)} synthetic experiments ({experiments} per cell, "
          f"{len(METRICS)} independent log-normal metrics each, seed {args.seed}, "
          f"{args.workers} workers): wall {wall:.0f} s ({wall / 60:.1f} min)\n")
    if args.repeat > 1:
        print(f"### Coverage of the two-level 95% interval: {args.repeat} iterations per boot, "
              f"{args.within:.0%} noise within a boot\n")
        print(coverage_table(results, noises) + "\n")
        return 0
    print("### A/A: both targets from the same distribution\n")
    print(aa_table(results, experiments) + "\n")
    print("± is the 95% Wilson half-width of the any-verdict rate, in percentage points.\n")
    print("### Power: the subject truly better by the ratio on every metric\n")
    print(power_table(results) + "\n")
    print("### Coverage of the 95% interval\n")
    print(coverage_table(results) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
