"""What the VM test asserts, from the console log and the files read back out
of the image. Each failure says which boot or run, what was expected and
what was found."""
import json
import re
import subprocess
from datetime import datetime
from pathlib import Path

BOOT_LINE = re.compile(r"BOOTBENCH-VM boot=(\d+) variant=(\S+) deployment=(\S+)")
LOADER_LINE = re.compile(r"^SYSLINUX \d|^HARNESS kernel boot")
KERNEL_LINE = re.compile(r"Linux version \d")
# The resume unit starts (systemd does not always print its status line).
RESUME_LINE = re.compile(r"Start(ing|ed) bootbench-resume|Starting bootbench: measure|bootbench: boot into ")
BENCH_LINE = re.compile(r"bootbench: bench \S+: running")
# bootbench is done with this boot: it asks for the reboot.
HANDOFF_LINE = re.compile(r"bootbench: (rebooting into|experiment \S+ finished)")
DOWN_LINE = re.compile(r"reboot: (Restarting system|Power down)")
SWITCH_LINE = re.compile(r"bootbench: switching the default to ")
CUT_LINE = re.compile(r"^HARNESS power cut: (.*)")
# bootbench's first words in a boot that measures: the run and its attempt.
ATTEMPT_LINE = re.compile(r"bootbench: boot into .*: run (\S+) \(attempt (\d+) of \d+\)")
STORED_LINE = re.compile(r"bootbench: run (\S+): ok")
SETTLE_S = 1  # conditions.settle_s in guest/experiment.toml
EXPERIMENT = "vm-ab"
PLANNED = [("a-1", "a"), ("b-1", "b"), ("a-2", "a"), ("b-2", "b")]
# The scenarios of a whole night as the users have it: the update at boot
# fires in each boot, and the idle machine suspends after the end. The
# ansible scenario is the experiment one driven from a controller, so the
# suite runs it in the experiment's place (tests/vm/meson.build).
NIGHTS = ("experiment", "ansible")
IDLE_TRAP = ("smoke",) + NIGHTS


class CheckFailed(Exception):
    pass


def expect(cond, msg):
    if not cond:
        raise CheckFailed(msg)


# --- the console ---------------------------------------------------------------

def boots_from_console(lines, guest_boots=None):
    """One dict per boot, in order: when the bootloader, the kernel, the guest's
    boot line, bootbench's resume unit and the reboot/power-off happened, and
    a power cut that ended it. With the guest's boots.log, a boot whose boot
    line the console lost (seen: interleaved with other output) takes its
    number, variant and deployment from there."""
    boots = []
    cur = None
    for t, s in lines:
        if LOADER_LINE.search(s):
            cur = {"t_loader": t}
            boots.append(cur)
            continue
        if cur is None:  # output before the first bootloader banner
            continue
        note_bootbench(cur, s, t)
        if (m := CUT_LINE.search(s)) and "cut" not in cur:
            cur.update(t_cut=t, cut=m[1])
        elif KERNEL_LINE.search(s) and "t_kernel" not in cur:
            cur["t_kernel"] = t
        elif (m := BOOT_LINE.search(s)) and "n" not in cur:
            cur.update(t_up=t, n=int(m[1]), variant=m[2], deployment=m[3])
        elif RESUME_LINE.search(s) and "t_resume" not in cur:
            cur["t_resume"] = t
        elif BENCH_LINE.search(s) and "t_bench" not in cur:
            cur["t_bench"] = t
        elif HANDOFF_LINE.search(s) and "t_handoff" not in cur:
            cur["t_handoff"] = t
        elif DOWN_LINE.search(s) and "t_down" not in cur:
            cur["t_down"] = t
            cur["down"] = "reboot" if "Restarting" in s else "poweroff"
    if guest_boots is not None:
        fill_lost_boot_lines(boots, guest_boots)
    return boots


def note_bootbench(cur, s, t):
    """The run a boot measured, the attempt bootbench counted, whether a bench
    started, when the run was stored and when the switch began."""
    if m := ATTEMPT_LINE.search(s):
        cur.update(run=m[1], attempt=int(m[2]))
    elif BENCH_LINE.search(s):
        cur["benched"] = True
    elif m := STORED_LINE.search(s):
        cur.update(stored=m[1], t_stored=t)
    elif SWITCH_LINE.search(s) and "t_switch" not in cur:
        cur["t_switch"] = t


def fill_lost_boot_lines(boots, guest_boots):
    """A console boot without a boot line, followed (or preceded) by boots
    whose numbers leave a gap that boots.log fills, is that boots.log entry.
    A boot cut before userspace has no entry and stays without one."""
    by_n = {int(g["boot"]): g for g in guest_boots}
    seen = {b["n"] for b in boots if "n" in b}
    last = 0
    for i, b in enumerate(boots):
        if "n" in b:
            last = b["n"]
            continue
        nxt = next((x["n"] for x in boots[i + 1:] if "n" in x), max(by_n, default=0) + 1)
        g = by_n.get(last + 1)
        if g is not None and last + 1 not in seen and last + 1 < nxt and reached_userspace(b):
            b.update(n=last + 1, variant=g["variant"], deployment=g["deployment"], line_lost=True)
            seen.add(last + 1)
            last += 1


def reached_userspace(boot):
    return any(k in boot for k in ("t_resume", "t_bench", "t_handoff", "run")) or boot.get("down") == "reboot"


def entry_for_previous_boot(entries, lines):
    """Harness-as-bootloader wrong boot: the entry of the previous boot's
    variant instead of ostree's default."""
    seen = [b for b in boots_from_console(lines) if "variant" in b]
    want = f"bootbench_vm.variant={seen[-1]['variant']}"
    for e in entries:
        if want in e.get("options", "").split():
            return e
    raise CheckFailed(f"no boot entry has {want}")


# --- files read out of the image ----------------------------------------------

def read_boots_log(out):
    path = Path(out) / "bootbench-vm" / "boots.log"
    boots = []
    for line in path.read_text().splitlines() if path.exists() else []:
        boots.append(dict(kv.split("=", 1) for kv in line.split()))
    return boots


def read_results(out):
    """Every run result (schema bootbench-run/1) under results/, by file."""
    results = {}
    for p in sorted((Path(out) / "bootbench" / "results").rglob("*.json")):
        try:
            doc = json.loads(p.read_text())
        except ValueError as e:
            raise CheckFailed(f"{p} is not valid JSON: {e}")
        if isinstance(doc, dict) and doc.get("schema") == "bootbench-run/1":
            results[str(p)] = doc
    return results


def run_id(result):
    return result.get("run", result.get("run_id"))


def epoch(iso):
    return datetime.fromisoformat(iso).timestamp()


def boot_of_result(result, guest_boots):
    """The guest's boot (from boots.log) in which a result was measured: by
    boot id when the result records one, else the last boot that started
    before the run did (the guest's clock is qemu's RTC in every boot)."""
    boot_id = (result.get("environment") or {}).get("boot_id")
    for g in guest_boots:
        if boot_id and g.get("boot_id") == boot_id:
            return g
    started = epoch(result["started_at"]) if result.get("started_at") else None
    before = [g for g in guest_boots if started is not None and "time" in g and int(g["time"]) <= started]
    return before[-1] if before else None


def bench_seconds(result):
    return sum(float(b.get("wall_s", 0)) for b in result.get("benches", []))


# --- timings ---------------------------------------------------------------------

def timings(lines, img, out):
    lines = guest_lines(lines)
    guest_boots = read_boots_log(out)
    boots = boots_from_console(lines, guest_boots)
    by_boot = {}
    for r in read_results(out).values():
        g = boot_of_result(r, guest_boots)
        if g is not None:
            by_boot[int(g["boot"])] = r
    rows = []
    for i, b in enumerate(boots):
        row = {"boot": i + 1, "variant": b.get("variant")}
        nxt = boots[i + 1]["t_loader"] if i + 1 < len(boots) else None
        if "t_up" in b:
            row["loader_to_userspace_s"] = round(b["t_up"] - b["t_loader"], 1)
        if "t_down" in b:
            row["loader_to_down_s"] = round(b["t_down"] - b["t_loader"], 1)
        if "cut" in b:
            row["power_cut_after_s"] = round(b["t_cut"] - b["t_loader"], 1)
            row["power_cut"] = b["cut"]
        if nxt is not None:
            row["cycle_s"] = round(nxt - b["t_loader"], 1)
        if "t_resume" in b:
            row["loader_to_resume_s"] = round(b["t_resume"] - b["t_loader"], 1)
        if "t_bench" in b:
            row["loader_to_bench_s"] = round(b["t_bench"] - b["t_loader"], 1)
        r = by_boot.get(b.get("n"))
        if r is not None and "t_resume" in b and "t_handoff" in b:
            # What bootbench adds to a run beyond the boot and the benchmarks:
            # from its unit's start to its reboot request, less the benches'
            # wall time and the configured settle time.
            benches = bench_seconds(r)
            row["benches_s"] = round(benches, 1)
            row["resume_to_reboot_request_s"] = round(b["t_handoff"] - b["t_resume"], 1)
            row["bootbench_overhead_s"] = round(b["t_handoff"] - b["t_resume"] - benches - SETTLE_S, 1)
        steps(row, b)
        rows.append(row)
    floor = switch_floor(lines)
    cuts = [{"boot": r["boot"], "after_s": r["power_cut_after_s"], "why": r["power_cut"]}
            for r in rows if "power_cut" in r]
    return {"build": img.build_times, "boots": rows, "power_cuts": cuts, "switch_floor": floor}


def steps(row, b):
    """bootbench's own steps at the end of a run, from its console lines:
    from the stored result to the switch, and the switch of the default
    deployment up to the reboot request."""
    if "t_stored" in b and "t_switch" in b:
        row["stored_to_switch_s"] = round(b["t_switch"] - b["t_stored"], 1)
    if "t_switch" in b and "t_handoff" in b:
        row["switch_s"] = round(b["t_handoff"] - b["t_switch"], 1)


FLOOR_LINE = re.compile(r"BOOTBENCH-VM floor: (bootbench set_default|bare reorder \(floor\))\s+([0-9.]+)")


def switch_floor(lines):
    """bench/switch-default --live in the first boot: the median switch by
    bootbench and by the bare libostree reorder, in seconds."""
    found = {m[1].split()[0]: float(m[2]) for _, s in lines if (m := FLOOR_LINE.search(s))}
    if len(found) < 2:
        return None
    return {"bootbench_s": found["bootbench"], "bare_reorder_s": found["bare"],
            "ratio": round(found["bootbench"] / found["bare"], 2)}


def print_timings(t):
    print("timings (seconds):")
    print("  image: " + ", ".join(f"{k.replace('TIME_', '').lower()}={v:.1f}"
                                  for k, v in t["build"].items()))
    for r in t["boots"]:
        print("  boot {boot} ({variant}): ".format(**r) + ", ".join(
            f"{k}={v}" for k, v in r.items() if k not in ("boot", "variant")))
    if t.get("switch_floor"):
        print("  switch in the first boot (median of 5): bootbench {bootbench_s} s, bare libostree reorder "
              "{bare_reorder_s} s, ratio {ratio}".format(**t["switch_floor"]))
    print(f"  boots total={t.get('boots_total_s')}, image build={t.get('image_build_s')}, "
          f"whole test={t.get('total_s')}")


# --- the scenarios -------------------------------------------------------------------

def guest_lines(lines):
    """The console without the controller's lines (ansible scenario): they
    may quote bootbench's output, which the checks read as the guest's."""
    return [(t, s) for t, s in lines if not s.startswith("HARNESS ansible: ")]


def check(scenario, lines, img, out):
    if scenario == "ansible":
        check_trap_after_controller(lines)
    lines = guest_lines(lines)
    every = boots_from_console(lines, read_boots_log(out))
    boots = [b for b in every if "variant" in b]
    variants = [b["variant"] + (" (cut)" if "cut" in b else "") for b in boots]
    print(f"boots seen on the console: {' '.join(variants)}")
    for i, b in enumerate(every):
        if "cut" in b:
            print(f"console boot {i + 1} ({b.get('variant', 'before userspace')}) was power-cut: {b['cut']}")
    check_console_matches_guest_log(boots, out)
    expect(any("BOOTBENCH-VM done" in s for _, s in lines),
           "the guest never printed 'BOOTBENCH-VM done' (the scenario did not finish)")
    if scenario == "wrong-boot":
        check_wrong_boot(boots, img, out, lines)
    elif scenario == "power-cut":
        check_power_cut(every, boots, img, out, lines)
    elif scenario == "explain":
        import vm_explain  # its checks use this module's
        vm_explain.check_explain(boots, img, out)
    elif scenario == "bisect":
        import vm_bisect  # its checks use this module's
        vm_bisect.check_bisect(boots, img, out, lines)
    else:
        {"smoke": check_smoke, "experiment": check_experiment, "ansible": check_experiment}[scenario](boots, img, out)
    if any("cut" in b for b in every):
        check_attempts_count_cuts(every, out)
    check_selinux(lines, img)
    check_suspends(lines, every, scenario)
    if scenario != "smoke":
        check_refusals(lines)
    if scenario in NIGHTS:
        check_update_at_boot(lines, out)
    if scenario != "smoke":
        check_read_only_sysroot(lines, out)
        check_tools_from_container(lines, out)
        check_boot_times(out)


# --- the Fedora-like traps (docs/vm.md, "The traps") ----------------------------

SELINUX_LINE = re.compile(r"BOOTBENCH-VM selinux: mode=(\S+) policy=(\S*) exec-trap=(\S*)")
# A denial names bootbench when its process, its file or its unit does:
# bootbench itself, the podman it starts for the benches, its state and binary.
BOOTBENCH_AVC = re.compile(r'comm="(bootbench[^"]*|podman|conmon|crun)"|bootbench(?!-vm)')


def check_selinux(lines, img):
    """The guest booted SELinux as the image says, the trap was armed (a
    var_lib_t unit fails with 203/EXEC under enforcing), and no denial in
    any boot's journal names bootbench."""
    want = img.manifest.get("SELINUX", "enforcing")
    probe = [SELINUX_LINE.search(s) for _, s in lines if SELINUX_LINE.search(s)]
    expect(probe, "the first boot printed no 'BOOTBENCH-VM selinux:' line (the SELinux probe did not run)")
    mode, policy, trap = probe[0].groups()
    expect(mode.lower() == want, f"SELinux was {mode} in the first boot, the image asked for {want}")
    denials = read_denials(lines)
    if want == "enforcing":
        expect(trap == "203", f"the exec trap is not armed: a unit whose binary is var_lib_t ended with "
                              f"status {trap!r}, expected 203 (EXEC), as on Fedora")
    else:
        expect(any("exec-trap" in d for d in denials), "permissive: no denial logged for the var_lib_t exec trap")
    ours = [d for d in denials if BOOTBENCH_AVC.search(d)]
    expect(not ours, f"{len(ours)} SELinux denials name bootbench (of {len(denials)} in all):\n" +
           "\n".join(ours[:15]))
    print(f"selinux: {mode} with policy {policy}; exec trap armed (status {trap}); "
          f"{len(denials)} denials in all, none names bootbench")


AVC_LINE = re.compile(r"avc: +denied")
SUPPRESSED = re.compile(r"(kauditd_printk_skb|audit): \d+ callbacks suppressed|audit: rate limit exceeded")


# A kernel line's own stamp: two lines printed at once can reach the console
# as one ("...sleep inhibitor: held[   53.550178] audit: ... avc: denied").
KERNEL_STAMP = re.compile(r"\[ *\d+\.\d+\]")


def read_denials(lines):
    """Every denial of every boot: the kernel prints each to the console (no
    auditd in the guest; guest/sysctl-audit.conf lifts the rate limit). Each
    is the denial's own record, cut out of a console line that holds two."""
    denials = [p for _, s in lines for p in KERNEL_STAMP.split(s) if AVC_LINE.search(p)]
    lost = [s for _, s in lines if SUPPRESSED.search(s)]
    if lost:
        print(f"selinux: WARNING the kernel suppressed some audit lines ({len(lost)} notes, "
              f"e.g. {lost[0]!r}): a denial among them was not checked")
    return denials


TRAP_WAIT_LINE = "BOOTBENCH-VM idle trap: waiting"
SUSPEND_LINE = "HARNESS suspend:"


def boot_at(every, t):
    """'boot N (variant)' of the console boot that time t falls in."""
    label = "before the first boot"
    for b in every:
        if b["t_loader"] <= t:
            label = f"boot {b.get('n', '?')} ({b.get('variant', 'before userspace')})"
    return label


def check_suspends(lines, every, scenario):
    """No suspend while bootbench runs the night; the idle trap (smoke,
    experiment: the machine idle after the end) proves logind would."""
    trap_t = next((t for t, s in lines if TRAP_WAIT_LINE in s), None)
    suspends = [t for t, s in lines if s.startswith(SUSPEND_LINE)]
    early = [t for t in suspends if trap_t is None or t < trap_t]
    expect(not early, "the guest suspended during the scenario: " +
           ", ".join(f"at {t:.0f} s in {boot_at(every, t)}" for t in early))
    if scenario in IDLE_TRAP:
        expect(trap_t is not None and any(t > trap_t for t in suspends),
               "the idle trap is not armed: the idle guest never suspended after the scenario "
               "(logind IdleAction=suspend, IdleActionSec=90s)")
        print(f"idle: no suspend during the scenario; the idle machine suspended "
              f"{min(t for t in suspends if t > trap_t) - trap_t:.0f} s after the end (trap armed)")
    else:
        print("idle: no suspend during the scenario")


def check_trap_after_controller(lines):
    """The ansible scenario's idle trap: only once the playbook is over (a
    suspend while the controller fetches the results would lose them).
    Reads the whole console, the controller's lines included."""
    trap_t = next((t for t, s in lines if TRAP_WAIT_LINE in s), None)
    last = max((t for t, s in lines if s.startswith("HARNESS ansible: ")), default=None)
    if trap_t is not None and last is not None:
        expect(trap_t > last, f"the idle trap began at {trap_t:.0f} s, before the controller was done "
                              f"({last:.0f} s): the guest may suspend while the playbook fetches the results")


REFUSAL_LINE = re.compile(r"BOOTBENCH-VM refusal (\S+): exit=(\d+) (.*)")
REFUSALS = {"layered": ("hand-layered", "layered"), "nolib": ("older-release", "load")}


def check_refusals(lines):
    """plan refused the layered deployment and the one that cannot load
    bootbench, each naming its target, and both went before start."""
    seen = {m[1]: m for _, s in lines if (m := REFUSAL_LINE.search(s))}
    for name, (target, word) in REFUSALS.items():
        m = seen.get(name)
        expect(m is not None, f"no 'refusal {name}' line: plan was not tried on the {name} target")
        expect(target in m[3] and word in m[3] and ("cannot start" in m[3] or m[2] != "0"),
               f"plan did not refuse target {target!r} ({name}) naming it: exit {m[2]}: {m[3]}")
        expect(any(f"refusals: undeployed {name}" in s for _, s in lines),
               f"the {name} deployment was not removed before the experiment")
    print("refusals: plan refused the layered target and the one that cannot load bootbench, naming each")


UPDATE_STAGED = "BOOTBENCH-VM update: staged"
UPDATE_HOLD = "BOOTBENCH-VM update: holding the sysroot lock"
DROPPED_LINE = "a staged update appeared during the experiment; it is dropped"
LOCK_WAIT_LINE = re.compile(r"bootbench: the ostree sysroot \S+ is locked by another process")


def check_update_at_boot(lines, out):
    """The update at boot staged and held the lock in the experiment's boots;
    bootbench dropped what it staged and flagged those runs (the deployments
    and the boots are checked elsewhere: every run in the one it expected)."""
    staged = sum(UPDATE_STAGED in s for _, s in lines)
    held = sum(UPDATE_HOLD in s for _, s in lines)
    expect(staged and held, f"the update at boot never staged ({staged}) or held the lock ({held})")
    expect(any(DROPPED_LINE in s for _, s in lines),
           "an update was staged during the experiment but bootbench never said it dropped it")
    flagged = [run_id(r) for r in read_results(out).values() if quiet_flagged(r.get("conditions"))]
    expect(flagged, "no run is flagged although the update service was running at its boot")
    waited = check_lock_waited(lines)
    print(f"update at boot: staged {staged}x, held the lock {held}x; bootbench dropped the staged "
          f"deployment, waited for the lock {waited}x, flagged runs {', '.join(flagged)}")


def check_lock_waited(lines):
    """bootbench found the lock taken and waited at least once: the holder
    holds it until bootbench says so (guest/update_holder.cpp); a fixed
    30 s hold missed bootbench on a busy machine and the trap went unarmed."""
    waited = sum(bool(LOCK_WAIT_LINE.search(s)) for _, s in lines)
    expect(waited >= 1, "bootbench never waited for the sysroot lock the update at boot held: "
                        "the trap was not armed (the holder released it before bootbench looked)")
    return waited


def quiet_flagged(node):
    """Whether a run's conditions hold the quiet check's run-flagged record."""
    if isinstance(node, dict):
        if node.get("check") == "quiet" and node.get("decision") == "run-flagged":
            return True
        return any(quiet_flagged(v) for v in node.values())
    return isinstance(node, list) and any(quiet_flagged(v) for v in node)


def check_console_matches_guest_log(boots, out):
    """The boots that reached userspace, as the console saw them, are the
    boots the guest logged on its disk, one for one by number."""
    guest = read_boots_log(out)
    numbers = [b["n"] for b in boots]
    expect(numbers == list(range(1, len(guest) + 1)),
           f"the console shows boots {numbers} but /var/lib/bootbench-vm/boots.log has "
           f"{len(guest)}: {[g.get('variant') for g in guest]}")
    for b, g in zip(boots, guest):
        expect(g.get("variant") == b["variant"] and g.get("deployment") == b["deployment"],
               f"boot {b['n']}: console says {b['variant']} {b['deployment']}, boots.log says {g}")
    for b in boots:
        if b.get("line_lost"):
            print(f"boot {b['n']}: its boot line was lost on the console; boots.log says {b['variant']}")


def check_boot_deployments(boots, img):
    """Every boot of vm/<v> booted the deployment the image made for it."""
    for b in boots:
        expect(b["deployment"] == img.deployment(b["variant"]),
               f"boot {b['n']} (variant {b['variant']}) booted {b['deployment']}, "
               f"expected the deployment of vm/{b['variant']}: {img.deployment(b['variant'])}")


def check_smoke(boots, img, out):
    variants = [b["variant"] for b in boots]
    expect(variants == ["base", "b"], f"smoke: expected boots base, b; saw {variants}")
    expect(boots[0]["deployment"] == img.deployment("base"),
           f"boot 1 booted {boots[0]['deployment']}, expected vm/base's {img.deployment('base')}")
    expect(boots[1]["deployment"].split(".")[0] == img.commit("b"),
           f"boot 2 booted {boots[1]['deployment']}, expected a deployment of vm/b ({img.commit('b')})")
    print("smoke: two boots through the bootloader in one qemu, the second into what ostree made default")


def check_experiment(boots, img, out, wrong_boot=None, cut=False):
    variants = [b["variant"] for b in boots]
    planned = ["base"] + ([t for _, t in PLANNED[:1]] + (["a"] if wrong_boot else [])
                         + [t for _, t in PLANNED[1:]])
    # bootbench may end in the last target and leave the final reboot to the
    # test image, or reboot into the original default itself: either way the
    # last boot is base. After a power cut a target boots again: then the
    # order is checked on the boots that stored results (check_results).
    if cut:
        expect(variants[0] == "base" and variants[-1] == "base",
               f"expected the first and last boots to be base; saw {' '.join(variants)}")
    else:
        expect(variants[:len(planned)] == planned and variants[-1] == "base"
               and len(variants) in (len(planned) + 1, len(planned) + 2),
               f"expected boots {' '.join(planned)} [b] base; saw {' '.join(variants)}")
    check_boot_deployments(boots, img)
    check_results(boots, img, out, wrong_boot)
    check_report(out)
    check_restored(boots, img, out)


def check_wrong_boot(boots, img, out, lines=()):
    wrong = boots[2]
    expect(wrong["deployment"] == img.deployment("a"),
           f"boot {wrong['n']} should have been forced into a's deployment; it booted {wrong['deployment']}")
    in_wrong = [s for t, s in lines if wrong.get("t_up", 0) <= t and "bootbench: " in s][:3]
    expect(any("wrong deployment booted for run b-1" in s for s in in_wrong),
           f"bootbench did not report the wrong boot in boot {wrong['n']}; its lines: {in_wrong}")
    check_experiment(boots, img, out, wrong_boot=wrong)
    state = json.loads((Path(out) / "bootbench" / "state.json").read_text())
    slot = next((r for r in state.get("runs", []) if run_id(r) == "b-1"), {})
    expect(slot.get("attempts") == 2 and slot.get("status") == "done",
           f"state.json: run b-1 should be done after 2 attempts (the wrong boot counts); it is {slot}")
    print(f"wrong boot: boot {wrong['n']} booted {wrong['variant']} while b was expected; "
          "no result was recorded for it and b-1 was retried")


NAMESPACE_LINE = "bootbench: /sysroot is read-only: writing into other deployments from a private mount namespace"


def check_read_only_sysroot(lines, out):
    """As on Fedora (sysroot.readonly): every boot saw /sysroot read-only, so
    bootbench installed and removed its unit from a private mount namespace,
    and the rest of the system never saw /sysroot writable."""
    modes = [g.get("sysroot") for g in read_boots_log(out)]
    expect(modes and all(m == "ro" for m in modes),
           f"/sysroot should be read-only in every boot (sysroot.readonly); boots.log says {modes}")
    done = [s for _, s in lines if "BOOTBENCH-VM done: " in s]
    expect(done and done[-1].endswith("sysroot=ro"),
           f"after the experiment /sysroot should still be read-only for the system: {done[-1:]}")
    said = [s for _, s in lines if NAMESPACE_LINE in s] + [s for s in ansible_job_lines(out) if NAMESPACE_LINE in s]
    expect(len(said) >= 2, f"bootbench said {len(said)} times that it wrote from a private mount "
                           f"namespace; expected at least at start (unit installed) and at the end (removed)")
    print(f"read-only /sysroot in all {len(modes)} boots; bootbench wrote into other deployments from a "
          f"private mount namespace {len(said)} times")


def ansible_job_lines(out):
    """What the commands Ansible ran in the background printed (the ansible
    scenario's `bootbench start`: its output goes to Ansible, not the console)."""
    lines = []
    for p in sorted((Path(out) / ".ansible_async").glob("*")):
        try:
            job = json.loads(p.read_text())
        except ValueError:
            continue
        lines += (job.get("stdout", "") + "\n" + job.get("stderr", "")).splitlines()
    return lines


TOOLS_IMAGE = "localhost/vm-tools:1"


def check_tools_from_container(lines, out):
    """As on Fedora Atomic: the root has no benchmark tools; every bench ran
    in the tools image the first boot imported, and each result names it."""
    said = [s for _, s in lines if "BOOTBENCH-VM tools: " in s]
    expect(any(s.endswith("tools: on the root: none") for s in said),
           f"the guest's root should have no perf, sysbench or stress-ng: {said}")
    imported = [s.split()[-1] for s in said if f"tools: imported {TOOLS_IMAGE} " in s]
    expect(len(imported) == 1, f"the first boot should import {TOOLS_IMAGE} once: {said}")
    for path, r in read_results(out).items():
        env = r.get("environment", {}).get("tools_image", "")
        expect(env.startswith(f"{TOOLS_IMAGE} (image {imported[0]}"),
               f"{path}: tools_image {env!r}, expected {TOOLS_IMAGE} with the imported ID {imported[0]}")
        # crun on cgroup v2, as on Fedora: the container stays in the bench's own cgroup
        expect(env.endswith("; in the bench's cgroup)"), f"{path}: tools_image {env!r}: not in the bench's cgroup")
        for b in r.get("benches", []):
            argv = b.get("argv", [])
            expect(argv[:2] == ["podman", "run"] and imported[0] in argv and "--cgroups=disabled" in argv,
                   f"{path}: bench {b.get('name')} ran as {argv[:12]}, not in the tools container in its cgroup")
    print(f"tools: none on the root; every bench of every run ran in {TOOLS_IMAGE} ({imported[0][:12]})")


def check_power_cut(every, boots, img, out, lines):
    """Three planned cuts (vm_cuts.POWER_CUTS): no stored result lost or
    measured twice, the experiment finished, the cut attempt counted, the
    file system clean, state.json never damaged (or its fallback said so)."""
    planned = [b for b in every if b.get("cut", "").startswith("planned: ")]
    expect(len(planned) == 3, f"expected 3 planned power cuts, the console shows {len(planned)}")
    bench_cut, stored_cut, switch_cut = planned
    expect(bench_cut.get("run") == "a-1" and bench_cut.get("benched") and "stored" not in bench_cut,
           f"the first cut should have ended run a-1 during a bench: {summary(bench_cut)}")
    expect(stored_cut.get("stored") == "b-1",
           f"the second cut should have come right after run b-1 was stored: {summary(stored_cut)}")
    switched = any("bootbench: rebooting into" in s for t, s in lines
                   if switch_cut["t_loader"] <= t < switch_cut["t_cut"])
    print(f"power cut during the switch: the switch had {'already finished' if switched else 'not finished'} "
          "when the power went")
    later = every[every.index(stored_cut) + 1:]
    expect(not any(b.get("run") == "b-1" and b.get("benched") for b in later),
           f"run b-1 was measured again after its result was stored: "
           f"{[summary(b) for b in later if b.get('run') == 'b-1']}")
    kept = any("run b-1 was stored before an interruption; not measuring it again" in s for _, s in lines)
    print("after the cut that followed b-1's result: " +
          ("bootbench found the stored result and did not measure it again" if kept else
           "the state had already moved on; bootbench made the next default without measuring b-1 again"))
    check_experiment(boots, img, out, cut=True)
    results = {run_id(r): r for r in read_results(out).values()}
    expect(results["a-1"].get("attempt") == 2,
           f"run a-1 was cut once during its benches: its result says attempt {results['a-1'].get('attempt')}")
    check_state_never_damaged(out, lines)
    check_fsck(img)


def summary(boot):
    return {k: v for k, v in boot.items() if k in ("variant", "run", "attempt", "benched", "stored", "cut")}


def check_attempts_count_cuts(every, out):
    """Every run's attempts in state.json count the boots that began it and
    were cut before its result was stored."""
    state = json.loads((Path(out) / "bootbench" / "state.json").read_text())
    for slot in state.get("runs", []):
        rid = slot.get("run_id", slot.get("run"))
        began = [b for b in every if b.get("run") == rid and b.get("benched")]
        measured = [b for b in began if b.get("stored") == rid or "cut" not in b]
        cut = [b for b in began if "cut" in b and b.get("stored") != rid]
        if not cut:
            continue
        expect(slot.get("attempts") == len(cut) + len(measured[-1:]) and slot.get("status") == "done",
               f"run {rid}: {len(cut)} power cut(s) during its benches, then measured; state.json says "
               f"{slot}")
        print(f"run {rid}: {len(cut)} cut attempt(s) counted, done in attempt {slot.get('attempts')}")


def check_state_never_damaged(out, lines):
    """bootbench says when it falls back to state.initial.json; a damaged
    state.json that was not noticed would have failed the experiment."""
    log = Path(out) / "bootbench" / "results" / EXPERIMENT / "bootbench.log"
    text = (log.read_text() if log.exists() else "") + "\n".join(s for _, s in lines)
    damaged = [l for l in text.splitlines() if "state.initial.json" in l or "damaged" in l]
    if damaged:
        print(f"state.json was found damaged and the fallback was used: {damaged[:3]}")
    else:
        print("state.json was never found damaged")


def check_fsck(img):
    """The ext4 file system is clean after the last (orderly) power-off."""
    with img.partition() as dev:
        r = subprocess.run(["e2fsck", "-n", "-f", dev], capture_output=True, text=True)
    expect(r.returncode == 0, f"e2fsck -n found problems (exit {r.returncode}):\n{r.stdout[-2000:]}{r.stderr[-500:]}")
    print(f"e2fsck -n -f: clean ({r.stdout.strip().splitlines()[-1] if r.stdout.strip() else 'no output'})")


def boot_times_problems(path, r):
    """What is wrong with a result's boot times: boot_total_s (and the
    memory after settle, mem_used_mib) must be there and positive, and the boot must have finished (systemd's
    FinishTimestampMonotonic) before the benches began (same clock:
    CLOCK_MONOTONIC, in microseconds), which the resume unit (Type=exec)
    and bootbench's wait for the boot together promise."""
    env = r.get("environment") or {}
    finish, benches = env.get("boot_finish_monotonic_us"), env.get("benches_start_monotonic_us")
    problems = []
    for key, why in (("boot_total_s", f"boot_times: {env.get('boot_times')!r}"),
                     ("mem_used_mib", "read from /proc/meminfo after the settle time")):
        value = (r.get("metrics") or {}).get(key, {})
        value = value.get("value") if isinstance(value, dict) else value
        if not isinstance(value, (int, float)) or value <= 0:
            problems.append(f"{path}: {key} {value!r}, expected a positive number ({why})")
    if not isinstance(finish, int) or not isinstance(benches, int) or finish <= 0:
        problems.append(f"{path}: boot_finish_monotonic_us {finish!r}, benches_start_monotonic_us {benches!r}")
    elif finish >= benches:
        problems.append(f"{path}: the boot finished at {finish / 1e6:.3f} s, after the benches began "
                        f"at {benches / 1e6:.3f} s: the suite ran inside the boot it measured")
    return problems


def check_boot_times(out):
    """Every result has the boot's times, and its suite began after the boot finished."""
    results = read_results(out)
    problems = [p for path, r in results.items() for p in boot_times_problems(path, r)]
    expect(not problems, "; ".join(problems))
    totals = [r["metrics"]["boot_total_s"]["value"] for r in results.values()]
    gaps = [(r["environment"]["benches_start_monotonic_us"] - r["environment"]["boot_finish_monotonic_us"]) / 1e6
            for r in results.values()]
    print(f"boot times: boot_total_s {', '.join(f'{t:.1f}' for t in totals)} s; the benches began "
          f"{', '.join(f'{g:.1f}' for g in gaps)} s after each boot finished")


def check_results(boots, img, out, wrong_boot):
    results = read_results(out)
    guest_boots = read_boots_log(out)
    by_run = {}
    for path, r in results.items():
        expect(r.get("experiment") == EXPERIMENT, f"{path}: experiment {r.get('experiment')!r}")
        by_run.setdefault(run_id(r), []).append((path, r))
    expect(sorted(by_run) == sorted(rid for rid, _ in PLANNED),
           f"expected one result per run {[rid for rid, _ in PLANNED]}, found {sorted(by_run)} "
           f"in {list(results)}")
    order = []
    for rid, target in PLANNED:
        expect(len(by_run[rid]) == 1, f"run {rid}: {len(by_run[rid])} results, expected 1")
        path, r = by_run[rid][0]
        expect(r.get("target") == target, f"{path}: target {r.get('target')!r}, expected {target!r}")
        expect(r.get("status") == "ok", f"{path}: status {r.get('status')!r} ({r.get('failure')})")
        dep = r.get("deployment", {})
        booted = f"{dep.get('checksum')}.{dep.get('serial')}"
        expect(booted == img.deployment(target),
               f"{path}: recorded deployment {booted}, expected target {target}'s {img.deployment(target)}")
        expect(dep.get("checksum") != img.commit("b" if target == "a" else "a"),
               f"{path}: recorded the other target's checksum")
        g = boot_of_result(r, guest_boots)
        expect(g is not None, f"{path}: measured in none of the boots the guest logged "
                              f"(started_at {r.get('started_at')})")
        expect(g["deployment"] == booted,
               f"{path}: the guest booted {g['deployment']} in that boot, the result says {booted}")
        if wrong_boot is not None:
            expect(g["boot"] != str(wrong_boot["n"]),
                   f"{path}: a result was recorded in the wrong boot {wrong_boot['n']}")
        metrics = r.get("metrics", [])
        expect(len(metrics) > 0, f"{path}: no metrics parsed")
        benches = {b.get("name") or b.get("kind"): b.get("status") for b in r.get("benches", [])}
        expect(sorted(benches) == ["perf-sched-pipe", "sysbench-threads"],
               f"{path}: benches {sorted(benches)}, expected perf-sched-pipe and sysbench-threads")
        expect(all(s == "ok" for s in benches.values()), f"{path}: benches {benches}")
        order.append(int(g["boot"]))
    expect(order == sorted(order), f"runs happened in boots {order}, not in the planned order")
    print(f"results: 4 runs, a-1 b-1 a-2 b-2 in boots {order}, each on its target's deployment")


def check_report(out):
    d = Path(out) / "bootbench" / "results" / EXPERIMENT
    for name in ("report.md", "report.json"):
        expect((d / name).exists(), f"{d / name} is missing")
    report = json.loads((d / "report.json").read_text())
    text = json.dumps(report)
    for target in ("a", "b"):
        expect(f'"{target}"' in text, f"report.json does not mention target {target!r}")
    counts = report_run_counts(report)
    expect(counts == {"a": 2, "b": 2}, f"report.json: runs per target {counts}, expected a: 2, b: 2")
    problems = report_metric_problems(report)
    expect(not problems, "; ".join(problems))
    print(f"report: {d}/report.{{md,json}} list a and b with 2 runs each, and compare "
          f"{', '.join(REPORTED_SYSTEM_METRICS)} with a verdict")


# The boot's and the system's own metrics, compared like a bench's (issue 13).
REPORTED_SYSTEM_METRICS = ("boot_total_s", "mem_used_mib")


def report_metric_problems(report):
    """The report compares each of REPORTED_SYSTEM_METRICS with a verdict."""
    metrics = {m.get("key"): m for m in report.get("metrics", []) if isinstance(m, dict)}
    problems = []
    for key in REPORTED_SYSTEM_METRICS:
        if key not in metrics:
            problems.append(f"report.json compares no {key}")
        elif metrics[key].get("verdict") is None:
            problems.append(f"report.json: {key} has no verdict")
    return problems


def report_run_counts(report):
    """Runs per target, from the report's targets list (names and runs or a
    run list) or its runs list."""
    counts = {}
    for t in report.get("targets", []):
        if isinstance(t, dict) and "name" in t:
            n = t.get("runs", t.get("n_runs"))
            counts[t["name"]] = len(n) if isinstance(n, list) else n
    if not counts or None in counts.values():
        counts = {}
        for r in report.get("runs", []):
            counts[r.get("target")] = counts.get(r.get("target"), 0) + 1
    return counts


def read_deployments(out):
    """deployments.json of the read-out: {"deployments": {...}, "boot_entries": [...]}."""
    return json.loads((Path(out) / "deployments.json").read_text())


def is_pinned(deployment):
    return bool(re.search(r"^pinned=true", deployment["origin"], re.M))


def check_no_unit_left(deps):
    for name, d in deps.items():
        leftovers = [u for u in d["units"] + d["wants"] if u.startswith("bootbench-resume")]
        expect(not leftovers, f"deployment {name} still has {leftovers} in its /etc/systemd/system")


def check_default_is_base(info):
    default = info["boot_entries"][0]
    expect("bootbench_vm.variant=base" in default.get("options", ""),
           f"the default boot entry is {default.get('title')!r} ({default.get('options')}), "
           "expected vm/base's")


def check_restored(boots, img, out):
    last = boots[-1]
    expect(last["variant"] == "base" and last["deployment"] == img.deployment("base"),
           f"the last boot was {last['variant']} {last['deployment']}, expected the original default "
           f"vm/base {img.deployment('base')}")
    info = read_deployments(out)
    deps = info["deployments"]
    expect(sorted(deps) == sorted(img.deployment(v) for v in ("base", "a", "b")),
           f"deployments after the experiment: {sorted(deps)}; expected the three of the image")
    check_no_unit_left(deps)
    for name, d in deps.items():
        before = img.manifest.get(f"PINNED_{img.variant_of_deployment(name).upper()}") == "true"
        after = is_pinned(d)
        expect(after == before, f"deployment {name} is {'' if after else 'not '}pinned after the "
                                f"experiment, and was {'' if before else 'not '}before:\n{d['origin']}")
    check_default_is_base(info)
    state = Path(out) / "bootbench" / "state.json"
    if state.exists():
        phase = json.loads(state.read_text()).get("phase")
        expect(phase == "finished", f"state.json phase is {phase!r}, expected 'finished'")
    print("restored: the original default booted last, no unit left in any /etc, "
          "pins as before (b pinned, a and base not)")


def check_wait_crossed_reboots(unreachable):
    """The wait began before the first reboot (start returns first) and ended
    on the last boot's finished status, so it spanned every reboot. How many
    checks found the host down depends on the machine's speed (one ssh
    attempt with its retries can outlast a fast reboot: CI saw 3 for 5
    reboots), but a wait that never found it down never crossed a reboot."""
    expect(unreachable is not None, "the playbook never said how the wait went (its 'status checks' line)")
    expect(unreachable >= 1, f"the wait saw the host unreachable {unreachable} times: "
                             "it never waited across a reboot of the guest")


def check_controller(controller, lab, out):
    """The ansible scenario, on the controller: the playbook finished the
    host after waiting across its reboots, fetched exactly the runs the guest
    stored, and wrote the report here."""
    tail = "\n".join(controller.output[-30:])
    expect(controller.error is None, f"ansible: {controller.error}")
    expect(controller.rc == 0, f"ansible-playbook exited {controller.rc}; its last lines:\n{tail}")
    expect(any(re.search(r'"msg": "vm: finished"', s) for s in controller.output),
           f"the playbook does not say that host vm finished; its last lines:\n{tail}")
    unreachable = controller.waited_unreachable()
    check_wait_crossed_reboots(unreachable)
    guest = Path(out) / "bootbench" / "results" / EXPERIMENT / "runs"
    fetched = Path(lab) / "vm" / "runs"
    names = sorted(p.name for p in guest.glob("*.json"))
    expect(names and names == sorted(p.name for p in fetched.glob("*.json")),
           f"fetched runs {sorted(p.name for p in fetched.glob('*.json'))}, the guest stored {names}")
    differ = [n for n in names if (guest / n).read_bytes() != (fetched / n).read_bytes()]
    expect(not differ, f"fetched runs differ from the guest's: {differ}")
    report = json.loads((Path(lab) / "report.json").read_text())
    counts = report_run_counts(report)
    expect(counts == {"a": 2, "b": 2}, f"{lab}/report.json: runs per target {counts}, expected a: 2, b: 2")
    problems = report_metric_problems(report)
    expect(not problems, "; ".join(problems))
    print(f"ansible: the playbook ran in {controller.seconds:.0f} s, waited across {unreachable} status "
          f"checks the rebooting guest did not answer, fetched {len(names)} runs identical to the guest's, "
          f"and wrote {lab}/report.{{md,json}} with a: 2, b: 2")
