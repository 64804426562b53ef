#include "sys/store/run_log.hpp"

#include "core/base/text.hpp"
#include "sys/clock.hpp"
#include "sys/store/user_lines.hpp"

#include <cstdlib>
#include <cstring>
#include <fstream>

namespace bootbench::sys {

Echo echo_for(bool emulated) {
    const char* verbose = std::getenv(kVerboseEnv);
    return emulated && !(verbose && std::strcmp(verbose, "1") == 0) ? Echo::brief : Echo::all;
}

// Messages quote bench output and paths: printable, for the journal and for
// whoever reads the log on a terminal.
void RunLog::line(const std::string& text) {
    std::string message = core::printable(text);
    say(message);
    keep(message);
}

void RunLog::detail(const std::string& text) {
    std::string message = core::printable(text);
    if (echo_ == Echo::all)
        say(message);
    keep(message);
}

void RunLog::keep(const std::string& message) {
    std::error_code ec;
    std::filesystem::create_directories(file_.parent_path(), ec);
    std::ofstream out(file_, std::ios::app);
    if (out) // the log is for reading; losing a line never stops a run
        out << clock_.now_iso8601() << " " << message << "\n";
}

void tell(RunLog* log, Weight weight, const std::string& message) {
    if (!log)
        say(core::printable(message));
    else if (weight == Weight::matters)
        log->line(message);
    else
        log->detail(message);
}

} // namespace bootbench::sys
