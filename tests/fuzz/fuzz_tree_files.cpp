// The files of a deployment's tree that the tree reader parses; the first
// byte picks the parser: 0 dpkg's status file, 1 rpm -qa's output, 2 a
// kernel config, 3 a sysctl.d file, 4 a preset file, 5 tree facts' JSON.
#include "core/base/json_bounds.hpp"
#include "core/deployment/kernel_config.hpp"
#include "core/deployment/package_db.hpp"
#include "core/deployment/systemd_conf.hpp"
#include "core/deployment/tree_diff.hpp"
#include "fuzz_contract.hpp"

namespace {

using namespace bootbench;

void parse(uint8_t selector, const std::string& text) {
    std::vector<std::string> warnings;
    switch (selector % 6) {
    case 0: (void)core::parse_dpkg_status(text, "status"); break;
    case 1: (void)core::parse_rpm_query(text, "rpm"); break;
    case 2: (void)core::parse_kernel_config(text, "config"); break;
    case 3: (void)core::effective_sysctl({{"a.conf", text}, {"b.conf", text}}, warnings); break;
    case 4: (void)core::preset_enabled({{"a.preset", text}}, {"a.service", "b@.service", "c.socket"}, warnings); break;
    default: {
        core::TreeFacts f = core::tree_facts_from_json(core::parse_bounded_json(text, "facts.json"), "facts.json");
        (void)core::diff_trees(f, core::TreeFacts{});
    }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0)
        return 0;
    std::string text = fuzz::text_of(data + 1, size - 1);
    fuzz::expect_value_or_error([&] { parse(data[0], text); });
    return 0;
}
