# A local connection whose host "reboots" while bootbench_wait asks for the
# status: for tests only. FLAKY_DIR/<host>.down holds how many status calls
# fail as unreachable (AnsibleConnectionFailure, as ssh raises for a host that
# is down), or "always"; every reset() is a line in FLAKY_DIR/<host>.resets.
from __future__ import annotations

import os

from ansible.errors import AnsibleConnectionFailure
from ansible.plugins.connection.local import Connection as LocalConnection

DOCUMENTATION = r"""
name: flaky_local
short_description: local execution that is unreachable for bootbench status calls (tests)
description:
  - The local connection, except that C(bootbench status --json) fails as unreachable as often as
    FLAKY_DIR/HOST.down says.
options: {}
"""


class Connection(LocalConnection):
    transport = "flaky_local"

    def _file(self, suffix):
        return os.path.join(os.environ["FLAKY_DIR"], self._play_context.remote_addr + suffix)

    def _down(self):
        try:
            with open(self._file(".down")) as f:
                left = f.read().strip()
        except FileNotFoundError:
            return False
        if left == "always":
            return True
        if int(left) <= 0:
            return False
        with open(self._file(".down"), "w") as f:
            f.write(str(int(left) - 1))
        return True

    def exec_command(self, cmd, in_data=None, sudoable=True):
        if "status --json" in cmd and self._down():
            raise AnsibleConnectionFailure("Failed to connect to the host via flaky_local: rebooting (test)")
        return super().exec_command(cmd, in_data=in_data, sudoable=sudoable)

    def reset(self):
        with open(self._file(".resets"), "a") as f:
            f.write("reset\n")
        self.close()
