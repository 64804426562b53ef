// bootbench plan --from PILOT FILE: runs and repeat for FILE from a pilot
// experiment's results (the variance inside and between its boots).
#include "cli/commands.hpp"
#include "core/sizing/plan_advice.hpp"
#include "core/report/render_markdown.hpp"
#include "core/report/render_variance.hpp"
#include "sys/store/result_reader.hpp"

#include <iostream>

namespace bootbench::cli {

int plan_from(const std::string& pilot_dir, const core::Experiment& e) {
    sys::ReportRequest req;
    req.inputs.emplace_back(pilot_dir);
    core::Report pilot = sys::load_report(req);
    core::PlanAdvice advice = core::plan_advice(pilot, e); // refused before anything is printed
    std::cout << "pilot " << pilot_dir << ": " << core::runs_per_target(pilot) << "\n";
    for (const auto& l : core::variance_lines(pilot))
        std::cout << "  " << l << "\n";
    std::cout << "  " << core::variance_costs_line(pilot) << "\n";
    if (!pilot.caption.provenance.empty()) // a simulation's boot is not a reboot: say what was measured
        std::cout << "  note: the pilot is not a measurement of the targets (" << pilot.caption.provenance_tag
                  << "): its boot cost is not a real reboot's; a pilot on the machine sizes repeat better\n";
    std::cout << "\n" << core::plan_advice_text(advice, e.source_file);
    return 0;
}

} // namespace bootbench::cli
