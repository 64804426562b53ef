#!/usr/bin/env python3
"""End-to-end test of bootbench in a real virtual machine with real reboots.

    vm_test.py --scenario experiment|wrong-boot|power-cut|ansible|smoke|explain|bisect --bootbench BUILD/bootbench

Builds the image (build-image.sh), boots it with qemu (TCG) in ONE process:
the guest reboots itself through SeaBIOS and extlinux, which reads the
config ostree wrote. The harness only watches the serial console, enforces a
time limit and, after the guest powered off, reads the results out of the
disk image with debugfs and checks them. A guest that stalls is power-cut and
booted again (vm_cuts.py); the power-cut scenario cuts the power on purpose
at chosen moments. In the ansible scenario this machine drives the experiment
in the guest over ssh with the collection's playbook (vm_ansible.py).

Without a loop device (extlinux cannot be installed) the harness becomes the
bootloader: it reads ostree's BLS entries from the image and boots the
default one with -kernel, once per boot, and says so in the log.

Exit codes: 0 pass, 1 fail, 77 skip (the reason is printed).
Environment: KEEP=1 keeps the work dir; BOOTBENCH_VM_CACHE (root archive
cache, default /var/cache/bootbench-vm, "none" to disable);
BOOTBENCH_VM_WORKDIR (default: a new /var/tmp/bootbench-vm-<scenario>-XXXX per run).
"""
import argparse
import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import tempfile
import time
import socket
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import vm_checks  # noqa: E402
import vm_ansible  # noqa: E402
import vm_cuts  # noqa: E402
from vm_image import Image  # noqa: E402

SKIP = 77
MIRROR = "http://deb.debian.org/debian/dists/trixie/InRelease"
# TCG settings, overridable to measure others (docs/vm.md, "Stalls").
TCG_THREAD = os.environ.get("BOOTBENCH_VM_TCG_THREAD", "multi")
SMP = os.environ.get("BOOTBENCH_VM_SMP", "2")
QEMU = ["qemu-system-x86_64", "-accel", f"tcg,thread={TCG_THREAD}", "-smp", SMP, "-m", "1024",
        "-display", "none", "-vga", "none", "-monitor", "none",
        "-serial", "stdio"]
NO_NETWORK = ["-nic", "none"]
# explain and bisect are run by hand (not in the suite): 12 and about 24 run boots.
TIME_LIMITS = {"smoke": 900, "experiment": 1500, "wrong-boot": 1500, "power-cut": 1700, "ansible": 2100,
               "explain": 4500, "bisect": 6000}
ROOT = HERE.parent.parent

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def log(msg):
    print(f"[vm {time.strftime('%H:%M:%S', time.gmtime())}] {msg}", file=sys.stderr, flush=True)


class Skip(Exception):
    pass


class Fail(Exception):
    pass


# --- preflight ---------------------------------------------------------------

def cache_dir():
    return os.environ.get("BOOTBENCH_VM_CACHE", "/var/cache/bootbench-vm")


def fresh_cache():
    d = cache_dir()
    if d == "none" or not os.path.isdir(d):
        return False
    week = 7 * 86400
    return any(time.time() - p.stat().st_mtime < week for p in Path(d).glob("root-*.tar"))


def mirror_reachable():
    try:
        with urllib.request.urlopen(MIRROR, timeout=15) as r:
            return r.status == 200
    except OSError:
        return False


def loop_device_usable():
    if not os.path.exists("/dev/loop-control"):
        return False
    return subprocess.run(["losetup", "-f"], capture_output=True).returncode == 0


# tool -> Debian package
TOOLS = {"qemu-system-x86_64": "qemu-system-x86", "mkfs.ext4": "e2fsprogs", "debugfs": "e2fsprogs",
         "ostree": "ostree", "bwrap": "bubblewrap", "sfdisk": "fdisk", "losetup": "mount", "mmdebstrap": "mmdebstrap",
         "extlinux": "extlinux", "/usr/lib/syslinux/mbr/mbr.bin": "syslinux-common",
         "ansible-playbook": "ansible-core", "ssh": "openssh-client", "ssh-keygen": "openssh-client"}


def have(tool):
    return os.path.exists(tool) if tool.startswith("/") else shutil.which(tool) is not None


def install_missing():
    """In CI (CI=true) or with BOOTBENCH_VM_INSTALL=1: apt-get the missing
    tools, so that a fresh machine runs the test instead of skipping it."""
    if os.environ.get("CI") != "true" and os.environ.get("BOOTBENCH_VM_INSTALL") != "1":
        return
    pkgs = sorted({p for t, p in TOOLS.items() if not have(t)})
    if not pkgs or shutil.which("apt-get") is None:
        return
    log(f"installing {' '.join(pkgs)} with apt-get")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(["apt-get", "update", "-qq"], env=env, capture_output=True)
    r = subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *pkgs],
                       env=env, capture_output=True, text=True)
    if r.returncode != 0:
        log(f"apt-get install failed: {r.stderr.strip()[-500:]}")


def preflight(args):
    """Raises Skip with the reason when this machine cannot run the test."""
    if os.geteuid() != 0:
        raise Skip("needs root (mmdebstrap --mode=root, loop mounts, ownership in the image)")
    install_missing()
    # bwrap: ostree admin deploy rebuilds a deployment's SELinux policy in it.
    tools = ["qemu-system-x86_64", "mkfs.ext4", "debugfs", "ostree", "bwrap", "sfdisk"]
    if not fresh_cache():
        tools.append("mmdebstrap")
    if args.scenario == "ansible":
        tools += ["ansible-playbook", "ssh", "ssh-keygen"]
    missing = [t for t in tools if not have(t)]
    if missing:
        raise Skip(f"missing tools: {' '.join(missing)} (apt-get install qemu-system-x86 mmdebstrap "
                   "e2fsprogs ostree bubblewrap fdisk extlinux syslinux-common ansible-core openssh-client)")
    if not fresh_cache() and not mirror_reachable():
        raise Skip(f"the Debian mirror is unreachable ({MIRROR}) and no cached root archive "
                   f"is in {cache_dir()}")
    if args.scenario != "smoke" and not bootbench_has_start(args.bootbench):
        raise Skip(f"{args.bootbench} has no `start` command yet")
    if args.boot == "auto":
        extlinux_ok = shutil.which("extlinux") and os.path.exists("/usr/lib/syslinux/mbr/mbr.bin")
        if extlinux_ok and loop_device_usable():
            args.boot = "extlinux"
        else:
            args.boot = "kernel"
            log("no loop device or no extlinux: FALLING BACK to the harness as bootloader "
                "(reads ostree's BLS entries, boots the default with qemu -kernel)")


def bootbench_has_start(binary):
    r = subprocess.run([binary, "start", "--help"], capture_output=True, text=True)
    text = (r.stdout + r.stderr).lower()
    return "unknown command" not in text and "unknown subcommand" not in text


# --- the console ---------------------------------------------------------------

class Console:
    """Collects qemu's serial output as timestamped lines (seconds since the
    harness started qemu the first time) into console.log."""

    def __init__(self, path, watch):
        self.path = path
        self.watch = watch
        self.lines = []  # (t, text)
        self.t0 = time.monotonic()
        self.last_output = self.t0
        self.lock = threading.Lock()
        self.file = open(path, "w", buffering=1)
        self.stop = None  # set by another thread: why qemu must be killed now

    def now(self):
        return time.monotonic() - self.t0

    def feed(self, stream):
        buf = b""
        while True:
            chunk = stream.read1(4096) if hasattr(stream, "read1") else stream.read(4096)
            if not chunk:
                break
            buf += chunk
            *complete, buf = buf.split(b"\n")
            for raw in complete:
                self.add(raw)
        if buf:
            self.add(buf)

    def add(self, raw):
        text = ANSI.sub("", raw.decode("utf-8", "replace")).replace("\r", "")
        with self.lock:
            t = self.now()
            self.last_output = time.monotonic()
            self.lines.append((t, text))
            self.file.write(f"[{t:8.2f}] {text}\n")
            self.watch.line(t, text)

    def snapshot(self):
        with self.lock:
            return list(self.lines)

    def tail(self, n=40):
        return "\n".join(f"  [{t:8.2f}] {s}" for t, s in self.snapshot()[-n:])

    def has(self, pattern, since=0):
        rx = re.compile(pattern)
        return any(rx.search(s) for _, s in self.snapshot()[since:])


class Qmp:
    """qemu's machine protocol on a unix socket: every SUSPEND of the guest
    goes on the console log as a HARNESS line. One during the scenario (the
    checks fail it) is woken at once (system_wakeup), as a user would, so
    that the scenario goes on and reports; the idle trap's, after the end,
    powers the guest off (quit)."""

    def __init__(self, path, console):
        self.path, self.console = str(path), console

    def args(self):
        return ["-qmp", f"unix:{self.path},server=on,wait=off"]

    def watch(self, proc):
        threading.Thread(target=self._run, args=(proc,), daemon=True).start()

    def _connect(self, proc):
        while proc.poll() is None:
            try:
                s = socket.socket(socket.AF_UNIX)
                s.connect(self.path)
                return s
            except OSError:
                time.sleep(0.2)
        return None

    def _run(self, proc):
        s = self._connect(proc)
        if s is None:
            return
        with s, s.makefile("rw") as f:
            f.write('{"execute": "qmp_capabilities"}\n')
            f.flush()
            for line in f:
                event = json.loads(line).get("event") if line.strip() else None
                if event == "SUSPEND" and self.console.has(vm_checks.TRAP_WAIT_LINE):
                    # The idle trap's suspend ends the scenario: the kernel synced
                    # the disks on the way down, and TCG cannot resume it (seen:
                    # silent after WAKEUP).
                    self.console.add(b"HARNESS suspend: the guest suspended itself (QMP SUSPEND); "
                                     b"the idle trap: powering off")
                    f.write('{"execute": "quit"}\n')
                    f.flush()
                elif event == "SUSPEND":
                    self.console.add(b"HARNESS suspend: the guest suspended itself (QMP SUSPEND); waking it")
                    f.write('{"execute": "system_wakeup"}\n')
                    f.flush()
                elif event == "WAKEUP":
                    self.console.add(b"HARNESS wakeup: the guest woke up (QMP WAKEUP)")


def run_qemu(cmd, console, deadline):
    """Runs one qemu process until it exits (returns its status) or until the
    watch says to cut the power (kills it at once, returns the Cut). Fails at
    the deadline."""
    qmp = Qmp(Path(console.path).parent / "qmp.sock", console)
    Path(qmp.path).unlink(missing_ok=True)
    cmd = cmd + qmp.args()
    log("qemu: " + " ".join(cmd))
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    qmp.watch(proc)
    reader = threading.Thread(target=console.feed, args=(proc.stdout,), daemon=True)
    reader.start()
    outcome = None
    while proc.poll() is None and outcome is None:
        time.sleep(0.1)
        if time.monotonic() > deadline:
            outcome = "the overall time limit was reached"
        elif console.stop:
            outcome = console.stop
        else:
            with console.lock:
                outcome = console.watch.due(console.now(), console.last_output - console.t0)
        if outcome is not None:
            proc.kill()
            proc.wait()
    reader.join(timeout=10)
    if isinstance(outcome, str):
        raise Fail(f"qemu killed: {outcome}")
    return outcome if outcome is not None else proc.returncode


def power_cut(cut, console):
    """Keeps the cut (fails after too many stall cuts) and says so on the console log."""
    log(f"POWER CUT at {cut.t:.1f} s: {cut.reason}")
    console.add(f"HARNESS power cut: {cut.reason}".encode())
    try:
        console.watch.record(cut)
    except ValueError as e:
        raise Fail(str(e)) from None


def boot_extlinux(img, console, deadline, qemu):
    """One qemu for the whole scenario: the guest's reboots go through SeaBIOS
    and extlinux; its final poweroff ends qemu. After a power cut the same
    disk boots again in a new qemu."""
    while True:
        rc = run_qemu(qemu + ["-drive", f"file={img.disk},format=raw,if=virtio"], console, deadline)
        if not isinstance(rc, vm_cuts.Cut):
            break
        power_cut(rc, console)
    if rc != 0:
        raise Fail(f"qemu exited with status {rc}")


def boot_kernel(img, console, deadline, qemu, force_wrong_boot):
    """The harness as bootloader: each boot reads the BLS entries ostree wrote
    and starts the default entry (highest version) with -kernel; a guest
    reboot ends qemu (-no-reboot) and the harness boots again."""
    for n in range(1, 20):
        entries = img.boot_entries()
        entry = entries[0]
        if force_wrong_boot and n == 3:
            entry = vm_checks.entry_for_previous_boot(entries, console.snapshot())
            log(f"kernel boot {n}: forcing entry {entry['title']!r} instead of ostree's default")
        log(f"kernel boot {n}: booting BLS entry {entry['title']!r} (version {entry['version']})")
        kernel, initrd = img.extract_boot_files(entry)
        start = len(console.snapshot())
        console.add(f"HARNESS kernel boot {n}: {entry['title']}".encode())
        rc = run_qemu(qemu + ["-no-reboot", "-kernel", kernel, "-initrd", initrd,
                              "-append", entry["options"],
                              "-drive", f"file={img.disk},format=raw,if=virtio"], console, deadline)
        if isinstance(rc, vm_cuts.Cut):
            power_cut(rc, console)
            continue
        if rc != 0:
            raise Fail(f"qemu exited with status {rc} on kernel boot {n}")
        if console.has(r"reboot: Power down", since=start):
            return
        if not console.has(r"reboot: Restarting system", since=start):
            raise Fail(f"kernel boot {n}: qemu ended without a reboot or a power-off")
    raise Fail("more than 19 boots")


# --- main --------------------------------------------------------------------

def remove_tree(path):
    """rm -rf that copes with ostree's immutable deployment roots."""
    subprocess.run(["bash", "-c", '. "$1/lib.sh" && vm_remove_tree "$2"', "_", str(HERE), str(path)],
                   check=True)


def image_key(args):
    """What the shared image is built from: the scripts, the guest's files and
    the binaries installed into it."""
    h = hashlib.sha256()
    files = [HERE / "build-image.sh", HERE / "lib.sh", *sorted((HERE / "guest").rglob("*"))]
    files += [Path(p) for p in (args.bootbench, args.floor_tool, args.update_holder) if p]
    for f in files:
        if f.is_file():
            h.update(f.name.encode() + b"\0" + f.read_bytes())
    h.update(args.boot.encode())
    return h.hexdigest()[:16]


def shared_image(args):
    """One image for every scenario of a suite run: built once into
    /var/tmp/bootbench-vm-image-<key> (older ones removed), copied by each."""
    key = image_key(args)
    d = Path(os.environ.get("BOOTBENCH_VM_IMAGES", "/var/tmp")) / f"bootbench-vm-image-{key}"
    lock = open(f"{d}.lock", "w")
    fcntl.flock(lock, fcntl.LOCK_EX)
    try:
        if not (d / "manifest.env").exists():
            for old in d.parent.glob("bootbench-vm-image-*"):
                if old.is_dir() and old != d:
                    remove_tree(old)
                elif old.suffix == ".lock" and old.name != f"{d.name}.lock":
                    old.unlink(missing_ok=True)
            t = time.monotonic()
            cmd = [str(HERE / "build-image.sh"), "--bootbench", args.bootbench, "--workdir", str(d),
                   "--boot", args.boot]
            cmd += ["--floor-tool", args.floor_tool] if args.floor_tool else []
            cmd += ["--update-holder", args.update_holder] if args.update_holder else []
            log("building the shared image: " + " ".join(cmd))
            if subprocess.run(cmd).returncode != 0:
                remove_tree(d)
                raise Fail("the image build failed (see the messages above)")
            log(f"image built in {time.monotonic() - t:.1f} s")
        else:
            log(f"image: reusing the shared image {d}")
    finally:
        lock.close()
    return d


def build_image(args, work):
    src = shared_image(args)
    dest = work / "image"
    dest.mkdir(parents=True, exist_ok=True)
    t = time.monotonic()
    for name in ("manifest.env", "build-times.env"):
        shutil.copy(src / name, dest / name)
    subprocess.run(["cp", "--sparse=always", str(src / "disk.img"), str(dest / "disk.img")], check=True)
    log(f"image copied in {time.monotonic() - t:.1f} s")
    return Image(dest)


def work_dir(args):
    """BOOTBENCH_VM_WORKDIR, or a new folder for this run: two runs at once
    (a developer's and CI's) must never share, or one removes the other's disk."""
    if os.environ.get("BOOTBENCH_VM_WORKDIR"):
        return Path(os.environ["BOOTBENCH_VM_WORKDIR"])
    if args.recheck:
        raise Fail("--recheck needs BOOTBENCH_VM_WORKDIR: the work dir a KEEP=1 run printed")
    if not getattr(args, "work", None):
        args.work = Path(tempfile.mkdtemp(prefix=f"bootbench-vm-{args.scenario}-", dir="/var/tmp"))
    return args.work


def recheck(args):
    """Checks a kept work dir again (after changing the checks), no VM."""
    work = work_dir(args)
    img = Image(work / "image")
    lines = []
    for text in (work / "console.log").read_text().splitlines():
        m = re.match(r"\[\s*([0-9.]+)\] (.*)", text)
        if m:
            lines.append((float(m[1]), m[2]))
    out = work / "readout"
    t = vm_checks.timings(lines, img, out)
    t["image_build_s"] = round(img.build_seconds, 1)
    vm_checks.print_timings(t)
    try:
        vm_checks.check(args.scenario, lines, img, out)
    except vm_checks.CheckFailed as e:
        raise Fail(str(e)) from None
    log(f"PASS (recheck): scenario {args.scenario}")
    return 0


def run(args):
    if args.recheck:
        return recheck(args)
    preflight(args)
    work = work_dir(args)
    # Nothing from an earlier run may be mistaken for this run's results.
    remove_tree(work)
    work.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    key = vm_ansible.make_key(work) if args.scenario == "ansible" else None
    img = build_image(args, work)
    watch = vm_cuts.Watch(planned=list(vm_cuts.POWER_CUTS) if args.scenario == "power-cut" else [])
    console = Console(work / "console.log", watch)
    log(f"booting ({args.boot}); console: {console.path}")
    deadline = time.monotonic() + (args.time_limit or TIME_LIMITS[args.scenario])
    # The shared image learns its scenario (and the controller's key) here.
    fw_cfg = ["-fw_cfg", f"name=opt/bootbench-vm/scenario,string={args.scenario}"]
    qemu, controller = QEMU + NO_NETWORK + fw_cfg, None
    if key:
        port = vm_ansible.free_port()
        qemu = QEMU + vm_ansible.qemu_nic(port) + fw_cfg + ["-fw_cfg", f"name=opt/bootbench-vm/ssh-key,file={key[1]}"]
        controller = vm_ansible.Controller(work, port, key[0], args.bootbench, ROOT, console, log)
        controller.start()
    try:
        if img.boot_mode == "extlinux":
            boot_extlinux(img, console, deadline, qemu)
        else:
            boot_kernel(img, console, deadline, qemu, args.scenario == "wrong-boot")
        if controller:
            controller.join(timeout=120)
        if watch.unfired():
            raise Fail(f"the guest finished before these planned power cuts: {watch.unfired()}")
    except Fail as e:
        raise Fail(f"{e}\nlast 40 console lines:\n{console.tail()}") from None
    boots_s = console.now()
    out = work / "readout"
    try:
        img.read_out(out)
    except RuntimeError as e:
        raise Fail(f"reading the results out of the disk: {e} (work dir kept: {work})\n"
                   f"last 40 console lines:\n{console.tail()}") from None
    timings = vm_checks.timings(console.snapshot(), img, out)
    timings["image_build_s"] = round(img.build_seconds, 1)
    timings["boots_total_s"] = round(boots_s, 1)
    timings["total_s"] = round(time.monotonic() - t0, 1)
    (work / "timings.json").write_text(json.dumps(timings, indent=2) + "\n")
    vm_checks.print_timings(timings)
    try:
        vm_checks.check(args.scenario, console.snapshot(), img, out)
        if controller:
            vm_checks.check_controller(controller, work / "lab", out)
    except vm_checks.CheckFailed as e:
        raise Fail(f"{e}\nlast 40 console lines:\n{console.tail()}") from None
    log(f"PASS: scenario {args.scenario} in {time.monotonic() - t0:.0f} s (work dir {work})")
    if os.environ.get("KEEP") != "1":
        remove_tree(work)
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--scenario", required=True, choices=["smoke", "experiment", "wrong-boot", "power-cut", "ansible", "explain", "bisect"])
    p.add_argument("--bootbench", required=True, help="the bootbench binary to install in the image")
    p.add_argument("--boot", default="auto", choices=["auto", "extlinux", "kernel"])
    p.add_argument("--floor-tool", help="bench/switch-default, run in the guest's first boot (experiment)")
    p.add_argument("--update-holder", help="guest/update_holder.cpp built: the update at boot holds the lock")
    p.add_argument("--time-limit", type=int, default=0, help="seconds for all the boots")
    p.add_argument("--recheck", action="store_true",
                   help="only check the results kept in the work dir (KEEP=1) again")
    args = p.parse_args()
    args.bootbench = os.path.abspath(args.bootbench)
    if args.floor_tool:
        args.floor_tool = os.path.abspath(args.floor_tool)
    if args.update_holder:
        args.update_holder = os.path.abspath(args.update_holder)
    try:
        return run(args)
    except Skip as e:
        print(f"SKIP: VM test '{args.scenario}' skipped: {e}", flush=True)
        return SKIP
    except Fail as e:
        print(f"FAIL: VM test '{args.scenario}': {e}", flush=True)
        return 1


if __name__ == "__main__":
    sys.exit(main())
