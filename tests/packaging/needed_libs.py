#!/usr/bin/env python3
"""The shared libraries a binary needs at run time (its ELF NEEDED entries)
must all be ones every Fedora Atomic / bootc image ships: `start` copies
bootbench into /var and every target deployment must be able to run it.

  needed_libs.py BINARY                 exit 0 when every entry is allowed
  needed_libs.py BINARY --expect LIB    exit 0 only when LIB is refused
                                        (proves the check can fail)
"""
import re
import subprocess
import sys

# libostree-1, GLib/GIO/GObject, libcurl, the C and C++ runtimes, the loader,
# and PCRE2 (GLib itself needs it).
ALLOWED = re.compile(r"^(libostree-1|libglib-2\.0|libgio-2\.0|libgobject-2\.0|libcurl"
                     r"|libstdc\+\+|libgcc_s|libm|libc|ld-linux-x86-64|ld-linux-aarch64"
                     r"|libpcre2-8)\.so(\.[0-9]+)*$")


def needed(binary):
    try:
        out = subprocess.run(["readelf", "-d", binary], check=True, capture_output=True,
                             text=True).stdout
    except FileNotFoundError:
        sys.exit("needed_libs: readelf not found (Debian/Fedora package binutils)")
    except subprocess.CalledProcessError as e:
        sys.exit(f"needed_libs: readelf -d {binary} failed: {e.stderr.strip()}")
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)


def refused(binary):
    libs = needed(binary)
    if not libs:
        sys.exit(f"needed_libs: {binary} has no NEEDED entries: not a dynamic ELF binary?")
    return [lib for lib in libs if not ALLOWED.match(lib)]


def main():
    binary = sys.argv[1]
    bad = refused(binary)
    if len(sys.argv) == 4 and sys.argv[2] == "--expect":
        ok = any(lib.startswith(sys.argv[3]) for lib in bad)
        print(f"{binary}: refused {bad}: " + ("as expected" if ok else f"expected {sys.argv[3]} among them"))
        return 0 if ok else 1
    for lib in bad:
        print(f"{binary}: needs {lib}, which a Fedora Atomic / bootc image does not ship")
    if not bad:
        print(f"{binary}: every NEEDED library is one an Atomic image ships: {', '.join(needed(binary))}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
