// harness/common/plugin_guard.hpp — the C edge of a plugin written in C++.
//
// Every function a plugin hands the host (a PACKED, RAW or AUTO entry, init)
// is called from C and must not let an exception out (STYLE.md, practice 3).
// guarded_call() runs the C++ body of such an entry and turns what it returns
// into a harness status: a body returns either an int status (it reported
// its own message) or a Result<void> (an Error becomes its status plus its
// message in the call context). An exception becomes exception_status with
// its what() as the message. guarded_init() does the same for init, whose
// message goes into the host's err buffer instead of a call context.
//
//     int put(harness_call_ctx *ctx, harness_reader *args, harness_buf *out) noexcept
//     {
//         return harness::guarded_call(ctx, "vm/drd", [&]() -> harness::Result<void> { … });
//     }
//
// context, when not empty, prefixes the message of an exception ("vm/drd:
// unknown exception"): an Error's message was written where the failure was
// understood and already says what failed, an exception's what() often does not.
#pragma once

#include <harness/common/plugin.h>
#include <harness/common/result.hpp>

#include <algorithm>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <string_view>
#include <type_traits>

namespace harness {

// Appends message to the call's error buffer (the host shows it to the caller).
inline void set_call_error(harness_call_ctx *ctx, std::string_view message) {
    if (ctx && ctx->error) harness_buf_append(ctx->error, message.data(), message.size());
}

namespace detail {

// Runs body; a failure is reported through report(context, message), where
// context is empty for an Error (its message says what failed) and the
// guard's context for an exception. Nothing here allocates once an exception
// was caught, so reporting an out-of-memory cannot throw again.
template <class Body, class Report>
int run_guarded(std::string_view context, int exception_status, Body &body, Report &&report) noexcept {
    try {
        using R = std::invoke_result_t<Body &>;
        if constexpr (std::is_same_v<R, Result<void>>) {
            Result<void> r = body();
            if (r) return HARNESS_OK;
            report(std::string_view(), std::string_view(r.error().message));
            return r.error().status;
        } else {
            static_assert(std::is_convertible_v<R, int>, "a guarded body returns a status or a Result<void>");
            return body();
        }
    } catch (const std::bad_alloc &) {
        report(context, std::string_view("out of memory"));
    } catch (const std::exception &e) {
        report(context, std::string_view(e.what()));
    } catch (...) {
        report(context, std::string_view("unknown exception"));
    }
    return exception_status;
}

}  // namespace detail

// The body of a call entry: returns its status and never throws.
template <class Body>
int guarded_call(harness_call_ctx *ctx, std::string_view context, Body &&body,
                 int exception_status = HARNESS_ERR_INTERNAL) noexcept {
    return detail::run_guarded(context, exception_status, body, [ctx](std::string_view where, std::string_view what) {
        if (!where.empty()) {
            set_call_error(ctx, where);
            set_call_error(ctx, ": ");
        }
        set_call_error(ctx, what);
    });
}

// The body of init: returns its status, with the message (if any) in err.
template <class Body>
int guarded_init(char *err, std::size_t errlen, std::string_view context, Body &&body,
                 int exception_status = HARNESS_ERR_INTERNAL) noexcept {
    auto report = [err, errlen](std::string_view where, std::string_view what) {
        if (!err || errlen == 0) return;
        std::size_t used = 0;
        auto put = [&](std::string_view part) {
            std::size_t n = std::min(part.size(), errlen - 1 - used);
            std::memcpy(err + used, part.data(), n);
            used += n;
        };
        if (!where.empty()) {
            put(where);
            put(": ");
        }
        put(what);
        err[used] = '\0';
    };
    return detail::run_guarded(context, exception_status, body, report);
}

}  // namespace harness
