#include "cli/bisect_file.hpp"

#include "cli/experiment_file.hpp"
#include "core/base/error.hpp"
#include "sys/net/image_history.hpp"
#include "sys/ostree/sysroot.hpp"
#include "sys/store/files.hpp"

#include <algorithm>

namespace bootbench::cli {

namespace {

bool is_prefix_of(const std::string& prefix, const std::string& commit) {
    return commit.rfind(prefix, 0) == 0;
}

bool listed(const std::vector<std::string>& wanted, const std::string& commit) {
    return std::any_of(wanted.begin(), wanted.end(), [&](const std::string& w) { return is_prefix_of(w, commit); });
}

void require_between(const std::vector<core::CommitInfo>& history, const std::string& want) {
    bool found = std::any_of(history.begin() + 1, history.end() - 1,
                             [&](const core::CommitInfo& c) { return is_prefix_of(want, c.checksum); });
    if (!found)
        throw input_error("bisect.candidates: '" + want + "' is not a commit between good and bad in the " +
                          "history of the ref (" + std::to_string(history.size() - 2) + " commits there)");
}

// Good, the listed candidates in the history's order, bad.
std::vector<core::CommitInfo> listed_only(const std::vector<core::CommitInfo>& history,
                                          const std::vector<std::string>& wanted) {
    for (const auto& w : wanted)
        require_between(history, w);
    std::vector<core::CommitInfo> out;
    for (size_t i = 0; i < history.size(); ++i)
        if (i == 0 || i + 1 == history.size() || listed(wanted, history[i].checksum))
            out.push_back(history[i]);
    return out;
}

} // namespace

bool is_bisect_file(const std::string& path) {
    return core::names_bisect(sys::read_input_file(path, "experiment file", kMaxExperimentFileBytes));
}

BisectFileText read_bisect_file(const std::string& path) {
    std::string text = sys::read_input_file(path, "bisect file", kMaxExperimentFileBytes);
    return {core::parse_bisect(text, path), text};
}

BisectBuilds bisect_builds(sys::Sysroot& sr, const core::BisectFile& f, std::ostream& out) {
    const core::BisectConfig& b = f.bisect;
    if (b.good.kind == core::SelectorKind::image) {
        sr.check_container_tool(); // before the registry is asked: what a pull will need
        sys::ImageHistory h = sys::image_history(b, out);
        return {h.image, std::move(h.builds), std::move(h.images)};
    }
    auto history = sr.history(b.good.refspec, b.good.commit, b.bad.commit);
    return {b.good.refspec, b.candidates.empty() ? history : listed_only(history, b.candidates), {}};
}

core::BisectRun bisect_run_of(const core::BisectFile& f, BisectBuilds b) {
    return core::begin_bisect_run(f, b.source, std::move(b.history), f.experiment.seed, std::move(b.images));
}

} // namespace bootbench::cli
