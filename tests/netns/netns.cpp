#include "netns.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <stdexcept>

namespace harness::netns {

namespace {

// Runs argv, returns (exit status, combined output).
std::pair<int, std::string> capture(const std::vector<std::string> &argv) {
    std::string command;
    for (const auto &a : argv) command += (command.empty() ? "" : " ") + a;
    command += " 2>&1";
    FILE *p = ::popen(command.c_str(), "r");
    if (!p) return {-1, "popen failed"};
    std::string out;
    char buf[512];
    while (std::fgets(buf, sizeof buf, p)) out += buf;
    int status = ::pclose(p);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

}  // namespace

void run(const std::vector<std::string> &argv) {
    auto [status, out] = capture(argv);
    if (status != 0) {
        std::string command;
        for (const auto &a : argv) command += " " + a;
        throw std::runtime_error("command failed (" + std::to_string(status) + "):" + command + "\n" + out);
    }
}

bool available(std::string *why) {
    if (::geteuid() != 0) {
        *why = "not root";
        return false;
    }
    std::string probe = "hprobe" + std::to_string(::getpid());
    auto [status, out] = capture({"ip", "netns", "add", probe});
    if (status != 0) {
        *why = "ip netns add failed: " + out;
        return false;
    }
    capture({"ip", "netns", "del", probe});
    return true;
}

Network::Network(int hosts) {
    std::string tag = std::to_string(::getpid());
    bridge_ns_ = "hbr" + tag;
    try {
        run({"ip", "netns", "add", bridge_ns_});
        run({"ip", "-n", bridge_ns_, "link", "add", "br0", "type", "bridge"});
        run({"ip", "-n", bridge_ns_, "link", "set", "br0", "up"});
        for (int i = 0; i < hosts; ++i) {
            std::string ns = "hn" + tag + "_" + std::to_string(i);
            run({"ip", "netns", "add", ns});
            hosts_.push_back(ns);
            std::string port = "p" + std::to_string(i);
            run({"ip", "-n", ns, "link", "add", "eth0", "type", "veth", "peer", "name", port, "netns", bridge_ns_});
            run({"ip", "-n", ns, "addr", "add", address(i) + "/24", "dev", "eth0"});
            run({"ip", "-n", ns, "link", "set", "lo", "up"});
            run({"ip", "-n", ns, "link", "set", "eth0", "up"});
            run({"ip", "-n", bridge_ns_, "link", "set", port, "master", "br0"});
            run({"ip", "-n", bridge_ns_, "link", "set", port, "up"});
        }
    } catch (...) {
        teardown();
        throw;
    }
}

Network::~Network() {
    teardown();
}

void Network::teardown() {
    for (const auto &ns : hosts_) capture({"ip", "netns", "del", ns});
    hosts_.clear();
    if (!bridge_ns_.empty()) capture({"ip", "netns", "del", bridge_ns_});
    bridge_ns_.clear();
}

void Network::cut(int host) {
    run({"ip", "-n", ns(host), "link", "set", "eth0", "down"});
}
void Network::restore(int host) {
    run({"ip", "-n", ns(host), "link", "set", "eth0", "up"});
}

}  // namespace harness::netns
