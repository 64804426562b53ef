#!/usr/bin/env python3
"""`bootbench doctor` and start's refusal, on fake /proc, /sys and /run trees
(doctor --root TREE; start with BOOTBENCH_TEST_HOST_ROOT=TREE) with a PATH of stand-in tools: the exact lines a user reads,
the --json shape, exit codes, and that start changes nothing on a fail.

    doctor_test.py BOOTBENCH
"""
import json
import os
import re
import subprocess
import sys
import tempfile

BOOTBENCH = os.path.abspath(sys.argv[1])
failures = []

EXPERIMENT = """[experiment]
name = "dr"
runs = 1
baseline = "a"
[[target]]
name = "a"
deployment = 0
[[target]]
name = "b"
deployment = 1
[[bench]]
kind = "perf-sched-pipe"
[[bench]]
kind = "sysbench-threads"
[load]
cpu_workers = 0
[conditions]
governor = "performance"
sched_ext = "disabled"
stop_units = ["uupd.timer"]
"""

FIX = " " * 22 + "fix: "
EXPECTED_WITH_FILE = f"""fail  ostree          not booted from an ostree deployment (no /run/ostree-booted)
{FIX}run bootbench on the Fedora Atomic, Universal Blue or bootc machine it measures; 'bootbench simulate FILE' rehearses an experiment here
ok    selinux         disabled (no /sys/fs/selinux)
ok    free-space-var  /var: SIZE free, needs 576 MiB for this experiment
ok    free-space-boot /boot: SIZE free, needs 64 MiB for this experiment
ok    tool-perf       perf found
fail  tool-sysbench   sysbench not found (a bench needs it)
{FIX}sysbench is not installed: install it with 'apt install sysbench' (Debian) or 'dnf install sysbench' (Fedora); on Fedora Atomic set [tools] image instead (layering makes a new deployment)
ok    temperature     hwmon k10temp Tctl at 45.0 C
warn  governor        powersave on this boot, the experiment wants performance
{FIX}set it before the run (cpupower frequency-set -g performance) or set [conditions] set_governor = true
fail  ac-power        on battery: it runs out before the night does, and battery power limits change the numbers
{FIX}plug in the charger
ok    sched_ext       disabled, as the experiment asks
warn  update-timers   rpm-ostreed-automatic.timer can stage an update during the experiment (not in [conditions] stop_units)
{FIX}add them to [conditions] stop_units (each boot masks them until the next), or sudo systemctl disable --now rpm-ostreed-automatic.timer
warn  idle-suspend    the machine suspends when idle: the GDM login screen does 'suspend' after 900 s idle on AC (org.gnome.settings-daemon.plugins.power sleep-inactive-ac-type from the schema's default, sleep-inactive-ac-timeout from the schema's default; the gdm user's own dconf database is not read). bootbench blocks sleep and idle while a boot's work runs, not before its unit starts nor after a failure
{FIX}for an unattended machine: a keyfile /etc/dconf/db/gdm.d/90-bootbench with [org/gnome/settings-daemon/plugins/power] sleep-inactive-ac-type='nothing', then 'sudo dconf update'
"""


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def fake_tree(root):
    """A laptop on battery, k10temp, one cpufreq policy, sched_ext, two update timers, GDM."""
    for d in ("var", "boot"):
        os.makedirs(f"{root}/{d}")
    write(f"{root}/proc/self/mounts", "/dev/vda3 / ext4 rw 0 0\n")
    write(f"{root}/sys/class/power_supply/AC/type", "Mains\n")
    write(f"{root}/sys/class/power_supply/AC/online", "0\n")
    write(f"{root}/sys/class/hwmon/hwmon0/name", "k10temp\n")
    write(f"{root}/sys/class/hwmon/hwmon0/temp1_label", "Tctl\n")
    write(f"{root}/sys/class/hwmon/hwmon0/temp1_input", "45000\n")
    policy = f"{root}/sys/devices/system/cpu/cpufreq/policy0"
    write(f"{policy}/scaling_governor", "powersave\n")
    write(f"{policy}/scaling_available_governors", "performance powersave\n")
    write(f"{root}/sys/kernel/sched_ext/state", "disabled\n")
    write(f"{root}/run/units-installed", "uupd.timer\nrpm-ostreed-automatic.timer\n")
    # GNOME's login screen with the power plugin's upstream defaults (Fedora 38+)
    write(f"{root}/usr/lib/systemd/system/gdm.service", "[Unit]\n")
    write(f"{root}/usr/share/glib-2.0/schemas/org.gnome.settings-daemon.plugins.power.gschema.xml",
          "<key name='x'/><key name=\"sleep-inactive-ac-timeout\" type=\"i\"><default>900</default></key>"
          "<key name=\"sleep-inactive-ac-type\"><default>'suspend'</default></key>\n")


def stand_in_tools(bindir):
    os.makedirs(bindir)
    write(f"{bindir}/perf", "#!/bin/sh\nexit 0\n")
    os.chmod(f"{bindir}/perf", 0o755)


def run(env, *args):
    p = subprocess.run([BOOTBENCH, *args], capture_output=True, text=True, timeout=60, env=env)
    return p.returncode, p.stdout, p.stderr


def sizes_out(text):
    return re.sub(r"\d+(\.\d)? (GiB|MiB) free", "SIZE free", text)


def check(name, ok, detail=""):
    print(("ok: " if ok else "FAIL: ") + name)
    if not ok:
        failures.append(name)
        print("   ", detail.replace("\n", "\n    "))


def listing(root):
    return sorted(os.path.join(d, n) for d, dirs, files in os.walk(root) for n in dirs + files)


def test_doctor(tree, exp, env):
    rc, out, err = run(env, "doctor", "--root", tree, exp)
    check("doctor EXPERIMENT: the exact lines, exit 1 on a fail", rc == 1 and err == "" and
          sizes_out(out) == EXPECTED_WITH_FILE, f"exit {rc}\n{out}\n{err}")
    rc, out, err = run(env, "doctor", "--root", tree)
    lines = sizes_out(out).splitlines()
    check("doctor without a file: the stated defaults", rc == 1 and
          "ok    free-space-var  /var: SIZE free, needs 1.0 GiB by default; give EXPERIMENT.toml for its own"
          in lines and "warn  tool-sysbench   sysbench not found" in lines and
          "warn  tool-schbench   schbench not found (its benches are skipped)" in lines and
          "warn  tool-stress-ng  stress-ng not found" in lines and
          "ok    governor        powersave (the experiment does not ask for one)" in lines,
          f"exit {rc}\n{out}\n{err}")


def test_json(tree, exp, env):
    rc, out, err = run(env, "doctor", "--json", "--root", tree, exp)
    doc = json.loads(out)
    names = [c["check"] for c in doc["checks"]]
    check("--json: ok, checks with check/status/message/fix", rc == 1 and doc["ok"] is False and
          all(sorted(c) == ["check", "fix", "message", "status"] for c in doc["checks"]) and
          names == ["ostree", "selinux", "free-space-var", "free-space-boot", "tool-perf", "tool-sysbench",
                    "temperature", "governor", "ac-power", "sched_ext", "update-timers", "idle-suspend"] and
          doc["checks"][8] == {"check": "ac-power", "status": "fail", "message": "on battery: it runs out "
                               "before the night does, and battery power limits change the numbers",
                               "fix": "plug in the charger"}, f"exit {rc}\n{out}\n{err}")


def test_usage(tree, exp, env):
    for args in (["doctor", exp, exp], ["doctor", "--bogus"], ["doctor", f"{tree}/missing.toml"]):
        rc, out, err = run(env, *args)
        check(f"{' '.join(args[1:2])}...: bad arguments exit 2", rc == 2 and err.startswith("bootbench: error: "),
              f"exit {rc}\n{out}\n{err}")
    rc, out, err = run(env, "doctor", "a", "b")
    check("two files: the usage error", err == "bootbench: error: bootbench doctor: expected at most one "
          "experiment file (see 'bootbench help doctor')\n", err)


def test_start_refuses(tree, exp, env):
    os.makedirs(f"{tree}/ostree/repo")
    before = listing(tree)
    rc, out, err = run(dict(env, BOOTBENCH_TEST_HOST_ROOT=tree), "start", "--sysroot", tree, exp)
    want = ("bootbench: error: cannot start: this host fails bootbench doctor's checks:\n" +
            "\n".join(l for l in EXPECTED_WITH_FILE.splitlines() if not l.startswith("ok ")) +
            f"\nnothing was changed; 'bootbench doctor {exp}' shows every check\n")
    check("start refuses with the lines that are not ok, exit 1", rc == 1 and out == "" and err == want,
          f"exit {rc}\nstdout:\n{out}\nstderr:\n{err}\nwanted:\n{want}")
    check("start changed nothing in the tree", listing(tree) == before, f"{before}\n{listing(tree)}")


EXEC_LABEL_FAIL = f"""fail  exec-label      /var/lib/bootbench/bin/bootbench is labelled system_u:object_r:var_lib_t:s0: SELinux lets systemd (init_t) execute bin_t files only, so the unit fails with 203/EXEC (the installed bootbench-resume.service runs it)
{FIX}sudo chcon -t bin_t /var/lib/bootbench/bin/bootbench for the experiment running now; a start by this version runs its copy from /var/usrlocal/bin, which is bin_t
"""


def test_exec_label(tmp, exp, env):
    """SELinux enforcing and the unit of an experiment an older version started: its binary is var_lib_t."""
    tree = f"{tmp}/enforcing"
    fake_tree(tree)
    write(f"{tree}/sys/fs/selinux/enforce", "1\n")
    rc, out, err = run(env, "doctor", "--root", tree, exp)
    check("enforcing, no unit yet: the copy start makes and labels",
          "ok    selinux         enforcing\nok    exec-label      start copies bootbench to "
          "/var/usrlocal/bin/bootbench-resume, labels it bin_t and reads the label back\n" in out, out + err)
    write(f"{tree}/etc/systemd/system/bootbench-resume.service",
          "[Service]\nExecStart=/var/lib/bootbench/bin/bootbench resume\n")
    write(f"{tree}/var/lib/bootbench/bin/bootbench", "old")
    try:
        os.setxattr(f"{tree}/var/lib/bootbench/bin/bootbench", "security.selinux",
                    b"system_u:object_r:var_lib_t:s0\0")
    except OSError as e:
        print(f"skip: the label part needs to set security.selinux ({e})")
        return
    rc, out, err = run(env, "doctor", "--root", tree, exp)
    check("doctor: the installed unit's var_lib_t binary fails with the fix", rc == 1 and EXEC_LABEL_FAIL in out,
          f"exit {rc}\n{out}\n{err}")
    os.makedirs(f"{tree}/ostree/repo")
    before = listing(tree)
    rc, out, err = run(dict(env, BOOTBENCH_TEST_HOST_ROOT=tree), "start", "--sysroot", tree, exp)
    check("start refuses on it and changes nothing", rc == 1 and EXEC_LABEL_FAIL in err and
          listing(tree) == before, f"exit {rc}\n{out}\n{err}")


SELINUX_CONFIG_FAIL = f"""fail  selinux         /etc/selinux/config says SELINUX=permissive and SELINUXTYPE=default, but /etc/selinux/default is not there: libostree labels what it writes with that policy, so every pin and deployment fails (selabel_open: No such file or directory)
{FIX}install that policy (Debian: sudo apt-get install selinux-policy-default), or set SELINUX=disabled in /etc/selinux/config
"""


def test_selinux_config(tmp, exp, env):
    """Debian's policycoreutils without a policy: a config that turns on a policy that is not there."""
    tree = f"{tmp}/policycoreutils"
    fake_tree(tree)
    write(f"{tree}/etc/selinux/config", "SELINUX=permissive\nSELINUXTYPE=default\n")
    rc, out, err = run(env, "doctor", "--root", tree, exp)
    check("doctor: a config naming a policy that is not installed fails with the fix",
          rc == 1 and SELINUX_CONFIG_FAIL in out, f"exit {rc}\n{out}\n{err}")
    os.makedirs(f"{tree}/etc/selinux/default")
    rc, out, err = run(env, "doctor", "--root", tree, exp)
    check("doctor: with the policy's folder there, SELinux is what the kernel says",
          "ok    selinux         disabled (no /sys/fs/selinux)\n" in out, out + err)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        tree, exp = f"{tmp}/tree", f"{tmp}/dr.toml"
        fake_tree(tree)
        write(exp, EXPERIMENT)
        stand_in_tools(f"{tmp}/bin")
        env = dict(os.environ, PATH=f"{tmp}/bin", BOOTBENCH_REGISTRY_URL="http://127.0.0.1:9")
        test_doctor(tree, exp, env)
        test_json(tree, exp, env)
        test_usage(tree, exp, env)
        test_start_refuses(tree, exp, env)
        test_exec_label(tmp, exp, env)
        test_selinux_config(tmp, exp, env)
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
