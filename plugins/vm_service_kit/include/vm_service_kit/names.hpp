// names.hpp — what a topic (events) or id space (naming) may be called.
//
// Both become parts of DRD keys, so they are restricted to a safe alphabet:
// 1–200 characters of [A-Za-z0-9_.:/-], no empty path segment, no "." or
// ".." segment. '#' is never allowed, so it can separate a topic from the
// sequence number in a key without ambiguity ("events/job/5#…" cannot be a
// record of topic "job/5#…").
#pragma once

#include <harness/common/result.hpp>

#include <string_view>

namespace harness::vmsvc {

inline constexpr std::size_t kMaxNameLength = 200;

Result<void> check_name(std::string_view what, std::string_view name);

}  // namespace harness::vmsvc
