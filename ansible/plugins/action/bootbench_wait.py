# Waits until `bootbench status --json` on the host says the experiment is
# over, across the reboots the host makes by itself. ansible.builtin.reboot
# waits for one reboot it started; an experiment reboots the host once per
# run, at times only the host knows. Like reboot, a failed connection is
# reset and retried with exponential backoff; unlike it, the loop is bounded
# by the experiment's own estimate (or bootbench_timeout), not one boot.
from __future__ import annotations

import json
import random
import re
import time

from ansible.errors import AnsibleConnectionFailure, AnsibleError
from ansible.module_utils.common.text.converters import to_text
from ansible.plugins.action import ActionBase

# Documented in plugins/modules/bootbench_wait.py (ansible-doc bootbench.lab.bootbench_wait).

# "estimate: 1 h 05 min (...)", "as a simulation (...): 3 min 20 s"
_DURATION = r"(?:(\d+) h (\d+) min|(\d+) min (\d+) s|(\d+) s)"
_MAX_BACKOFF_S = 12
_FALLBACK_S = 3600


def duration_seconds(text):
    """Seconds of bootbench's format_duration text, None when there is none."""
    m = re.fullmatch(_DURATION, text.strip())
    if not m:
        return None
    h, hm, m_, ms, s = (int(x) if x else 0 for x in m.groups())
    return h * 3600 + hm * 60 + m_ * 60 + ms + s


def estimate_seconds(plan_output, sandbox):
    """The estimate `bootbench plan` printed: the simulation's one for a sandbox."""
    prefix = r"as a simulation \(bootbench simulate, no reboots\): " if sandbox else r"estimate: "
    m = re.search("^" + prefix + "(" + _DURATION + ")", plan_output, re.MULTILINE)
    return duration_seconds(m.group(1)) if m else None


def bound_seconds(timeout, plan_output, sandbox):
    if timeout > 0:
        return timeout, "bootbench_timeout"
    estimate = estimate_seconds(plan_output, sandbox)
    if estimate is None:
        return _FALLBACK_S, "no estimate in plan's output: %d s" % _FALLBACK_S
    return int(estimate * 1.5) + 60, "1.5 x plan's estimate of %d s" % estimate


def is_over(status):
    """Whether the experiment is over and the host stays up: a finished
    experiment whose last run ended in a target reboots into the original
    default next (reboot_pending), and a fetch now would be cut off."""
    return status.get("phase") in ("finished", "aborted") and not status.get("reboot_pending", False)


class ActionModule(ActionBase):
    TRANSFERS_FILES = False
    _VALID_ARGS = frozenset(("status_command", "plan_output", "sandbox", "timeout", "poll", "start_grace"))

    def _status(self, command):
        """The status JSON; raises on a connection failure or unreadable output."""
        res = self._low_level_execute_command(command, sudoable=True)
        if res.get("rc", 1) != 0:
            raise AnsibleError("status exited %s: %s" % (res.get("rc"), to_text(res.get("stderr", "")).strip()))
        return json.loads(res.get("stdout", ""))

    def _check(self, command, state, poll):
        """One status check; returns the status, or None after a failure it waited on."""
        try:
            status = self._status(command)
            state["failures"] = 0
            return status
        except AnsibleConnectionFailure as e:  # rebooting: reset, back off like builtin.reboot
            state["unreachable"] += 1
            state["last_error"] = to_text(e).strip().splitlines()[-1:] or [""]
            try:
                self._connection.reset()
            except (AnsibleError, AttributeError):
                pass
            sleep = min(2 ** state["failures"], _MAX_BACKOFF_S) + random.randint(0, 1000) / 1000
            state["failures"] += 1
            time.sleep(sleep)
        except (AnsibleError, ValueError) as e:  # up, but no state yet, or status half-written
            state["last_error"] = to_text(e).strip().splitlines()[-1:] or [""]
            time.sleep(poll)
        return None

    def run(self, tmp=None, task_vars=None):
        result = super().run(tmp, task_vars)
        args = self._task.args
        command = args["status_command"]
        bound, why = bound_seconds(int(args.get("timeout", 0)), args.get("plan_output", ""),
                                   bool(args.get("sandbox", False)))
        poll = int(args.get("poll", 10))
        state = {"failures": 0, "unreachable": 0, "last_error": [""]}
        last = None
        end = time.monotonic() + bound
        grace_end = time.monotonic() + int(args.get("start_grace", 300))
        while time.monotonic() < end:
            status = self._check(command, state, poll)
            if status is not None and status.get("experiment") is None and time.monotonic() > grace_end:
                result.update(failed=True, status=status, unreachable_count=state["unreachable"],
                              msg="the host has no bootbench experiment (bootbench start refused, or its "
                                  "state is gone): see bootbench status and bootbench.log there")
                return result
            if status is not None:
                last = status
                if is_over(status):
                    result.update(changed=False, status=status, unreachable_count=state["unreachable"],
                                  failed=status["phase"] != "finished",
                                  msg="experiment %s: %s" % (status.get("experiment"), status["phase"]))
                    return result
                time.sleep(poll)
        result.update(failed=True, status=last, unreachable_count=state["unreachable"],
                      msg="the experiment did not finish within %d s (%s); last status: %s; last error: %s"
                      % (bound, why, json.dumps(last), state["last_error"][0]))
        return result
