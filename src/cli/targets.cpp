#include "cli/targets.hpp"
#include "sys/run/tools_image.hpp"
#include "sys/ostree/binary_loads.hpp"

#include "core/base/error.hpp"

#include <sstream>

namespace bootbench::cli {

namespace {

// How a user adds a target that is not deployed yet.
std::string how_to_add(const core::Target& t) {
    if (t.selector.kind == core::SelectorKind::image)
        return "add it with 'bootc switch --retain " + core::normalize_image(t.selector.value) +
               "' or 'rpm-ostree rebase " + t.selector.value + "' (then reboot back), or set stage = true";
    if (t.selector.kind == core::SelectorKind::refspec)
        return "add it with 'rpm-ostree rebase " + t.selector.value + "' or 'ostree admin deploy --retain " +
               t.selector.value + "'";
    return "check the selector against the deployments listed";
}

} // namespace

std::vector<core::Resolution> resolve_all(sys::Sysroot& sysroot, const core::Experiment& e,
                                          const nlohmann::json& images) {
    auto ds = sysroot.deployments();
    std::vector<core::Resolution> out;
    for (const auto& t : e.targets) {
        std::optional<core::ResolvedImage> recorded;
        if (images.contains(t.name))
            recorded = core::resolved_image_from_json(images[t.name], "images." + t.name);
        out.push_back(core::resolve_target(t, ds, recorded ? &*recorded : nullptr));
    }
    return out;
}

void print_resolutions(std::ostream& out, const std::vector<core::Resolution>& rs) {
    for (const auto& r : rs) {
        if (r.deployment)
            out << "  " << r.target << " -> " << core::describe(*r.deployment) << " (" << r.how << ")\n";
        else
            out << "  " << r.target << " -> NOT RESOLVED: " << r.error << "\n";
    }
}

std::map<std::string, core::DeploymentRef> require_resolved(sys::Sysroot& sysroot, const core::Experiment& e,
                                                            const nlohmann::json& images) {
    std::map<std::string, core::DeploymentRef> out;
    std::ostringstream errors;
    auto rs = resolve_all(sysroot, e, images);
    for (size_t i = 0; i < rs.size(); ++i) {
        if (rs[i].deployment) {
            out[rs[i].target] = rs[i].deployment->ref;
            continue;
        }
        errors << "target '" << rs[i].target << "': " << rs[i].error;
        if (rs[i].not_deployed)
            errors << "; " << how_to_add(e.targets[i]);
        errors << "\n";
    }
    if (!errors.str().empty())
        throw input_error(errors.str() + "deployments in " + sysroot.path().string() + ":\n" +
                          core::describe_all(sysroot.deployments()));
    return out;
}

std::string start_problems(sys::Sysroot& sysroot, const core::Experiment& e, const std::vector<core::Resolution>& rs) {
    std::string out;
    std::string stateroots = core::stateroot_problem(rs, sysroot.booted().value_or(sysroot.default_deployment()));
    if (!stateroots.empty())
        out += "cannot start: " + stateroots + "\n";
    for (size_t i = 0; i < rs.size(); ++i)
        if (rs[i].deployment)
            if (std::string layered = core::layered_problem(e.targets[i], *rs[i].deployment); !layered.empty())
                out += "cannot start: " + layered + "\n";
    return out;
}

void require_binary_loads(sys::Sysroot& sysroot, const core::Experiment& e) {
    std::string errors;
    for (const auto& refusal : sys::binary_load_refusals(sysroot, e, sys::running_binary()))
        errors += refusal + "\n";
    if (!errors.empty())
        throw input_error(errors + "nothing was changed");
}

void prepare_tools_image(const core::Experiment& e, bool pull, std::ostream& out) {
    if (e.tools_image.empty())
        return;
    core::ToolsImage t = pull ? sys::pull_tools_image(e.tools_image) : sys::resolve_tools_image(e.tools_image);
    std::string start_sees = core::start_sees_found(t.store, e.tools_image);
    out << "tools image: " << core::describe(t) << " (every bench and the load run in it)\n"
        << "  in " << core::describe(t.store) << (start_sees.empty() ? ", the store start uses" : "; " + start_sees)
        << "\n";
}

} // namespace bootbench::cli
