// events_service.hpp — one daemon's instance of vm/events.
//
// Every daemon runs one; the one named in the DRD record vm/services/events
// is active and owns the EventLog, the others forward to it (ActiveRole,
// call_at_active). The public functions (publish, fetch, where) work on any
// instance; the *_active ones are what a forwarding instance calls, and
// refuse with "not the active instance" rather than forward again, so a
// request never circles between two daemons with different views.
//
// Membership: the core's hook (any thread) only queues the change; a worker
// thread re-resolves the role (this is how a survivor takes over when the
// active host is declared failed, even when nobody is calling) and, on the
// active instance, publishes the change to topic vm/members as the contract
// says: "member_failed", id / "member_joined", id, address.
#pragma once

#include "event_log.hpp"
#include "vm_service_kit/active_role.hpp"
#include "vm_service_kit/forwarder.hpp"
#include "vm_service_kit/role_keeper.hpp"

namespace harness::vmsvc {

inline constexpr const char *kMembersTopic = "vm/members";
inline constexpr const char *kEventsRoleKey = "vm/services/events";

struct EventsSettings {
    EventLogLimits limits;
    std::chrono::milliseconds request_deadline{8000};  // publish/where: time to find an active instance
    std::chrono::milliseconds fetch_margin{5000};      // fetch: wait_ms plus this
    std::chrono::milliseconds role_recheck{500};
};

class EventsService {
public:
    EventsService(RecordStore &store, MemberDirectory &members, Forwarder &forwarder, ActiveRole::LogFn log = {},
                  EventsSettings settings = {});
    ~EventsService();  // stop()

    // Starts the worker (role resolution at start, membership events).
    void start();
    void stop();

    Result<std::int64_t> publish(const std::string &topic, std::span<const std::uint8_t> payload);
    Result<std::vector<Event>> fetch(const std::string &topic, std::int64_t after_seq, std::int64_t wait_ms,
                                     std::int64_t max);
    Result<std::string> where();

    Result<std::int64_t> publish_active(const std::string &topic, std::span<const std::uint8_t> payload,
                                        const std::string &token);
    Result<std::vector<Event>> fetch_active(const std::string &topic, std::int64_t after_seq, std::int64_t wait_ms,
                                            std::int64_t max);

    // From the core's membership hook: cheap, never blocks on the DRD.
    void member_changed(const std::string &member_id, bool alive);

    ActiveRole &role() { return role_; }
    const EventsSettings &settings() const { return settings_; }

private:
    Result<RoleView> active_view();  // this instance's role, for *_active
    void publish_member_change(const std::string &member_id, bool alive);
    void log(int level, const std::string &message) const {
        if (log_) log_(level, message);
    }

    MemberDirectory &members_;
    Forwarder &forwarder_;
    ActiveRole::LogFn log_;
    EventsSettings settings_;
    ActiveRole role_;
    EventLog log_store_;
    RoleKeeper keeper_;  // last: its thread uses everything above
};

// A fresh random request id for publish tokens.
std::string new_token();
// Decodes the fetch reply encoding: i64 n, then n × (i64 seq, bytes payload).
Result<std::vector<Event>> decode_events(const Bytes &reply);

}  // namespace harness::vmsvc
