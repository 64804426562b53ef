#include "core/image/container_pull.hpp"

#include "core/base/text.hpp"

#include <algorithm>
#include <sstream>

namespace bootbench::core {

namespace {

bool is_checksum(const std::string& s) {
    return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

// "... => COMMIT" on a line of the two forms; "" otherwise.
std::string commit_of_line(const std::string& line) {
    size_t arrow = line.rfind(" => ");
    if (arrow == std::string::npos || !(starts_with(line, "Wrote: ") || starts_with(line, "No changes in ")))
        return "";
    std::string commit = line.substr(arrow + 4);
    return is_checksum(commit) ? commit : "";
}

} // namespace

std::vector<std::string> container_pull_argv(const std::string& repo, const std::string& imgref) {
    return {"ostree", "container", "image", "pull", repo, imgref};
}

std::string base_image_ref(const std::string& imgref) {
    for (const char* p : {"ostree-unverified-registry:", "ostree-unverified-image:", "ostree-image-signed:"})
        if (starts_with(imgref, p))
            return std::string(starts_with(imgref, "ostree-unverified-registry:") ? "registry:" : "") +
                   imgref.substr(std::string(p).size());
    if (starts_with(imgref, "ostree-remote-image:") || starts_with(imgref, "ostree-remote-registry:")) {
        size_t remote_end = imgref.find(':', imgref.find(':') + 1);
        std::string rest = imgref.substr(remote_end + 1);
        return starts_with(imgref, "ostree-remote-registry:") ? "registry:" + rest : rest;
    }
    return imgref;
}

std::vector<std::string> container_list_argv(const std::string& repo) {
    return {"ostree", "container", "image", "list", "--repo", repo};
}

std::vector<std::string> container_remove_argv(const std::string& repo, const std::vector<std::string>& imgrefs) {
    std::vector<std::string> argv = {"ostree", "container", "image", "remove", "--repo", repo};
    for (const auto& i : imgrefs)
        argv.push_back(base_image_ref(i));
    return argv;
}

std::optional<std::string> pulled_commit(const std::string& out) {
    std::istringstream in(out);
    std::optional<std::string> found;
    for (std::string line; std::getline(in, line);)
        if (std::string c = commit_of_line(line); !c.empty())
            found = c;
    return found;
}

} // namespace bootbench::core
