#!/usr/bin/env python3
"""The include graph of src/ against the map in ARCHITECTURE.md.

- A folder of src/core/ or src/sys/ includes only the folders its row of the
  table names under "may include" (and those rows name only folders listed
  after them: the order has no way back up).
- Every file of src/core/ is in a folder of the table; core/ includes nothing
  of sys/ or cli/, no system library (it is pure) and not <regex>; sys/
  nothing of cli/.
- No two files include each other in a circle (a file and its header are one).

    include_layers.py SOURCE_ROOT      check the tree
    include_layers.py --refuses ROOT   a copy of the tree with one include
                                       running back up and one circle must fail
"""
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROW = re.compile(r"^\| `src/(core|sys)/([a-z_]+)/` \|.*\|\s*([^|]*?)\s*\|\s*$")
INCLUDE = re.compile(r'^\s*#\s*include\s+"((core|sys|cli)/[^"]+)"', re.M)
SYSTEM = re.compile(r"^\s*#\s*include\s+<([^>]+)>", re.M)
# What "pure" excludes: GLib, libostree, libcurl and the POSIX headers.
IMPURE = re.compile(r"^(glib|gio/|ostree|curl/|unistd\.h|fcntl\.h|dirent\.h|signal\.h|poll\.h|sys/)")
# sys/ itself (its row's text): the Clock seam, which every group may use.
SYS_SHARED = {"sys/clock.hpp"}


def read_table(root):
    """{layer: [(folder, {allowed folders})]} in the order of the rows."""
    table = {"core": [], "sys": []}
    for line in (root / "ARCHITECTURE.md").read_text().splitlines():
        m = ROW.match(line)
        if m:
            allowed = set(re.findall(r"([a-z_]+)/", m.group(3)))
            table[m.group(1)].append((m.group(2), allowed))
    return table


def order_problems(table):
    out = []
    for layer, rows in table.items():
        names = [f for f, _ in rows]
        for i, (folder, allowed) in enumerate(rows):
            for a in sorted(allowed):
                if a not in names[i + 1:]:
                    out.append(f"ARCHITECTURE.md: src/{layer}/{folder}/ may include {a}/, which is not "
                               f"listed after it: the order must run one way only")
    return out


def sources(root):
    return sorted(p for p in (root / "src").rglob("*") if p.suffix in (".cpp", ".hpp"))


def where(path, root):
    """(layer, folder or None) of a path under src/."""
    parts = path.relative_to(root / "src").parts
    return parts[0], (parts[1] if len(parts) > 2 else None)


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


def include_problems(root, table):
    allowed = {(layer, f): a for layer, rows in table.items() for f, a in rows}
    out = []
    for p in sources(root):
        layer, folder = where(p, root)
        if layer not in ("core", "sys"):
            continue
        rel, text = p.relative_to(root), p.read_text()
        if layer == "core" and (folder is None or ("core", folder) not in allowed):
            out.append(f"{rel}: not in a folder of ARCHITECTURE.md's core table: move it into one, or add the folder's row")
            continue
        for m in INCLUDE.finditer(text):
            out += judge(rel, line_of(text, m.start()), layer, folder, m.group(1), allowed)
        for m in SYSTEM.finditer(text) if layer == "core" else ():
            if IMPURE.match(m.group(1)):
                out.append(f"{rel}:{line_of(text, m.start())}: includes <{m.group(1)}>: core/ is pure; "
                           f"the effect belongs in sys/")
            elif m.group(1) == "regex":
                out.append(f"{rel}:{line_of(text, m.start())}: includes <regex>: use core/base/regex "
                           f"(PCRE2 with limits), never std::regex")
    return out


def judge(rel, line, layer, folder, target, allowed):
    t_layer, *rest = target.split("/")
    if layer == "core" and t_layer != "core" or layer == "sys" and t_layer == "cli":
        return [f"{rel}:{line}: includes {target}: {layer}/ may not include {t_layer}/ "
                f"(main -> cli -> sys -> core, no arrow back up)"]
    t_folder = rest[0] if len(rest) > 1 else None
    if t_layer != layer or folder is None or t_folder == folder:
        return []  # a lower layer, sys/'s own files (they use every group), or the same folder
    if t_folder is None:
        return [] if target in SYS_SHARED else [
            f"{rel}:{line}: includes {target}, above its folder: a group includes only "
            f"{', '.join(sorted(SYS_SHARED))} of {layer}/ itself"]
    ok = allowed.get((layer, folder), set())
    if t_folder in ok:
        return []
    names = ", ".join(f"{a}/" for a in sorted(ok)) or "nothing"
    return [f"{rel}:{line}: includes {target}: {layer}/{folder}/ may include only {names} "
            f"(ARCHITECTURE.md): move the code down, or change the folder's row"]


def room(p, root):
    return str(p.relative_to(root / "src").with_suffix(""))


def circles(root):
    graph = {}
    for p in sources(root):
        edges = graph.setdefault(room(p, root), set())
        for m in INCLUDE.finditer(p.read_text()):
            target = str(pathlib.Path(m.group(1)).with_suffix(""))
            if target != room(p, root):
                edges.add(target)
    return [c for c in strongly_connected(graph) if len(c) > 1]


def strongly_connected(graph):
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            found.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def check(root):
    table = read_table(root)
    if not table["core"]:
        return ["ARCHITECTURE.md: no rows `src/core/FOLDER/` in the layers table"]
    problems = order_problems(table) + include_problems(root, table)
    problems += [f"a circle of includes among {', '.join(c)}: one of them must stop including another"
                 for c in circles(root)]
    return problems


def run_on_copy(root, edits):
    """The check's output on a copy of src/ and ARCHITECTURE.md with `edits`
    ({file under src/: a line put first}) made."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = pathlib.Path(tmp)
        shutil.copytree(root / "src", copy / "src")
        shutil.copy(root / "ARCHITECTURE.md", copy)
        for name, line in edits.items():
            f = copy / "src" / name
            f.write_text(line + "\n" + f.read_text())
        return subprocess.run([sys.executable, __file__, str(copy)], capture_output=True, text=True).stdout


def refuses(root):
    """One include running back up, then one circle: each must fail, named."""
    cases = [({"core/base/text.cpp": '#include "core/report/report.hpp"'},
              "src/core/base/text.cpp:1: includes core/report/report.hpp: core/base/ may include only nothing"),
             ({"core/report/report.cpp": '#include "core/report/render_text.hpp"'},
              "a circle of includes among core/report/render_text, core/report/report")]
    failed = 0
    for edits, wanted in cases:
        out = run_on_copy(root, edits)
        print(out, end="")
        if wanted not in out or "problem(s)" not in out:
            print(f"MISSING: {wanted}")
            failed = 1
    return failed


def main(argv):
    if argv[1] == "--refuses":
        return refuses(pathlib.Path(argv[2]))
    problems = check(pathlib.Path(argv[1]))
    for p in problems:
        print(p)
    print(f"{len(problems)} problem(s) in the include graph" if problems else "the include graph follows ARCHITECTURE.md")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
