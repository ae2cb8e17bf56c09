// functions.hpp — the PACKED functions of vm/spawn_notify (VM_SERVICES.md).
//
// Each unpacks its arguments field by field, names the first bad one in its
// error, and packs the reply exactly as the contract table says. The long
// polls (wait, output, stdin) wait at most kMaxWaitMs whatever the caller
// asks, so a daemon that stops is never held up by them for long.
#pragma once

#include <harness/common/plugin.h>

#include <cstdint>

namespace harness::vm::spawn {

inline constexpr std::int64_t kMaxWaitMs = 10000;

int fn_spawn(harness_call_ctx *ctx, harness_reader *args, harness_buf *out) noexcept;
int fn_signal(harness_call_ctx *ctx, harness_reader *args, harness_buf *out) noexcept;
int fn_status(harness_call_ctx *ctx, harness_reader *args, harness_buf *out) noexcept;
int fn_wait(harness_call_ctx *ctx, harness_reader *args, harness_buf *out) noexcept;
int fn_output(harness_call_ctx *ctx, harness_reader *args, harness_buf *out) noexcept;
int fn_stdin(harness_call_ctx *ctx, harness_reader *args, harness_buf *out) noexcept;

}  // namespace harness::vm::spawn
