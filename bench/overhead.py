#!/usr/bin/env python3
"""Does running a bench in the [tools] container perturb what it measures?

perf bench sched pipe, interleaved, three ways: directly on the host, in
the tools container as bootbench starts it (podman run --network=none
--ipc=host --privileged, then where podman runs crun on cgroup v2
--cgroups=disabled --pid=private: the bench's own cgroup; else --pid=host:
a cgroup of podman's), and through `bootbench run-suite` with [tools]
image. Prints the placement, the median us/op of each and the ratios to
direct; the goal is container/direct within 1.00 +- 0.02.

--cgroup2 runs the whole measurement in a private mount namespace with
cgroup2 mounted on /sys/fs/cgroup and podman on crun: on a host with cgroup
v1 controllers (hybrid mode, like these development machines) that is the
only way to reach bootbench's in-the-bench's-cgroup placement; the
container then stays in the caller's v1 cpu cgroup, as direct perf does.

Without --image it imports a local tools image made of this host's perf and
its libraries (no registry). On these container-based development machines
podman needs CONTAINERS_CONF (see tests/integration/test_tools_image.py);
this script sets it unless it is already set.

    bench/overhead.py --bootbench build/bootbench [--rounds 9] [--loops 200000] [--cpu N] [--cgroup2]
"""
import argparse
import json
import os
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests" / "integration"))
from test_tools_image import CONF, import_root  # noqa: E402  (one copy of the image recipe)

LOCAL_IMAGE = "localhost/bootbench-overhead-tools:1"


def local_image(tmp):
    import_root(tmp / "root", tmp, LOCAL_IMAGE, ["/usr/bin/perf"])
    return LOCAL_IMAGE


def us_per_op(text):
    m = re.search(r"([0-9.]+) usecs/op", text)
    if not m:
        raise SystemExit("no usecs/op in:\n" + text)
    return float(m.group(1))


PIN = []  # taskset -c CPU: both pipe ends on one CPU, as bench/measure_overhead does


# Direct perf in a session of its own, as bootbench starts every bench and
# conmon every container: with autogroup scheduling a session is a
# scheduling group, and perf left in this script's session would compete
# task by task with whatever else runs there (on a busy machine, 2x slower).
def direct(loops, image_id):
    argv = PIN + ["setsid", "-w", "perf", "bench", "sched", "pipe", "-l", str(loops)]
    return us_per_op(subprocess.run(argv, capture_output=True, text=True, check=True).stdout)


PLACEMENT = []  # bootbench's choice, from placement()


def placement():
    """The flags bootbench's ToolsImage.podman_args adds: the same test of podman info."""
    r = subprocess.run(["podman", "info", "--format", "{{.Host.OCIRuntime.Name}} {{.Host.CgroupsVersion}}"],
                       capture_output=True, text=True)
    if r.returncode == 0 and r.stdout.split() == ["crun", "v2"]:
        return ["--cgroups=disabled", "--pid=private"]
    return ["--pid=host"]


def in_cgroup2_namespace(argv):
    """Re-run argv (without --cgroup2) in a mount namespace where /sys/fs/cgroup is cgroup2, podman on crun."""
    conf = pathlib.Path(tempfile.mkdtemp(prefix="bootbench-overhead-conf-")) / "containers.conf"
    conf.write_text(CONF.replace('runtime = "runc"', 'runtime = "crun"'))
    script = 'mount --make-rprivate / && mount -t cgroup2 none /sys/fs/cgroup && exec "$@"'
    env = dict(os.environ, CONTAINERS_CONF=str(conf))
    rest = [x for x in argv if x != "--cgroup2"]
    return subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", sys.executable, *rest], env=env).returncode


def container(loops, image_id):
    argv = PIN + ["podman", "run", "--rm", "--network=none", *PLACEMENT, "--ipc=host", "--privileged", image_id,
            "perf", "bench", "sched", "pipe", "-l", str(loops)]
    return us_per_op(subprocess.run(argv, capture_output=True, text=True, check=True).stdout)


EXPERIMENT = """[experiment]
name = "overhead"
runs = 1
baseline = "a"
[[target]]
name = "a"
deployment = 0
[[target]]
name = "b"
deployment = 1
[conditions]
settle_s = 0
max_start_temp_c = 150.0
[tools]
image = "{image}"
[[bench]]
kind = "perf-sched-pipe"
loops = {loops}
"""


def through_bootbench(bootbench, tmp, image, loops, n):
    exp = tmp / "overhead.toml"
    exp.write_text(EXPERIMENT.format(image=image, loops=loops))
    out = tmp / f"results-{n}"
    subprocess.run(PIN + [bootbench, "run-suite", str(exp), "--target", "a", "--out", str(out)], check=True,
                   capture_output=True)
    run = json.loads((out / "runs/a-1.json").read_text())
    said = run["environment"].get("tools_image", "")
    if ("--cgroups=disabled" in PLACEMENT) != ("in the bench's cgroup" in said):
        raise SystemExit(f"bootbench placed the container otherwise than {PLACEMENT}: {said}")
    return run["metrics"]["sched_pipe_usecs_op"]["value"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bootbench", required=True)
    ap.add_argument("--image", help="a tools image with perf (default: one made from this host's perf)")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--loops", type=int, default=200000)
    ap.add_argument("--cpu", type=int, default=os.cpu_count() - 1,
                    help="pin all three to this CPU (default: the last; -1: no pinning)")
    ap.add_argument("--cgroup2", action="store_true",
                    help="measure in a mount namespace with cgroup2 on /sys/fs/cgroup and crun (see above)")
    a = ap.parse_args()
    if a.cgroup2:
        raise SystemExit(in_cgroup2_namespace(sys.argv))
    if a.cpu >= 0:
        PIN.extend(["taskset", "-c", str(a.cpu)])
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="bootbench-overhead-"))
    if "CONTAINERS_CONF" not in os.environ:
        (tmp / "containers.conf").write_text(CONF)
        os.environ["CONTAINERS_CONF"] = str(tmp / "containers.conf")
    image = a.image or local_image(tmp)
    image_id = subprocess.run(["podman", "image", "inspect", "--format", "{{.Id}}", image], check=True,
                              capture_output=True, text=True).stdout.strip()
    PLACEMENT.extend(placement())
    print(f"container placement: {' '.join(PLACEMENT)}; load {os.getloadavg()[0]:.1f}", flush=True)
    ways = {"direct": [], "container": [], "bootbench": []}
    for n in range(a.rounds):
        ways["direct"].append(direct(a.loops, image_id))
        ways["container"].append(container(a.loops, image_id))
        ways["bootbench"].append(through_bootbench(a.bootbench, tmp, image, a.loops, n))
        print(f"round {n + 1}: " + ", ".join(f"{k} {v[-1]:.3f}" for k, v in ways.items()), flush=True)
    med = {k: statistics.median(v) for k, v in ways.items()}
    ratios = {k: statistics.median(x / d for x, d in zip(v, ways["direct"])) for k, v in ways.items()}
    print(f"perf bench sched pipe -l {a.loops}, {a.rounds} interleaved rounds, median us/op: " +
          ", ".join(f"{k} {v:.3f}" for k, v in med.items()))
    print("median per-round ratio to direct: " + ", ".join(f"{k} {v:.3f}" for k, v in ratios.items()
                                                           if k != "direct"))
    shutil.rmtree(tmp)
    if not a.image:
        subprocess.run(["podman", "rmi", "--force", LOCAL_IMAGE], capture_output=True)


if __name__ == "__main__":
    main()
