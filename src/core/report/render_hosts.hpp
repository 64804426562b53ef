#pragma once
// The report across machines (core/report/report_hosts) as Markdown, JSON, SVG and
// HTML: the pooled comparison first, then each machine's own report, made
// by the one-machine renderers. Pure.
#include "core/report/report_hosts.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace bootbench::core {

// "1.12x (95% CI 1.02x to 1.30x)", or the reason there is no interval.
std::string pooled_text(const PooledMetric& p);

// report.md: `svg_link` is the stacked chart of every machine (report.svg).
std::string render_hosts_markdown(const HostsReport& r, const std::string& svg_link);
// report.json: schema bootbench-report/1 with "hosts" (each machine's
// identity and its report, or null with "error") and "pooled".
nlohmann::json hosts_to_json(const HostsReport& r);
std::string render_hosts_json(const HostsReport& r);
// report.svg: each machine's chart under its name, one below the other.
std::string render_hosts_svg(const HostsReport& r);
// report.html: the pooled table, a row of every machine's chart, then each
// machine's report.
std::string render_hosts_html(const HostsReport& r);

} // namespace bootbench::core
