#!/usr/bin/env python3
"""How `bootbench bisect` decides, on simulated image histories (issue 30):
the real decision core (core/bisect: the classifier, the step choice, the
final pair's confirmation) driven by build/bench/bisect-sim, which prints one
JSON line per bisection. Nothing of the logic is in this script: it only
counts.

Each history has --builds builds, good first and bad last. Every boot
measures a lower-is-better metric around 100 with boot-to-boot noise
(log-normal exp(N(0, s)), and again normal 1 + N(0, s)); from a culprit drawn
uniformly among builds 1..builds-1 on, the centre is (1 + regression) times
higher. An A/A history has no culprit. The targets (issue 30): the right
build named in at least 95% of the regressions, a wrong one in at most 2%,
and a culprit named in at most 2% of the A/A histories.

    ninja -C build bench/bisect-sim
    bench/bisect_sim.py build/bench/bisect-sim [--count 1000] [--seed 1]
                        [--builds 16] [--noise 0.03] [--regression 0.05]
                        [--threshold 0.05] [-- RULE OPTIONS for bisect-sim]

Seeded: the same arguments print the same table. Exit 1 when a target is
missed.
"""
import argparse
import json
import statistics
import subprocess
import sys


def run(sim, args, extra):
    cmd = [sim, "--count", str(args.count), "--seed", str(args.seed), "--builds", str(args.builds),
           "--noise", str(args.noise), "--regression", str(args.regression),
           "--threshold", str(args.threshold)] + extra
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def p90(values):
    v = sorted(values)
    return v[int(0.9 * (len(v) - 1))]


def summary(lines):
    n = len(lines)
    named = [x for x in lines if x["outcome"] == "culprit"]
    right = sum(1 for x in named if x["named"] == x["culprit"])
    outcomes = {}
    for x in lines:
        outcomes[x["outcome"]] = outcomes.get(x["outcome"], 0) + 1
    boots = [x["boots"] for x in lines]
    return {"n": n, "right": right / n, "wrong": (len(named) - right) / n, "named": len(named) / n,
            "outcomes": outcomes, "median": statistics.median(boots), "p90": p90(boots)}


def pct(x):
    return f"{100 * x:.1f}%"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sim")
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--builds", type=int, default=16)
    ap.add_argument("--noise", type=float, default=0.03)
    ap.add_argument("--regression", type=float, default=0.05)
    ap.add_argument("--threshold", type=float, default=0.05)
    ap.add_argument("extra", nargs="*", help="rule options passed to bisect-sim (after --)")
    args = ap.parse_args()
    print(f"{args.count} bisections per row, {args.builds} builds, {pct(args.noise)} noise, "
          f"true regression {pct(args.regression)}, threshold {pct(args.threshold)}, seed {args.seed}")
    print()
    print("| history | noise | right build | wrong build | culprit named | other outcomes | boots median | boots p90 |")
    print("| --- | --- | ---: | ---: | ---: | --- | ---: | ---: |")
    missed = []
    for kind in ("lognormal", "normal"):
        noise = ["--normal"] if kind == "normal" else []
        for history, flags in (("regression", []), ("A/A", ["--aa"])):
            s = summary(run(args.sim, args, flags + noise + args.extra))
            others = ", ".join(f"{k} {v}" for k, v in sorted(s["outcomes"].items()) if k != "culprit")
            right = pct(s["right"]) if history == "regression" else "-"
            print(f"| {history} | {kind} | {right} | {pct(s['wrong']) if history == 'regression' else '-'} | "
                  f"{pct(s['named'])} | {others} | {s['median']:g} | {s['p90']:g} |")
            if history == "regression" and (s["right"] < 0.95 or s["wrong"] > 0.02):
                missed.append(f"{kind} regression: right {pct(s['right'])}, wrong {pct(s['wrong'])}")
            if history == "A/A" and s["named"] > 0.02:
                missed.append(f"{kind} A/A: a culprit named in {pct(s['named'])}")
    for m in missed:
        print(f"target missed: {m}", file=sys.stderr)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
