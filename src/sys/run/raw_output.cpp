#include "sys/run/raw_output.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

namespace bootbench::sys {

namespace {

namespace fs = std::filesystem;

std::string size_text(std::uintmax_t bytes) {
    return bytes % (1u << 20) == 0 ? std::to_string(bytes >> 20) + " MiB"
                                   : std::to_string(bytes) + " bytes";
}

std::string dropped_note(std::uintmax_t dropped, std::uintmax_t max) {
    return "\n[bootbench: " + std::to_string(dropped) + " bytes dropped here: raw output is capped at " +
           size_text(max) + ", its first and last " + size_text(max / 2) + " kept]\n";
}

} // namespace

std::string cap_raw_output(const fs::path& path, std::uintmax_t max) {
    std::error_code ec;
    std::uintmax_t size = fs::file_size(path, ec);
    if (ec || size <= max)
        return ""; // none written, or small enough
    std::uintmax_t half = max / 2;
    std::string tail(static_cast<size_t>(half), '\0');
    std::string note = dropped_note(size - 2 * half, max);
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(static_cast<std::streamoff>(size - half));
    f.read(tail.data(), static_cast<std::streamsize>(tail.size()));
    f.seekp(static_cast<std::streamoff>(half));
    f << note << tail;
    f.close();
    if (f.fail())
        return path.string() + " could not be trimmed to " + size_text(max) + ": " +
               std::strerror(errno);
    fs::resize_file(path, half + note.size() + tail.size(), ec);
    return ec ? path.string() + " could not be trimmed: " + ec.message() : "";
}

std::string read_raw_output(const fs::path& path, std::uintmax_t max) {
    std::error_code ec;
    auto size = fs::file_size(path, ec);
    if (ec)
        return "";
    std::ifstream in(path, std::ios::binary);
    std::string text(static_cast<size_t>(std::min(size, max)), '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<size_t>(in.gcount()));
    return text;
}

} // namespace bootbench::sys
