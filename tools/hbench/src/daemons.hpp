// daemons.hpp — the private two-daemon VM hbench measures when it is given no
// --hcore: fresh temporary roots under /tmp, one shared key file, both on
// 127.0.0.1 with a port the daemon picks, the second joining the first, the
// example plugins copied into each root's lib/ and examples/math loaded in
// both. Stopped (SIGTERM, then SIGKILL after a grace period) and the roots
// removed when the LocalVm goes away.
#pragma once

#include <harness/common/endpoint.hpp>

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace hbench {

struct StartedDaemon {
    pid_t pid = -1;
    std::filesystem::path root;
    std::string id;
    harness::Endpoint tcp;
    harness::Endpoint udp;
    std::filesystem::path unix_socket;
    std::string ready_line;
};

// Parses "hcored ready vm=… id=… tcp=H:P udp=H:P unix=PATH" into out.
bool parse_ready_line(const std::string &line, StartedDaemon &out);

class LocalVm {
public:
    // Throws std::runtime_error (with the daemon's stderr tail) on failure.
    LocalVm(const std::filesystem::path &hcored, const std::filesystem::path &plugins_dir,
            std::chrono::milliseconds ready_timeout = std::chrono::milliseconds(15000));
    ~LocalVm();
    LocalVm(const LocalVm &) = delete;
    LocalVm &operator=(const LocalVm &) = delete;

    const StartedDaemon &local() const { return daemons_.at(0); }
    const StartedDaemon &remote() const { return daemons_.at(1); }
    const std::filesystem::path &key_file() const { return key_file_; }

    void stop();  // idempotent

private:
    StartedDaemon launch(const std::string &name, const std::vector<std::string> &extra);

    std::filesystem::path hcored_;
    std::filesystem::path plugins_dir_;
    std::filesystem::path base_;  // the temp dir holding both roots and the key
    std::filesystem::path key_file_;
    std::chrono::milliseconds ready_timeout_;
    std::vector<StartedDaemon> daemons_;
    std::vector<int> stdout_fds_;
};

}  // namespace hbench
