#include "sys/ostree/staging.hpp"

#include "core/error.hpp"
#include "core/resolve.hpp"
#include "sys/process/subprocess.hpp"

#include <cerrno>
#include <cstring>
#include <glib.h>
#include <sys/wait.h>
#include <unistd.h>

namespace bootbench::sys {

namespace {

bool on_path(const char* program) {
    g_autofree char* found = g_find_program_in_path(program);
    return found != nullptr;
}

// rpm-ostree wants the ostree transport prefix; a bare reference is unverified.
std::string ostree_image_ref(const std::string& value) {
    return value.rfind("ostree-", 0) == 0 ? value : "ostree-unverified-registry:" + core::normalize_image(value);
}

} // namespace

std::optional<std::vector<std::string>> staging_command(const core::Target& t, std::string& why) {
    const auto& sel = t.selector;
    if (sel.kind == core::SelectorKind::image) {
        if (on_path("bootc")) {
            std::vector<std::string> argv = {"bootc", "switch", "--retain"};
            if (sel.value.rfind("ostree-image-signed:", 0) == 0)
                argv.push_back("--enforce-container-sigpolicy");
            argv.push_back(core::normalize_image(sel.value));
            return argv;
        }
        if (on_path("rpm-ostree"))
            return std::vector<std::string>{"rpm-ostree", "rebase", ostree_image_ref(sel.value)};
        why = "neither bootc nor rpm-ostree is installed";
        return std::nullopt;
    }
    if (sel.kind == core::SelectorKind::refspec && on_path("rpm-ostree"))
        return std::vector<std::string>{"rpm-ostree", "rebase", sel.value};
    why = sel.kind == core::SelectorKind::refspec ? "rpm-ostree is not installed"
                                                  : std::string("a ") + core::to_string(sel.kind) +
                                                        " selector names no image or ref to stage";
    return std::nullopt;
}

std::string shell_words(const std::vector<std::string>& argv) {
    std::string s;
    for (const auto& a : argv)
        s += (s.empty() ? "" : " ") + a;
    return s;
}

void run_staging(const std::vector<std::string>& argv) {
    int status = run_attached(argv);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw Error("staging failed: '" + shell_words(argv) + "' " +
                    (WIFEXITED(status) ? "exited with " + std::to_string(WEXITSTATUS(status))
                                       : std::string("was killed")) +
                    "; nothing else was changed");
}

} // namespace bootbench::sys
