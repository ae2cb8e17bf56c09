// hlib_forwarder.hpp — Forwarder over Hlib: authenticated TCP to the target
// daemon with the VM key, calling a PACKED function of one component.
//
// Connections are pooled per address (a Connection serves one thread at a
// time, so a call takes one out of the pool and puts it back when it ends
// cleanly); a broken or timed-out connection is dropped, never reused.
#pragma once

#include "forwarder.hpp"

#include <harness/common/crypto.hpp>
#include <harness/hlib/hlib.hpp>

#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace harness::vmsvc {

class HlibForwarder final : public Forwarder {
public:
    HlibForwarder(VmKey key, ComponentName component) : key_(std::move(key)), component_(std::move(component)) {}
    Result<Bytes> call(const ForwardTarget &target, std::string_view function, std::span<const std::uint8_t> args,
                       Deadline deadline) override;

private:
    static constexpr std::size_t kMaxIdlePerAddress = 8;
    std::unique_ptr<hlib::Daemon> take(const std::string &address);
    void give_back(const std::string &address, std::unique_ptr<hlib::Daemon> d);

    VmKey key_;
    ComponentName component_;
    std::mutex mutex_;
    std::map<std::string, std::vector<std::unique_ptr<hlib::Daemon>>> idle_;
};

}  // namespace harness::vmsvc
