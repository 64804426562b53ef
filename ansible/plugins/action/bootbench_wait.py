# Waits until `bootbench status --json` on the host says the experiment is
# over, across the reboots the host makes by itself. ansible.builtin.reboot
# waits for one reboot it started; an experiment reboots the host once per
# run, at times only the host knows. Like reboot, a failed connection is
# reset and retried with exponential backoff; unlike it, the loop is bounded
# by the experiment's own estimate (or bootbench_timeout), not one boot.
from __future__ import annotations

import datetime
import json
import os
import random
import re
import time

from ansible.errors import AnsibleConnectionFailure, AnsibleError
from ansible.module_utils.common.text.converters import to_text
from ansible.plugins.action import ActionBase
from ansible.utils.display import Display

display = Display()

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


def started_epoch(status):
    """Epoch seconds of the status's started_at ("2026-12-05T02:00:00+01:00"), None when there is none."""
    try:
        return int(datetime.datetime.fromisoformat(status.get("started_at", "")).timestamp())
    except (TypeError, ValueError):
        return None


def is_tonights(status, since):
    """Whether the status is of an experiment started at or after `since`
    (the host's clock before start, epoch seconds): not last night's. Any
    experiment when no start time is given."""
    if status.get("experiment") is None:
        return False
    started = started_epoch(status)
    return since is None or (started is not None and started >= since)


def _last_line(text):
    lines = [line.strip() for line in to_text(text or "").splitlines() if line.strip()]
    return lines[-1] if lines else ""


def start_failure(job):
    """What the finished job of `bootbench start` (or simulate) says, as the
    wait's message; None while it runs or when nothing is known of it."""
    if not job or not job.get("finished") or "rc" not in job:
        return None
    cmd = job.get("cmd") or ["bootbench", "start"]
    words = "%s %s" % (os.path.basename(cmd[0]), cmd[1] if len(cmd) > 1 else "")
    if job["rc"] != 0:
        said = _last_line(job.get("stderr")) or _last_line(job.get("stdout"))
        return "%s failed (exit %s): %s" % (words.strip(), job["rc"], said)
    return "%s exited 0 without starting an experiment: %s" % (words.strip(), _last_line(job.get("stdout")))


def status_json(stdout):
    """The JSON `bootbench status --json` printed, after whatever the login
    wrote before it. Through become's terminal, sshd's own lines reach stdout:
    on an SELinux host where sshd may not enter root's home (the reference
    policy and the /root link of an ostree system) every command begins with
    "Could not chdir to home directory /root: Permission denied"."""
    lines = stdout.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("{")), len(lines))
    return json.loads("\n".join(lines[start:]))


def proves_not_started(job, status, since):
    """Whether start's ended job and the status read after it show that
    tonight's experiment never started. No status proves nothing after a
    start that exited 0: that host is going down into the first run, and a
    status command asked during its shutdown fails (seen on Debian 13: exit 1
    while systemd stops the services, before ssh goes)."""
    if status is not None:
        return not is_tonights(status, since)
    return job.get("rc", 0) != 0


def with_status_error(message, status, error):
    """The message, and what the status command said when it gave no status:
    without it a host whose status fails looks like one where start did nothing."""
    if status is not None or not error:
        return message
    return "%s; bootbench status gave no status: %s" % (message, error)


def earlier_message(status):
    """Why the wait gives up on a host whose state is not tonight's experiment."""
    if status.get("experiment") is None:
        return ("the host has no bootbench experiment (bootbench start refused, or its state is gone): "
                "see bootbench status and bootbench.log there")
    return ("the host's bootbench state is an earlier experiment's (%s, started %s), not one this play "
            "started: bootbench start did not start one; see bootbench status and bootbench.log there"
            % (status.get("experiment"), status.get("started_at")))


class ActionModule(ActionBase):
    TRANSFERS_FILES = False
    _VALID_ARGS = frozenset(("status_command", "plan_output", "sandbox", "timeout", "poll", "start_grace",
                             "started_after", "start_job"))

    def cleanup(self, force=False):
        """Removes the host's temporary folder of an async_status that a
        reboot cut off (its transfer failed midway), as ActionBase does; the
        host may be going down again now, so a connection failure here is a
        warning, not the night's result (seen on Debian 13)."""
        try:
            super().cleanup(force)
        except AnsibleError as e:
            display.warning("bootbench_wait: a temporary folder may be left on the host: %s" % to_text(e))

    def _status(self, command):
        """The status JSON; raises on a connection failure or unreadable output."""
        res = self._low_level_execute_command(command, sudoable=True)
        if res.get("rc", 1) != 0:
            raise AnsibleError("status exited %s: %s" % (res.get("rc"), to_text(res.get("stderr", "")).strip()))
        return status_json(to_text(res.get("stdout", "")))

    def _check(self, command, state):
        """One status check: (status, reachable). The status is None when the
        host did not answer (after backing off) or gave no status (no state
        yet, or half-written)."""
        try:
            status = self._status(command)
            state["failures"] = 0
            return status, True
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
            return None, False
        except (AnsibleError, ValueError) as e:  # up, but no state yet, or status half-written
            state["last_error"] = to_text(e).strip().splitlines()[-1:] or [""]
            return None, True

    def _start_job(self, jid, task_vars):
        """The async_status of start's job on the host; None when none was given."""
        if not jid:
            return None
        async_dir = self._remote_expand_user(self.get_shell_option("async_dir", default="~/.ansible_async"))
        return self._execute_module(module_name="ansible.legacy.async_status", task_vars=task_vars,
                                    module_args={"jid": jid, "_async_dir": async_dir})

    def _not_started(self, command, state, jid, task_vars):
        """Why start did not start tonight's experiment, when its job has ended
        and the host (asked again: start writes its state before it exits)
        still shows none of tonight's; None while it may yet."""
        try:
            job = self._start_job(jid, task_vars)
        except AnsibleError:  # the host went down (rebooting into the first run): ask again later
            return None
        why = start_failure(job)
        if why is None:
            return None
        status, reachable = self._check(command, state)
        return why if reachable and proves_not_started(job, status, state["since"]) else None

    def _fail(self, result, status, state, msg):
        result.update(failed=True, status=status, unreachable_count=state["unreachable"], msg=msg)
        return result

    def _verdict(self, result, status, state, args, task_vars):
        """The result when the wait is over for this reachable host, else None."""
        if status is not None and is_tonights(status, state["since"]):
            if not is_over(status):
                return None
            result.update(changed=False, status=status, unreachable_count=state["unreachable"],
                          failed=status["phase"] != "finished",
                          msg="experiment %s: %s" % (status.get("experiment"), status["phase"]))
            return result
        failure = self._not_started(args["status_command"], state, args.get("start_job"), task_vars)
        if failure is not None:
            return self._fail(result, status, state, with_status_error(failure, status, state["last_error"][0]))
        if status is not None and time.monotonic() > state["grace_end"]:
            return self._fail(result, status, state, earlier_message(status))
        return None

    def run(self, tmp=None, task_vars=None):
        result = super().run(tmp, task_vars)
        args = self._task.args
        bound, why = bound_seconds(int(args.get("timeout", 0)), args.get("plan_output", ""),
                                   bool(args.get("sandbox", False)))
        poll = int(args.get("poll", 10))
        since = args.get("started_after")
        state = {"failures": 0, "unreachable": 0, "last_error": [""],
                 "since": int(since) if since not in (None, "") else None,
                 "grace_end": time.monotonic() + int(args.get("start_grace", 300))}
        last = None
        end = time.monotonic() + bound
        while time.monotonic() < end:
            status, reachable = self._check(args["status_command"], state)
            if not reachable:
                continue
            last = status if status is not None else last
            done = self._verdict(result, status, state, args, task_vars)
            if done is not None:
                return done
            time.sleep(poll)
        return self._fail(result, last, state,
                          "the experiment did not finish within %d s (%s); last status: %s; last error: %s"
                          % (bound, why, json.dumps(last), state["last_error"][0]))
