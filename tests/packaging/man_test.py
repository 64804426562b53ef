#!/usr/bin/env python3
"""bootbench(1) as `man` shows it: rendered without a groff warning, and
documenting what the binary and the parser accept, read from them so that a
command, option, experiment-file key or exit code added without its
documentation fails here:

- every command `bootbench help` lists has a subsection under COMMANDS with
  its synopsis, and every option `bootbench help COMMAND` lists is in it;
- every global option of `bootbench help` (--version...) is in the page;
- every key and table the experiment parser allows (the allow_keys lists of
  src/core/experiment/experiment*.cpp and each bench kind's in
  src/core/experiment/kinds/) and every bench kind is under EXPERIMENT FILE;
- every key of a bisect file's [bisect] table (the allow_keys lists of
  src/core/bisect/bisect_config.cpp) is under BISECT FILE;
- every ExitCode of src/core/base/error.hpp is under EXIT STATUS.

usage: man_test.py BOOTBENCH MANPAGE SOURCE_ROOT
       man_test.py --skip REASON       (exit 77: meson found no scdoc)
"""
import os
import pathlib
import re
import shutil
import subprocess
import sys

failures = []


def check(name, ok, detail=""):
    print(("ok: " if ok else "FAIL: ") + name)
    if not ok:
        failures.append(name)
        print("   ", str(detail).replace("\n", "\n    "))


def render(manpage, width, warnings=False):
    env = dict(os.environ, MANWIDTH=str(width), LC_ALL="C.UTF-8", MAN_DISABLE_SECCOMP="1")
    env.pop("MANPAGER", None)
    env.pop("PAGER", None)
    args = ["man"] + (["--warnings"] if warnings else []) + ["-l", manpage]
    p = subprocess.run(args, capture_output=True, text=True, env=env, timeout=60)
    # Hyphens that groff may print as U+2010 or U+2212.
    return p.returncode, p.stdout.replace("\u2010", "-").replace("\u2212", "-"), p.stderr


def sections(text):
    """{SECTION: text} for the page's top-level headings (unindented lines)."""
    out, name = {}, None
    for line in text.splitlines():
        if line and not line[0].isspace() and line.upper() == line:
            name = line.strip()
            out[name] = ""
        elif name:
            out[name] += line + "\n"
    return out


def subsections(text):
    """{name: text} for the subsections of one section (lines indented by 3)."""
    out, name = {}, None
    for line in text.splitlines():
        m = re.match(r"^   (\S.*)$", line)
        if m:
            name = m.group(1).strip()
            out[name] = ""
        elif name:
            out[name] += line + "\n"
    return out


def bootbench(binary, *args):
    return subprocess.run([binary, *args], capture_output=True, text=True, timeout=60, check=True).stdout


def commands_of(usage):
    after = usage.split("commands:\n", 1)[1]
    return [m.group(1) for m in re.finditer(r"^  (\S+)  ", after, re.M)]


def parser_keys(files):
    keys = set()
    for f in files:
        for call in re.findall(r"\ballow(?:_keys)?\([^{]*\{([^}]*)\}", f.read_text()):
            keys.update(re.findall(r'"([^"]+)"', call))
    return keys


def check_keys(keys, page, section, fewest):
    check(f"the keys of {section} were found", len(keys) >= fewest, sorted(keys))
    text = page.get(section, "")
    for key in sorted(keys):
        check(f"{section} documents '{key}'", re.search(rf"(?<![\w-]){re.escape(key)}(?![\w-])", text))


def bench_kinds(src):
    """The names of kBenchKindNames (src/core/experiment/bench.hpp)."""
    table = re.search(r"kBenchKindNames\[\] = \{(.*?)\};", (src / "src/core/experiment/bench.hpp").read_text(), re.S)
    return re.findall(r'\{"([a-z-]+)", BenchKind::', table.group(1)) if table else []


def check_commands(binary, page):
    usage = bootbench(binary, "help")
    commands = commands_of(usage)
    check("bootbench help lists commands", len(commands) >= 9, usage)
    documented = subsections(page.get("COMMANDS", ""))
    for cmd in commands:
        text = documented.get(cmd)
        check(f"COMMANDS has a subsection '{cmd}'", text is not None, sorted(documented))
        if text is None:
            continue
        help_text = bootbench(binary, "help", cmd)
        synopsis = help_text.splitlines()[0].removeprefix("usage: ")
        check(f"{cmd}: synopsis '{synopsis}'", " ".join(synopsis.split()) in " ".join(text.split()), text)
        for option in re.findall(r"^  (--[a-z0-9-]+)", help_text, re.M):
            check(f"{cmd}: documents {option}", re.search(rf"^\s+{re.escape(option)}\b", text, re.M), text)
    whole = "\n".join(page.values())
    for option in sorted(set(re.findall(r"(--[a-z][a-z0-9-]*)", usage))):
        check(f"documents global {option}", option in whole)


def check_experiment_keys(src, page):
    folder = src / "src/core/experiment"
    check_keys(parser_keys(sorted(folder.glob("experiment*.cpp")) + sorted(folder.glob("kinds/*.cpp"))),
               page, "EXPERIMENT FILE", 40)
    text = page.get("EXPERIMENT FILE", "")
    kinds = bench_kinds(src)
    check("the bench kinds were found", len(kinds) >= 5, kinds)
    for kind in kinds:
        check(f"EXPERIMENT FILE documents bench kind '{kind}'", re.search(rf"(?<![\w-]){re.escape(kind)}(?![\w-])", text))


def check_bisect_keys(src, page):
    keys = parser_keys([src / "src/core/bisect/bisect_config.cpp"])
    # the file's top-level tables are the experiment file's, checked above
    keys -= parser_keys(sorted((src / "src/core/experiment").glob("experiment*.cpp")))
    check_keys(keys, page, "BISECT FILE", 10)


def check_exit_codes(src, page):
    codes = re.findall(r"=\s*(\d+)", re.search(r"enum class ExitCode[^{]*\{([^}]*)\}",
                                               (src / "src/core/base/error.hpp").read_text()).group(1))
    check("ExitCode values were found", len(codes) >= 3, codes)
    text = page.get("EXIT STATUS", "")
    for code in codes:
        check(f"EXIT STATUS documents {code}", re.search(rf"^\s+{code}\s*$", text, re.M), text)


def main():
    if sys.argv[1] == "--skip":
        print(f"SKIP: {sys.argv[2]}")
        return 77
    binary, manpage, src = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
    if not shutil.which("man"):
        print("SKIP: no man here (Debian and Fedora package man-db)")
        return 77
    rc, out, err = render(manpage, 80, warnings=True)
    check("man -l renders it", rc == 0 and "bootbench(1)" in out, f"exit {rc}\n{err}")
    bad = [line for line in err.splitlines() if re.search(r"warning|can't|error", line, re.I)]
    check("man -l prints no warning", not bad, "\n".join(bad))
    # Wide: no paragraph is broken (or hyphenated) inside a name.
    _, wide, _ = render(manpage, 1000)
    page = sections(wide)
    for name in ("NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "EXPERIMENT FILE", "BISECT FILE", "EXIT STATUS"):
        check(f"section {name}", name in page, sorted(page))
    check_commands(binary, page)
    check_experiment_keys(src, page)
    check_bisect_keys(src, page)
    check_exit_codes(src, page)
    print(f"{len(failures)} failed" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
