#!/bin/sh
# A stand-in for ostree-container's `ostree container image pull REPO IMGREF`
# (rpm-ostree's and bootc's; neither is packaged on Debian): it imports an
# "image" into REPO as bootbench's image bisection expects ostree-container to,
# a commit of the sandbox's host tree with the image's digest as
# ostree.manifest-digest and, as the image's own content, the file
# usr/share/bootbench/sandbox-build holding the value $STANDIN_IMAGE_VALUES
# gives its digest ("HEXPREFIX=VALUE ...", a build's label; none: the digest), kept by a ref
# of its own as ostree-container's image refs are; then it prints the line
# ostree-container prints, "Wrote: IMGREF => COMMIT". Every other ostree
# command is the real ostree's ($STANDIN_REAL_OSTREE, else /usr/bin/ostree);
# `ostree container image remove --repo REPO IMGREF...` drops those refs.
# Each pull and remove is appended to $STANDIN_CALLS; STANDIN_PULL_EXIT=N
# fails them with N. `container image list` lists nothing, as it would
# before the first pull.
set -euf
real=${STANDIN_REAL_OSTREE:-/usr/bin/ostree}
[ "${1:-}" = container ] || exec "$real" "$@"
# `container image list --repo REPO`: the images it imported (none here).
if [ "$2 $3 $4" = "image list --repo" ]; then
  exit 0
fi
echo "ostree $*" >> "$STANDIN_CALLS"
if [ "${STANDIN_PULL_EXIT:-0}" != 0 ]; then
  echo "error: Importing: Fetching manifest: unauthorized" >&2
  exit "$STANDIN_PULL_EXIT"
fi
# `container image remove --repo REPO IMGREF...`: the images' refs dropped.
if [ "$2 $3 $4" = "image remove --repo" ]; then
  repo=$5
  shift 5
  for ref; do
    "$real" refs --repo="$repo" --delete "standin-container/$(printf %s "${ref##*@}" | cut -c8-19)"
  done
  echo "Removed images: $#"
  exit 0
fi
[ "$2 $3" = "image pull" ] || { echo "standin: only 'container image pull' and 'remove' are played" >&2; exit 2; }
repo=$4 imgref=$5
digest=${imgref##*@}
value=$digest
for pair in ${STANDIN_IMAGE_VALUES:-}; do
  case ${digest#sha256:} in "${pair%%=*}"*) value=${pair#*=} ;; esac
done
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/usr/share/bootbench"
printf '%s\n' "$value" > "$tree/usr/share/bootbench/sandbox-build"
commit=$("$real" commit --repo="$repo" --branch="standin-container/$(printf %s "$digest" | cut -c8-19)" \
  --tree=ref=bootbench-sandbox/host --tree=dir="$tree" --owner-uid=0 --owner-gid=0 \
  --add-metadata-string=ostree.manifest-digest="$digest" --add-metadata-string=version=standin \
  --subject="image $imgref")
echo "layers already present: 0; layers needed: 1 (standin)"
echo "Wrote: $imgref => $commit"
