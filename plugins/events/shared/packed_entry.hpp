// packed_entry.hpp — the C edge of the services' PACKED functions.
//
// guarded() runs a function body that returns Result<void>, turns an Error
// into its status plus a message in the call context, and catches every
// exception, so nothing crosses the C boundary (STYLE.md, practice 3).
// Argument helpers turn a short or mistyped argument buffer into one clear
// "invalid argument" message naming the function and what it expects.
#pragma once

#include <harness/pack.hpp>
#include <harness/plugin.hpp>

#include <exception>
#include <new>
#include <string>

namespace harness::vmsvc {

template <class Body>
int guarded(harness_call_ctx *ctx, Body &&body) noexcept
{
    try {
        Result<void> r = body();
        if (r) return HARNESS_OK;
        set_call_error(ctx, r.error().message);
        return r.error().status;
    } catch (const std::bad_alloc &) {
        set_call_error(ctx, "out of memory");
    } catch (const std::exception &e) {
        set_call_error(ctx, e.what());
    } catch (...) {
        set_call_error(ctx, "unknown exception");
    }
    return HARNESS_ERR_INTERNAL;
}

inline Error bad_arguments(const char *function, const char *expected)
{
    return make_error(HARNESS_ERR_INVALID_ARGUMENT, std::string(function) + " expects (" + expected + ")");
}

// Appends a packed reply to the host's buffer.
inline Result<void> reply_with(harness_buf *out, const Packer &p)
{
    if (p.failed()) return make_error(HARNESS_ERR_INTERNAL, "out of memory packing the reply");
    harness_buf_append(out, p.view().data(), p.size());
    if (out->error) return make_error(HARNESS_ERR_INTERNAL, "out of memory writing the reply");
    return {};
}

// The plugin's state from a call context, or nullptr.
template <class State>
State *state_of(harness_call_ctx *ctx)
{
    return ctx ? static_cast<State *>(ctx->plugin_state) : nullptr;
}

} // namespace harness::vmsvc
