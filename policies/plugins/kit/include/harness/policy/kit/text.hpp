// Text across the policy plugins' C boundary (harness/policy.h): every
// reason a plugin gives is one line, NUL-terminated and truncated to the
// caller's buffer, and no exception leaves an extern "C" entry.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>
#include <utility>

#include <harness/policy.h>

namespace harness::policy::kit {

// Copies `text` into buf (len bytes, len 0: nothing), newlines turned into
// spaces, truncated and always NUL-terminated.
void write_text(char *buf, std::size_t len, std::string_view text) noexcept;

// Runs body(); an exception becomes `failed`, with its message in why.
template <class T, class Body>
T guarded_or(T failed, char *why, std::size_t why_len, Body &&body) noexcept {
    try {
        return body();
    } catch (const std::exception &e) {
        write_text(why, why_len, e.what());
    } catch (...) {
        write_text(why, why_len, "unknown exception");
    }
    return failed;
}

// A C entry returning a HARNESS_POLICY_* code: an exception is INVALID.
template <class Body>
std::int32_t guarded(char *why, std::size_t why_len, Body &&body) noexcept {
    return guarded_or<std::int32_t>(HARNESS_POLICY_INVALID, why, why_len, std::forward<Body>(body));
}

// open(): a new instance, or nullptr with the reason in why.
template <class Body>
void *guarded_open(char *why, std::size_t why_len, Body &&body) noexcept {
    return guarded_or<void *>(nullptr, why, why_len, std::forward<Body>(body));
}

// A C string that may be NULL, as a view.
inline std::string_view text_of(const char *s) {
    return s ? std::string_view(s) : std::string_view();
}

}  // namespace harness::policy::kit
