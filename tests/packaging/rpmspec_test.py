#!/usr/bin/env python3
"""dist/bootbench.spec as rpm reads it (`rpmspec -P`, skipped where rpmspec
is missing): the version is meson's, it builds with Fedora's meson macros,
BuildRequires holds ./bootstrap's Fedora list, %files holds what `meson
install` makes with prefix /usr, and the unit is never restarted on upgrade
nor disabled on removal (a running experiment's unit is the /etc copy that
`start` enabled).

usage: rpmspec_test.py SPEC BOOTSTRAP MESON_VERSION
"""
import re
import shutil
import subprocess
import sys

failures = []
# Fedora's systemd-rpm-macros and the meson macros, where this rpm lacks them
# (Debian's rpm): only so that -P can expand what it knows.
STAND_INS = {"_unitdir": "/usr/lib/systemd/system"}
# Needed by ./bootstrap but not by a package build.
NOT_FOR_RPM = {"ccache"}


def check(name, ok, detail=""):
    print(("ok: " if ok else "FAIL: ") + name)
    if not ok:
        failures.append(name)
        print("   ", str(detail).replace("\n", "\n    "))


def section(text, name):
    m = re.search(rf"^%{name}\b.*?\n(.*?)(?=^%(?:prep|build|install|check|post|postun|preun|files|changelog)\b|\Z)",
                  text, re.M | re.S)
    return m.group(1) if m else ""


def main():
    spec, bootstrap, version = sys.argv[1:4]
    if not shutil.which("rpmspec"):
        print("SKIP: no rpmspec here (Debian package rpm, Fedora rpm-build)")
        return 77
    defines = []
    for macro, value in STAND_INS.items():
        if subprocess.run(["rpm", "--eval", f"%{{{macro}}}"], capture_output=True, text=True).stdout.strip() \
                == f"%{{{macro}}}":
            defines += ["--define", f"{macro} {value}"]
    p = subprocess.run(["rpmspec", "-P", *defines, spec], capture_output=True, text=True, timeout=60)
    check("rpmspec -P reads the spec", p.returncode == 0 and not p.stderr.strip(), p.stderr)
    # Without comments: the spec's own say why restart and preun are absent.
    text = "".join(line for line in p.stdout.splitlines(True) if not line.lstrip().startswith("#"))
    check("Version is meson's project version", re.search(rf"^Version:\s+{re.escape(version)}$", text, re.M),
          f"meson: {version}")
    for macro in ("%meson", "%meson_build", "%meson_install", "%meson_test"):
        check(f"builds with {macro}", re.search(rf"^{macro}\b", open(spec).read(), re.M))
    requires = set(re.findall(r"^BuildRequires:\s+(\S+)", text, re.M))
    fedora = re.search(r"^fedora_pkgs=\(([^)]*)\)", open(bootstrap).read(), re.M | re.S).group(1).split()
    missing = sorted(set(fedora) - NOT_FOR_RPM - requires)
    check("BuildRequires holds bootstrap's Fedora list", not missing, f"missing: {missing}")
    scripts = "".join(section(text, s) for s in ("post", "preun", "postun"))
    check("%post applies the preset (disabled)", "systemd_post bootbench-resume.service" in text
          or "systemctl --no-reload preset bootbench-resume.service" in scripts, scripts)
    check("the unit is never restarted on upgrade",
          "postun_with_restart" not in text and "try-restart" not in scripts and "restart" not in scripts, scripts)
    check("the unit is never disabled on removal", "disable" not in scripts and "systemd_preun" not in text,
          scripts)
    files = sorted(line for line in section(text, "files").splitlines() if line and not line.startswith("%doc"))
    want = sorted(["/usr/bin/bootbench", "/usr/lib/systemd/system/bootbench-resume.service",
                   "/usr/share/man/man1/bootbench.1*", "/usr/share/bash-completion/completions/bootbench"])
    check("%files holds what meson install makes with prefix /usr", files == want, f"got  {files}\nwant {want}")
    print(f"{len(failures)} failed" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
