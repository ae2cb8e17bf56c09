// host_plumbing.hpp — what both services need from their daemon at init.
//
// check_host refuses a host without the ABI 1.1 functions (list_members,
// key_file, call_local) with a clear message; vm_key_of reads the VM key for
// forwarding; host_logger writes through the host's log.
//
// MemberHooks: the host API has no way to unsubscribe a membership hook, and
// the core keeps calling hooks after a plugin's fini. So the hook's user
// pointer is a number looked up in a table under a lock; unsubscribe removes
// the entry, and returns only when no call of it is running any more.
#pragma once

#include "active_role.hpp"

#include <harness/common/crypto.hpp>
#include <harness/common/plugin.h>

#include <cstdint>
#include <functional>

namespace harness::vmsvc {

Result<void> check_host(const harness_host_api *host, const char *service);
Result<VmKey> vm_key_of(const harness_host_api *host);
ActiveRole::LogFn host_logger(const harness_host_api *host, std::string prefix);

class MemberHooks {
public:
    using Hook = std::function<void(const std::string &member_id, bool alive)>;
    // Returns a handle for unsubscribe, or an error if the host refused.
    static Result<std::uint64_t> subscribe(const harness_host_api *host, Hook hook);
    static void unsubscribe(std::uint64_t handle);
};

}  // namespace harness::vmsvc
