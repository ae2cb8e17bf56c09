#include "vm_service_kit/role_keeper.hpp"

#include "vm_service_kit/active_call.hpp"

namespace harness::vmsvc {

RoleKeeper::RoleKeeper(ActiveRole &role, std::chrono::milliseconds deadline, Handler handler)
    : role_(role), deadline_(deadline), handler_(std::move(handler)) {}

RoleKeeper::~RoleKeeper() {
    stop();
}

void RoleKeeper::start() {
    std::lock_guard lock(mutex_);
    if (!thread_.joinable() && !stopping_) thread_ = std::thread([this] { loop(); });
}

void RoleKeeper::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    work_.notify_all();
    role_.stop();
    if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

void RoleKeeper::member_changed(const std::string &member_id, bool alive) {
    role_.members_changed();
    {
        std::lock_guard lock(mutex_);
        changes_.emplace_back(member_id, alive);
    }
    work_.notify_one();
}

Result<RoleView> RoleKeeper::settle(ActiveRole &role, Clock::time_point deadline) {
    for (;;) {
        auto view = role.refresh();
        if (view || !failover_explains(view.error()) || Clock::now() >= deadline || role.stopping()) return view;
        role.wait_for_change(std::min(deadline, Clock::now() + std::chrono::milliseconds(100)));
    }
}

void RoleKeeper::loop() {
    // At start: keep trying while the DRD forms (a long deadline; stop ends it).
    auto start_view = settle(role_, Clock::now() + std::chrono::minutes(5));
    (void)start_view;  // a failure is logged by whoever calls next; nothing to do here
    std::unique_lock lock(mutex_);
    for (;;) {
        work_.wait(lock, [&] { return stopping_ || !changes_.empty(); });
        if (stopping_) return;
        auto [id, alive] = changes_.front();
        changes_.pop_front();
        lock.unlock();
        if (handler_)
            handler_(id, alive);
        else
            (void)settle(role_, Clock::now() + deadline_);
        lock.lock();
    }
}

}  // namespace harness::vmsvc
