#include "loopback_server.hpp"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <poll.h>
#include <signal.h>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace bootbench::test {

namespace {

constexpr int kStartTimeoutMs = 15000;

[[noreturn]] void fail(const std::string& what) {
    throw std::runtime_error("loopback server (" PYTHON3 " " FAKE_REGISTRY "): " + what);
}

pid_t spawn(const std::string& log, int in_fd, int out_fd) {
    pid_t pid = fork();
    if (pid < 0)
        fail(std::string("fork: ") + std::strerror(errno));
    if (pid == 0) {
        dup2(in_fd, 0);
        dup2(out_fd, 1);
        const char* argv[] = {PYTHON3,         FAKE_REGISTRY, "--log", log.c_str(),
                              "--max-seconds", "300",         nullptr};
        execv(PYTHON3, const_cast<char* const*>(argv));
        _exit(127);
    }
    return pid;
}

} // namespace

LoopbackServer::LoopbackServer() {
    // libcurl honours http_proxy and friends: a proxy on the test machine
    // must not see (or break) loopback requests.
    for (const char* name : {"no_proxy", "NO_PROXY"})
        setenv(name, "127.0.0.1,localhost", 1);
    char tmpl[] = "/tmp/bootbench-http-XXXXXX";
    if (!mkdtemp(tmpl))
        fail(std::string("mkdtemp: ") + std::strerror(errno));
    dir_ = tmpl;
    int in[2];
    int out[2];
    if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0)
        fail(std::string("pipe: ") + std::strerror(errno));
    pid_ = spawn(dir_ + "/requests.jsonl", in[0], out[1]);
    close(in[0]);
    close(out[1]);
    stdin_fd_ = in[1];
    try {
        read_ports(out[0]);
    } catch (...) {
        close(out[0]);
        stop();
        throw;
    }
    close(out[0]);
}

void LoopbackServer::read_ports(int out_fd) {
    std::string text;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kStartTimeoutMs);
    while (text.find("READY\n") == std::string::npos) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        pollfd p{out_fd, POLLIN, 0};
        if (left.count() <= 0 || poll(&p, 1, static_cast<int>(left.count())) <= 0)
            fail("did not print READY within " + std::to_string(kStartTimeoutMs) + " ms; got: '" +
                 text + "'");
        char buf[256];
        ssize_t n = read(out_fd, buf, sizeof buf);
        if (n <= 0)
            fail("exited before it was ready; its output: '" + text + "'");
        text.append(buf, static_cast<size_t>(n));
    }
    std::istringstream lines(text);
    std::string key;
    std::string value;
    while (lines >> key && key != "READY" && lines >> value) {
        if (key == "CA")
            ca_file_ = value;
        else
            (key == "PORT"   ? port_
             : key == "DEAD" ? dead_port_
             : key == "TLS"  ? tls_port_
                             : closed_port_) = std::stoi(value);
    }
    if (port_ == 0 || dead_port_ == 0 || closed_port_ == 0 || ca_file_.empty())
        fail("printed no ports: '" + text + "'");
}

LoopbackServer::~LoopbackServer() {
    stop();
}

void LoopbackServer::stop() {
    if (stdin_fd_ >= 0)
        close(stdin_fd_); // the server stops when its stdin closes
    stdin_fd_ = -1;
    if (pid_ > 0) {
        kill(pid_, SIGTERM);
        waitpid(pid_, nullptr, 0);
    }
    pid_ = -1;
    if (!dir_.empty()) {
        std::error_code ec;
        std::filesystem::remove_all(dir_, ec);
    }
}

std::string LoopbackServer::base() const {
    return "http://127.0.0.1:" + std::to_string(port_);
}
std::string LoopbackServer::dead_base() const {
    return "http://127.0.0.1:" + std::to_string(dead_port_);
}
std::string LoopbackServer::tls_base() const {
    if (tls_port_ == 0)
        fail("it has no https server: it needs the openssl command to make its certificate");
    return "https://127.0.0.1:" + std::to_string(tls_port_);
}
std::string LoopbackServer::closed_base() const {
    return "http://127.0.0.1:" + std::to_string(closed_port_);
}

std::vector<nlohmann::json> LoopbackServer::requests(const std::string& prefix) const {
    std::vector<nlohmann::json> found;
    std::ifstream in(dir_ + "/requests.jsonl");
    std::string line;
    while (std::getline(in, line)) {
        nlohmann::json j = nlohmann::json::parse(line);
        if (j["path"].get<std::string>().rfind(prefix, 0) == 0)
            found.push_back(j);
    }
    return found;
}

LoopbackServer& loopback() {
    static LoopbackServer server;
    return server;
}

} // namespace bootbench::test
