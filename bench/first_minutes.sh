#!/usr/bin/env bash
# README's first command timed from a clean clone (issue 34):
#   ./bootstrap && build/bootbench simulate configs/demo.toml
#
#   bench/first_minutes.sh                 # on this machine, packages as they are
#   bench/first_minutes.sh --fresh ROOT    # in ROOT, a Debian 12 root with none of them
#
# A clean clone of this tree's HEAD (git clone) in a scratch folder, the
# compiler cache off (a first build is a cold one), ninja at most 2 jobs
# (a shared 2-core machine; ninja's default there is 3). With --fresh, ROOT is
# a root made by
#   mmdebstrap --variant=minbase --include=ca-certificates,git bookworm ROOT
# (apt and nothing of bootbench's; it is written to, so use a copy): the
# clone goes into it and everything runs there, as root, in a private mount
# namespace with /proc, /sys and /dev of this machine, so apt-get downloads
# and installs the packages as on a fresh machine. Before that it prints
# what apt-get would fetch for ./bootstrap and for ./bootstrap --tests
# (that apt-get update is not in the time; bootstrap's own is).
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
root=
[ "${1:-}" = --fresh ] && root=${2:?usage: first_minutes.sh [--fresh ROOT]}

# ninja -j2 whatever meson asks: a stand-in first on PATH.
jobs_wrapper() {
  mkdir -p "$1/bin"
  printf '#!/bin/sh\nexec %s -j2 "$@"\n' "$(command -v ninja || echo /usr/bin/ninja)" > "$1/bin/ninja"
  chmod +x "$1/bin/ninja"
}

the_command() {
  cat <<'EOF_INNER'
set -euo pipefail
cd "$1"
export CCACHE_DISABLE=1 PATH="$2/bin:$PATH"
echo "first-minutes: load $(cut -d' ' -f1-3 /proc/loadavg) at $(date -u +%H:%M:%S)"
start=$(date +%s%N)
./bootstrap && build/bootbench simulate configs/demo.toml
ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "first-minutes: README's first command took $((ms / 1000)).$(printf %03d $((ms % 1000))) s; load $(cut -d' ' -f1-3 /proc/loadavg)"
EOF_INNER
}

on_this_machine() {
  local scratch
  scratch=$(mktemp -d /var/tmp/first-minutes.XXXXXX)
  git clone -q "$src" "$scratch/clone"
  jobs_wrapper "$scratch"
  bash -c "$(the_command)" _ "$scratch/clone" "$scratch"
  rm -rf "$scratch"
}

# What apt-get would fetch for each of bootstrap's lists, before anything
# is installed (run inside the root).
sizes() {
  cat <<'EOF_INNER'
set -euo pipefail
cd "$1"
eval "$(sed -n '/^debian_pkgs=(/,/)$/p;/^debian_test_pkgs=(/,/)$/p' bootstrap)"
apt-get update -qq
for pkgs in "${debian_pkgs[*]}" "${debian_pkgs[*]} ${debian_test_pkgs[*]}"; do
  n=$(apt-get install -s --no-install-recommends $pkgs | grep -c '^Inst')
  get=$(apt-get install --assume-no --no-install-recommends $pkgs 2>/dev/null | grep -o 'Need to get [^ ]* [kMG]*B' || true)
  echo "first-minutes: $(wc -w <<<"$pkgs") packages asked, $n to install; $get"
done
EOF_INNER
}

in_fresh_root() {
  [ "$(id -u)" -eq 0 ] || { echo "first-minutes: --fresh needs root (chroot, mounts)" >&2; exit 1; }
  rm -rf "$root/work"
  mkdir -p "$root/work"
  git clone -q "$src" "$root/work/clone"
  jobs_wrapper "$root/work"
  unshare --mount --propagation private -- bash -euc '
    root=$1
    mount --rbind /dev "$root/dev"; mount --rbind /sys "$root/sys"; mount -t proc proc "$root/proc"
    mount -t tmpfs tmpfs "$root/tmp"
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    chroot "$root" /bin/bash -c "$2" _ /work/clone
    exec chroot "$root" /bin/bash -c "$3" _ /work/clone /work' _ "$root" "$(sizes)" "$(the_command)"
}

if [ -n "$root" ]; then
  in_fresh_root
else
  on_this_machine
fi
