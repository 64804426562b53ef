#!/usr/bin/python
# The documentation of the bootbench_wait action (plugins/action/bootbench_wait.py),
# where ansible-doc and ansible-lint look for it; the action does all the work
# on the controller, so this module never runs on a host.
from __future__ import annotations

DOCUMENTATION = r"""
module: bootbench_wait
short_description: Wait across a host's own reboots until its bootbench experiment is over
description:
  - Runs C(bootbench status --json) on the host until the experiment's phase is finished or
    aborted and the host stays up (a finished experiment whose last run ended in a target says
    C(reboot_pending) until it has rebooted into the original default); an unreachable host
    (rebooting) is retried after a connection reset with backoff (up to 12 s), as often as needed.
  - The bound is I(timeout) when given, else 1.5 times the estimate in I(plan_output), plus a minute.
  - Only the experiment that this play started counts, one whose C(started_at) is at or after
    I(started_after) (the host's clock before start): last night's finished experiment is not
    tonight's.
  - Fails when the bound passes, when the experiment was aborted, when the job I(start_job) of
    C(bootbench start) ended without starting one (refused, or only staged a target: its message),
    or when a reachable host shows no experiment of this play for longer than I(start_grace).
version_added: 1.0.0
author: bootbench contributors
options:
  status_command:
    description: The status command, e.g. C(/var/tmp/bootbench-lab/bootbench status --json).
    required: true
    type: str
  plan_output:
    description: What C(bootbench plan) printed on the host; its estimate sets the bound.
    type: str
    default: ""
  sandbox:
    description: Whether the host runs C(bootbench simulate); the simulation's estimate counts.
    type: bool
    default: false
  timeout:
    description: Seconds to wait at most (0 = 1.5 times plan's estimate).
    type: int
    default: 0
  poll:
    description: Seconds between two status checks of a host that answers.
    type: int
    default: 10
  start_grace:
    description: Seconds a reachable host may show no experiment of this play before the wait fails.
    type: int
    default: 300
  started_after:
    description: The host's clock (epoch seconds, C(date +%s) there) just before C(bootbench start) ran;
      an experiment that started before it is an earlier one. Omitted, any experiment counts.
    type: int
  start_job:
    description: The async job id of the task that ran C(bootbench start) (or C(simulate)); when it
      has ended and no experiment of this play is there, the wait fails with its message.
    type: str
"""

EXAMPLES = r"""
- name: Wait until the experiment is over
  bootbench.lab.bootbench_wait:
    status_command: /var/tmp/bootbench-lab/bootbench status --json
    plan_output: "{{ bootbench_plan.stdout }}"
"""

RETURN = r"""
status:
  description: The last C(bootbench status --json) the host printed.
  returned: always
  type: dict
unreachable_count:
  description: How many status checks found the host unreachable.
  returned: always
  type: int
"""

from ansible.module_utils.basic import AnsibleModule


def main():
    # The action's arguments, as the documentation above lists them.
    module = AnsibleModule(
        argument_spec={
            "status_command": {"type": "str", "required": True},
            "plan_output": {"type": "str", "default": ""},
            "sandbox": {"type": "bool", "default": False},
            "timeout": {"type": "int", "default": 0},
            "poll": {"type": "int", "default": 10},
            "start_grace": {"type": "int", "default": 300},
            "started_after": {"type": "int"},
            "start_job": {"type": "str"},
        },
        supports_check_mode=True,
    )
    module.fail_json(msg="bootbench_wait is an action: it runs on the controller, never as a module")


if __name__ == "__main__":
    main()
