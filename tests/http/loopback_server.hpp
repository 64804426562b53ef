#pragma once
// Starts tests/http/fake_registry.py on 127.0.0.1 for the duration of the
// test process and stops it at the end (RAII). If it cannot start, the
// constructor throws and every test that needs it fails loudly.
#include <nlohmann/json.hpp>
#include <string>
#include <sys/types.h>
#include <vector>

namespace bootbench::test {

class LoopbackServer {
  public:
    LoopbackServer();
    ~LoopbackServer();
    LoopbackServer(const LoopbackServer&) = delete;
    LoopbackServer& operator=(const LoopbackServer&) = delete;

    // "http://127.0.0.1:<port>"
    std::string base() const;
    // A port that accepts connections and never answers.
    std::string dead_base() const;
    // A port where connections are refused.
    std::string closed_base() const;
    // "https://127.0.0.1:<port>": the same server behind a self-signed
    // certificate for IP 127.0.0.1 (and no other name).
    std::string tls_base() const;
    // That certificate, PEM.
    const std::string& ca_file() const { return ca_file_; }
    // The requests the server has seen whose path starts with `prefix`.
    std::vector<nlohmann::json> requests(const std::string& prefix) const;

  private:
    void read_ports(int out_fd);
    void stop();

    pid_t pid_ = -1;
    int stdin_fd_ = -1;
    int port_ = 0;
    int dead_port_ = 0;
    int closed_port_ = 0;
    int tls_port_ = 0;
    std::string ca_file_;
    std::string dir_;
};

// One server for the whole test process, started on first use.
LoopbackServer& loopback();

} // namespace bootbench::test
