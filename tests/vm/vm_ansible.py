"""The ansible scenario's controller: this machine drives the experiment in
the guest over ssh with the collection's playbook, as a lab's controller
drives a laptop (issue 14).

The guest's only network is qemu's user network, restricted (no route out)
and reached through one forwarded port on this machine's loopback. Once the
guest's first boot is ready (the tools image imported), the controller runs
`ansible-playbook ansible/playbooks/experiment.yml` against it: plan, doctor,
copy, `bootbench start` (which reboots the guest), the wait across the
guest's own reboots, the fetch of the results and the report here. Then it
leaves the guest idle (`vm-guest idle`: the idle trap, then power off); when
the playbook failed, it powers the guest off over ssh. Either ends qemu.
"""
import re
import socket
import subprocess
import threading
import time
from pathlib import Path

READY = "BOOTBENCH-VM kickoff: ready for ansible"
SSH_UP_LIMIT_S = 180
HOST = "vm"
# The role's "Say how the wait went" line.
WAITED = re.compile(r"after (\d+) status checks? the host did not answer")


def free_port():
    """A loopback port nothing listens on now (qemu binds it next)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_key(work):
    """A key pair for this run only; returns (private, public)."""
    key = Path(work) / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "bootbench-vm", "-f", str(key)],
                   check=True)
    return key, Path(str(key) + ".pub")


def qemu_nic(port):
    """The guest's one network: qemu's user network, no route out of it
    (restrict=on), the guest's ssh on 127.0.0.1:port of this machine."""
    return ["-nic", f"user,model=virtio-net-pci,restrict=on,hostfwd=tcp:127.0.0.1:{port}-:22"]


SSH_OPTIONS = "-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o ConnectTimeout=30"


def inventory(port, key):
    # minbase has no sudo: root becomes root with su, which asks nothing.
    # Under TCG on a busy machine sshd may take over 10 s to greet, and a
    # task's connection is tried again (ansible_ssh_retries) as on a slow host.
    return (f"[lab]\n{HOST} ansible_host=127.0.0.1 ansible_port={port} ansible_user=root "
            f"ansible_ssh_private_key_file={key} ansible_ssh_common_args='{SSH_OPTIONS}' ansible_ssh_retries=3 "
            "ansible_python_interpreter=/usr/bin/python3 ansible_become_method=su\n")


class Controller(threading.Thread):
    """Runs beside qemu: waits for the guest, runs the playbook (its lines go
    to the console log as "HARNESS ansible: ..."), then leaves the guest idle
    (or powers it off when the playbook failed)."""

    def __init__(self, work, port, key, bootbench, root, console, log):
        super().__init__(daemon=True)
        self.work, self.port, self.key = Path(work), port, key
        self.bootbench, self.root, self.console, self.log = bootbench, Path(root), console, log
        self.rc = None
        self.error = None
        self.output = []
        self.seconds = 0.0

    def ssh(self, *cmd, timeout=60):
        argv = ["ssh", *SSH_OPTIONS.split(), "-i", str(self.key), "-p", str(self.port), "root@127.0.0.1", *cmd]
        return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)

    def wait_for_ready(self, deadline):
        while not self.console.has(re.escape(READY)):
            if time.monotonic() > deadline:
                raise RuntimeError(f"the guest never printed '{READY}'")
            time.sleep(1)
        end = time.monotonic() + SSH_UP_LIMIT_S
        while True:
            try:
                if self.ssh("true", timeout=30).returncode == 0:
                    return
            except subprocess.TimeoutExpired:
                pass
            if time.monotonic() > end:
                raise RuntimeError(f"no ssh into the guest on 127.0.0.1:{self.port} within {SSH_UP_LIMIT_S} s")
            time.sleep(2)

    def playbook(self):
        (self.work / "inventory").write_text(inventory(self.port, self.key))
        env = {"ANSIBLE_NOCOWS": "1", "ANSIBLE_RETRY_FILES_ENABLED": "0", "ANSIBLE_FORCE_COLOR": "0",
               "ANSIBLE_HOME": str(self.work / "ansible-home"), "ANSIBLE_LOCAL_TEMP": str(self.work / "ansible-tmp"),
               "PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "HOME": str(self.work), "LANG": "C.UTF-8"}
        argv = ["ansible-playbook", "-i", str(self.work / "inventory"),
                str(self.root / "ansible/playbooks/experiment.yml"),
                "-e", f"experiment={self.root / 'tests/vm/guest/experiment.toml'}",
                "-e", f"bootbench_binary={self.bootbench}", "-e", f"bootbench_results={self.work / 'lab'}",
                # plan's estimate assumes 90 s a boot; a TCG boot on a busy machine takes 2-3 min
                "-e", "bootbench_poll=5", "-e", "bootbench_timeout=1500"]
        self.log("ansible: " + " ".join(argv))
        t = time.monotonic()
        with open(self.work / "ansible.log", "w") as out:
            proc = subprocess.Popen(argv, env=env, cwd=self.work, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True)
            for line in proc.stdout:
                out.write(line)
                self.output.append(line.rstrip("\n"))
                if line.strip():
                    self.console.add(f"HARNESS ansible: {line.rstrip()}".encode())
            self.rc = proc.wait()
        self.seconds = time.monotonic() - t
        self.log(f"ansible-playbook exited {self.rc} after {self.seconds:.0f} s")

    def last_command(self, said, argv, ok=(0,)):
        """The controller's last command in the guest (`said` names it in the
        failure); when it fails, the scenario stops saying why."""
        try:
            r = self.ssh(*argv, timeout=60)
            if r.returncode in ok:
                return None
            return f"ssh {said} exited {r.returncode}: {r.stderr.strip()}"
        except subprocess.TimeoutExpired:
            return f"ssh {said} did not return in 60 s"

    def power_off(self):
        # 255: the connection went down with the guest
        reason = self.last_command("systemctl poweroff", ["systemctl", "poweroff"], ok=(0, 255))
        if reason:
            self.console.stop = f"the guest could not be powered off over ssh ({reason})"

    def leave_idle(self):
        """The controller is done: the guest's idle trap, outside this ssh
        session (which it ends), then the guest powers itself off."""
        reason = self.last_command("systemd-run vm-guest idle",
                                   ["systemd-run", "--no-block", "--unit=bootbench-vm-idle",
                                    "/usr/libexec/bootbench-vm/vm-guest", "idle"])
        if reason:
            self.console.stop = f"the guest could not be left idle ({reason})"

    def run(self):
        try:
            self.wait_for_ready(time.monotonic() + 900)
            self.playbook()
        except (RuntimeError, OSError) as e:
            self.error = str(e)
            self.log(f"ansible: {e}")
            self.console.stop = f"the controller gave up: {e}"
            return
        if self.rc == 0:
            self.leave_idle()
        else:
            self.power_off()

    def waited_unreachable(self):
        """How many status checks the wait made while the guest was down."""
        for line in self.output:
            m = WAITED.search(line)
            if m:
                return int(m.group(1))
        return None
