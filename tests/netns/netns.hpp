// A small network of namespaces for multi-host tests: one namespace per
// "host" with an eth0 at 10.77.0.<i+1>/24, each joined by a veth pair to a
// bridge that lives in a namespace of its own, so cutting a host is `ip link
// set eth0 down` inside its namespace. Everything is created by the
// constructor and removed by the destructor (deleting a namespace removes its
// veth end, and with it the peer). Names carry the test's pid, so runs never
// collide with each other or with leftovers.
#pragma once

#include <string>
#include <vector>

namespace harness::netns {

// True when this process may create namespaces (root and a working `ip netns`).
bool available(std::string *why);

// Runs a command (argv[0] looked up in PATH) and throws with its output on failure.
void run(const std::vector<std::string> &argv);

class Network {
public:
    explicit Network(int hosts);
    ~Network();
    Network(const Network &) = delete;
    Network &operator=(const Network &) = delete;

    int hosts() const { return static_cast<int>(hosts_.size()); }
    const std::string &ns(int host) const { return hosts_.at(static_cast<std::size_t>(host)); }
    std::string address(int host) const { return "10.77.0." + std::to_string(host + 1); }
    void cut(int host);      // the host's link goes down: it hears nobody, nobody hears it
    void restore(int host);  // and comes back

private:
    void teardown();
    std::string bridge_ns_;
    std::vector<std::string> hosts_;
};

}  // namespace harness::netns
