#include "naming_service.hpp"

#include "vm_service_kit/active_call.hpp"
#include "vm_service_kit/names.hpp"

namespace harness::vmsvc {

NamingService::NamingService(RecordStore &store, MemberDirectory &members, Forwarder &forwarder, ActiveRole::LogFn log,
                             NamingSettings settings)
    : forwarder_(forwarder), settings_(settings),
      role_(store, members, kNamingRoleKey, std::move(log), settings.role_recheck), allocator_(store, settings.limits),
      keeper_(role_, settings.request_deadline) {}

NamingService::~NamingService() {
    stop();
}

void NamingService::start() {
    keeper_.start();
}
void NamingService::stop() {
    keeper_.stop();
}

Result<std::int64_t> NamingService::allocate(const std::string &space, std::int64_t count) {
    if (auto ok = check_name("space", space); !ok) return ok.error();
    if (count < 1 || count > settings_.limits.max_count)
        return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                          "count must be 1.." + std::to_string(settings_.limits.max_count));
    Packer args;
    args.str(space).i64(count);
    return call_at_active<std::int64_t>(
        role_, forwarder_, Clock::now() + settings_.request_deadline,
        [&](const RoleView &view) { return allocator_.allocate(space, count, view.term); }, "allocate_active",
        args.view(),
        [](const Bytes &reply) -> Result<std::int64_t> {
            Unpacker u(reply);
            std::int64_t first = 0;
            if (!u.i64(first) || !u.done())
                return make_error(HARNESS_ERR_PROTOCOL, "malformed allocate reply from the active instance");
            return first;
        });
}

Result<std::int64_t> NamingService::allocate_active(const std::string &space, std::int64_t count) {
    if (auto ok = check_name("space", space); !ok) return ok.error();
    auto view = role_.current();
    if (view && !view->self) view = role_.refresh();
    if (!view) return view.error();
    if (!view->self) return not_active_error();
    return allocator_.allocate(space, count, view->term);
}

Result<std::string> NamingService::where() {
    auto view = role_.current();
    if (!view) view = RoleKeeper::settle(role_, Clock::now() + settings_.request_deadline);
    if (!view) return view.error();
    return view->member_id;
}

}  // namespace harness::vmsvc
