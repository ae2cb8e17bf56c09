// The function table of the example plugins a correct host never calls into
// (badabi, failinit): one function, "never", that aborts, so that a host bug
// kills the daemon and fails the test at once.
#pragma once

#include <harness/common/plugin.hpp>

#include <cstdlib>

namespace examples {

inline int never(harness_call_ctx *, const harness_value *, size_t, harness_value *) noexcept {
    std::abort();
}

inline constexpr harness_function kNeverCalled[] = {
    {sizeof(harness_function), "never", HARNESS_CALL_AUTO, HARNESS_MODE_INLINE, "i64()", nullptr, nullptr, &never,
     nullptr},
};

}  // namespace examples
