#!/usr/bin/env python3
"""The bound of bootbench_wait from `bootbench plan`'s estimate, on
hand-computed values, and when it says the experiment is over. Needs the ansible Python package (Debian's
ansible-core is for /usr/bin/python3)."""
import sys

sys.path.insert(0, sys.argv[1] + "/ansible/plugins/action")
try:
    import bootbench_wait as w
except ImportError as e:
    print(f"SKIP: {e}")
    sys.exit(77)

PLAN = """runs: a-1 b-1

estimate: 2 h 10 min (13 min 00 s per run, assuming 90 s per boot; waits for the CPU to cool are extra)
as a simulation (bootbench simulate, no reboots): 4 min 02 s
"""

failures = 0


def same(got, want, what):
    global failures
    if got != want:
        print(f"FAIL {what}: got {got!r}, want {want!r}")
        failures += 1


same(w.duration_seconds("1 h 05 min"), 3900, "hours")
same(w.duration_seconds("3 min 20 s"), 200, "minutes")
same(w.duration_seconds("7 s"), 7, "seconds")
same(w.duration_seconds("soon"), None, "no duration")
same(w.estimate_seconds(PLAN, False), 7800, "the night's estimate")
same(w.estimate_seconds(PLAN, True), 242, "the simulation's estimate")
same(w.bound_seconds(0, PLAN, False), (11760, "1.5 x plan's estimate of 7800 s"), "1.5 x + 60 s")
same(w.bound_seconds(0, PLAN, True), (423, "1.5 x plan's estimate of 242 s"), "sandbox bound")
same(w.bound_seconds(50, PLAN, False), (50, "bootbench_timeout"), "a given timeout wins")
same(w.bound_seconds(0, "", False), (3600, "no estimate in plan's output: 3600 s"), "fallback")
same(w.is_over({"phase": "running"}), False, "running")
same(w.is_over({"phase": "finished", "reboot_pending": False}), True, "finished, up in the original default")
same(w.is_over({"phase": "finished", "reboot_pending": True}), False, "finished, rebooting into the original next")
same(w.is_over({"phase": "aborted"}), True, "aborted")
same(w.is_over({"phase": "finished"}), True, "finished, by a bootbench without reboot_pending")
sys.exit(1 if failures else 0)
