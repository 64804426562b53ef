#!/bin/sh
# ansible-lint (production profile) passes on the collection in ansible/.
# usage: lint.sh SOURCE_ROOT
command -v ansible-lint >/dev/null || { echo "SKIP: ansible-lint is not installed"; exit 77; }
cd "$1/ansible" || exit 1
# The action plugin of the collection, so that lint can check its options.
export ANSIBLE_ACTION_PLUGINS="$PWD/plugins/action"
export ANSIBLE_HOME="${TMPDIR:-/tmp}/bootbench-lint-home.$$"
trap 'rm -rf "$ANSIBLE_HOME"' EXIT
exec ansible-lint --offline -p --nocolor
