// naming_service.hpp — one daemon's instance of vm/naming.
//
// Same shape as vm/events: the instance named by the DRD record
// vm/services/naming is active and owns the IdAllocator; the others forward
// `allocate` to its `allocate_active`, which refuses rather than forwards
// again when it is not active. A RoleKeeper takes over when the active host
// is declared failed.
#pragma once

#include "id_allocator.hpp"
#include "vm_service_kit/active_role.hpp"
#include "vm_service_kit/forwarder.hpp"
#include "vm_service_kit/role_keeper.hpp"

namespace harness::vmsvc {

inline constexpr const char *kNamingRoleKey = "vm/services/naming";

struct NamingSettings {
    NamingLimits limits;
    std::chrono::milliseconds request_deadline{8000};
    std::chrono::milliseconds role_recheck{500};
};

class NamingService {
public:
    NamingService(RecordStore &store, MemberDirectory &members, Forwarder &forwarder, ActiveRole::LogFn log = {},
                  NamingSettings settings = {});
    ~NamingService();  // stop()

    void start();
    void stop();

    Result<std::int64_t> allocate(const std::string &space, std::int64_t count);
    Result<std::int64_t> allocate_active(const std::string &space, std::int64_t count);
    Result<std::string> where();

    void member_changed(const std::string &member_id, bool alive) { keeper_.member_changed(member_id, alive); }
    ActiveRole &role() { return role_; }

private:
    Forwarder &forwarder_;
    NamingSettings settings_;
    ActiveRole role_;
    IdAllocator allocator_;
    RoleKeeper keeper_;  // last: its thread uses the role
};

}  // namespace harness::vmsvc
