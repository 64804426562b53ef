#!/usr/bin/env bash
# Builds the bootable disk image for the VM test from Debian's packages only:
# a minimal Debian 13 root (mmdebstrap) committed into an ostree repo as
# vm/base (the machine's original default) and two targets vm/a and vm/b,
# deployed into a sysroot on an ext4 disk that extlinux boots (ostree writes
# extlinux's config natively), with bootbench in the stateroot's /var.
#
#   build-image.sh --bootbench BIN --workdir DIR [--boot extlinux|kernel]
#                  [--floor-tool BIN] [--update-holder BIN]
#
# One image serves every scenario (vm_test.py copies it): the harness names
# the scenario, and gives the ansible scenario's ssh key, through qemu's
# firmware configuration (fw_cfg), which guest/vm-guest reads.
#
# Leaves DIR/disk.img and DIR/manifest.env (boot mode, refs, commits, deployments).
# The root archive is cached in ${BOOTBENCH_VM_CACHE:-/var/cache/bootbench-vm}
# (BOOTBENCH_VM_CACHE=none: always build from scratch).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$HERE/lib.sh"

OS=debian
FS_LABEL=ostroot
FS_SIZE_MIB=3072
PART_OFFSET=1048576
CACHE_MAX_AGE_DAYS=7
# Everything the guest runs: systemd, a dracut initramfs with ostree's
# module, the benchmark tools and bootbench's runtime libraries (only ones a
# Fedora Atomic image has too: no libtomlplusplus, which is compiled in).
# As on Fedora Atomic, the root has podman but no benchmark tools: they come
# from a tools image (make_tools_tar) that the first boot imports.
# sshd and Python are for the ansible scenario (Ansible needs nothing else on
# a host); the other scenarios run qemu without a network card.
# Debian 13 (trixie), much closer to Fedora 42/43 than Debian 12: kernel 6.12,
# systemd 257, ostree 2025.2 built with SELinux (it deploys through bwrap,
# as on Fedora), podman 5 with crun, cgroup v2
# only. SELinux enforcing with Debian's policy (docs/vm.md, "SELinux").
PACKAGES=(systemd-sysv udev dbus kmod procps linux-image-amd64 dracut ostree ostree-boot
  podman crun bubblewrap openssh-server python3
  selinux-policy-default policycoreutils selinux-utils
  libostree-1-1 libglib2.0-0t64 libcurl4t64 libpcre2-8-0)
SUITE=trixie
# SELinux in the guest: enforcing (the default) or permissive.
SELINUX_MODE=${BOOTBENCH_VM_SELINUX:-enforcing}
# The tools image's root: these host programs (Debian 12) with their
# libraries, self-contained; imported by the guest's podman before `bootbench start`.
TOOLS=(/bin/sh /usr/bin/perf /usr/bin/sysbench /usr/bin/stress-ng)
# A gzip -1 initramfs with only the drivers this VM needs builds in ~35 s
# instead of ~105 s; a large uncompressed one fails to load from extlinux.
DRACUT_CONF='compress="gzip -1"
drivers+=" virtio_blk virtio_pci ext4 "'

usage() {
  echo "usage: $0 --bootbench BIN --workdir DIR [--boot extlinux|kernel] [--floor-tool BIN] [--update-holder BIN]" >&2
  echo "       $0 --root-archive   (only make or refresh the cached root archive; prints its path)" >&2
  exit 2
}

parse_args() {
  BOOTBENCH="" WORK="" BOOT_MODE=extlinux FLOOR_TOOL="" UPDATE_HOLDER=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --bootbench) BOOTBENCH=$2; shift 2 ;;
      --floor-tool) FLOOR_TOOL=$2; shift 2 ;;
      --update-holder) UPDATE_HOLDER=$2; shift 2 ;;
      --workdir) WORK=$2; shift 2 ;;
      --boot) BOOT_MODE=$2; shift 2 ;;
      *) usage ;;
    esac
  done
  [ -n "$BOOTBENCH" ] && [ -n "$WORK" ] || usage
  [ -x "$BOOTBENCH" ] || vm_die "bootbench binary not found or not executable: $BOOTBENCH"
  [ -z "$UPDATE_HOLDER" ] || [ -x "$UPDATE_HOLDER" ] || vm_die "not executable: $UPDATE_HOLDER"
  case "$BOOT_MODE" in extlinux | kernel) ;; *) usage ;; esac
  ROOTFS=$WORK/rootfs SR=$WORK/sysroot REPO=$WORK/sysroot/ostree/repo
}

# --- the root archive -------------------------------------------------------

# Changes to what goes into the archive make a new key (bump the "v1" when
# the mmdebstrap call changes otherwise).
cache_key() {
  printf '%s\n' v2 "$SUITE" "${PACKAGES[@]}" "$DRACUT_CONF" \
    "$(cat "$HERE/guest/selinux/fedora-init-exec.cil" "$HERE/guest/selinux/subs_dist")" | sha256sum | cut -c1-12
}

mmdebstrap_root() {
  local out=$1
  vm_log "mmdebstrap: building the root archive (${#PACKAGES[@]} packages)"
  local include
  include=$(IFS=,; echo "${PACKAGES[*]}")
  mmdebstrap --variant=minbase --mode=root --quiet --include="$include" \
    --setup-hook='mkdir -p "$1/etc/dracut.conf.d" && cat >"$1/etc/dracut.conf.d/90-bootbench-vm.conf" <<EOF
'"$DRACUT_CONF"'
EOF' \
    --customize-hook='mkdir -p "$1/tmp/bootbench-selinux"' \
    --customize-hook="copy-in $HERE/guest/selinux/fedora-init-exec.cil $HERE/guest/selinux/subs_dist /tmp/bootbench-selinux" \
    --customize-hook='chroot "$1" sh -c "semodule -X 400 -i /tmp/bootbench-selinux/fedora-init-exec.cil && cat /tmp/bootbench-selinux/subs_dist >>/etc/selinux/default/contexts/files/file_contexts.subs_dist && rm -r /tmp/bootbench-selinux"' \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --format=tar "$SUITE" "$out.partial.tar" || vm_die "mmdebstrap failed (is the Debian mirror reachable?)"
  mv "$out.partial.tar" "$out"
}

# Prints the path of a root archive: the cached one when fresh, else a new one.
root_archive() {
  local cache=${BOOTBENCH_VM_CACHE:-/var/cache/bootbench-vm}
  if [ "$cache" = none ] || ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
    vm_log "root archive: no cache ($cache), building from scratch"
    mmdebstrap_root "$WORK/root.tar"
    echo "$WORK/root.tar"; return
  fi
  local tar
  tar="$cache/root-$(cache_key).tar"
  if [ -f "$tar" ] && [ -n "$(find "$tar" -mtime -"$CACHE_MAX_AGE_DAYS")" ]; then
    vm_log "root archive: reusing $tar"
  else
    rm -rf "$cache"/root-*
    mmdebstrap_root "$tar"
    vm_log "root archive: cached as $tar"
  fi
  echo "$tar"
}

# --- the ostree tree ---------------------------------------------------------

# Half of the root is kernel modules for hardware this VM does not have;
# without them the commit and the disk are much faster to write.
prune_modules() {
  local kver=$1 k=$ROOTFS/usr/lib/modules/$1/kernel d
  for d in sound drivers/gpu drivers/media drivers/infiniband drivers/iio drivers/staging \
    drivers/net/wireless drivers/net/ethernet drivers/bluetooth drivers/isdn \
    net/wireless net/mac80211 net/bluetooth; do
    rm -rf "${k:?}/$d"
  done
  chroot "$ROOTFS" depmod "$kver"
}

# Moves what ostree keeps elsewhere: kernel and initramfs into
# /usr/lib/modules/<kver>, /etc into /usr/etc, /var aside (it becomes the
# stateroot's /var), the writable top-level folders as links into /var.
convert_tree() {
  local r=$ROOTFS kver
  kver=$(ls "$r/usr/lib/modules")
  [ "$(wc -w <<<"$kver")" -eq 1 ] || vm_die "expected one kernel in the root, found: $kver"
  [ -f "$r/boot/initrd.img-$kver" ] || vm_die "no dracut initramfs for $kver in the root archive"
  prune_modules "$kver"
  mv "$r/boot/vmlinuz-$kver" "$r/usr/lib/modules/$kver/vmlinuz"
  mv "$r/boot/initrd.img-$kver" "$r/usr/lib/modules/$kver/initramfs.img"
  rm -rf "${r:?}/boot"/*
  local d
  for d in home opt srv mnt; do mv "$r/$d" "$r/var/$d"; ln -s "var/$d" "$r/$d"; done
  mv "$r/root" "$r/var/roothome" && ln -s var/roothome "$r/root"
  rm -rf "$r/usr/local" && mkdir -p "$r/var/usrlocal" && ln -s ../var/usrlocal "$r/usr/local"
  sed -i "s/^SELINUX=.*/SELINUX=$SELINUX_MODE/" "$r/etc/selinux/config"
  # This host's libselinux (3.4) cannot read the compiled contexts of Debian
  # 13's (3.8) and would label from nothing: both read the text files.
  find "$r/etc/selinux" -name 'file_contexts*.bin' -delete
  # The policy module store lives in /etc, as on Fedora's ostree systems:
  # ostree admin deploy rebuilds a deployment's policy from it (semodule in
  # bwrap), and /var is no part of a commit.
  mv "$r/var/lib/selinux/default/"* "$r/etc/selinux/default/"
  rm -rf "$r/var/lib/selinux"
  echo "store-root = /etc/selinux" >>"$r/etc/selinux/semanage.conf"
  local f
  for f in "$r/etc/selinux/default/active/file_contexts.local" "$r/etc/selinux/default/contexts/files/file_contexts.local"; do
    grep -v '^#' "$HERE/guest/selinux/file_contexts.local" >>"$f"
  done
  tar -C "$r/var" -cf "$WORK/var.tar" .
  rm -rf "${r:?}/var"/* "${r:?}/dev"/* "${r:?}/tmp"/* "${r:?}/run"/*
  mkdir -p "$r/sysroot" && ln -s sysroot/ostree "$r/ostree"
  cat >"$r/usr/lib/tmpfiles.d/bootbench-vm-ostree.conf" <<'EOF'
d /var/home 0755 root root -
d /var/roothome 0700 root root -
d /var/opt 0755 root root -
d /var/srv 0755 root root -
d /var/mnt 0755 root root -
d /var/usrlocal 0755 root root -
EOF
  # No login prompt on the serial console: it interleaves with the lines the
  # harness reads (seen: a boot line lost inside "bootbench-vm login: ...").
  ln -sf /dev/null "$r/etc/systemd/system/serial-getty@ttyS0.service"
  # A fixed machine id: no first-boot setup on every new deployment.
  echo 0123456789abcdef0123456789abcdef >"$r/etc/machine-id"
  echo bootbench-vm >"$r/etc/hostname"
  mv "$r/etc" "$r/usr/etc"
}

# The stateroot's /var is no part of a commit: label it as the guest's policy
# says, with the root's own setfiles (the labels go into the disk with
# mkfs.ext4 -d). So /var/lib/bootbench/bin/bootbench is var_lib_t, as on Fedora.
label_var() {
  in_root "$1" /var setfiles -F "$FILE_CONTEXTS" /var || vm_die "setfiles could not label the stateroot's /var"
}

FILE_CONTEXTS=/usr/etc/selinux/default/contexts/files/file_contexts

# Runs a command in the converted root with DIR bound at MOUNTPOINT there.
in_root() {
  local dir=$1 at=$2
  shift 2
  mkdir -p "$ROOTFS$at"
  unshare -m sh -c 'r=$1 dir=$2 at=$3; shift 3
    mount --bind "$dir" "$r$at" && mount -t proc proc "$r/proc" && exec chroot "$r" "$@"' \
    _ "$ROOTFS" "$dir" "$at" "$@"
}

# Each deployment's /etc is a copy ostree made at deploy time, not part of
# the commit: label it as /etc. The rest of the sysroot as sysroot_contexts says.
label_sysroot() {
  local d
  for d in "$SR/ostree/deploy/$OS/deploy"/*/; do
    in_root "$d/etc" /etc setfiles -F "$FILE_CONTEXTS" /etc || vm_die "setfiles could not label $d/etc"
  done
  cp "$HERE/guest/sysroot_contexts" "$ROOTFS/tmp/sysroot_contexts"
  in_root "$SR" /sysroot setfiles -F -r /sysroot /tmp/sysroot_contexts /sysroot ||
    vm_die "setfiles could not label the sysroot"
  rm -f "$ROOTFS/tmp/sysroot_contexts"
}

# The test's own units and scripts (see guest/), and the experiment file.
add_test_files() {
  local r=$ROOTFS u
  install -D -m 0755 "$HERE/guest/vm-guest" "$r/usr/libexec/bootbench-vm/vm-guest"
  for u in bootbench-vm-boot bootbench-vm-kickoff bootbench-vm-finish; do
    install -D -m 0644 "$HERE/guest/$u.service" "$r/usr/etc/systemd/system/$u.service"
    mkdir -p "$r/usr/etc/systemd/system/multi-user.target.wants"
    ln -sf "../$u.service" "$r/usr/etc/systemd/system/multi-user.target.wants/$u.service"
  done
  install -D -m 0644 "$HERE/guest/experiment.toml" "$r/usr/etc/bootbench-vm/experiment.toml"
  install -D -m 0644 "$HERE/guest/explain.toml" "$r/usr/etc/bootbench-vm/explain.toml"
  install -D -m 0644 "$HERE/guest/bisect.toml" "$r/usr/etc/bootbench-vm/bisect.toml"
  add_hostile_host
  overlay_variant "$r" base
  add_ssh_access
}

# What a Fedora Atomic host does to a night (docs/vm.md, "The traps"): idle
# suspend, an update at boot that stages and holds the sysroot lock, a unit
# whose binary is var_lib_t (SELinux), a layered deployment and one whose
# tree cannot load bootbench.
add_hostile_host() {
  local r=$ROOTFS u
  install -D -m 0644 "$HERE/guest/logind-idle.conf" "$r/usr/etc/systemd/logind.conf.d/90-bootbench-vm-idle.conf"
  # Every SELinux denial reaches the console, where the checks read them.
  install -D -m 0644 "$HERE/guest/sysctl-audit.conf" "$r/usr/lib/sysctl.d/90-bootbench-vm-audit.conf"
  for u in rpm-ostreed-automatic.timer rpm-ostreed-automatic.service rpm-ostreed.service bootbench-vm-exec-trap.service; do
    install -D -m 0644 "$HERE/guest/$u" "$r/usr/lib/systemd/system/$u"
  done
  mkdir -p "$r/usr/etc/systemd/system/timers.target.wants"
  ln -sf /usr/lib/systemd/system/rpm-ostreed-automatic.timer "$r/usr/etc/systemd/system/timers.target.wants/"
  if [ -n "$UPDATE_HOLDER" ]; then install -D -m 0755 "$UPDATE_HOLDER" "$r/usr/libexec/bootbench-vm/vm-update-holder"; fi
  install -D -m 0644 -t "$r/usr/etc/bootbench-vm/refusals" "$HERE/guest/refusals/"*.toml
}

# The ansible scenario: qemu's user network (10.0.2.15, the host's loopback
# port forwarded to 22) configured by systemd-networkd, and root's key.
# root's home is /var/roothome: the key goes into the saved /var.
add_ssh_access() {
  local r=$ROOTFS
  install -D -m 0644 "$HERE/guest/qemu-user.network" "$r/usr/etc/systemd/network/10-qemu-user.network"
  install -D -m 0644 "$HERE/guest/sshd-keys.conf" "$r/usr/etc/ssh/sshd_config.d/90-bootbench-vm-keys.conf"
  ln -sf /lib/systemd/system/systemd-networkd.service \
    "$r/usr/etc/systemd/system/multi-user.target.wants/systemd-networkd.service"
}

# A root holding only the benchmark tools and what they link, as a tar that
# `podman import` takes in the guest: no registry, no second mmdebstrap.
make_tools_tar() {
  local out=$1 root=$WORK/tools-root p f
  rm -rf "$root" && mkdir -p "$root"
  for p in "${TOOLS[@]}"; do
    [ -x "$p" ] || vm_die "the tools image needs $p on this host (./bootstrap installs it)"
    for f in "$p" $(ldd "$p" | grep -o '/[^ ]*'); do
      mkdir -p "$root$(dirname "$f")" "$root$(dirname "$(readlink -f "$f")")"
      cp -L "$f" "$root$f"
      [ -e "$root$(readlink -f "$f")" ] || cp -L "$f" "$root$(readlink -f "$f")"
    done
  done
  tar -C "$root" -cf "$out" .
  rm -rf "$root"
}

# The host's binary runs in the guest (both Debian 12) only if the guest has
# every library it links: say which is missing now, not after a boot.
check_runtime_libs() {
  cp "$BOOTBENCH" "$ROOTFS/tmp/bootbench"
  local missing
  missing=$(chroot "$ROOTFS" ldd /tmp/bootbench | grep 'not found' || true)
  rm -f "$ROOTFS/tmp/bootbench"
  [ -z "$missing" ] || vm_die "bootbench needs libraries the image lacks (add their packages to PACKAGES):
$missing"
}

# The refusals (every scenario's first boot): vm/layered carries rpm-ostree's client
# layer mark; vm/nolib lacks libcurl, which bootbench needs.
commit_refusal_refs() {
  ostree commit --repo="$REPO" --branch=vm/layered --tree=ref=vm/a --add-metadata=rpmostree.clientlayer=true \
    --subject="bootbench VM test: a client layer" --add-metadata-string=version=layered >/dev/null
  local co=$WORK/nolib-tree
  ostree checkout --repo="$REPO" -H vm/a "$co"
  find "$co/usr/lib" -name 'libcurl.so.4*' -delete
  ostree commit --repo="$REPO" --branch=vm/nolib --tree=dir="$co" --link-checkout-speedup \
    --subject="bootbench VM test: a tree without libcurl" --add-metadata-string=version=nolib >/dev/null
  rm -rf "$co"
}

commit_refs() {
  vm_log "ostree: committing vm/base, vm/a, vm/b, vm/busy"
  # Labelled by the root's own policy, as Fedora composes its commits.
  ostree commit --repo="$REPO" --branch=vm/base --tree=dir="$ROOTFS" --selinux-policy="$ROOTFS" \
    --subject="bootbench VM test base" --add-metadata-string=version=base >/dev/null
  local v
  for v in a b; do
    overlay_variant "$WORK/overlay-$v" "$v"
    ostree commit --repo="$REPO" --branch="vm/$v" --tree=ref=vm/base --tree=dir="$WORK/overlay-$v" \
      --selinux-policy="$ROOTFS" \
      --subject="bootbench VM test target $v" --add-metadata-string=version="$v" >/dev/null
  done
  commit_busy_ref
  commit_history
}

# vm/hist: four builds of vm/a, one after the other (each the parent of the
# next), the third adding the busy unit: the bisect scenario's history. As on
# a Fedora host its builds are on a remote, `hist`, and not in the sysroot's
# repository: a bare repository beside it (its objects hard links, so it
# costs no space), read over file://, from which bootbench pulls each build
# it tests.
commit_history() {
  local n o hist=$SR/ostree/hist-repo
  for n in 1 2 3 4; do
    o=$WORK/overlay-hist-$n
    overlay_variant "$o" "hist$n"
    [ "$n" -lt 3 ] || overlay_busy_unit "$o"
    ostree commit --repo="$REPO" --branch=vm/hist --tree=ref=vm/a --tree=dir="$o" --selinux-policy="$ROOTFS" \
      --subject="bootbench VM test: build $n$([ "$n" = 3 ] && echo ', with bootbench-vm-busy.service')" \
      --add-metadata-string=version="hist-$n" >/dev/null
  done
  ostree init --repo="$hist" --mode=bare
  ostree pull-local --repo="$hist" --depth=-1 "$REPO" vm/hist >/dev/null
  ostree remote add --repo="$REPO" --no-gpg-verify hist file:///sysroot/ostree/hist-repo
  ostree refs --repo="$REPO" --delete vm/hist
  ostree prune --repo="$REPO" --refs-only >/dev/null
}

# An overlay's /usr/lib/bootbench-vm/variant: which tree booted, on the console.
overlay_variant() {
  install -D -m 0644 /dev/null "$1/usr/lib/bootbench-vm/variant"
  echo "$2" >"$1/usr/lib/bootbench-vm/variant"
}

# The busy unit, enabled by the tree's own wants link (as an image enables one).
overlay_busy_unit() {
  install -D -m 0644 "$HERE/guest/bootbench-vm-busy.service" "$1/usr/lib/systemd/system/bootbench-vm-busy.service"
  mkdir -p "$1/usr/lib/systemd/system/multi-user.target.wants"
  ln -sf ../bootbench-vm-busy.service "$1/usr/lib/systemd/system/multi-user.target.wants/bootbench-vm-busy.service"
}

# vm/busy: vm/b with one more unit enabled by the tree, which keeps a CPU
# busy (the explain scenario's target b; deployed only in that scenario, by
# the guest's first boot, so the other scenarios' deployments stay three).
commit_busy_ref() {
  local o=$WORK/overlay-busy
  overlay_busy_unit "$o"
  overlay_variant "$o" busy
  ostree commit --repo="$REPO" --branch=vm/busy --tree=ref=vm/b --tree=dir="$o" --selinux-policy="$ROOTFS" \
    --subject="bootbench VM test: b with a busy service" --add-metadata-string=version=busy >/dev/null
}

# ostree's syslinux writer edits the config it finds: it must exist before
# the first deploy.
prepare_bootloader_config() {
  # As on Fedora: the running system sees /sysroot read-only, and bootbench
  # must write into other deployments from a private mount namespace.
  ostree config --repo="$REPO" set sysroot.readonly true
  if [ "$BOOT_MODE" = kernel ]; then
    ostree config --repo="$REPO" set sysroot.bootloader none
    return
  fi
  ostree config --repo="$REPO" set sysroot.bootloader syslinux
  mkdir -p "$SR/boot/loader.0" "$SR/boot/syslinux"
  printf 'SERIAL 0 115200\nPROMPT 0\n' >"$SR/boot/loader.0/syslinux.cfg"
  ln -sfn loader.0 "$SR/boot/loader"
  ln -sfn ../loader/syslinux.cfg "$SR/boot/syslinux/syslinux.cfg"
}

# Deployed last, vm/base is the default: the machine's "original default",
# which bootbench must restore at the end. The kernel argument
# bootbench_vm.variant shows on /proc/cmdline which one booted.
deploy_all() {
  mkdir -p "$SR"
  ostree admin init-fs "$SR" >/dev/null
  ostree admin os-init --sysroot="$SR" "$OS" >/dev/null
  commit_refs
  commit_refusal_refs
  local order=(nolib layered b a base)
  prepare_bootloader_config
  local v retain=()
  for v in "${order[@]}"; do
    vm_log "ostree: deploying vm/$v"
    # vm/layered is deployed as an image is, with rpm-ostree's client layer on it.
    local origin=()
    [ "$v" != layered ] || origin=(--origin-file="$HERE/guest/layered.origin")
    ostree admin deploy --sysroot="$SR" --os="$OS" "${retain[@]}" "${origin[@]}" \
      --karg=root=LABEL=$FS_LABEL --karg=rw --karg=console=ttyS0 --karg=panic=10 \
      --karg=security=selinux --karg=selinux=1 --karg=enforcing=$([ "$SELINUX_MODE" = enforcing ] && echo 1 || echo 0) \
      --karg=bootbench_vm.variant=$v "vm/$v" >/dev/null
    retain=(--retain)
  done
  # b is pinned before the experiment, a is not: bootbench pins both for the
  # experiment and must put each back as it was.
  ostree admin pin --sysroot="$SR" 2 >/dev/null
  mkdir -p "$SR/ostree/deploy/$OS/var/lib/bootbench-vm"
  for v in layered nolib; do
    grep -l -e "^refspec=vm/$v\$" -e "bootbench-vm/$v:1\$" "$SR/ostree/deploy/$OS/deploy/"*.origin | xargs -n1 basename | sed 's/\.origin$//' \
      >"$SR/ostree/deploy/$OS/var/lib/bootbench-vm/deploy-$v"
  done
  local var=$SR/ostree/deploy/$OS/var
  tar -C "$var" -xf "$WORK/var.tar"
  if [ -d "$WORK/var-extra" ]; then cp -a "$WORK/var-extra/." "$var/"; fi
  install -D -m 0755 "$BOOTBENCH" "$var/lib/bootbench/bin/bootbench"
  # bench/switch-default --live: the bare libostree reorder beside bootbench's
  # switch, timed in the guest's first boot (experiment scenario).
  if [ -n "$FLOOR_TOOL" ]; then
    install -D -m 0755 "$FLOOR_TOOL" "$var/lib/bootbench-vm/switch-default"
  fi
  mkdir -p "$var/lib/bootbench-vm"
  make_tools_tar "$var/lib/bootbench-vm/tools-root.tar"
  install -m 0755 /bin/true "$var/lib/bootbench-vm/exec-trap"
  label_var "$var"
  label_sysroot
}

write_manifest() {
  local m=$WORK/manifest.env v dep
  {
    echo "BOOT_MODE=$BOOT_MODE"
    echo "PART_OFFSET=$([ "$BOOT_MODE" = extlinux ] && echo $PART_OFFSET || echo 0)"
    echo "OS=$OS"
    echo "SELINUX=$SELINUX_MODE"
    for v in base a b busy; do
      echo "COMMIT_${v^^}=$(ostree rev-parse --repo="$REPO" "vm/$v")"
    done
    local n rev=vm/hist
    for n in 4 3 2 1; do # the head, then each build's parent
      echo "COMMIT_HIST$n=$(ostree rev-parse --repo="$SR/ostree/hist-repo" "$rev")"
      rev=$rev^
    done
    # Deployment directories: <checksum>.<serial>, with refspec in .origin.
    for dep in "$SR/ostree/deploy/$OS/deploy"/*.origin; do
      v=$(sed -n 's/^refspec=vm\///p' "$dep")
      echo "DEPLOY_${v^^}=$(basename "$dep" .origin)"
      echo "PINNED_${v^^}=$(grep -q '^pinned=true' "$dep" && echo true || echo false)"
    done
  } >"$m"
  vm_log "manifest: $(tr '\n' ' ' <"$m")"
}

# --- the disk ----------------------------------------------------------------

make_disk() {
  local img=$WORK/disk.img
  rm -f "$img"
  if [ "$BOOT_MODE" = kernel ]; then
    mkfs.ext4 -q -L "$FS_LABEL" -d "$SR" "$img" "${FS_SIZE_MIB}M"
    return
  fi
  truncate -s $((PART_OFFSET + FS_SIZE_MIB * 1048576)) "$img"
  # extlinux 6.04 cannot read 64bit or metadata_csum file systems.
  mkfs.ext4 -q -L "$FS_LABEL" -O ^64bit,^metadata_csum -E offset=$PART_OFFSET \
    -d "$SR" "$img" "${FS_SIZE_MIB}M"
  echo "start=$((PART_OFFSET / 512)), type=83, bootable" |
    sfdisk -q --wipe-partitions never --label dos "$img" >/dev/null 2>&1 ||
    vm_die "sfdisk could not write the partition table"
  dd if=/usr/lib/syslinux/mbr/mbr.bin of="$img" bs=440 count=1 conv=notrunc status=none
  install_extlinux "$img"
}

install_extlinux() {
  local img=$1 loop mnt=$WORK/mnt
  loop=$(losetup -f --show -o $PART_OFFSET "$img") || vm_die "losetup failed"
  mkdir -p "$mnt"
  if ! mount "$loop" "$mnt"; then losetup -d "$loop"; vm_die "mounting $loop failed"; fi
  local rc=0
  extlinux --install "$mnt/boot/syslinux" >/dev/null 2>&1 || rc=$?
  umount "$mnt"
  losetup -d "$loop"
  [ $rc -eq 0 ] || vm_die "extlinux --install failed ($rc)"
}

main() {
  if [ "$*" = --root-archive ]; then
    WORK=$(mktemp -d /var/tmp/bootbench-vm-root.XXXXXX)
    root_archive
    rm -rf "$WORK"
    return
  fi
  parse_args "$@"
  local t0 t
  t0=$(vm_now)
  vm_remove_tree "$WORK"
  mkdir -p "$ROOTFS"
  t=$(vm_now)
  local tar
  tar=$(root_archive)
  echo "TIME_ROOT_ARCHIVE=$(vm_elapsed "$t")" >"$WORK/build-times.env"
  t=$(vm_now)
  tar -C "$ROOTFS" --xattrs --xattrs-include='*' -xpf "$tar"
  convert_tree
  add_test_files
  check_runtime_libs
  deploy_all
  write_manifest
  rm -rf "$ROOTFS" "$WORK/var.tar" "$WORK/var-extra"
  echo "TIME_SYSROOT=$(vm_elapsed "$t")" >>"$WORK/build-times.env"
  t=$(vm_now)
  make_disk
  vm_remove_tree "$SR"
  echo "TIME_DISK=$(vm_elapsed "$t")" >>"$WORK/build-times.env"
  echo "TIME_IMAGE_TOTAL=$(vm_elapsed "$t0")" >>"$WORK/build-times.env"
  vm_log "image: $WORK/disk.img ($BOOT_MODE) built in $(vm_elapsed "$t0") s: $(tr '\n' ' ' <"$WORK/build-times.env")"
}

main "$@"
