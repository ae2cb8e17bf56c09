// service_test_support.hpp — in-process pieces for the services' unit tests.
//
// A Cluster is the membership and the network of an imagined VM: each
// service instance gets a ClusterMembers (its own member id, the shared
// list) and a ClusterForwarder that delivers forwarded calls straight to the
// target instance's handler — unless the test took that member "down", which
// makes calls to it fail as a dead host's would (UNREACHABLE).
#pragma once

#include "vm_service_kit/forwarder.hpp"
#include "vm_service_kit/member_directory.hpp"

#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <thread>

namespace harness::vmsvc::test {

using namespace std::chrono_literals;

// Polls predicate every 2 ms until true or timeout (never a fixed sleep).
inline bool wait_until(const std::function<bool()> &predicate, std::chrono::milliseconds timeout) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        if (predicate()) return true;
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(2ms);
    }
}

using Handler = std::function<Result<Bytes>(std::string_view function, std::span<const std::uint8_t> args)>;

class Cluster {
public:
    void add(const std::string &id) {
        std::lock_guard lock(mutex_);
        members_.push_back(MemberEntry{id, "addr-" + id, true});
    }
    void set_handler(const std::string &id, Handler h) {
        std::lock_guard lock(mutex_);
        handlers_[id] = std::move(h);
    }
    // The host stops answering (calls fail), still listed alive.
    void take_down(const std::string &id) {
        std::lock_guard lock(mutex_);
        down_.insert(id);
    }
    // The core declares it failed.
    void declare_failed(const std::string &id) {
        std::lock_guard lock(mutex_);
        for (auto &m : members_)
            if (m.id == id) m.alive = false;
    }
    void remove(const std::string &id) {
        std::lock_guard lock(mutex_);
        std::erase_if(members_, [&](const MemberEntry &m) { return m.id == id; });
    }
    std::vector<MemberEntry> members() {
        std::lock_guard lock(mutex_);
        return members_;
    }
    Result<Bytes> deliver(const ForwardTarget &target, std::string_view function, std::span<const std::uint8_t> args) {
        Handler h;
        {
            std::lock_guard lock(mutex_);
            if (down_.count(target.member_id))
                return make_error(HARNESS_ERR_UNREACHABLE, "host " + target.member_id + " is down");
            auto it = handlers_.find(target.member_id);
            if (it == handlers_.end()) return make_error(HARNESS_ERR_UNREACHABLE, "no such host " + target.member_id);
            h = it->second;
        }
        return h(function, args);
    }

private:
    std::mutex mutex_;
    std::vector<MemberEntry> members_;
    std::set<std::string> down_;
    std::map<std::string, Handler> handlers_;
};

class ClusterMembers final : public MemberDirectory {
public:
    ClusterMembers(Cluster &c, std::string self) : cluster_(c), self_(std::move(self)) {}
    Result<std::vector<MemberEntry>> list() override { return cluster_.members(); }
    std::string self_id() override { return self_; }

private:
    Cluster &cluster_;
    std::string self_;
};

class ClusterForwarder final : public Forwarder {
public:
    explicit ClusterForwarder(Cluster &c) : cluster_(c) {}
    Result<Bytes> call(const ForwardTarget &target, std::string_view function, std::span<const std::uint8_t> args,
                       Deadline) override {
        return cluster_.deliver(target, function, args);
    }

private:
    Cluster &cluster_;
};

}  // namespace harness::vmsvc::test
