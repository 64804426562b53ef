#include "sys/store/user_lines.hpp"

#include <atomic>
#include <cstdio>

namespace bootbench::sys {

namespace {

// stderr's stand-in while a test holds a LineCapture.
std::atomic<LineCapture*> capture{nullptr};

} // namespace

// One fprintf per line: stdio's lock keeps lines from threads whole.
void say_raw(const std::string& line) {
    if (LineCapture* c = capture.load())
        c->add(line);
    else
        std::fprintf(stderr, "%s\n", line.c_str());
}

void say(const std::string& line) { say_raw("bootbench: " + line); }

void warn(const std::string& line) { say_raw("bootbench: warning: " + line); }

LineCapture::LineCapture() : before_(capture.exchange(this)) {}

LineCapture::~LineCapture() { capture.store(before_); }

std::string LineCapture::text() const {
    std::lock_guard<std::mutex> hold(lock_);
    return text_;
}

void LineCapture::add(const std::string& line) {
    std::lock_guard<std::mutex> hold(lock_);
    text_ += line + "\n";
}

} // namespace bootbench::sys
