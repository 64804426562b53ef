#pragma once
// What bootbench tells the user during an experiment: each line goes to
// stderr (the journal, under the unit) and to results/<name>/bootbench.log.
#include <filesystem>
#include <string>

namespace bootbench::sys {

class Clock;

class RunLog {
public:
    RunLog(std::filesystem::path file, Clock& clock) : file_(std::move(file)), clock_(clock) {}
    void line(const std::string& message);

private:
    std::filesystem::path file_;
    Clock& clock_;
};

} // namespace bootbench::sys
