#include "cli/experiment_file.hpp"

#include "core/error.hpp"
#include "sys/files.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

namespace bootbench::cli {

core::Experiment load_experiment(const std::string& path) {
    std::ifstream probe(path);
    if (!probe)
        throw input_error("cannot read experiment file " + path + ": " + std::strerror(errno));
    return core::parse_experiment(sys::read_text_file(path), path);
}

std::string with_quick(const std::string& text) {
    // After the line that opens [experiment] (not a mention in a comment).
    size_t pos = 0;
    while (pos < text.size()) {
        size_t eol = text.find('\n', pos);
        std::string line = text.substr(pos, eol == std::string::npos ? std::string::npos : eol - pos);
        size_t start = line.find_first_not_of(" \t");
        if (start != std::string::npos && line.compare(start, 12, "[experiment]") == 0)
            return eol == std::string::npos ? text + "\nquick = true\n"
                                            : text.substr(0, eol + 1) + "quick = true\n" + text.substr(eol + 1);
        if (eol == std::string::npos)
            break;
        pos = eol + 1;
    }
    return text; // parse_experiment has already refused a file without [experiment]
}

} // namespace bootbench::cli
