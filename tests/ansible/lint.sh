#!/bin/sh
# ansible-lint (production profile) passes on the collection in ansible/.
# usage: lint.sh SOURCE_ROOT
command -v ansible-lint >/dev/null || { echo "SKIP: ansible-lint is not installed"; exit 77; }
cd "$1/ansible" || exit 1
# The action plugin of the collection and its documentation (plugins/modules).
export ANSIBLE_ACTION_PLUGINS="$PWD/plugins/action" ANSIBLE_LIBRARY="$PWD/plugins/modules"
export ANSIBLE_HOME="${TMPDIR:-/tmp}/bootbench-lint-home.$$"
trap 'rm -rf "$ANSIBLE_HOME"' EXIT
exec ansible-lint --offline -p --nocolor
