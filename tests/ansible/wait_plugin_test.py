#!/usr/bin/env python3
"""The bound of bootbench_wait from `bootbench plan`'s estimate, on
hand-computed values, when it says the experiment is over, and how it tells
tonight's experiment (started after the play's start) from last night's and
what it says when start did not start one. Needs the ansible Python package (Debian's
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

# Tonight's experiment: started at or after the host's clock read before start.
LAST_NIGHT = {"experiment": "lab", "phase": "finished", "reboot_pending": False,
              "started_at": "2026-12-04T22:00:00+01:00"}
TONIGHT = dict(LAST_NIGHT, phase="running", started_at="2026-12-05T02:00:00+01:00")
SINCE = 1796432400  # 2026-12-05T01:00:00Z, the host's `date +%s` before start
same(w.started_epoch(TONIGHT), 1796432400, "an ISO time with offset in epoch seconds")
same(w.started_epoch({"started_at": "yesterday"}), None, "no time")
same(w.started_epoch({}), None, "a status without started_at")
same(w.is_tonights(TONIGHT, SINCE), True, "started at the second start was called")
same(w.is_tonights(dict(TONIGHT, started_at="2026-12-05T01:59:59+01:00"), SINCE), False, "a second before")
same(w.is_tonights(LAST_NIGHT, SINCE), False, "last night's finished experiment")
same(w.is_tonights({"experiment": None}, SINCE), False, "no experiment")
same(w.is_tonights(dict(TONIGHT, started_at="?"), SINCE), False, "an unreadable start time")
same(w.is_tonights(LAST_NIGHT, None), True, "without a start time, any experiment (as before)")

# What start's finished job says (ansible's async_status of the start task).
REFUSED = {"finished": 1, "rc": 2, "cmd": ["/var/tmp/bootbench-lab/bootbench", "start", "/x.toml"],
           "stdout": "image digests:\n", "stderr": "bootbench: error: a staged update is waiting; starting "
           "would drop it. Reboot into it first, or start with --drop-staged\n"}
STAGED = {"finished": 1, "rc": 0, "cmd": ["/w/bootbench", "start", "/x.toml"], "stderr": "",
          "stdout": "image digests:\ntarget b is not deployed; staging it with: bootc switch q\nstaged b: it "
          "becomes a deployment at the next boot. Reboot, then run the same 'bootbench start' again\n"}
same(w.start_failure(REFUSED), "bootbench start failed (exit 2): bootbench: error: a staged update is waiting; "
     "starting would drop it. Reboot into it first, or start with --drop-staged", "start refused")
same(w.start_failure(STAGED), "bootbench start exited 0 without starting an experiment: staged b: it becomes a "
     "deployment at the next boot. Reboot, then run the same 'bootbench start' again", "start only staged")
same(w.start_failure(dict(REFUSED, cmd=["/w/bootbench", "simulate", "--quick"], stderr="", stdout="oops\n")),
     "bootbench simulate failed (exit 2): oops", "simulate refused, said on stdout")
same(w.start_failure({"finished": 0, "started": 1}), None, "start still running")
same(w.start_failure({"finished": 1, "failed": True, "msg": "could not find job"}), None,
     "no such job (a reboot cleared it): nothing known")
same(w.start_failure(None), None, "no job given")
same(w.earlier_message(LAST_NIGHT), "the host's bootbench state is an earlier experiment's (lab, started "
     "2026-12-04T22:00:00+01:00), not one this play started: bootbench start did not start one; see "
     "bootbench status and bootbench.log there", "last night's state past the grace")
same(w.earlier_message({"experiment": None}), "the host has no bootbench experiment (bootbench start "
     "refused, or its state is gone): see bootbench status and bootbench.log there", "no state past the grace")
same(w.with_status_error("bootbench start exited 0 without starting an experiment: b -> 2", None,
                         "status exited 1: bootbench: error: cannot read /var/lib/bootbench/state.json"),
     "bootbench start exited 0 without starting an experiment: b -> 2; bootbench status gave no status: "
     "status exited 1: bootbench: error: cannot read /var/lib/bootbench/state.json", "why status said nothing")
same(w.with_status_error("start refused", LAST_NIGHT, "old error"), "start refused", "a status: no error added")
same(w.with_status_error("start refused", None, ""), "start refused", "no error known")
# What the status command printed, after the login's own lines (seen on the
# SELinux guest, through become's terminal).
STATUS_OUT = '{\n  "experiment": null,\n  "state_dir": "/var/lib/bootbench"\n}\n'
same(w.status_json(STATUS_OUT), {"experiment": None, "state_dir": "/var/lib/bootbench"}, "the status alone")
same(w.status_json("Could not chdir to home directory /root: Permission denied\r\n" + STATUS_OUT),
     {"experiment": None, "state_dir": "/var/lib/bootbench"}, "the status after sshd's line")
try:
    w.status_json("bootbench: error: half\n")
    same("parsed", "ValueError", "no JSON at all")
except ValueError:
    pass

# After start's job ended: what the status read then proves.
same(w.proves_not_started(STAGED, None, SINCE), False, "start exited 0, no status: the host is going down")
same(w.proves_not_started(STAGED, {"experiment": None}, SINCE), True, "start exited 0, the host has no experiment")
same(w.proves_not_started(STAGED, LAST_NIGHT, SINCE), True, "start exited 0, last night's state only")
same(w.proves_not_started(STAGED, TONIGHT, SINCE), False, "start exited 0, tonight's experiment runs")
same(w.proves_not_started(REFUSED, None, SINCE), True, "start refused, no status")
same(w.proves_not_started(REFUSED, LAST_NIGHT, SINCE), True, "start refused, last night's state")
# The task's cleanup (ActionBase's, through the plugin) on a host going down:
# the temporary folder of an async_status cut off by a reboot is still set,
# and removing it fails to connect. That must not fail the wait's result.
import types
from ansible.errors import AnsibleConnectionFailure


def unreachable(cmd, sudoable=True):
    raise AnsibleConnectionFailure("Failed to connect to the host via ssh: Connection timed out during banner exchange")


action = w.ActionModule.__new__(w.ActionModule)
action._task = types.SimpleNamespace(async_val=0)
action._connection = types.SimpleNamespace(_shell=types.SimpleNamespace(
    tmpdir="/root/.ansible/tmp/ansible-tmp-1", remove=lambda path, recurse=False: "rm -rf " + path))
action._should_remove_tmp_path = lambda path: True
action._low_level_execute_command = unreachable
try:
    action.cleanup()
except Exception as e:  # noqa: BLE001 - any escape fails the task
    same(repr(e), None, "cleanup on a rebooting host")
sys.exit(1 if failures else 0)
