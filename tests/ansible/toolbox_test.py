#!/usr/bin/env python3
"""The role's bootbench_build: auto on five inventory hosts of this machine
(ansible_connection=local, each its own working folder, bootbench_sandbox and
bootbench_quick), told apart by what they have:

  atomic  RUN/ostree-booted and a `toolbox`: the source tree is packed on the
          controller (git archive HEAD), unpacked in WORKDIR/src, ./bootstrap
          runs there and builds in a toolbox;
  bootc   RUN/ostree-booted, neither toolbox nor distrobox: the binary is copied;
  debian  a `toolbox` but no ostree-booted: the binary is copied;
  broken  like atomic, but the build in the toolbox fails: only this host
          fails, with bootstrap's message, and the others finish;
  typo    like atomic, with bootbench_build=docker: fails with the message.

Each host's RUN folder is its bootbench_run_dir (the role passes it to
./bootstrap as BOOTBENCH_RUN_DIR). Each host's Python (ansible_python_interpreter)
is a wrapper that sets PATH to the host's own stand-ins, CALLS and
BOOTBENCH_OS_RELEASE (VERSION_ID=41), so the real ./bootstrap picks the
toolbox of "Fedora 41".

What the stand-ins do: `podman container exists` says no until `toolbox
create` ran; `toolbox` records every call in CALLS, and `toolbox run
--container NAME env BOOTBENCH_WERROR=0 ./bootstrap`, instead of building in a
container (minutes), checks that it runs in the unpacked tree and writes
build/bootbench: a script that logs its arguments and runs the bootbench
binary of this build (so the simulation really runs). The test checks the
exact commands recorded, that the host runs the script out of src/build, that
a second run of the same source does not rebuild (the stamp), and that
another source (a tree that is no git checkout: tar without build/ and
results/) does, reusing the toolbox.

usage: toolbox_test.py BOOTBENCH_BINARY SOURCE_ROOT
"""
import filecmp
import hashlib
import os
import shutil
import subprocess
import sys
import time

from lab_test import EXPERIMENT, check, run_test

HOSTS = {  # host: (ostree-booted, stand-ins on its PATH)
    "atomic": (True, ("toolbox", "podman")),
    "bootc": (True, ("podman",)),
    "debian": (False, ("toolbox", "podman")),
    "broken": (True, ("toolbox", "podman")),
    "typo": (True, ("toolbox", "podman")),  # bootbench_build=docker
}
BOX_CMD = "env BOOTBENCH_WERROR=0 ./bootstrap"
BUILT = [
    "podman container exists bootbench-build-41",
    "toolbox create --assumeyes --release 41 bootbench-build-41",
    "toolbox run --container bootbench-build-41 " + BOX_CMD,
]
MESON_ERROR = "meson.build:12:0: ERROR: Dependency tomlplusplus not found, tried pkgconfig"


def write(path, text, mode=0o644):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, mode)


def podman():
    return '#!/bin/sh\necho "podman $*" >> "$CALLS"\n[ -e "$STATE/created-$3" ]\n'


def toolbox(host, binary):
    run = (f'echo "{MESON_ERROR}" >&2; exit 1' if host == "broken" else
           f'[ "$*" = "{BOX_CMD}" ] && [ -x ./bootstrap ] || exit 9\n'
           '    mkdir -p build\n'
           f'    printf \'#!/bin/sh\\necho "$*" >> "%s"\\nexec "%s" "$@"\\n\' "$STATE/bootbench.log" "{binary}"'
           ' > build/bootbench\n    chmod 755 build/bootbench')
    return ('#!/bin/sh\necho "toolbox $*" >> "$CALLS"\ncase "$1" in\n'
            '  create) touch "$STATE/created-$5" ;;\n'
            f'  run) shift 3\n    {run} ;;\nesac\n')


def make_host(tmp, host, binary):
    booted, tools = HOSTS[host]
    d = f"{tmp}/{host}"
    for sub in ("run", "bin", "state", "work"):
        os.makedirs(f"{d}/{sub}")
    if booted:
        write(f"{d}/run/ostree-booted", "")
    write(f"{d}/os-release", 'NAME="Fedora Linux"\nVERSION_ID=41\n')
    for tool in tools:
        write(f"{d}/bin/{tool}", toolbox(host, binary) if tool == "toolbox" else podman(), 0o755)
    write(f"{d}/python", f"#!/bin/sh\nexport PATH={d}/bin:/usr/bin:/bin CALLS={d}/calls STATE={d}/state "
          f"BOOTBENCH_OS_RELEASE={d}/os-release\nexec /usr/bin/python3 \"$@\"\n", 0o755)
    return (f"{host} ansible_connection=local bootbench_workdir={d}/work bootbench_run_dir={d}/run "
            f"ansible_python_interpreter={d}/python" + (" bootbench_build=docker" if host == "typo" else ""))


def calls(tmp, host):
    path = f"{tmp}/{host}/calls"
    return open(path).read().splitlines() if os.path.exists(path) else []


def playbook(tmp, binary, root, *extra):
    env = dict(os.environ, ANSIBLE_HOME=f"{tmp}/ansible-home", ANSIBLE_LOCAL_TEMP=f"{tmp}/ansible-tmp",
               ANSIBLE_ASYNC_DIR=f"{tmp}/ansible-async", ANSIBLE_REMOTE_TMP=f"{tmp}/ansible-remote",
               ANSIBLE_NOCOWS="1", ANSIBLE_RETRY_FILES_ENABLED="0", BOOTBENCH_REGISTRY_URL="http://127.0.0.1:9",
               PWD=tmp)
    # .ci/run exports BOOTBENCH_WERROR=1: a local host would pass it on to
    # bootstrap's toolbox command, which the stand-in expects without it.
    env.pop("BOOTBENCH_WERROR", None)
    argv = ["ansible-playbook", "-i", f"{tmp}/inventory", f"{root}/ansible/playbooks/experiment.yml",
            "-e", "experiment=experiment.toml", "-e", f"bootbench_binary={binary}",
            "-e", f"bootbench_results={tmp}/out", *extra]
    started = time.monotonic()
    p = subprocess.run(argv, env=env, capture_output=True, text=True, cwd=tmp)
    print(p.stdout[-5000:], p.stderr[-3000:])
    print(f"playbook {' '.join(extra)}: {time.monotonic() - started:.1f} s")
    return p


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def check_first_run(tmp, binary, root):
    p = playbook(tmp, binary, root)
    check(p.returncode == 2, f"ansible-playbook exited {p.returncode}, not 2 (broken does not finish)")
    check("not finished: broken, typo\"" in p.stdout, "the play does not name broken and typo alone as not finished")
    check("typo: bootbench_build is 'docker': it is copy, toolbox or auto" in p.stdout, "typo's outcome")
    check(calls(tmp, "typo") == [], f"typo built: {calls(tmp, 'typo')}")
    check(f"broken: ./bootstrap failed on this host (exit 1): {MESON_ERROR}" in p.stdout,
          "broken's outcome is not bootstrap's message")
    for host in ("atomic", "bootc", "debian"):
        check(f"{host}: finished" in p.stdout, f"{host} did not finish")
        check(os.path.isfile(f"{tmp}/out/{host}/runs/a-1.json"), f"{host}'s results were not fetched")
    check(calls(tmp, "atomic") == BUILT, f"atomic's toolbox calls: {calls(tmp, 'atomic')}")
    check(calls(tmp, "broken") == BUILT, f"broken's toolbox calls: {calls(tmp, 'broken')}")
    for host in ("bootc", "debian"):
        check(calls(tmp, host) == [], f"{host} built in a toolbox: {calls(tmp, host)}")
        check(filecmp.cmp(f"{tmp}/{host}/work/bootbench", binary, shallow=False), f"{host}: not the copied binary")
        check(not os.path.exists(f"{tmp}/{host}/work/src"), f"{host} got the source tree")
    work = f"{tmp}/atomic/work"
    check(os.path.isfile(f"{work}/src/meson.build"), "atomic: the source tree is not unpacked in src/")
    check(filecmp.cmp(f"{work}/bootbench", f"{work}/src/build/bootbench", shallow=False),
          "atomic's binary is not the one of src/build")
    log = open(f"{tmp}/atomic/state/bootbench.log").read()
    check(log.startswith("plan --quick ") and "simulate --quick" in log, f"atomic did not run its build: {log}")
    archive = subprocess.run(["git", "-C", root, "archive", "--format=tar", "HEAD"], capture_output=True).stdout
    check(open(f"{work}/src.built").read() == sha256(archive), "atomic's stamp is not the archive's sha256")
    check(not os.path.exists(f"{tmp}/broken/work/src.built"), "broken's failed build left a stamp")


def check_reruns(tmp, binary, root):
    p = playbook(tmp, binary, root, "--limit", "atomic")
    check(p.returncode == 0, f"the second run exited {p.returncode}")
    check(calls(tmp, "atomic") == BUILT, f"the second run of the same source rebuilt: {calls(tmp, 'atomic')}")
    check(open(f"{tmp}/atomic/state/bootbench.log").read().count("plan --quick") == 2,
          "the second run did not use the built binary")
    tree = f"{tmp}/tree"  # no git checkout: packed with tar, without build/ and results/
    for sub in ("build", "results"):
        os.makedirs(f"{tree}/{sub}")
        write(f"{tree}/{sub}/junk", "")
    shutil.copy(f"{root}/bootstrap", f"{tree}/bootstrap")
    p = playbook(tmp, binary, root, "--limit", "atomic", "-e", f"bootbench_source={tree}")
    check(p.returncode == 0, f"the run of another source exited {p.returncode}")
    check(calls(tmp, "atomic") == BUILT + [BUILT[0], BUILT[2]],
          f"another source did not rebuild in the same toolbox: {calls(tmp, 'atomic')}")
    src = f"{tmp}/atomic/work/src"
    check(not os.path.exists(f"{src}/results") and not os.path.exists(f"{src}/build/junk"),
          "the tar of a tree took build/ or results/")


def main():
    binary, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])

    def body(tmp):
        lines = ["[lab]"] + [make_host(tmp, host, binary) for host in HOSTS]
        lines += ["", "[lab:vars]", "bootbench_sandbox=true", "bootbench_quick=true", "bootbench_poll=1"]
        write(f"{tmp}/inventory", "\n".join(lines) + "\n")
        write(f"{tmp}/experiment.toml", EXPERIMENT)
        check_first_run(tmp, binary, root)
        check_reruns(tmp, binary, root)
    run_test("bootbench-toolbox-", body)


if __name__ == "__main__":
    main()
