#!/bin/sh
# A stand-in for `bootc switch [--retain] [--enforce-container-sigpolicy] IMAGE`
# on a sandbox sysroot ($BOOTBENCH_SANDBOX): bootc is not packaged on Debian.
# It does with the real ostree what bootc's staging and ostree-finalize-staged
# at the next shutdown do together: a commit of the sandbox's host tree with
# the image's ostree.manifest-digest ($STANDIN_DIGEST, else a digest of the
# name); with STANDIN_LAYERED="pkg ...", a commit on top of it as rpm-ostree
# writes one for layered packages (src/libpriv/rpmostree-core.cxx: the base as
# parent, rpmostree.clientlayer, rpmostree.packages, no manifest digest),
# deployed as the default with `ostree admin deploy` and no --retain:
# that is ostree_sysroot_simple_write_deployment without RETAIN flags, as
# finalization calls it. It keeps the new, the merge (the sandbox boots its
# default) and the pinned deployments, and deletes the others.
# Every call is appended to $STANDIN_CALLS; BOOTC_EXIT=N fails with N first.
set -euf
echo "$*" >> "$STANDIN_CALLS"
[ "${BOOTC_EXIT:-0}" = 0 ] || exit "$BOOTC_EXIT"
transport=ostree-unverified-registry:
for a; do
  [ "$a" = --enforce-container-sigpolicy ] && transport=ostree-image-signed:docker://
  image=$a
done
sysroot=$BOOTBENCH_SANDBOX
name_digest=$(printf %s "$image" | sha256sum | cut -c1-64)
branch=standin/$(printf %s "$image" | sha256sum | cut -c1-12)
commit() {
  ostree commit --repo="$sysroot/ostree/repo" --add-metadata-string=version=standin "$@"
}
# The image's commit keeps a ref of its own, as ostree-container's image refs
# and rpm-ostree's rpmostree/base/N do: the layered commit's parent survives a prune.
base=$(commit --branch="standin-image/${branch#standin/}" --tree=ref=bootbench-sandbox/host \
  --add-metadata-string=ostree.manifest-digest="${STANDIN_DIGEST:-sha256:$name_digest}")
if [ -n "${STANDIN_LAYERED:-}" ]; then
  packages=$(printf "'%s'," $STANDIN_LAYERED)
  commit --branch="$branch" --tree=ref="$base" --parent="$base" --add-metadata=rpmostree.clientlayer=true \
    --add-metadata="rpmostree.clientlayer_version=uint32 6" --add-metadata="rpmostree.packages=[${packages%,}]" \
    --add-metadata="rpmostree.removed-base-packages=@av []" \
    --add-metadata="rpmostree.replaced-base-packages=@a(vv) []" >/dev/null
else
  ostree refs --repo="$sysroot/ostree/repo" --create="$branch" "$base"
fi
origin=$(mktemp)
printf '[origin]\ncontainer-image-reference=%s%s\n' "$transport" "$image" > "$origin"
ostree admin deploy --sysroot="$sysroot" --os=sandbox --origin-file="$origin" "$branch" >/dev/null
rm -f "$origin"
