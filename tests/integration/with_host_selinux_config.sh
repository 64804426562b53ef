#!/bin/sh
# Runs "$@" in a private mount namespace whose /etc/selinux is a tmpfs
# holding only what Debian's policycoreutils writes when no policy is
# installed: a config naming SELINUX=permissive and SELINUXTYPE=default, and
# no default/ folder. The host's own /etc/selinux is never written; the mount
# is gone when the command exits. Where no tmpfs can be mounted, or there is
# no /etc/selinux to mount over, exits 77 (meson's skip) with the reason.
if [ ! -d /etc/selinux ]; then
    echo "skipped: this host has no /etc/selinux folder to mount a stand-in config over"
    exit 77
fi
if ! unshare --mount --propagation private mount -t tmpfs -o size=64k tmpfs /etc/selinux 2>/dev/null; then
    echo "skipped: cannot mount a tmpfs in a private mount namespace here (needs CAP_SYS_ADMIN)"
    exit 77
fi
exec unshare --mount --propagation private sh -euc '
    mount -t tmpfs -o size=64k tmpfs /etc/selinux
    printf "SELINUX=permissive\nSELINUXTYPE=default\n" > /etc/selinux/config
    exec "$@"' sh "$@"
