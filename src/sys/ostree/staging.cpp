#include "sys/ostree/staging.hpp"

#include "core/base/error.hpp"
#include "core/deployment/resolve.hpp"
#include "core/base/text.hpp"
#include "sys/process/subprocess.hpp"
#include "sys/store/state_store.hpp"

#include <cerrno>
#include <cstring>
#include <glib.h>
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

std::optional<core::StagingPins> staging_pins_for(const StatePaths& paths, const std::string& experiment) {
    auto pins = load_staging_pins(paths.staging());
    if (pins && pins->experiment != experiment)
        throw input_error("targets of experiment '" + pins->experiment + "' were staged here and it has not "
                          "started (" + paths.staging().string() + " lists the deployments it pinned): "
                          "finish it with its own 'bootbench start', or undo its pins with 'bootbench abort'");
    return pins;
}

core::StagingPins keep_through_staging(Host& host, const std::string& experiment,
                                       const std::vector<core::DeploymentRef>& present, bool dry_run,
                                       std::ostream& out) {
    StatePaths paths{host.state_dir()};
    Sysroot& sr = host.sysroot();
    auto record = staging_pins_for(paths, experiment)
                      .value_or(core::StagingPins{experiment, sr.default_deployment().ref, {}});
    std::vector<core::DeploymentRef> keep = present;
    keep.push_back(record.original_default);
    if (!host.offline())
        keep.push_back(host.booted().ref);
    core::StagingPins after = core::with_pins(record, keep, sr.deployments());
    for (const auto& ref : after.pinned)
        if (!core::contains(record.pinned, ref))
            out << (dry_run ? "  would pin " : "pinning ") << core::describe(ref)
                << " so that the staging does not delete it (unpinned at the end)\n";
    if (dry_run)
        return after;
    if (after.pinned != record.pinned || !fs::exists(paths.staging()))
        save_staging_pins(paths.staging(), after); // first: a crash after a pin still knows it
    for (const auto& ref : after.pinned)
        sr.set_pinned(ref, true);
    return after;
}

void undo_staging(Host& host, const StatePaths& paths, const core::StagingPins& pins, std::ostream& out) {
    Sysroot& sr = host.sysroot();
    for (const auto& d : sr.deployments()) // one removed since has no pin to undo
        if (d.ref == pins.original_default)
            sr.set_default(d.ref, StagedPolicy::drop);
    for (const auto& d : sr.deployments())
        if (core::contains(pins.pinned, d.ref))
            sr.set_pinned(d.ref, false);
    fs::remove(paths.staging());
    out << "experiment " << pins.experiment << " had not started: " << core::describe(pins.original_default)
        << " is the default again, and the pins bootbench made for staging are removed ("
        << core::count_of(static_cast<long long>(pins.pinned.size()), "pin") << ")\n";
}

void run_staging(Host& host, const std::string& experiment, const std::vector<core::DeploymentRef>& present,
                 const std::vector<std::string>& argv, std::ostream& out) {
    StatePaths paths{host.state_dir()};
    auto before = staging_pins_for(paths, experiment);
    core::StagingPins after = keep_through_staging(host, experiment, present, false, out);
    Ending ended = run_attached(argv);
    if (ended.succeeded())
        return;
    for (const auto& ref : after.pinned)
        if (!before || !core::contains(before->pinned, ref))
            host.sysroot().set_pinned(ref, false);
    if (!before)
        fs::remove(paths.staging());
    else if (before->pinned != after.pinned)
        save_staging_pins(paths.staging(), *before);
    throw Error("staging failed: '" + shell_words(argv) + "' " +
                (ended.end == ProcessEnd::exited ? "exited with " + std::to_string(ended.exit_status)
                                                 : std::string("was killed")) +
                "; the pins made for it are undone, nothing else was changed");
}

} // namespace bootbench::sys
