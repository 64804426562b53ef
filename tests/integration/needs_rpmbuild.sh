#!/bin/sh
# Runs "$@" where rpm and rpmbuild are installed (the tree reader's rpm test
# builds tiny packages into an rpm database); elsewhere exits 77, meson's
# skip, with the reason.
for tool in rpm rpmbuild; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "skipped: $tool is not installed here (Debian: apt-get install rpm; Fedora: dnf install rpm-build)"
        exit 77
    fi
done
exec "$@"
