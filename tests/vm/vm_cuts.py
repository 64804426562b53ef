"""When the harness pulls the plug on the guest, the way a person does to a
frozen laptop: qemu is killed without warning and the same disk boots again.

Two reasons:
- the guest stalled: the kernel reports a soft lockup, an RCU stall or a hung
  task, and no boot progress follows within STALL_GRACE seconds, or the
  console is silent for SILENCE_LIMIT seconds. At most MAX_STALL_CUTS such
  cuts per scenario, then the test fails with the console tail.
- the power-cut scenario: planned cuts at moments read from the console
  (during a bench, right after a stored result, during the switch of the
  default deployment), each armed after the one before it fired.
"""
import re
from dataclasses import dataclass, field

STALL = re.compile(r"soft lockup - CPU#\d+ stuck|rcu: INFO: rcu_\w+ (self-)?detected stall"
                   r"|blocked for more than \d+ seconds")
# Lines that show a boot still moving: the bootloader, systemd, bootbench,
# the test image's own lines.
PROGRESS = re.compile(r"^SYSLINUX \d|^HARNESS |\[  OK  \]|Starting |Started |Reached target"
                      r"|bootbench: |BOOTBENCH-VM |reboot: ")
STALL_GRACE = 45
SILENCE_LIMIT = 180
MAX_STALL_CUTS = 2


@dataclass
class Planned:
    label: str
    pattern: str
    delay: float  # seconds after the line was seen


# The power-cut scenario, in the order they fire (see docs/vm.md).
POWER_CUTS = [
    Planned("during a bench of run a-1", r"bootbench: bench \S+: running", 1.0),
    Planned("right after run b-1 was stored, before the switch", r"bootbench: run b-1: ok", 0.0),
    Planned("during the switch of the default deployment", r"bootbench: switching the default to ", 0.3),
]


@dataclass
class Cut:
    reason: str
    t: float          # console time of the cut
    boot: int = 0     # 1-based console boot it ended (filled in by the checks)
    planned: bool = False


@dataclass
class Watch:
    """Fed every new console line; says when to cut. One per scenario."""
    planned: list = field(default_factory=list)
    cuts: list = field(default_factory=list)
    stall_since: float = None
    fire_at: float = None
    firing: Planned = None

    def line(self, t, text):
        if STALL.search(text):
            if self.stall_since is None:
                self.stall_since = t
        elif PROGRESS.search(text):
            self.stall_since = None
        if self.firing is None and self.planned and re.search(self.planned[0].pattern, text):
            self.firing = self.planned.pop(0)
            self.fire_at = t + self.firing.delay

    def due(self, now, last_output):
        """The reason to cut now, or None."""
        if self.firing is not None and now >= self.fire_at:
            return Cut(f"planned: {self.firing.label}", now, planned=True)
        if self.stall_since is not None and now - self.stall_since >= STALL_GRACE:
            return Cut(f"stall: the kernel reported a stall at {self.stall_since:.0f} s and the boot "
                       f"made no progress for {STALL_GRACE} s", now)
        if now - last_output >= SILENCE_LIMIT:
            return Cut(f"stall: the console was silent for {SILENCE_LIMIT} s", now)
        return None

    def record(self, cut):
        """Keeps the cut; raises ValueError when one stall cut too many."""
        self.cuts.append(cut)
        self.stall_since = None
        if cut.planned:
            self.firing = None
        stalls = [c for c in self.cuts if not c.planned]
        if len(stalls) > MAX_STALL_CUTS:
            raise ValueError(f"the guest stalled {len(stalls)} times (at most {MAX_STALL_CUTS} "
                             f"power cuts for stalls): {cut.reason}")

    def unfired(self):
        return [p.label for p in ([self.firing] if self.firing else []) + self.planned]
