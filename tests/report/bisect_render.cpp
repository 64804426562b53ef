// Writes bisect.{md,svg,html,json} of each test bisection into
// OUT/<scenario>/, for bisect_render_test.py to read as a user's tools would
// (the SVG as XML, the JSON as JSON).
#include "bisect_report_inputs.hpp"
#include "core/base/text.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>

using namespace bootbench;

namespace {

void write(const std::filesystem::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (!out.flush())
        throw std::runtime_error("cannot write " + path.string());
}

void render(const std::filesystem::path& dir, const core::BisectReportInput& in) {
    std::filesystem::create_directories(dir);
    write(dir / "bisect.md", core::render_bisect_markdown(in));
    write(dir / "bisect.svg", core::render_bisect_svg(in));
    write(dir / "bisect.html", core::render_bisect_html(in));
    write(dir / "bisect.json", core::json_text(core::bisect_report_json(in), 2));
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: bisect-render OUT\n";
        return 2;
    }
    std::filesystem::path out = argv[1];
    core::BisectState culprit = test::culprit_bisect(), none = test::no_regression_bisect(),
                      undecided = test::undecided_bisect();
    render(out / "culprit", test::report_input(culprit));
    render(out / "no-regression", test::report_input(none));
    render(out / "undecided", test::report_input(undecided));
    render(out / "hostile", test::report_input(culprit, test::kHostile));
    return 0;
}
