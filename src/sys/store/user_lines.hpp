#pragma once
// The one place that writes lines for a person: progress, warnings and
// errors go to stderr, each line whole, prefixed "bootbench: ". Tests put a
// LineCapture in its place. What a sandbox echoes is the run log's choice
// (sys/store/run_log: --verbose, BOOTBENCH_VERBOSE), not this sink's.
#include <mutex>
#include <string>

namespace bootbench::sys {

// "bootbench: LINE".
void say(const std::string& line);
// "bootbench: warning: LINE".
void warn(const std::string& line);
// LINE as it is, for lines of their own form ("--- boot 3: ...").
void say_raw(const std::string& line);

// While it lives, every line goes to it instead of stderr (one at a time).
class LineCapture {
  public:
    LineCapture();
    ~LineCapture();
    LineCapture(const LineCapture&) = delete;
    LineCapture& operator=(const LineCapture&) = delete;
    // Every line so far, each ending in "\n".
    std::string text() const;
    void add(const std::string& line);

  private:
    mutable std::mutex lock_;
    std::string text_;
    LineCapture* before_ = nullptr;
};

} // namespace bootbench::sys
