#pragma once
// A bisect file: the experiment's usual sections (conditions, load, tools,
// benches) and a [bisect] table naming good, bad, the builds between them
// and the metric that regressed. Read through the experiment's TomlReader,
// so one run of the parser reports every mistake as FILE:LINE:COL.
#include "core/bisect/classify.hpp"
#include "core/experiment/experiment.hpp"

#include <string>
#include <vector>

namespace bootbench::core {

// good or bad: { refspec, commit } (bad's commit may be absent: the ref's
// head) or { image }.
struct BisectBuild {
    SelectorKind kind = SelectorKind::refspec; // refspec or image
    std::string refspec, commit, image;
    SourcePos pos;
};

struct BisectConfig {
    BisectBuild good, bad;
    // The builds between good and bad, oldest first, as written; empty when
    // they come from the ref's log (refspec) or the registry's tags (tags).
    std::vector<std::string> candidates;
    std::string tags; // a glob on the image's tags, e.g. "stable-2026*"
    std::string metric;
    double threshold = 0.05; // the smallest relative change that counts
    // endpoint_runs, step_runs and confirm_runs as the file sets them; the
    // rest as tuned (fewer runs suit only a regression far above the noise).
    BisectRules rules;
};

struct BisectFile {
    Experiment experiment;
    BisectConfig bisect;
};

// Throws bootbench::Error (exit 2) with one "FILE:LINE:COL: what" line per
// mistake in the file.
BisectFile parse_bisect(const std::string& text, const std::string& file_name);

// Whether `text` is TOML with a [bisect] table (a file that does not parse
// is not: the experiment's parser then says what is wrong in it).
bool names_bisect(const std::string& text);

} // namespace bootbench::core
