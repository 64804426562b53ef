#include "sys/store/files.hpp"

#include "core/base/error.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <limits>
#include <sys/stat.h>
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

// What a path is when it is not a regular file, for messages.
const char* kind_of(mode_t mode) {
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a file";
}

// A file opened for reading. O_NONBLOCK: opening a FIFO neither waits for a
// writer nor reads; the caller refuses it by its kind before any read.
class ReadFd {
public:
    explicit ReadFd(const fs::path& path)
        : fd_(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)) {
        err_ = fd_ < 0 ? errno : (::fstat(fd_, &st_) == 0 ? 0 : errno);
    }
    ~ReadFd() {
        if (fd_ >= 0)
            ::close(fd_);
    }
    ReadFd(const ReadFd&) = delete;
    ReadFd& operator=(const ReadFd&) = delete;

    int error() const { return err_; }
    bool regular() const { return S_ISREG(st_.st_mode); }
    const char* kind() const { return kind_of(st_.st_mode); }
    // Reads to the end, or to `limit` + 1 bytes; 0 or errno in `err`.
    std::string read_up_to(size_t limit, int& err) const {
        std::string out;
        char buf[65536];
        err = 0;
        while (out.size() <= limit) {
            ssize_t n = ::read(fd_, buf, sizeof buf);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                err = n < 0 ? errno : 0;
                break;
            }
            out.append(buf, static_cast<size_t>(n));
        }
        return out;
    }

private:
    int fd_;
    int err_ = 0;
    struct stat st_ {};
};

// "1048576 bytes (1 MiB)"
std::string bytes_text(size_t n) {
    std::string s = std::to_string(n) + " bytes";
    return n % (1 << 20) == 0 ? s + " (" + std::to_string(n >> 20) + " MiB)" : s;
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
    ReadFd f(path);
    if (f.error())
        fail("cannot read", path, f.error());
    if (!f.regular())
        throw Error("cannot read " + path.string() + ": not a regular file (" + f.kind() + ")");
    int err = 0;
    std::string text = f.read_up_to(std::numeric_limits<size_t>::max() - 1, err);
    if (err)
        fail("cannot read", path, err);
    return text;
}

std::string read_input_file(const fs::path& path, const std::string& what, size_t max_bytes) {
    ReadFd f(path);
    if (f.error())
        throw input_error("cannot read " + what + " " + path.string() + ": " + std::strerror(f.error()));
    if (!f.regular())
        throw input_error(path.string() + ": not a regular file (" + f.kind() +
                          "); give the path of the " + what);
    int err = 0;
    std::string text = f.read_up_to(max_bytes, err);
    if (err)
        throw input_error("cannot read " + what + " " + path.string() + ": " + std::strerror(err));
    if (text.size() > max_bytes)
        throw input_error(path.string() + ": larger than " + bytes_text(max_bytes) + ", the most the " +
                          what + " may have");
    return text;
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
