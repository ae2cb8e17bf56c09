// Text across the policy plugins' C boundary (harness/policy.h): every
// reason a plugin gives is one line, NUL-terminated and truncated to the
// caller's buffer, and no exception leaves an extern "C" entry.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>

#include <harness/policy.h>

namespace harness::policy::kit {

// Copies `text` into buf (len bytes, len 0: nothing), newlines turned into
// spaces, truncated and always NUL-terminated.
void write_text(char *buf, std::size_t len, std::string_view text) noexcept;

// Runs body() (returning a HARNESS_POLICY_* code); an exception becomes
// HARNESS_POLICY_INVALID with its message in why.
template <class Body>
std::int32_t guarded(char *why, std::size_t why_len, Body &&body) noexcept {
    try {
        return body();
    } catch (const std::exception &e) {
        write_text(why, why_len, e.what());
    } catch (...) {
        write_text(why, why_len, "unknown exception");
    }
    return HARNESS_POLICY_INVALID;
}

// The same for open(): a new instance, or nullptr with the reason in why.
template <class Body>
void *guarded_open(char *why, std::size_t why_len, Body &&body) noexcept {
    try {
        return body();
    } catch (const std::exception &e) {
        write_text(why, why_len, e.what());
    } catch (...) {
        write_text(why, why_len, "unknown exception");
    }
    return nullptr;
}

// A C string that may be NULL, as a view.
inline std::string_view text_of(const char *s) {
    return s ? std::string_view(s) : std::string_view();
}

}  // namespace harness::policy::kit
