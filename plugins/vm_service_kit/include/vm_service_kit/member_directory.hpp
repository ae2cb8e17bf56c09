// member_directory.hpp — who is in the VM, as this daemon's core sees it.
//
// The services decide where their active instance runs from the core's
// membership (alive or declared failed), and forward to it by address.
// HostMemberDirectory reads it through the host API's list_members (ABI 1.1);
// tests give a fixed list.
#pragma once

#include <harness/common/plugin.h>
#include <harness/common/result.hpp>

#include <optional>
#include <string>
#include <vector>

namespace harness::vmsvc {

struct MemberEntry {
    std::string id;
    std::string address;  // "host:port", the daemon's TCP endpoint
    bool alive = true;
};

class MemberDirectory {
public:
    virtual ~MemberDirectory() = default;
    virtual Result<std::vector<MemberEntry>> list() = 0;
    virtual std::string self_id() = 0;

    std::optional<MemberEntry> find(const std::string &id);
};

class HostMemberDirectory final : public MemberDirectory {
public:
    explicit HostMemberDirectory(const harness_host_api *host) : host_(host) {}
    Result<std::vector<MemberEntry>> list() override;
    std::string self_id() override;

private:
    const harness_host_api *host_;
};

}  // namespace harness::vmsvc
