#include "cli/bisect_file.hpp"

#include "cli/experiment_file.hpp"
#include "core/base/error.hpp"
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
    core::BisectFile f = core::parse_bisect(text, path);
    if (f.bisect.good.kind == core::SelectorKind::image)
        throw input_error(path + ": bisect.good is an image: this bootbench bisects the commits of an ostree " +
                          "ref (good = { refspec = \"REMOTE:REF\", commit = \"HEX\" }); images are compared " +
                          "with 'bootbench start' and image targets");
    return {std::move(f), text};
}

std::vector<core::CommitInfo> bisect_history(sys::Sysroot& sr, const core::BisectFile& f) {
    const core::BisectConfig& b = f.bisect;
    auto history = sr.history(b.good.refspec, b.good.commit, b.bad.commit);
    return b.candidates.empty() ? history : listed_only(history, b.candidates);
}

core::BisectRun bisect_run_of(const core::BisectFile& f, const std::vector<core::CommitInfo>& history) {
    return core::begin_bisect_run(f, f.bisect.good.refspec, history, f.experiment.seed);
}

} // namespace bootbench::cli
