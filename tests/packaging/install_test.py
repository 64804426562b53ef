#!/usr/bin/env python3
"""`meson install --destdir` puts exactly the binary, the unit, the man page
and the bash completion where they belong under the prefix, each usable:
the installed binary runs, the unit has its time limit filled in and no
[Install] enablement of its own beyond WantedBy, the man page is roff, the
completion defines _bootbench. Then dist/Containerfile.bootc: every file it
COPYs from the build stage is one that `meson install` makes (with prefix
/usr), copied to the same path.

usage: install_test.py BUILD_DIR SOURCE_ROOT man|no-man   (no-man: meson found no scdoc)
"""
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

failures = []


def check(name, ok, detail=""):
    print(("ok: " if ok else "FAIL: ") + name)
    if not ok:
        failures.append(name)
        print("   ", str(detail).replace("\n", "\n    "))


def meson_options(build):
    out = subprocess.run(["meson", "introspect", "--buildoptions", str(build)], capture_output=True,
                         text=True, check=True).stdout
    return {o["name"]: o["value"] for o in json.loads(out)}


def expected_files(opts, with_man):
    """Where each file goes, relative to the prefix (as meson.build decides it)."""
    files = {
        "binary": pathlib.Path(opts["bindir"]) / "bootbench",
        "unit": pathlib.Path("lib/systemd/system/bootbench-resume.service"),
        "man": pathlib.Path(opts["mandir"]) / "man1/bootbench.1",
        "completion": pathlib.Path(opts["datadir"]) / "bash-completion/completions/bootbench",
    }
    if not with_man:
        del files["man"]
    return files


# meson's defaults with prefix /usr, as the Containerfile's build stage has them.
meson_options_usr = {"bindir": "bin", "mandir": "share/man", "datadir": "share"}


def check_installed(root, files):
    got = sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() or p.is_symlink())
    want = sorted(str(p) for p in files.values())
    check(f"meson install puts exactly the {', '.join(files)} there", got == want,
          f"got  {got}\nwant {want}")
    binary = root / files["binary"]
    if binary.exists():
        check("the installed binary is executable", os.access(binary, os.X_OK))
        p = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=30)
        check("the installed binary runs", p.returncode == 0 and p.stdout.startswith("bootbench "), p)
    unit = root / files["unit"]
    if unit.exists():
        text = unit.read_text()
        check("the unit's time limit is filled in", "RuntimeMaxSec=infinity\n" in text and "@" not in text, text)
        check("the unit runs the copy start makes", "ExecStart=/var/usrlocal/bin/bootbench-resume resume\n" in text)
    man = root / files.get("man", "none")
    if man.is_file():
        check("the man page is roff", '.TH "bootbench" "1"' in man.read_text(), man.read_text()[:300])
    comp = root / files["completion"]
    if comp.exists():
        check("the completion defines _bootbench for bootbench",
              "complete -F _bootbench bootbench" in comp.read_text())


def check_containerfile(src):
    text = (src / "dist/Containerfile.bootc").read_text()
    copies = re.findall(r"^COPY --from=build (\S+) (\S+)$", text, re.M)
    # The build stage installs with --prefix=/usr into /out.
    made = {"/out/usr/" + str(p): "/usr/" + str(p) for p in expected_files(meson_options_usr, True).values()}
    check("the Containerfile copies all four files", len(copies) == 4 and {s for s, _ in copies} == set(made),
          f"{copies}\nmeson installs {sorted(made)}")
    for source, dest in copies:
        check(f"Containerfile: {source} is installed by meson and copied to {made.get(source)}",
              made.get(source) == dest, dest)
    check("the Containerfile installs with --prefix=/usr into /out",
          re.search(r"meson setup \S+ \S+ --prefix=/usr\b", text) and "--destdir /out" in text)
    commands = "".join(line for line in text.splitlines(True) if not line.lstrip().startswith("#"))
    check("the Containerfile never enables the unit", "systemctl enable" not in commands)
    for line in re.findall(r"^COPY (?!--from)(\S+) ", text, re.M):
        check(f"Containerfile: COPY {line} exists in the repository", (src / line).exists())


def main():
    build, src, with_man = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3] == "man"
    opts = meson_options(build)
    files = expected_files(opts, with_man)
    prefix = pathlib.Path(opts["prefix"])
    # Tests run in parallel: a directory of its own.
    dest = pathlib.Path(tempfile.mkdtemp(prefix="bootbench-install-"))
    try:
        p = subprocess.run(["meson", "install", "-C", str(build), "--destdir", str(dest), "--no-rebuild",
                            "--quiet"], capture_output=True, text=True, timeout=300)
        check("meson install --destdir succeeds", p.returncode == 0, p.stdout + p.stderr)
        root = dest / prefix.relative_to("/")
        check_installed(root, files)
        check("nothing is installed outside the prefix",
              all(str(f).startswith(str(root)) for f in dest.rglob("*") if f.is_file()))
    finally:
        shutil.rmtree(dest)
    check_containerfile(src)
    print(f"{len(failures)} failed" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
