#pragma once
// What bisect_report's four renderings share (internal to core/bisect):
// which build plays which part, the words that name a build and a change,
// and the report as neutral blocks that bisect.md and bisect.html both
// render, so the two say the same.
#include "core/base/string_table.hpp"
#include "core/bisect/bisect_report.hpp"

#include <string>
#include <vector>

namespace bootbench::core {

// A build's part in the bisection: an endpoint, an end of the range left,
// a candidate by its last call, or never booted.
enum class BuildRole { good, bad, last_good, first_bad, like_good, like_bad, undecided, untested };
inline constexpr Named<BuildRole> kBuildRoleNames[] = {
    {"good", BuildRole::good},           {"bad", BuildRole::bad},
    {"last-good", BuildRole::last_good}, {"first-bad", BuildRole::first_bad},
    {"like-good", BuildRole::like_good}, {"like-bad", BuildRole::like_bad},
    {"undecided", BuildRole::undecided}, {"untested", BuildRole::untested}};

// At most this many packages are named in the summary line; the full lists
// follow (collapsed in bisect.md and bisect.html).
inline constexpr size_t kPackagesNamed = 10;

// The state; throws bootbench::Error when the input has none.
const BisectState& state_of(const BisectReportInput& in);
// The caller's facts of a build, the label defaulting to the state's name.
BuildInfo build_info(const BisectReportInput& in, int build);
BuildRole role_of(const BisectState& s, int build);
// "label (version V, commit 3f2a8c1d9e0b): subject": a build for a reader.
std::string build_line(const BisectReportInput& in, int build);
// "-4.8% (-6.1% to -3.2%)": a ratio as a change, < 0 worse; "-" when absent.
std::string change_text(const std::optional<EndpointRatio>& r);
// The threshold as a person writes it: "5%", "2.5%".
std::string threshold_text(const BisectState& s);
// The builds after the last good up to the first bad, oldest first.
std::vector<int> range_builds(const BisectState& s);
// A commit or digest cut to 12 hex digits after an "algorithm:" prefix.
std::string short_commit(const std::string& commit);

struct ReportBlock {
    // The four kinds of text first: a format's marks are in this order.
    enum class Kind { title, heading, strong, paragraph, list, table, details, chart };
    Kind kind = Kind::paragraph;
    std::string text;               // a table's or a list's lead-in stays in a paragraph
    std::vector<std::string> items; // list, details
    std::vector<std::vector<std::string>> rows; // table: the first row is the header
};
ReportBlock report_block(ReportBlock::Kind kind, std::string text,
                         std::vector<std::string> items = {});
void append_blocks(std::vector<ReportBlock>& to, std::vector<ReportBlock> more);
std::vector<ReportBlock> report_blocks(const BisectReportInput& in);
// The "what changed" section's blocks (bisect_report_changes.cpp).
std::vector<ReportBlock> change_blocks(const BisectReportInput& in);

} // namespace bootbench::core
