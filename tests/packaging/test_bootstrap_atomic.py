#!/usr/bin/env python3
"""./bootstrap on an ostree-booted host builds in a toolbox, never on the host.

Runs the real bootstrap script with stand-in `toolbox`, `distrobox` and
`podman` programs that record their arguments, and a run dir holding
`ostree-booted`: what the user sees and what would run, without a container.
usage: test_bootstrap_atomic.py BOOTSTRAP
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


class AtomicBootstrap(unittest.TestCase):
    def setUp(self):
        self.tmp = pathlib.Path(tempfile.mkdtemp(prefix="bootstrap-atomic-"))
        self.run_dir = self.tmp / "run"
        self.run_dir.mkdir()
        (self.run_dir / "ostree-booted").touch()
        (self.tmp / "os-release").write_text('NAME="Fedora Linux"\nVERSION_ID=41\n')
        self.bin = self.tmp / "bin"
        self.bin.mkdir()
        self.calls = self.tmp / "calls"

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def tool(self, name, body=RECORDER):
        path = self.bin / name
        path.write_text(body)
        path.chmod(0o755)

    def bootstrap(self, *args):
        env = dict(os.environ, PATH=f"{self.bin}:/usr/bin:/bin", CALLS=str(self.calls),
                   BOOTBENCH_RUN_DIR=str(self.run_dir), BOOTBENCH_OS_RELEASE=str(self.tmp / "os-release"))
        env.pop("BOOTBENCH_WERROR", None)
        r = subprocess.run(["bash", BOOTSTRAP, *args], env=env, capture_output=True, text=True, timeout=60)
        calls = self.calls.read_text().splitlines() if self.calls.exists() else []
        return r, calls

    def test_toolbox_is_created_then_builds(self):
        self.tool("toolbox")
        self.tool("podman", RECORDER + "exit 1\n")  # no such container yet
        r, calls = self.bootstrap()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(calls, ["podman container exists bootbench-build-41",
                                 "toolbox create --assumeyes --release 41 bootbench-build-41",
                                 "toolbox run --container bootbench-build-41 env BOOTBENCH_WERROR=0 ./bootstrap"])
        self.assertEqual(r.stdout.splitlines(), [
            "bootstrap: this host boots an ostree deployment: nothing is installed on it;",
            "bootstrap: building inside the container bootbench-build-41 (Fedora 41) instead",
            "bootstrap: + toolbox create --assumeyes --release 41 bootbench-build-41",
            "bootstrap: + toolbox run --container bootbench-build-41 env BOOTBENCH_WERROR=0 ./bootstrap",
            "bootstrap: built build/bootbench; install it for every deployment (/usr/local is /var/usrlocal here):",
            "  sudo install -D -m 0755 build/bootbench /usr/local/bin/bootbench"])

    def test_an_existing_toolbox_is_reused(self):
        self.tool("toolbox")
        self.tool("podman")  # exists: exit 0
        r, calls = self.bootstrap()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertNotIn("toolbox create --assumeyes --release 41 bootbench-build-41", calls)
        self.assertEqual(calls[-1], "toolbox run --container bootbench-build-41 env BOOTBENCH_WERROR=0 ./bootstrap")

    def test_tests_flag_goes_into_the_toolbox(self):
        self.tool("toolbox")
        self.tool("podman")
        r, calls = self.bootstrap("--tests")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(calls[-1], "toolbox run --container bootbench-build-41 env BOOTBENCH_WERROR=0 ./bootstrap --tests")

    def test_distrobox_when_there_is_no_toolbox(self):
        self.tool("distrobox")
        self.tool("podman", RECORDER + "exit 1\n")
        r, calls = self.bootstrap()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(calls[1:], [
            "distrobox create --yes --name bootbench-build-41 "
            "--image registry.fedoraproject.org/fedora-toolbox:41",
            "distrobox enter bootbench-build-41 -- env BOOTBENCH_WERROR=0 ./bootstrap"])

    def test_a_failed_build_in_the_toolbox_fails_bootstrap(self):
        self.tool("toolbox", RECORDER + 'case "$1" in run) exit 3;; esac\n')
        self.tool("podman")
        r, _ = self.bootstrap()
        self.assertEqual(r.returncode, 3)
        self.assertNotIn("install it for every deployment", r.stdout)

    def test_neither_toolbox_nor_distrobox(self):
        r, calls = self.bootstrap()
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stderr, "bootstrap: neither toolbox nor distrobox found; "
                                   "every Fedora Atomic image ships toolbox\n")
        self.assertEqual(calls, [])

    def test_no_release_in_os_release(self):
        (self.tmp / "os-release").write_text('NAME="Something"\n')
        self.tool("toolbox")
        r, calls = self.bootstrap()
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stderr, "bootstrap: no VERSION_ID in os-release: cannot pick a toolbox release\n")
        self.assertEqual(calls, [])

    def test_centos_stream_builds_in_a_centos_toolbox(self):
        (self.tmp / "os-release").write_text('NAME="CentOS Stream"\nID="centos"\nID_LIKE="rhel fedora"\n'
                                              'VERSION_ID="10"\n')
        self.tool("toolbox")
        self.tool("podman", RECORDER + "exit 1\n")
        r, calls = self.bootstrap()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(calls, ["podman container exists bootbench-build-centos-10",
                                 "toolbox create --assumeyes --image quay.io/toolbx-images/centos-toolbox:stream10 "
                                 "bootbench-build-centos-10",
                                 "toolbox run --container bootbench-build-centos-10 env BOOTBENCH_WERROR=0 ./bootstrap"])
        self.assertEqual(r.stdout.splitlines()[1], "bootstrap: building inside the container bootbench-build-centos-10 "
                                                   "(CentOS Stream 10) instead")

    def test_rhel_builds_in_toolbox_rhel_distro(self):
        (self.tmp / "os-release").write_text('NAME="Red Hat Enterprise Linux"\nID="rhel"\nID_LIKE="fedora"\n'
                                              'VERSION_ID="9.4"\n')
        self.tool("toolbox")
        self.tool("podman", RECORDER + "exit 1\n")
        r, calls = self.bootstrap()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(calls[1], "toolbox create --assumeyes --distro rhel --release 9.4 bootbench-build-rhel-9.4")

    def test_rhel_with_distrobox_uses_the_ubi_toolbox_image(self):
        (self.tmp / "os-release").write_text('ID="rhel"\nVERSION_ID="10.0"\n')
        self.tool("distrobox")
        self.tool("podman", RECORDER + "exit 1\n")
        r, calls = self.bootstrap()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(calls[1], "distrobox create --yes --name bootbench-build-rhel-10.0 "
                                   "--image registry.access.redhat.com/ubi10/toolbox:10.0")

    def test_another_el_release_is_refused_with_why(self):
        (self.tmp / "os-release").write_text('ID="almalinux"\nID_LIKE="rhel centos fedora"\nVERSION_ID="10.0"\n')
        self.tool("toolbox")
        self.tool("podman")
        r, calls = self.bootstrap()
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stderr, "bootstrap: this host is almalinux 10.0, like rhel centos fedora: no toolbox "
                                   "image of exactly this release is known, and a binary built on another release "
                                   "may not load here. Create a container of this release yourself (toolbox create "
                                   "--image IMAGE) and run ./bootstrap inside it\n")
        self.assertEqual(calls, [])


if __name__ == "__main__":
    BOOTSTRAP = sys.argv.pop(1)
    unittest.main(verbosity=2)
