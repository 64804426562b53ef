#!/bin/sh
# Runs "$@" in a private mount namespace where no cgroup2 file system is
# mounted, so a bench cannot get a cgroup of its own (as on a cgroup v1 host);
# elsewhere exits 77, meson's skip, with the reason.
if ! unshare --mount --propagation private true 2>/dev/null; then
    echo "skipped: cannot make a private mount namespace here (needs CAP_SYS_ADMIN)"
    exit 77
fi
exec unshare --mount --propagation private sh -c '
    for point in $(awk "\$0 ~ / - cgroup2 / {print \$5}" /proc/self/mountinfo); do
        umount -l "$point" || exit 1
    done
    if grep -q " - cgroup2 " /proc/self/mountinfo; then
        echo "skipped: a cgroup2 file system stays mounted"
        exit 77
    fi
    exec "$@"' sh "$@"
