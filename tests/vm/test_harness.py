#!/usr/bin/env python3
"""Tests of the VM harness's own logic, without a VM: how it reads boots off
the console (a lost boot line, power cuts) and when it cuts the power.
Runs in the ordinary suites, so a broken harness is found in seconds."""
import os
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import vm_checks  # noqa: E402
import vm_cuts  # noqa: E402


def boot(t, n=None, variant="a", run=None, bench=False, stored=None, cut=None, down="Restarting system"):
    """Console lines of one boot starting at time t."""
    lines = [(t, "SYSLINUX 6.04 EDD 20191223 Copyright (C) 1994-2015 H. Peter Anvin et al")]
    if n is not None:
        lines.append((t + 30, f"BOOTBENCH-VM boot={n} variant={variant} deployment=d{variant}.0 scenario=x"))
    if run:
        lines.append((t + 31, f"bootbench: boot into debian/d{variant}.0: run {run} (attempt 1 of 4)"))
    if bench:
        lines.append((t + 33, "bootbench: bench perf-sched-pipe: running perf bench sched pipe"))
    if stored:
        lines.append((t + 36, f"bootbench: run {stored}: ok, 3 metrics"))
    if cut:
        lines.append((t + 37, f"HARNESS power cut: {cut}"))
    elif down:
        lines.append((t + 40, f"reboot: {down}"))
    return lines


def guest(*variants):
    return [{"boot": str(i + 1), "variant": v, "deployment": f"d{v}.0"} for i, v in enumerate(variants)]


class ConsoleBoots(unittest.TestCase):
    def test_a_lost_boot_line_is_taken_from_boots_log(self):
        # CI saw this: boot 2 ran bootbench but its BOOTBENCH-VM line never
        # reached the console whole.
        lines = boot(0, 1, "base") + boot(50, None, run="a-1", bench=True, stored="a-1") + boot(100, 3, "b")
        boots = vm_checks.boots_from_console(lines, guest("base", "a", "b"))
        self.assertEqual([b.get("n") for b in boots], [1, 2, 3])
        self.assertEqual(boots[1]["variant"], "a")
        self.assertTrue(boots[1]["line_lost"])

    def test_a_boot_cut_before_userspace_gets_no_entry(self):
        lines = boot(0, 1, "base") + boot(50, cut="stall: silent", down=None) + boot(100, 2, "a")
        boots = vm_checks.boots_from_console(lines, guest("base", "a"))
        self.assertEqual([b.get("n") for b in boots], [1, None, 2])
        self.assertEqual(boots[1]["cut"], "stall: silent")

    def test_the_console_and_boots_log_must_agree(self):
        lines = boot(0, 1, "base") + boot(50, 2, "a")
        boots = vm_checks.boots_from_console(lines, guest("base", "b"))
        with self.assertRaisesRegex(vm_checks.CheckFailed, "boot 2: console says a"):
            self._match(boots, guest("base", "b"))

    def _match(self, boots, g):
        # check_console_matches_guest_log reads boots.log from a folder.
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(f"{d}/bootbench-vm")
            Path(f"{d}/bootbench-vm/boots.log").write_text(
                "".join(" ".join(f"{k}={v}" for k, v in x.items()) + "\n" for x in g))
            vm_checks.check_console_matches_guest_log(boots, d)

    def test_a_missing_boot_is_named(self):
        lines = boot(0, 1, "base") + boot(50, 3, "a")
        boots = vm_checks.boots_from_console(lines, guest("base", "a", "a"))
        with self.assertRaisesRegex(vm_checks.CheckFailed, r"console shows boots \[1, 3\]"):
            self._match(boots, guest("base", "a", "a"))

    def test_attempts_and_cuts_are_read_per_boot(self):
        lines = boot(0, 1, "a", run="a-1", bench=True, cut="planned: x")
        b = vm_checks.boots_from_console(lines)[0]
        self.assertEqual((b["run"], b["attempt"], b["benched"], b["cut"]), ("a-1", 1, True, "planned: x"))
        self.assertNotIn("stored", b)


class Floor(unittest.TestCase):
    def test_the_switch_floor_is_read_from_the_first_boot(self):
        lines = [(1, "BOOTBENCH-VM floor: this machine's sysroot; 5 rounds; median seconds per switch"),
                 (2, "BOOTBENCH-VM floor: bootbench set_default  1.2000"),
                 (3, "BOOTBENCH-VM floor: bare reorder (floor)   1.0000"),
                 (4, "BOOTBENCH-VM floor: bootbench / floor      1.20x")]
        self.assertEqual(vm_checks.switch_floor(lines),
                         {"bootbench_s": 1.2, "bare_reorder_s": 1.0, "ratio": 1.2})
        self.assertIsNone(vm_checks.switch_floor(lines[:2]))


class Cuts(unittest.TestCase):
    def test_a_stall_with_no_progress_is_cut_after_the_grace(self):
        w = vm_cuts.Watch()
        w.line(100, "watchdog: BUG: soft lockup - CPU#0 stuck for 45s! [(udev-worker):358]")
        w.line(110, "Call Trace:")
        self.assertIsNone(w.due(100 + vm_cuts.STALL_GRACE - 1, 110))
        cut = w.due(100 + vm_cuts.STALL_GRACE, 110)
        self.assertIn("the kernel reported a stall at 100 s", cut.reason)

    def test_progress_after_a_stall_report_cancels_the_cut(self):
        w = vm_cuts.Watch()
        w.line(100, "rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:")
        w.line(120, "[  OK  ] Reached target multi-user.target - Multi-User System.")
        self.assertIsNone(w.due(200, 199))

    def test_silence_is_a_stall(self):
        w = vm_cuts.Watch()
        self.assertIsNone(w.due(100 + vm_cuts.SILENCE_LIMIT - 1, 100))
        self.assertIn("silent", w.due(100 + vm_cuts.SILENCE_LIMIT, 100).reason)

    def test_planned_cuts_fire_in_order_after_their_delay(self):
        w = vm_cuts.Watch(planned=list(vm_cuts.POWER_CUTS))
        w.line(10, "bootbench: run b-1: ok, 3 metrics")  # not armed yet: the bench cut comes first
        self.assertIsNone(w.due(11, 10))
        w.line(20, "bootbench: bench perf-sched-pipe: running perf bench sched pipe")
        self.assertIsNone(w.due(20.5, 20))
        cut = w.due(21, 20)
        self.assertTrue(cut.planned and "during a bench" in cut.reason)
        w.record(cut)
        self.assertEqual(len(w.unfired()), 2)

    def test_too_many_stall_cuts_fail(self):
        w = vm_cuts.Watch()
        for i in range(vm_cuts.MAX_STALL_CUTS):
            w.record(vm_cuts.Cut("stall", i))
        with self.assertRaisesRegex(ValueError, "stalled 3 times"):
            w.record(vm_cuts.Cut("stall", 9))


def result_with_boot(total=21.5, finish=30_000_000, benches=31_500_000, mem=812.0):
    metrics = {} if total is None else {"boot_total_s": {"value": total, "unit": "s"}}
    if mem is not None:
        metrics["mem_used_mib"] = {"value": mem, "unit": "MiB"}
    return {"metrics": metrics, "environment": {"boot_finish_monotonic_us": finish,
                                                "benches_start_monotonic_us": benches,
                                                "boot_times": "systemd: ..."}}


class BootTimes(unittest.TestCase):
    def test_a_finished_boot_before_the_benches_passes(self):
        self.assertEqual(vm_checks.boot_times_problems("r.json", result_with_boot()), [])

    def test_a_missing_or_zero_total_is_named(self):
        self.assertIn("boot_total_s None", vm_checks.boot_times_problems("r.json", result_with_boot(total=None))[0])
        self.assertIn("boot_total_s 0", vm_checks.boot_times_problems("r.json", result_with_boot(total=0))[0])

    def test_benches_inside_the_boot_fail(self):
        problems = vm_checks.boot_times_problems("r.json", result_with_boot(finish=32_000_000))
        self.assertEqual(problems, ["r.json: the boot finished at 32.000 s, after the benches began at "
                                    "31.500 s: the suite ran inside the boot it measured"])

    def test_no_memory_after_settle_is_named(self):
        self.assertEqual(vm_checks.boot_times_problems("r.json", result_with_boot(mem=None)),
                         ["r.json: mem_used_mib None, expected a positive number "
                          "(read from /proc/meminfo after the settle time)"])

    def test_the_report_compares_boot_and_memory_with_verdicts(self):
        ok = {"metrics": [{"key": "boot_total_s", "verdict": "same"}, {"key": "mem_used_mib", "verdict": "worse"}]}
        self.assertEqual(vm_checks.report_metric_problems(ok), [])
        bad = {"metrics": [{"key": "boot_total_s", "verdict": None}]}
        self.assertEqual(vm_checks.report_metric_problems(bad),
                         ["report.json: boot_total_s has no verdict", "report.json compares no mem_used_mib"])

    def test_no_finish_time_fails(self):
        self.assertIn("boot_finish_monotonic_us None",
                      vm_checks.boot_times_problems("r.json", result_with_boot(finish=None))[0])


class FedoraTraps(unittest.TestCase):
    """The checks of the Fedora-like guest (issue 29) fail with the time, the
    boot and the reason, and pass on what a good night prints."""

    def night(self):
        return boot(0, 1, "base", down=None) + boot(100, 2, "a", run="a-1") + boot(200, 3, "base", down="Power down")

    def test_a_suspend_during_the_night_names_its_time_and_boot(self):
        lines = self.night() + [(150, "HARNESS suspend: the guest suspended itself (QMP SUSPEND); waking it"),
                                (260, "BOOTBENCH-VM idle trap: waiting for logind to suspend the idle machine")]
        every = vm_checks.boots_from_console(sorted(lines))
        with self.assertRaises(vm_checks.CheckFailed) as e:
            vm_checks.check_suspends(sorted(lines), every, "wrong-boot")
        self.assertIn("at 150 s in boot 2 (a)", str(e.exception))

    def test_the_idle_trap_must_suspend_the_idle_machine(self):
        lines = self.night() + [(260, "BOOTBENCH-VM idle trap: waiting for logind to suspend the idle machine")]
        every = vm_checks.boots_from_console(lines)
        with self.assertRaises(vm_checks.CheckFailed) as e:
            vm_checks.check_suspends(lines, every, "experiment")
        self.assertIn("the idle trap is not armed", str(e.exception))
        lines.append((355, "HARNESS suspend: the guest suspended itself (QMP SUSPEND); waking it"))
        vm_checks.check_suspends(lines, every, "experiment")

    def test_the_ansible_night_has_the_idle_trap_too(self):
        # The suite runs the ansible scenario in the experiment's place: it
        # must not lose the experiment's idle trap.
        lines = self.night() + [(260, "BOOTBENCH-VM idle trap: waiting for logind to suspend the idle machine")]
        every = vm_checks.boots_from_console(lines)
        with self.assertRaisesRegex(vm_checks.CheckFailed, "the idle trap is not armed"):
            vm_checks.check_suspends(lines, every, "ansible")

    def test_the_ansible_idle_trap_waits_for_the_controller(self):
        # Seen in a VM run: the trap began at "done", while the playbook
        # was still fetching the results.
        trap = (260, "BOOTBENCH-VM idle trap: waiting for logind to suspend the idle machine")
        fetch = (270, "HARNESS ansible: TASK [experiment : Fetch the results] ***")
        suspend = (355, "HARNESS suspend: the guest suspended itself (QMP SUSPEND); waking it")
        with self.assertRaisesRegex(vm_checks.CheckFailed, "began at 260 s, before the controller was done"):
            vm_checks.check_trap_after_controller(self.night() + [trap, fetch, suspend])
        vm_checks.check_trap_after_controller(self.night() + [fetch, (280, trap[1]), suspend])

    def test_bootbench_must_have_waited_for_the_held_lock(self):
        # Rehearsal 9: the update held the lock 30 s, bootbench looked after
        # it was released ("waited for the lock 0x") and the check passed.
        hold = (120, "BOOTBENCH-VM update: holding the sysroot lock (uptime 85 s)")
        with self.assertRaisesRegex(vm_checks.CheckFailed, "never waited for the sysroot lock"):
            vm_checks.check_lock_waited([hold])
        wait = (130, "bootbench[521]: bootbench: the ostree sysroot / is locked by another process "
                     "(an update: bootc, rpm-ostree); waiting up to 240 s")
        self.assertEqual(vm_checks.check_lock_waited([hold, wait]), 1)

    def test_the_wait_must_have_crossed_a_reboot(self):
        # CI (a fast machine) saw 3 unanswered checks for 5 reboots: one ssh
        # attempt with its retries outlasts a reboot there. Once is enough.
        vm_checks.check_wait_crossed_reboots(1)
        with self.assertRaisesRegex(vm_checks.CheckFailed, "unreachable 0 times: it never waited across a reboot"):
            vm_checks.check_wait_crossed_reboots(0)
        with self.assertRaisesRegex(vm_checks.CheckFailed, "never said how the wait went"):
            vm_checks.check_wait_crossed_reboots(None)

    def test_a_refusal_must_name_its_target(self):
        ok = [(10, "BOOTBENCH-VM refusal layered: exit=0 cannot start: target hand-layered: layered packages x"),
              (11, "BOOTBENCH-VM refusal nolib: exit=2 bootbench: error: target older-release: cannot load ..."),
              (12, "BOOTBENCH-VM refusals: undeployed layered (x.0)"),
              (13, "BOOTBENCH-VM refusals: undeployed nolib (y.0)")]
        vm_checks.check_refusals(ok)
        accepted = [(10, "BOOTBENCH-VM refusal layered: exit=0 ")] + ok[1:]
        with self.assertRaises(vm_checks.CheckFailed) as e:
            vm_checks.check_refusals(accepted)
        self.assertIn("did not refuse target 'hand-layered'", str(e.exception))

    def test_a_denial_naming_bootbench_fails_the_selinux_check(self):
        probe = (5, "BOOTBENCH-VM selinux: mode=Enforcing policy=default exec-trap=203 label=x")
        img = type("Img", (), {"manifest": {"SELINUX": "enforcing"}})()
        other = (7, 'audit: avc:  denied  { read } for pid=1 comm="systemd-journal" name="x"')
        vm_checks.check_selinux([probe, other], img)
        ours = (9, 'audit: avc:  denied  { write } for pid=9 comm="bootbench" name="state.json"')
        with self.assertRaises(vm_checks.CheckFailed) as e:
            vm_checks.check_selinux([probe, other, ours], img)
        self.assertIn('comm="bootbench"', str(e.exception))
        # A VM run saw bootbench's line and sshd's denial reach the console
        # as one line: the denial is sshd's, not bootbench's.
        merged = (9, '[   53.505286] bootbench[536]: bootbench: sleep inhibitor: held (logind block sleep:idle)'
                     '[   53.550178] audit: type=1400 audit(1796542041.320:71): avc:  denied  { read } for  '
                     'pid=545 comm="sshd-session" name="root" dev="vda1" ino=19032')
        vm_checks.check_selinux([probe, other, merged], img)
        trap_open = (5, "BOOTBENCH-VM selinux: mode=Enforcing policy=default exec-trap=0 label=x")
        with self.assertRaises(vm_checks.CheckFailed) as e:
            vm_checks.check_selinux([trap_open, other], img)
        self.assertIn("the exec trap is not armed", str(e.exception))

if __name__ == "__main__":
    unittest.main(verbosity=1)
