#include "sys/store/run_log.hpp"

#include "core/base/text.hpp"
#include "sys/clock.hpp"

#include <cstdio>
#include <fstream>

namespace bootbench::sys {

// Messages quote bench output and paths: printable, for the journal and for
// whoever reads the log on a terminal.
void RunLog::line(const std::string& text) {
    std::string message = core::printable(text);
    std::fprintf(stderr, "bootbench: %s\n", message.c_str());
    std::error_code ec;
    std::filesystem::create_directories(file_.parent_path(), ec);
    std::ofstream out(file_, std::ios::app);
    if (out) // the log is for reading; losing a line never stops a run
        out << clock_.now_iso8601() << " " << message << "\n";
}

} // namespace bootbench::sys
