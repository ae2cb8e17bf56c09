// active_role.hpp — which daemon runs the active instance of a one-per-VM
// service, and taking over when it fails.
//
// The rule: the DRD record `vm/services/<name>` (value: the member id, as
// plain bytes) names the active instance. An instance takes the role with a
// compare-and-set on that record when it is absent, or when the member it
// names is declared failed by the core (or is not a member at all — e.g. an
// id from before a restart of the whole VM). CAS makes the takeover
// single-winner; and because every piece of service state is itself written
// with CAS (event slots, id blocks), two instances that both believe they are
// active (a false failure suspicion) can slow each other down but never issue
// a sequence number or an id twice. The role rule is about liveness; safety
// rests on the DRD.
//
// The version of the role record is the instance's *term*: it changes with
// every takeover, and a service drops everything it cached under an older
// term. The active re-reads the record at least every recheck interval, so
// an instance that lost the role (it was wrongly declared failed) notices.
#pragma once

#include "member_directory.hpp"
#include "record_store.hpp"

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>

namespace harness::vmsvc {

using Clock = std::chrono::steady_clock;

struct RoleView {
    bool self = false;
    std::string member_id;
    std::string address;    // the active daemon's "host:port" (empty when self)
    std::int64_t term = 0;  // version of the role record
};

class ActiveRole {
public:
    using LogFn = std::function<void(int level, const std::string &message)>;

    ActiveRole(RecordStore &store, MemberDirectory &members, std::string record_key, LogFn log = {},
               std::chrono::milliseconds recheck = std::chrono::milliseconds(500));

    // The active instance: the cached view while it is fresh, else resolved
    // from the DRD (taking over when the holder is gone).
    Result<RoleView> current();
    // Resolves now, ignoring the cache (after a failed forward).
    Result<RoleView> refresh();

    // The core reported a membership change: wakes wait_for_change.
    void members_changed();
    // Waits until the next membership change, stop(), or until.
    void wait_for_change(Clock::time_point until);
    void stop();
    bool stopping() const;

    const std::string &record_key() const { return key_; }
    // Called (outside any lock) when this instance finds it lost the role,
    // so waiters on the old role can give up at once. Set before start.
    void set_on_lost(std::function<void()> on_lost) { on_lost_ = std::move(on_lost); }

private:
    Result<RoleView> resolve();

    RecordStore &store_;
    MemberDirectory &members_;
    std::string key_;
    LogFn log_;
    std::function<void()> on_lost_;
    std::chrono::milliseconds recheck_;

    std::mutex resolve_mutex_;  // one resolution at a time; others reuse its answer
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::optional<RoleView> cached_;
    Clock::time_point resolved_at_{};
    std::uint64_t member_changes_ = 0;
    bool was_self_ = false;  // the last resolution said self (cached_ may be reset since)
    std::int64_t term_seen_ = 0;
    bool stopping_ = false;
};

}  // namespace harness::vmsvc
