#!/usr/bin/env python3
"""Writes a results folder whose chart is hard to lay out: ratios from 0.01x
to 18x, a metric with a long name, 3 runs against 7 (no interval) and 7
against 7 (an interval), for the layout check in html_chromium.sh.

    layout_runs.py FOLDER
"""
import json
import pathlib
import sys

# key, unit, better, baseline value, subject factor
METRICS = [("sched_pipe_usecs_op", "us/op", "lower", 7.97, 0.01),
           ("sysbench_events", "events", "higher", 57000, 17.93),
           ("a_metric_with_a_rather_long_name_that_a_plugin_made_up_total_seconds", "s", "lower", 3.0, 1.02),
           ("schbench_p99_us", "us", "lower", 10700, 0.5)]


def run_doc(run_id, target, index, subject):
    metrics = {}
    for key, unit, better, centre, factor in METRICS:
        value = centre * (factor if subject else 1) * (1 + 0.01 * ((index * 7) % 5 - 2))
        metrics[key] = {"value": round(value, 6), "unit": unit, "better": better, "bench": "b"}
    t = f"2026-07-01T{index:02d}:00:00+00:00"
    return {"schema": "bootbench-run/1", "experiment": "layout", "run": run_id, "target": target,
            "attempt": 1, "started_at": t, "finished_at": t, "status": "ok", "failure": "",
            "deployment": {"stateroot": "default", "checksum": "%064x" % index, "serial": 0,
                           "origin": "ostree-image-signed:docker://ghcr.io/example/" + target, "version": "44"},
            "environment": {"kernel_release": "7.0.8", "cpu_model": "AMD Ryzen 5 7640U", "nproc": 12},
            "conditions": [], "benches": [{"name": "b", "kind": "command", "argv": ["b"], "exit_status": 0,
                                           "wall_s": 1.0, "status": "ok", "reason": "", "log": "b"}],
            "metrics": metrics, "missing": {}}


def main():
    folder = pathlib.Path(sys.argv[1]) / "runs"
    folder.mkdir(parents=True)
    index = 0
    for target, count, subject in (("stock", 7, False), ("patched-with-a-long-target-name", 7, True),
                                   ("third", 3, True)):
        for i in range(1, count + 1):
            index += 1
            doc = run_doc(f"{target}-{i}", target, index, subject)
            (folder / f"{target}-{i}.json").write_text(json.dumps(doc))


if __name__ == "__main__":
    main()
