#include "sys/files.hpp"

#include "core/error.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace bootbench::sys {

namespace {

[[noreturn]] void fail(const std::string& what, const fs::path& path, int err) {
    throw Error(what + " " + path.string() + ": " + std::strerror(err));
}

void write_all(int fd, const std::string& content, const fs::path& tmp) {
    size_t done = 0;
    while (done < content.size()) {
        ssize_t n = ::write(fd, content.data() + done, content.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int err = errno;
            ::close(fd);
            ::unlink(tmp.c_str());
            fail("cannot write", tmp, err);
        }
        done += static_cast<size_t>(n);
    }
}

void fsync_dir(const fs::path& dir) {
    int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

} // namespace

std::string read_text_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        fail("cannot read", path, errno);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void write_file_atomic(const fs::path& path, const std::string& content, unsigned mode) {
    fs::path tmp = path;
    tmp += ".tmp." + std::to_string(::getpid());
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
    if (fd < 0)
        fail("cannot create", tmp, errno);
    write_all(fd, content, tmp);
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        int err = errno;
        ::unlink(tmp.c_str());
        fail("cannot write", tmp, err);
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        int err = errno;
        ::unlink(tmp.c_str());
        fail("cannot replace", path, err);
    }
    fsync_dir(path.parent_path());
}

void make_dirs(const fs::path& path) {
    std::error_code ec;
    fs::create_directories(path, ec);
    if (ec)
        throw Error("cannot create folder " + path.string() + ": " + ec.message());
}

} // namespace bootbench::sys
