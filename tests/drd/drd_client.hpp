// drd_client.hpp — the tests' and benchmark's client of vm/drd on one daemon.
//
// One Hlib TCP connection (authenticated with the VM key) to one daemon, and
// one method per function of the vm/drd contract (plugins/VM_SERVICES.md),
// packing and unpacking exactly as the contract says.
#pragma once

#include <harness/common/endpoint.hpp>
#include <harness/common/pack.hpp>
#include <harness/hlib/hlib.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace harness::drd::test {

struct Found {
    bool found = false;
    std::string value;
    std::int64_t version = 0;
};

struct Item {
    std::int64_t index = 0;  // watch only
    std::string key;
    std::string value;
    std::int64_t version = 0;
    bool deleted = false;  // watch only
};

struct Watched {
    std::int64_t next_index = 0;
    std::vector<Item> changes;
};

struct Status {
    std::string leader;
    std::vector<std::string> voters;
    std::vector<std::string> standbys;
    std::int64_t commit_index = 0;
};

class DrdClient {
public:
    DrdClient(Endpoint daemon, VmKey key, std::chrono::milliseconds timeout = std::chrono::milliseconds(6000))
        : daemon_(std::move(daemon)), key_(std::move(key)), timeout_(timeout) {}

    Result<std::int64_t> put(const std::string &key, const std::string &value,
                             const std::string &replication = "voters");
    // → (ok, current_version)
    Result<std::pair<bool, std::int64_t>> cas(const std::string &key, std::int64_t expected, const std::string &value,
                                              const std::string &replication = "voters");
    Result<Found> get(const std::string &key, bool linearizable);
    Result<bool> del(const std::string &key);
    Result<std::vector<Item>> scan(const std::string &prefix, bool linearizable);
    Result<Watched> watch(const std::string &prefix, std::int64_t after, std::int64_t wait_ms);
    Result<Status> status();
    // Any function with hand-made arguments (malformed-input tests).
    Result<Bytes> call(const std::string &function, std::span<const std::uint8_t> args);

    const Endpoint &daemon() const { return daemon_; }

private:
    Endpoint daemon_;
    VmKey key_;
    std::chrono::milliseconds timeout_;
    std::optional<hlib::Daemon> conn_;
};

}  // namespace harness::drd::test
