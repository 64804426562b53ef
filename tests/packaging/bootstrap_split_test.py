#!/usr/bin/env python3
"""./bootstrap installs what building and running bootbench needs, and only
with --tests what only the tests need (issue 34: README's first command
waited for a browser and Ansible).

Runs the real script, copied into a folder of its own, with stand-in
apt-get, dpkg-query, dnf, rpm, sudo and meson that record their arguments
and find nothing installed: the exact packages each command would install,
on Debian and on Fedora, without installing anything.
usage: bootstrap_split_test.py BOOTSTRAP
"""
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import unittest

BOOTSTRAP = None
RECORDER = '#!/bin/sh\necho "$(basename "$0") $*" >> "$CALLS"\n'
NOT_INSTALLED = RECORDER + "exit 1\n"
# What only the tests use (tests/*/meson.build and the scripts they run):
# none of it may be in the first command's list.
TEST_ONLY = {
    "debian": {"ostree", "chromium", "podman", "runc", "scdoc", "man-db", "bash-completion", "rpm",
               "ansible-core", "ansible-lint", "dbus-daemon", "openssl", "mmdebstrap", "qemu-system-x86"},
    "fedora": {"ostree", "chromium", "podman", "scdoc", "man-db", "bash-completion", "rpm-build",
               "ansible-core", "ansible-lint", "dbus-daemon", "openssl", "mmdebstrap", "qemu-system-x86"},
}
# What the demo runs: the build chain, the libraries, the benches' tools.
DEMO = {
    "debian": {"meson", "ninja-build", "g++", "libostree-dev", "libcurl4-openssl-dev", "linux-perf", "sysbench",
               "stress-ng"},
    "fedora": {"meson", "ninja-build", "gcc-c++", "ostree-devel", "libcurl-devel", "perf", "sysbench",
               "stress-ng"},
}


class BootstrapSplit(unittest.TestCase):
    def setUp(self):
        self.tmp = pathlib.Path(tempfile.mkdtemp(prefix="bootstrap-split-"))
        self.src = self.tmp / "src"
        self.src.mkdir()
        shutil.copy(BOOTSTRAP, self.src / "bootstrap")
        self.bin = self.tmp / "bin"
        self.bin.mkdir()
        self.calls = self.tmp / "calls"
        self.tool("sudo", '#!/bin/sh\nexec "$@"\n')
        self.tool("meson")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def tool(self, name, body=RECORDER):
        path = self.bin / name
        path.write_text(body)
        path.chmod(0o755)

    def installed(self, distro, *args):
        if distro == "debian":
            self.tool("apt-get")
            self.tool("dpkg-query", NOT_INSTALLED)
        else:
            self.tool("dnf")
            self.tool("rpm", NOT_INSTALLED)
        run_dir = self.tmp / "run"  # no ostree-booted: not an Atomic host
        run_dir.mkdir(exist_ok=True)
        # only the stand-ins and the few programs the script runs: never this host's apt-get or dnf
        env = dict(os.environ, PATH=f"{self.bin}:{self.shell_dir()}", CALLS=str(self.calls),
                   BOOTBENCH_RUN_DIR=str(run_dir))
        env.pop("BOOTBENCH_WERROR", None)
        r = subprocess.run(["bash", str(self.src / "bootstrap"), *args], env=env, capture_output=True, text=True,
                           timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        calls = self.calls.read_text().splitlines()
        self.calls.unlink()
        verb = "apt-get install" if distro == "debian" else "dnf install"
        lines = [c for c in calls if c.startswith(verb)]
        self.assertEqual(len(lines), 1, calls)
        return {w for w in lines[0].split() if not w.startswith("-")} - set(verb.split()), calls

    def shell_dir(self):
        # dirname, id, grep, basename and bash, without apt-get or dnf beside them
        tools = self.tmp / "tools"
        if not tools.exists():
            tools.mkdir()
            for t in ("bash", "dirname", "id", "grep", "basename", "env", "sh", "cat"):
                os.symlink(shutil.which(t), tools / t)
        return tools

    def check(self, distro):
        first, calls = self.installed(distro)
        self.assertEqual(first & TEST_ONLY[distro], set(), "the first command installs test-only packages")
        self.assertEqual(DEMO[distro] - first, set(), "the first command misses what the demo runs")
        self.assertIn("meson compile -C build bootbench", calls)
        with_tests, _ = self.installed(distro, "--tests")
        self.assertEqual(with_tests - first,
                         TEST_ONLY[distro] - {"mmdebstrap", "qemu-system-x86"},
                         "--tests adds exactly what only the tests need")
        self.assertTrue(first <= with_tests)

    def test_debian(self):
        self.check("debian")

    def test_fedora(self):
        self.check("fedora")

    def test_an_unknown_argument_is_refused_with_the_usage(self):
        self.tool("apt-get")
        env = dict(os.environ, PATH=f"{self.bin}:{self.shell_dir()}", CALLS=str(self.calls))
        r = subprocess.run(["bash", str(self.src / "bootstrap"), "--test"], env=env, capture_output=True, text=True,
                           timeout=60)
        self.assertFalse(self.calls.exists(), "nothing is run")
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stderr, "bootstrap: unknown argument '--test'; usage: ./bootstrap [--tests]\n")


if __name__ == "__main__":
    BOOTSTRAP = sys.argv.pop(1)
    unittest.main(verbosity=2)
