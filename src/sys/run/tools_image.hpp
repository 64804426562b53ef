#pragma once
// The tools image in podman's local store (/var/lib/containers: shared by
// every deployment of the stateroot, so nothing is pulled after a boot).
#include "core/image/tools_image.hpp"

#include <string>

namespace bootbench::sys {

// Looks `image` up in the local store. Throws an input error saying what to
// do when podman is missing or the store does not have the image.
core::ToolsImage resolve_tools_image(const std::string& image);

// As resolve_tools_image, pulling the image first when the store lacks it
// (`start`, before anything on the machine changes).
core::ToolsImage pull_tools_image(const std::string& image);

// Stops and removes a bench's container that outlived its bench (its podman
// client was killed at the timeout). "" when done, else what went wrong.
std::string remove_container(const std::string& name);

} // namespace bootbench::sys
