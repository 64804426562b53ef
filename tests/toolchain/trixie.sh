#!/usr/bin/env bash
# The second stack: builds bootbench with warnings as errors and runs every
# non-VM test inside a Debian 13 (trixie) build root, which has what a Fedora
# toolbox has and Debian 12 has not: GCC 14, Catch2 3, toml++ 3.4, meson 1.7,
# libcurl 8.14, ostree 2025.2, GLib 2.84. The root comes from Debian's mirror
# (mmdebstrap), never from this host's packages, and is cached.
#
#   tests/toolchain/trixie.sh [BUILD_DIR]   (default build-trixie, in the tree)
#   tests/toolchain/trixie.sh --root-only   only make (or refresh) the cached
#                                           root: .ci/run does it while the
#                                           host's own build runs
#
# Environment: BOOTBENCH_TRIXIE_CACHE (default /var/cache/bootbench-trixie)
# holds the root and its compiler cache; BOOTBENCH_WERROR=0 drops -Werror.
# Exit status: that of the build, or of `meson test` with each failed test
# run once more (tests/toolchain/rerun_failed.py; the logs are in
# BUILD_DIR/meson-logs/testlog.json and rerun.json, read by .ci/run's
# closing lines).
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build-trixie}
cache=${BOOTBENCH_TRIXIE_CACHE:-/var/cache/bootbench-trixie}
CACHE_MAX_AGE_DAYS=14

# What ./bootstrap installs on Debian, less what only some suites use and
# skip without (chromium, podman, runc, Ansible): those run on Debian 12.
PACKAGES=(meson ninja-build g++ pkg-config python3 ccache
  libostree-dev libglib2.0-dev libcurl4-openssl-dev libtomlplusplus-dev nlohmann-json3-dev catch2 libpcre2-dev
  ostree linux-perf sysbench stress-ng scdoc bash-completion rpm man-db
  util-linux mount procps dbus-daemon openssl ca-certificates)

say() { echo "trixie: $*"; }
die() { echo "trixie: error: $*" >&2; exit 1; }

# Changes to what goes into the root make a new key (bump "v1" when the
# mmdebstrap call changes otherwise).
cache_key() { printf '%s\n' v1 trixie "${PACKAGES[@]}" | sha256sum | cut -c1-12; }

make_root() {
  local dir=$1
  say "mmdebstrap: building the root (${#PACKAGES[@]} packages; about 3-7 min)"
  rm -rf "$dir.partial"
  mmdebstrap --variant=minbase --mode=root --quiet --include="$(IFS=,; echo "${PACKAGES[*]}")" \
    --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
    trixie "$dir.partial" || die "mmdebstrap failed (is Debian's mirror reachable?)"
  mv "$dir.partial" "$dir"
}

# Prints the root's folder: the cached one when fresh, else a new one.
build_root() {
  local root
  root="$cache/root-$(cache_key)"
  if [ -d "$root" ] && [ -n "$(find "$root" -maxdepth 0 -mtime -"$CACHE_MAX_AGE_DAYS")" ]; then
    say "root: reusing $root" >&2
  else
    find "$cache" -mindepth 1 -maxdepth 1 -name 'root-*' -exec rm -rf {} +
    make_root "$root" >&2
  fi
  echo "$root"
}

# The build and the tests, inside the root (as root, like CI on the host).
# -O2 as Fedora builds (GCC's warnings depend on it), without debug info: a
# tenth of the compile time, and nobody debugs this build.
inside() {
  cat <<EOF
set -euo pipefail
export CCACHE_DIR=/ccache LANG=C.UTF-8
cd /src
echo "trixie: gcc \$(g++ -dumpfullversion), meson \$(meson --version), catch2 \$(pkg-config --modversion catch2-with-main), toml++ \$(pkg-config --modversion tomlplusplus), ostree \$(pkg-config --modversion ostree-1)"
[ -f "$build/build.ninja" ] || meson setup "$build" -Dvm_tests=false -Ddebug=false $werror >/dev/null
meson compile -C "$build"
meson test -C "$build" --no-suite vm --print-errorlogs || python3 tests/toolchain/rerun_failed.py "$build"
EOF
}

# A private mount namespace: every mount below is gone when it exits, and
# the host never sees them.
run_in_root() {
  local root=$1 scratch=$2
  mkdir -p "$cache/ccache"
  unshare --mount --propagation private -- bash -euc '
    root=$1 src=$2 scratch=$3 ccache=$4
    mount --rbind /dev "$root/dev"; mount --rbind /sys "$root/sys"
    mount -t proc proc "$root/proc"
    mkdir -p "$root/src" "$root/ccache"
    mount --bind "$scratch" "$root/tmp"; mount --bind "$src" "$root/src"
    mount --bind "$ccache" "$root/ccache"
    exec chroot "$root" /bin/bash -c "$5"' _ "$root" "$src" "$scratch" "$cache/ccache" "$(inside)"
}

main() {
  [ "$(id -u)" -eq 0 ] || die "needs root (mmdebstrap --mode=root, chroot, mounts)"
  command -v mmdebstrap >/dev/null || die "mmdebstrap not found (apt-get install mmdebstrap)"
  mkdir -p "$cache"
  if [ "$build" = --root-only ]; then
    say "root: $(build_root)"
    return
  fi
  werror=-Dwerror=true
  [ "${BOOTBENCH_WERROR:-1}" = 1 ] || werror=
  mkdir -p "$cache"
  local root scratch status=0
  root=$(build_root)
  scratch=$(mktemp -d /var/tmp/bootbench-trixie-tmp.XXXXXX)
  chmod 1777 "$scratch"
  run_in_root "$root" "$scratch" || status=$?
  rm -rf "$scratch"
  return "$status"
}

main "$@"
