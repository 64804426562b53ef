#!/bin/sh
# Runs "$@" where a tmpfs can be mounted in a private mount namespace (what
# the disk-full test does); elsewhere exits 77, meson's skip, with the reason.
probe=$(mktemp -d)
if ! unshare --mount --propagation private mount -t tmpfs -o size=4k tmpfs "$probe" 2>/dev/null; then
    rmdir "$probe"
    echo "skipped: cannot mount a tmpfs in a private mount namespace here (needs CAP_SYS_ADMIN)"
    exit 77
fi
rmdir "$probe"
exec "$@"
