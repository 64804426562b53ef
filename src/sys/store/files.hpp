#pragma once
// File helpers with errors that name the path.
#include <cstddef>
#include <filesystem>
#include <string>

namespace bootbench::sys {

namespace fs = std::filesystem;

// Throws bootbench::Error naming `path` when it cannot be read or is not a
// regular file (a FIFO is refused without blocking, a device without reading).
std::string read_text_file(const fs::path& path);

// A file the user named, as `what` ("experiment file"): a regular file of at
// most `max_bytes`. Throws bad input (exit 2) naming the path:
// "PATH: not a regular file (a directory); give the path of the WHAT",
// "PATH: larger than N bytes (1 MiB), the most the WHAT may have".
std::string read_input_file(const fs::path& path, const std::string& what, size_t max_bytes);

// Writes `path` atomically: a temp file beside it, fsync, rename over, fsync
// the folder. On any failure (disk full included) the old file is untouched,
// the temp file is removed and the error names the path.
void write_file_atomic(const fs::path& path, const std::string& content, unsigned mode = 0644);

// Creates the folder and its parents; an error names it.
void make_dirs(const fs::path& path);

} // namespace bootbench::sys
