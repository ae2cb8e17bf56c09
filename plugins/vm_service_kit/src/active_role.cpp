#include "vm_service_kit/active_role.hpp"

namespace harness::vmsvc {

ActiveRole::ActiveRole(RecordStore &store, MemberDirectory &members, std::string record_key, LogFn log,
                       std::chrono::milliseconds recheck)
    : store_(store), members_(members), key_(std::move(record_key)), log_(std::move(log)), recheck_(recheck) {}

Result<RoleView> ActiveRole::current() {
    {
        std::lock_guard lock(mutex_);
        if (cached_ && Clock::now() - resolved_at_ < recheck_) return *cached_;
    }
    return refresh();
}

Result<RoleView> ActiveRole::refresh() {
    auto started = Clock::now();
    std::lock_guard resolving(resolve_mutex_);
    {
        // Another thread resolved while we waited for the lock: its answer is
        // as fresh as ours would be.
        std::lock_guard lock(mutex_);
        if (cached_ && resolved_at_ >= started) return *cached_;
    }
    auto view = resolve();
    bool lost = false;
    {
        std::lock_guard lock(mutex_);
        if (view) {
            bool gained = view->self && !(was_self_ && term_seen_ == view->term);
            lost = !view->self && was_self_;
            was_self_ = view->self;
            term_seen_ = view->term;
            cached_ = *view;
            resolved_at_ = Clock::now();
            if (log_ && gained)
                log_(1, key_ + ": this daemon is now the active instance (term " + std::to_string(view->term) + ")");
            if (log_ && lost) log_(2, key_ + ": no longer the active instance; " + view->member_id + " is");
        } else {
            cached_.reset();
        }
    }
    if (lost && on_lost_) on_lost_();
    return view;
}

Result<RoleView> ActiveRole::resolve() {
    const std::string self = members_.self_id();
    if (self.empty()) return make_error(HARNESS_ERR_NOT_SUPPORTED, "the host has no member id");
    // Each round either returns or saw the record change under it; a handful
    // of rounds only run out when others keep taking the role at once.
    for (int round = 0; round < 16; ++round) {
        auto record = store_.get(key_, true);
        if (!record) return record.error();
        if (!*record) {
            auto c = store_.cas(key_, 0, bytes_of(self));
            if (!c) return c.error();
            if (c->ok) return RoleView{true, self, "", c->current_version};
            continue;
        }
        std::string holder = string_of((*record)->value);
        std::int64_t version = (*record)->version;
        if (holder == self) return RoleView{true, self, "", version};
        auto members = members_.list();
        if (!members) return members.error();
        const MemberEntry *m = nullptr;
        for (const auto &e : *members)
            if (e.id == holder) m = &e;
        if (m && m->alive && !m->address.empty()) return RoleView{false, holder, m->address, version};
        auto c = store_.cas(key_, version, bytes_of(self));
        if (!c) return c.error();
        if (c->ok) {
            if (log_)
                log_(1,
                     key_ + ": taking over from " + (holder.empty() ? "nobody" : holder) +
                         (m ? " (declared failed)" : " (not a member)"));
            return RoleView{true, self, "", c->current_version};
        }
    }
    return make_error(HARNESS_ERR_BUSY, key_ + ": the role record keeps changing; try again");
}

void ActiveRole::members_changed() {
    {
        std::lock_guard lock(mutex_);
        ++member_changes_;
        cached_.reset();  // the holder may be the one that failed
    }
    changed_.notify_all();
}

void ActiveRole::wait_for_change(Clock::time_point until) {
    std::unique_lock lock(mutex_);
    auto seen = member_changes_;
    changed_.wait_until(lock, until, [&] { return stopping_ || member_changes_ != seen; });
}

void ActiveRole::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
}

bool ActiveRole::stopping() const {
    std::lock_guard lock(mutex_);
    return stopping_;
}

}  // namespace harness::vmsvc
