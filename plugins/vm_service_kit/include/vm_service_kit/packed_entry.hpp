// packed_entry.hpp — the C edge of the services' PACKED functions.
//
// Argument helpers turn a short or mistyped argument buffer into one clear
// "invalid argument" message naming the function and what it expects; the
// reply helper appends a Packer to the host's buffer. The guard that keeps
// exceptions from crossing the C boundary is harness::guarded_call
// (harness/common/plugin_guard.hpp); service_plugin.hpp wraps it for the services.
#pragma once

#include <harness/common/pack.hpp>
#include <harness/common/plugin.hpp>

#include <string>

namespace harness::vmsvc {

inline Error bad_arguments(const char *function, const char *expected) {
    return make_error(HARNESS_ERR_INVALID_ARGUMENT, std::string(function) + " expects (" + expected + ")");
}

// Appends a packed reply to the host's buffer.
inline Result<void> reply_with(harness_buf *out, const Packer &p) {
    if (p.failed()) return make_error(HARNESS_ERR_INTERNAL, "out of memory packing the reply");
    harness_buf_append(out, p.view().data(), p.size());
    if (out->error) return make_error(HARNESS_ERR_INTERNAL, "out of memory writing the reply");
    return {};
}

// The plugin's state from a call context, or nullptr.
template <class State>
State *state_of(harness_call_ctx *ctx) {
    return ctx ? static_cast<State *>(ctx->plugin_state) : nullptr;
}

}  // namespace harness::vmsvc
