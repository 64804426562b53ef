#pragma once
// File helpers with errors that name the path.
#include <filesystem>
#include <string>

namespace bootbench::sys {

namespace fs = std::filesystem;

// Throws bootbench::Error naming `path` when it cannot be read.
std::string read_text_file(const fs::path& path);

// Writes `path` atomically: a temp file beside it, fsync, rename over, fsync
// the folder. On any failure (disk full included) the old file is untouched,
// the temp file is removed and the error names the path.
void write_file_atomic(const fs::path& path, const std::string& content, unsigned mode = 0644);

// Creates the folder and its parents; an error names it.
void make_dirs(const fs::path& path);

} // namespace bootbench::sys
