#include "cli/report_hosts_summary.hpp"

#include "cli/report_summary.hpp"
#include "core/report/render_hosts.hpp"
#include "core/base/text.hpp"

#include <algorithm>
#include <iostream>

namespace bootbench::cli {

void print_hosts_summary(const core::HostsReport& r) {
    for (const auto& h : r.hosts) {
        std::cout << "== " << core::host_caption(h.host) << ", " << core::count_of(static_cast<long long>(h.runs), "run")
                  << "\n";
        if (h.report)
            print_report_summary(*h.report);
        else
            std::cout << "not compared: " << h.error << "\n";
        std::cout << "\n";
    }
    for (const auto& w : r.warnings)
        std::cout << "warning: " << w << "\n";
    std::cout << "\npooled over " << r.hosts.size() << " machines, " << r.subject << " vs " << r.baseline
              << " (baseline):\n";
    for (const auto& p : r.pooled) {
        std::string key = p.key, mark = p.verdict == core::Verdict::same ? "~" : core::to_string(p.verdict);
        key.resize(std::max<size_t>(key.size(), 24), ' ');
        mark.resize(6, ' ');
        std::cout << "  " << key << "  " << mark << "  " << core::pooled_text(p) << "\n";
    }
    if (r.pooled.empty())
        std::cout << "  no metric was compared on two machines\n";
}

} // namespace bootbench::cli
