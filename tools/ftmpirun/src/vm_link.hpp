// vm_link.hpp — ftmpirun's way to the VM-wide services (vm/events) and the
// member list when any daemon may die: it talks to one daemon and moves on to
// the next of its list when that one stops answering. One VmLink per thread.
#pragma once

#include <harness/common/crypto.hpp>
#include <harness/common/endpoint.hpp>
#include <harness/common/pack.hpp>
#include <harness/common/result.hpp>
#include <harness/hlib/hlib.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace harness::ftmpirun {

struct DaemonAddress {
    std::string member_id;
    Endpoint tcp;
};

struct TopicEvent {
    std::int64_t seq = 0;
    Bytes payload;
};

class VmLink {
public:
    // daemons: in order of preference (ftmpirun's own daemon first).
    VmLink(std::vector<DaemonAddress> daemons, VmKey key) : daemons_(std::move(daemons)), key_(std::move(key)) {}

    Result<std::int64_t> publish(const std::string &topic, std::span<const std::uint8_t> payload);
    // Events after after_seq, waiting up to wait for the first.
    Result<std::vector<TopicEvent>> fetch(const std::string &topic, std::int64_t after_seq,
                                          std::chrono::milliseconds wait);
    Result<std::vector<hlib::Member>> members();

private:
    // Runs op on the current daemon; on a connection-level failure moves to
    // the next daemon and tries once more there, until each was tried.
    template <class Op>
    auto with_daemon(Op op) -> decltype(op(std::declval<hlib::Daemon &>()));

    std::vector<DaemonAddress> daemons_;
    VmKey key_;
    std::size_t current_ = 0;
    std::optional<hlib::Daemon> daemon_;
};

}  // namespace harness::ftmpirun
