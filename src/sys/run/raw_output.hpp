#pragma once
// A bench's raw stdout and stderr files: capped on disk once the bench has
// ended, read back with a bound, so that a runaway tool cannot fill the
// results folder, the memory, or the run's JSON.
#include <cstdint>
#include <filesystem>
#include <string>

namespace bootbench::sys {

// Per stream and attempt. A larger file keeps its first and last half.
inline constexpr std::uintmax_t kMaxRawOutput = 8u << 20;

// Trims `path` in place to its first and last max/2 bytes with a line
// between them that says how many bytes were dropped; a file within `max`,
// or none, is left alone. Holds at most max/2 bytes in memory. Returns
// what went wrong ("" when nothing did): a raw log that cannot be trimmed
// must not cost the run.
std::string cap_raw_output(const std::filesystem::path& path,
                           std::uintmax_t max = kMaxRawOutput);

// The first `max` bytes of `path` (the note of a trimmed file fits in the
// default), "" when it cannot be read.
std::string read_raw_output(const std::filesystem::path& path,
                            std::uintmax_t max = kMaxRawOutput + 4096);

} // namespace bootbench::sys
