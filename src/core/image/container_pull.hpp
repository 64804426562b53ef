#pragma once
// ostree-container's `ostree container image pull REPO IMGREF`: the command
// that imports an image into the ostree repo as a commit (rpm-ostree and
// bootc ship it; libostree cannot pull OCI images), and the commit its
// output names. Pure.
#include <optional>
#include <string>
#include <vector>

namespace bootbench::core {

// The argv that imports `imgref` (an ostree image reference,
// "ostree-unverified-registry:quay.io/x/y@sha256:...") into `repo`.
std::vector<std::string> container_pull_argv(const std::string& repo, const std::string& imgref);

// The argv that lists the images in `repo`: read-only, it proves that
// `ostree container` is there (Debian's ostree alone says "Unknown command").
std::vector<std::string> container_list_argv(const std::string& repo);

// The argv that drops the images' refs from `repo` and collects the layers
// no image uses any more (their commits go at the repo's next prune, once
// no deployment holds them). Each of `imgrefs` as container_pull_argv took it.
std::vector<std::string> container_remove_argv(const std::string& repo, const std::vector<std::string>& imgrefs);

// The image reference without ostree's verification prefix, as `ostree
// container image remove` reads it: "ostree-unverified-registry:X" ->
// "registry:X", "ostree-image-signed:docker://X" -> "docker://X",
// "ostree-remote-image:R:docker://X" -> "docker://X".
std::string base_image_ref(const std::string& imgref);

// The merge commit from the pull's stdout: "Wrote: IMGREF => COMMIT", or
// "No changes in IMGREF => COMMIT" when the image was there already
// (ostree-ext's cli.rs since 2021); nullopt when no line names one.
std::optional<std::string> pulled_commit(const std::string& out);

} // namespace bootbench::core
