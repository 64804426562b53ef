#!/usr/bin/env python3
"""[tools] image: benches run inside a real container, with real podman.

Builds a tiny tools image from this host's /bin/sh and sleep (with their
libraries) and a `perf` script that prints a marker and a captured perf
output; imports it (no registry); then runs the real bootbench: run-suite
with the image, a tool missing from the image, a bench that outlives its
timeout, the report, and plan's refusals.

podman on these development and CI machines (themselves containers) needs
the containers.conf below; users never need it. When podman cannot run a
container here at all, the test says why and is skipped (exit 77).
usage: test_tools_image.py BOOTBENCH TEST_DATA_DIR
"""
import json
import os
import pathlib
import pwd
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unittest

BOOTBENCH = DATA = None
# One name per test process: two checkouts testing on one machine share
# podman's store, and one's tearDown would remove the other's image.
IMAGE = f"localhost/bootbench-test-tools-{os.getpid()}:1"
# Only perf and a shell, as a tools image made for perf alone: no sleep.
BARE = f"localhost/bootbench-test-tools-bare-{os.getpid()}:1"
CONF = """[containers]
default_ulimits = []
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
"""
MARKER = "BOOTBENCH-TOOLS-MARKER: this perf ran in the tools image"


def podman(*args, check=True):
    return subprocess.run(["podman", *args], capture_output=True, text=True, check=check, timeout=300)


def libraries(program):
    out = subprocess.run(["ldd", program], capture_output=True, text=True, check=True).stdout
    return [w for line in out.splitlines() for w in line.split() if w.startswith("/")]


def import_root(root, tmp, image, programs):
    """Imports `root`, with `programs` and the libraries they link copied in
    (under both their real and their linked names), as the image `image`."""
    for program in programs:
        for path in [program, *libraries(program)]:
            real = pathlib.Path(path).resolve()
            for name in {real, pathlib.Path(path)}:
                dest = root / name.relative_to("/")
                dest.parent.mkdir(parents=True, exist_ok=True)
                if not dest.exists():
                    shutil.copy2(real, dest)
    with tarfile.open(tmp / "root.tar", "w") as tar:
        tar.add(root, arcname=".")
    podman("import", "--quiet", "--change", "ENV=PATH=/usr/bin:/bin", str(tmp / "root.tar"), image)


def build_image(tmp, image=IMAGE, programs=("/bin/sh", "/bin/sleep")):
    root = tmp / ("root-" + image.rsplit("/", 1)[-1].replace(":", "-"))
    perf = root / "usr/bin/perf"
    perf.parent.mkdir(parents=True, exist_ok=True)
    capture = (DATA / "perf_sched_pipe.txt").read_text().replace("'", "'\\''")
    counts = (DATA / "perf_stat_no_pmu.csv").read_text().replace("'", "'\\''")
    # `perf stat ... -o FILE ... -- CMD` writes a real perf's file and runs CMD, as perf does
    stat = ('if [ "$1" = stat ]; then\n  while [ "$1" != "--" ]; do [ "$1" = "-o" ] && out="$2"; shift; done\n'
            f"  shift\n  printf '%s' '{counts}' > \"$out\"\n  exec \"$@\"\nfi\n")
    perf.write_text(f"#!/bin/sh\n{stat}echo '{MARKER}'\nprintf '%s' '{capture}'\n")  # shell builtins only
    perf.chmod(0o755)
    import_root(root, tmp, image, list(programs))
    image_id, digest = podman("image", "inspect", "--format", "{{.Id}} {{.Digest}}", image).stdout.split()
    return f"{image_id}, {digest}", image_id


EXPERIMENT = """[experiment]
name = "tools-test"
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
loops = 2000
{extra}"""


class ToolsImage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = pathlib.Path(tempfile.mkdtemp(prefix="bootbench-tools-"))
        (cls.tmp / "containers.conf").write_text(CONF)
        os.environ["CONTAINERS_CONF"] = str(cls.tmp / "containers.conf")
        cls.described, cls.image_id = build_image(cls.tmp)
        # The tests run as root (podman's rootful store); a user's rootless
        # store is covered by the unit tests of the message text.
        graph_root = podman("info", "--format", "{{.Store.GraphRoot}}").stdout.strip()
        user = pwd.getpwuid(os.geteuid()).pw_name
        cls.store = f"root's store ({graph_root})" if os.geteuid() == 0 else \
            f"the rootless store of user {user} ({graph_root})"

    @classmethod
    def tearDownClass(cls):
        podman("rmi", "--force", IMAGE, BARE, check=False)
        shutil.rmtree(cls.tmp)

    def as_root(self):
        if os.geteuid() != 0:
            self.skipTest("the store messages checked here are root's; a user's are unit-tested")

    def bootbench(self, *args, env=None):
        return subprocess.run([BOOTBENCH, *args], capture_output=True, text=True, timeout=300,
                              env=env or os.environ)

    def experiment(self, name, image=IMAGE, extra=""):
        path = self.tmp / name
        path.write_text(EXPERIMENT.format(image=image, extra=extra))
        return str(path)

    def run_suite(self, name, extra="", target="a", image=IMAGE):
        out = self.tmp / (name + "-results")
        r = self.bootbench("run-suite", self.experiment(name + ".toml", image=image, extra=extra),
                           "--target", target, "--out", str(out))
        return r, out, json.loads((out / f"runs/{target}-1.json").read_text())

    def test_every_bench_runs_in_the_image_and_the_result_names_it(self):
        r, out, run = self.run_suite("ok")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(r.stdout.startswith("run a-1: ok (5 metrics, 0 missing)"), r.stdout)
        self.assertIn(MARKER, (out / "runs/a-1/perf-sched-pipe.stdout").read_text())
        self.assertEqual(run["environment"]["tools_image"], f"{IMAGE} (image {self.described})")
        self.assertEqual(run["benches"][0]["argv"], [
            "podman", "run", "--rm", "--replace", "--name", "bootbench-a-1-perf-sched-pipe", "--network=none",
            "--pid=host", "--ipc=host", "--privileged", self.image_id,
            "perf", "bench", "sched", "pipe", "-l", "2000"])
        self.assertEqual(run["metrics"]["sched_pipe_usecs_op"]["value"], 4.1485)
        self.assertEqual(self.run_suite("ok", target="b")[0].returncode, 0)
        report = self.bootbench("report", "--baseline", "a", str(out))
        self.assertEqual(report.returncode, 0, report.stderr)
        self.assertIn(f"tools {IMAGE} (image {self.described})", (out / "report.md").read_text())

    def test_counters_run_perf_stat_in_the_image_its_file_in_the_run_folder(self):
        # An image with perf and nothing else to run: bootbench's check that
        # perf can count must not need any other program (the VM's tools
        # image has no sleep: "Workload failed: No such file or directory").
        bare_id = build_image(self.tmp, BARE, ["/bin/sh"])[1]
        r, out, run = self.run_suite("counted", "counters = true\n", image=BARE)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertNotIn("counters unavailable", r.stderr)
        run_dir = str(out / "runs" / "a-1")
        self.assertEqual(run["benches"][0]["argv"], [
            "podman", "run", "--rm", "--replace", "--name", "bootbench-a-1-perf-sched-pipe", "--network=none",
            f"--volume={run_dir}:{run_dir}", "--pid=host", "--ipc=host", "--privileged", bare_id,
            "perf", "stat", "-x,", "-o", f"{run_dir}/perf-sched-pipe.perf-stat.csv", "-e",
            "cycles,instructions,context-switches,cpu-migrations,page-faults,cache-misses,branch-misses", "--",
            "perf", "bench", "sched", "pipe", "-l", "2000"])
        self.assertEqual(run["metrics"]["sched_pipe_usecs_op"]["value"], 4.1485)
        self.assertNotIn("context-switches", (out / "runs/a-1/perf-sched-pipe.stdout").read_text())
        counters = run["counters"][0]
        self.assertEqual(counters["bench"], "perf-sched-pipe")
        self.assertEqual({v["event"]: v["value"] for v in counters["values"]},
                         {"task-clock": 573.11, "context-switches": 129, "cpu-migrations": 0, "page-faults": 790})
        self.assertEqual(sorted(counters["unavailable"]), ["branch-misses", "cache-misses", "cycles", "instructions"])
        self.assertNotIn("failure", counters)

    def test_simulate_runs_every_arm_in_the_image(self):
        results = self.tmp / "simulated"
        r = self.bootbench("simulate", "--quick", "--results", str(results), self.experiment("sim.toml"))
        self.assertEqual(r.returncode, 0, r.stderr[-3000:])
        self.assertIn(f"tools image: {IMAGE} (image {self.described}) (every bench and the load run in it)\n",
                      r.stderr)
        for run in ["a-1", "b-1"]:
            self.assertIn(MARKER, (results / f"runs/{run}/attempt-1/perf-sched-pipe.stdout").read_text())
        self.assertIn(f"tools {IMAGE} (image {self.described})", (results / "report.md").read_text())

    def test_a_container_left_by_a_crash_does_not_stop_the_next_attempt(self):
        podman("create", "--name", "bootbench-a-1-perf-sched-pipe", IMAGE, "sh")  # what a power cut leaves
        self.addCleanup(podman, "rm", "--force", "--ignore", "bootbench-a-1-perf-sched-pipe", check=False)
        r, out, _ = self.run_suite("leftover")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(MARKER, (out / "runs/a-1/perf-sched-pipe.stdout").read_text())

    def test_a_tool_missing_from_the_image_is_named_with_the_image(self):
        r, _, run = self.run_suite("missing", '\n[[bench]]\nkind = "sysbench-threads"\nruntime_s = 1\n')
        self.assertEqual(r.returncode, 0, r.stderr)
        bench = run["benches"][1]
        self.assertEqual(bench["status"], "failed")
        self.assertEqual(bench["reason"], f"sysbench is not in the tools image {IMAGE}: add it to the image "
                                          "(containers/bench-tools/Containerfile has every bench's tool)")

    def test_a_bench_that_outlives_its_timeout_leaves_no_container(self):
        hang = ('\n[[bench]]\nkind = "command"\nname = "hang"\nargv = ["sleep", "60"]\ntimeout_s = 2\n'
                '[[bench.metric]]\nkey = "x"\nregex = "x ([0-9]+)"\nunit = "s"\nbetter = "lower"\n')
        self.addCleanup(podman, "rm", "--force", "--ignore", "bootbench-a-1-hang", check=False)
        r, _, run = self.run_suite("hang", hang)
        self.assertEqual(run["benches"][1]["status"], "timeout", r.stderr)
        self.assertIn("bootbench: container bootbench-a-1-hang stopped and removed", r.stderr)
        names = podman("ps", "--all", "--format", "{{.Names}}").stdout.split()
        self.assertNotIn("bootbench-a-1-hang", names)

    def test_a_removal_that_podman_gives_up_on_is_tried_again(self):
        # Seen under load: podman rm gives up waiting for conmon's exit file.
        wrapper, flag = self.tmp / "flaky-bin", self.tmp / "rm-failed-once"
        wrapper.mkdir(exist_ok=True)
        (wrapper / "podman").write_text(
            f'#!/bin/sh\nif [ "$1" = rm ] && [ ! -e {flag} ]; then touch {flag}; echo "Error: cannot remove '
            f'container: timed out waiting for file /run/libpod/exits/x: internal libpod error" >&2; exit 125; fi\n'
            f'exec {shutil.which("podman")} "$@"\n')
        (wrapper / "podman").chmod(0o755)
        hang = ('\n[[bench]]\nkind = "command"\nname = "hang"\nargv = ["sleep", "60"]\ntimeout_s = 2\n'
                '[[bench.metric]]\nkey = "x"\nregex = "x ([0-9]+)"\nunit = "s"\nbetter = "lower"\n')
        out = self.tmp / "flaky-results"
        self.addCleanup(podman, "rm", "--force", "--ignore", "bootbench-a-1-hang", check=False)
        env = dict(os.environ, PATH=f"{wrapper}:{os.environ['PATH']}")
        r = self.bootbench("run-suite", self.experiment("flaky.toml", extra=hang), "--target", "a", "--out", str(out),
                           env=env)
        self.assertTrue(flag.exists(), r.stderr)
        self.assertIn("bootbench: container bootbench-a-1-hang stopped and removed", r.stderr)
        self.assertNotIn("bootbench-a-1-hang", podman("ps", "--all", "--format", "{{.Names}}").stdout.split())

    def test_plan_refuses_an_image_that_is_not_here(self):
        self.as_root()
        r = self.bootbench("plan", self.experiment("absent.toml", image="localhost/no-such-tools:1"))
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stdout, "")
        self.assertEqual(r.stderr, "bootbench: error: the tools image localhost/no-such-tools:1 is not in "
                                   f"{self.store}, the store start uses: 'sudo podman pull localhost/no-such-tools:1', or build "
                                   "it ('sudo podman build -t localhost/no-such-tools:1 containers/bench-tools'); "
                                   "start pulls it by itself\n")

    def test_plan_without_podman(self):
        env = dict(os.environ, PATH=str(self.tmp / "no-podman-here"))
        r = self.bootbench("plan", self.experiment("nopodman.toml"), env=env)
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stderr, f"bootbench: error: [tools] image = \"{IMAGE}\" needs podman, which is not "
                                   "installed here: 'apt install podman' (Debian) or 'dnf install podman' "
                                   "(Fedora; Fedora Atomic images ship it), or set image = \"host\"\n")

    def test_plan_names_the_image_it_found_and_the_store(self):
        self.as_root()
        r = self.bootbench("plan", self.experiment("plan.toml"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(f"tools image: {IMAGE} (image {self.described}) (every bench and the load run in it)\n"
                      f"  in {self.store}, the store start uses\n", r.stdout)

    def test_doctor_says_which_store_it_looked_in(self):
        self.as_root()
        r = self.bootbench("doctor", "--json", self.experiment("doctor.toml"))
        check = [c for c in json.loads(r.stdout)["checks"] if c["check"] == "tools-image"][0]
        self.assertEqual(check["message"], f"{IMAGE} is in {self.store}, the store start uses")
        self.assertEqual(check["status"], "ok")


class UserStore(unittest.TestCase):
    """plan and doctor run by a user without sudo look in that user's
    rootless store, which sudo start never sees: they say so. Real rootless
    podman as `nobody`, with a home of its own under a temporary folder."""

    @classmethod
    def setUpClass(cls):
        if os.geteuid() != 0 or not shutil.which("runuser"):
            raise unittest.SkipTest("switching to another user needs root and runuser")
        cls.tmp = pathlib.Path(tempfile.mkdtemp(prefix="bootbench-userstore-"))
        cls.tmp.chmod(0o755)
        cls.home = cls.tmp / "home"
        cls.home.mkdir()
        shutil.chown(cls.home, "nobody")
        (cls.tmp / "containers.conf").write_text(CONF)
        cls.exp = cls.tmp / "user.toml"
        cls.exp.write_text(EXPERIMENT.format(image=IMAGE, extra=""))
        cls.env = dict(os.environ, HOME=str(cls.home), XDG_RUNTIME_DIR=str(cls.home / "run"),
                       XDG_CONFIG_HOME=str(cls.home / ".config"), XDG_DATA_HOME=str(cls.home / ".local/share"),
                       CONTAINERS_CONF=str(cls.tmp / "containers.conf"))
        graph = cls.as_nobody("podman", "info", "--format", "{{.Store.GraphRoot}}")
        if graph.returncode != 0:
            shutil.rmtree(cls.tmp)
            raise unittest.SkipTest("rootless podman cannot run here: " + graph.stderr.strip()[-300:])
        cls.store = f"the rootless store of user nobody ({graph.stdout.strip()})"

    @classmethod
    def tearDownClass(cls):
        cls.as_nobody("podman", "system", "reset", "--force")
        shutil.rmtree(cls.tmp)

    @classmethod
    def as_nobody(cls, *args):
        return subprocess.run(["runuser", "-u", "nobody", "--", *args], capture_output=True, text=True,
                              timeout=300, env=cls.env, cwd=cls.tmp)

    def test_an_image_only_in_roots_store_is_not_found_by_a_user_and_says_where_it_looked(self):
        r = self.as_nobody(BOOTBENCH, "plan", str(self.exp))
        self.assertEqual(r.returncode, 2, r.stdout)
        self.assertEqual(r.stderr, f"bootbench: error: the tools image {IMAGE} is not in {self.store}; sudo start "
                                   "looks in root's store, which this check as nobody cannot see: 'sudo podman "
                                   f"pull {IMAGE}', or build it ('sudo podman build -t {IMAGE} "
                                   "containers/bench-tools'), or run this with sudo to look there\n")

    def test_an_image_in_the_users_store_is_one_sudo_start_does_not_see(self):
        tar = self.tmp / "user-root.tar"
        with tarfile.open(tar, "w") as t:
            t.add(os.devnull, arcname="./marker")
        tar.chmod(0o644)
        made = self.as_nobody("podman", "import", "--quiet", str(tar), IMAGE)
        self.assertEqual(made.returncode, 0, made.stderr)
        self.addCleanup(self.as_nobody, "podman", "rmi", "--force", IMAGE)
        r = self.as_nobody(BOOTBENCH, "plan", str(self.exp))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(f"  in {self.store}; sudo start looks in root's store, not in this one: put the image there "
                      f"with 'sudo podman build -t {IMAGE} containers/bench-tools' or 'podman save {IMAGE} | sudo "
                      "podman load'\n", r.stdout)
        doctor = self.as_nobody(BOOTBENCH, "doctor", "--json", str(self.exp))
        check = [c for c in json.loads(doctor.stdout)["checks"] if c["check"] == "tools-image"][0]
        self.assertEqual(check, {"check": "tools-image", "status": "warn",
                                 "message": f"{IMAGE} is in {self.store}; sudo start looks in root's store, not in "
                                            "this one",
                                 "fix": f"put it in root's store: 'sudo podman build -t {IMAGE} "
                                        f"containers/bench-tools' or 'podman save {IMAGE} | sudo podman load'"})


def podman_can_run_here():
    if not shutil.which("podman"):
        return "podman is not installed (./bootstrap installs it)"
    with tempfile.TemporaryDirectory() as d:
        conf = pathlib.Path(d) / "containers.conf"
        conf.write_text(CONF)
        env = dict(os.environ, CONTAINERS_CONF=str(conf))
        r = subprocess.run(["podman", "info"], capture_output=True, text=True, env=env, timeout=120)
        return "" if r.returncode == 0 else "podman info failed here: " + r.stderr.strip()[-300:]


if __name__ == "__main__":
    BOOTBENCH, DATA = os.path.abspath(sys.argv.pop(1)), pathlib.Path(sys.argv.pop(1))
    why = podman_can_run_here()
    if why:
        print("skipped: " + why)
        sys.exit(77)
    unittest.main(verbosity=2)
