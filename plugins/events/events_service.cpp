#include "events_service.hpp"

#include "vm_service_kit/active_call.hpp"
#include "vm_service_kit/names.hpp"

#include <cstdio>
#include <random>

namespace harness::vmsvc {

std::string new_token() {
    thread_local std::mt19937_64 rng{std::random_device{}() ^
                                     (static_cast<std::uint64_t>(std::random_device{}()) << 32)};
    char text[33];
    std::snprintf(text, sizeof text, "%016llx%016llx", static_cast<unsigned long long>(rng()),
                  static_cast<unsigned long long>(rng()));
    return text;
}

namespace {

Result<std::int64_t> decode_seq(const Bytes &reply) {
    Unpacker u(reply);
    std::int64_t seq = 0;
    if (!u.i64(seq) || !u.done())
        return make_error(HARNESS_ERR_PROTOCOL, "malformed publish reply from the active instance");
    return seq;
}

}  // namespace

// The forwarded fetch reply uses the public fetch encoding.
Result<std::vector<Event>> decode_events(const Bytes &reply) {
    Unpacker u(reply);
    std::int64_t n = 0;
    if (!u.i64(n) || n < 0) return make_error(HARNESS_ERR_PROTOCOL, "malformed fetch reply from the active instance");
    std::vector<Event> out;
    for (std::int64_t i = 0; i < n; ++i) {
        Event e;
        if (!u.i64(e.seq) || !u.bytes(e.payload))
            return make_error(HARNESS_ERR_PROTOCOL, "malformed fetch reply from the active instance");
        out.push_back(std::move(e));
    }
    return out;
}

EventsService::EventsService(RecordStore &store, MemberDirectory &members, Forwarder &forwarder, ActiveRole::LogFn log,
                             EventsSettings settings)
    : members_(members), forwarder_(forwarder), log_(std::move(log)), settings_(settings),
      role_(store, members, kEventsRoleKey, log_, settings.role_recheck), log_store_(store, settings.limits),
      keeper_(role_, settings.request_deadline,
              [this](const std::string &id, bool alive) { publish_member_change(id, alive); }) {
    role_.set_on_lost([this] { log_store_.wake_all(); });
}

EventsService::~EventsService() {
    stop();
}

void EventsService::start() {
    keeper_.start();
}

void EventsService::stop() {
    keeper_.stop();  // also stops the role: callers waiting for a failover return
    log_store_.stop();
}

Result<std::int64_t> EventsService::publish(const std::string &topic, std::span<const std::uint8_t> payload) {
    if (auto ok = check_name("topic", topic); !ok) return ok.error();
    if (payload.size() > settings_.limits.max_payload)
        return make_error(HARNESS_ERR_TOO_LARGE,
                          "event payload of " + std::to_string(payload.size()) + " bytes is over the limit of " +
                              std::to_string(settings_.limits.max_payload));
    const std::string token = new_token();
    Packer args;
    args.str(topic).bytes(payload).str(token);
    return call_at_active<std::int64_t>(
        role_, forwarder_, Clock::now() + settings_.request_deadline,
        [&](const RoleView &view) { return log_store_.publish(topic, payload, token, view.term); }, "publish_active",
        args.view(), decode_seq);
}

Result<std::vector<Event>> EventsService::fetch(const std::string &topic, std::int64_t after_seq, std::int64_t wait_ms,
                                                std::int64_t max) {
    if (auto ok = check_name("topic", topic); !ok) return ok.error();
    if (after_seq < 0) return make_error(HARNESS_ERR_INVALID_ARGUMENT, "after_seq must be >= 0");
    if (wait_ms < 0 || wait_ms > settings_.limits.max_wait_ms)
        return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                          "wait_ms must be 0.." + std::to_string(settings_.limits.max_wait_ms));
    if (max < 1) return make_error(HARNESS_ERR_INVALID_ARGUMENT, "max must be >= 1");
    auto deadline = Clock::now() + std::chrono::milliseconds(wait_ms) + settings_.fetch_margin;
    Packer args;
    args.str(topic).i64(after_seq).i64(wait_ms).i64(max);
    return call_at_active<std::vector<Event>>(
        role_, forwarder_, deadline,
        [&](const RoleView &view) {
            // A retry after a failover must not wait longer than the caller asked.
            auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - settings_.fetch_margin - Clock::now());
            return log_store_.fetch(topic, after_seq, std::max<std::int64_t>(0, left.count()), max, view.term);
        },
        "fetch_active", args.view(), decode_events);
}

Result<std::string> EventsService::where() {
    auto view = role_.current();
    if (!view) view = RoleKeeper::settle(role_, Clock::now() + settings_.request_deadline);
    if (!view) return view.error();
    return view->member_id;
}

Result<RoleView> EventsService::active_view() {
    auto view = role_.current();
    if (view && !view->self) view = role_.refresh();  // the forwarder's view may be newer than our cache
    if (!view) return view.error();
    if (!view->self) return not_active_error();
    return view;
}

Result<std::int64_t> EventsService::publish_active(const std::string &topic, std::span<const std::uint8_t> payload,
                                                   const std::string &token) {
    if (auto ok = check_name("topic", topic); !ok) return ok.error();
    auto view = active_view();
    if (!view) return view.error();
    return log_store_.publish(topic, payload, token, view->term);
}

Result<std::vector<Event>> EventsService::fetch_active(const std::string &topic, std::int64_t after_seq,
                                                       std::int64_t wait_ms, std::int64_t max) {
    if (auto ok = check_name("topic", topic); !ok) return ok.error();
    auto view = active_view();
    if (!view) return view.error();
    return log_store_.fetch(topic, after_seq, wait_ms, max, view->term);
}

void EventsService::member_changed(const std::string &member_id, bool alive) {
    keeper_.member_changed(member_id, alive);
}

void EventsService::publish_member_change(const std::string &member_id, bool alive) {
    // Resolving may make us the active instance (the failed member held it).
    auto deadline = Clock::now() + settings_.request_deadline;
    for (;;) {
        auto view = role_.refresh();
        if (view && !view->self) return;  // the active instance publishes it
        Result<std::int64_t> r = make_error(HARNESS_ERR_INTERNAL, "");
        if (view) {
            Packer payload;
            if (alive) {
                auto m = members_.find(member_id);
                payload.str("member_joined").str(member_id).str(m ? m->address : "");
            } else {
                payload.str("member_failed").str(member_id);
            }
            r = log_store_.publish(kMembersTopic, payload.view(), "", view->term);
            if (r) return;
        }
        const Error &e = view ? r.error() : view.error();
        if (!failover_explains(e) || Clock::now() >= deadline || role_.stopping()) {
            log(2,
                std::string("vm/members: could not publish ") + (alive ? "member_joined " : "member_failed ") +
                    member_id + ": " + e.describe());
            return;
        }
        role_.wait_for_change(std::min(deadline, Clock::now() + std::chrono::milliseconds(100)));
    }
}

}  // namespace harness::vmsvc
