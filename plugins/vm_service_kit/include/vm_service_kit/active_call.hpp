// active_call.hpp — run one request at the service's active instance.
//
// Locally when this daemon holds the role, otherwise forwarded to the active
// daemon's `<function>_active` entry. A failure that a failover explains
// (peer unreachable or declared failed, "not the active instance", a DRD
// without a leader for a moment) is retried against a freshly resolved role
// until the deadline; between retries the caller waits for the next
// membership change (at most a short step), never in a blind sleep loop.
// Failures that are the caller's (bad arguments) return at once.
#pragma once

#include "active_role.hpp"
#include "forwarder.hpp"

#include <algorithm>
#include <functional>

namespace harness::vmsvc {

// The error an instance answers a forwarded call with when it is not active.
inline constexpr const char *kNotActive = "not the active instance";
inline Error not_active_error() {
    return make_error(HARNESS_ERR_BUSY, kNotActive);
}

inline bool failover_explains(const Error &e) {
    switch (e.status) {
    case HARNESS_ERR_UNREACHABLE:
    case HARNESS_ERR_TIMEOUT:
    case HARNESS_ERR_MEMBER_FAILED:
    case HARNESS_ERR_BUSY:
    case HARNESS_ERR_PROTOCOL:  // a stream cut mid-frame by a dying peer
        return true;
    default: return false;
    }
}

template <class T>
Result<T> call_at_active(ActiveRole &role, Forwarder &forwarder, Deadline deadline,
                         const std::function<Result<T>(const RoleView &)> &local, std::string_view remote_function,
                         std::span<const std::uint8_t> remote_args,
                         const std::function<Result<T>(const Bytes &)> &decode_remote) {
    constexpr auto kRetryStep = std::chrono::milliseconds(100);
    Error last = make_error(HARNESS_ERR_TIMEOUT, "no active instance answered before the deadline");
    for (int attempt = 0;; ++attempt) {
        if (role.stopping()) return make_error(HARNESS_ERR_UNREACHABLE, "the service is stopping");
        if (attempt > 0) {
            if (Clock::now() >= deadline) return last;
            // The first retry goes at once (a stale cached role); later ones
            // wait for the core to declare the silent holder failed.
            if (attempt > 1) role.wait_for_change(std::min(deadline, Clock::now() + kRetryStep));
        }
        auto view = attempt == 0 ? role.current() : role.refresh();
        if (!view) {
            last = view.error();
            if (!failover_explains(last)) return last;
            continue;
        }
        Result<T> r = view->self ? local(*view) : [&]() -> Result<T> {
            auto reply =
                forwarder.call(ForwardTarget{view->member_id, view->address}, remote_function, remote_args, deadline);
            if (!reply) return reply.error();
            return decode_remote(*reply);
        }();
        if (r || !failover_explains(r.error())) return r;
        last = r.error();
    }
}

}  // namespace harness::vmsvc
