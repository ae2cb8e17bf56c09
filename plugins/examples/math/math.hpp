// examples/math — the sample component used by the demo, tests and benchmarks.
//
// One function per calling convention and per behaviour a test needs to see:
// plain arithmetic, a baseline that does nothing, the calling process's pid
// (so a test can tell a forked mode ran elsewhere), a sleep, a failure, a
// PACKED reducer and a RAW echo that speaks its own protocol on the socket.
#pragma once

#include <harness/common/plugin.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace harness::examples::math {

// AUTO functions (auto_functions.cpp); the wrappers are built in descriptor.cpp.
std::int64_t add(std::int64_t a, std::int64_t b);  // wraps on overflow
std::int64_t noop();
std::string echo(std::string_view text);
double scale(double value, double factor);
std::int64_t pid();
std::int64_t sleep_ms(std::int64_t ms);       // throws for ms < 0 or ms > 600000
std::int64_t fail(std::string_view message);  // always throws message

// PACKED: any number of i64 items → i64 sum, i64 count.
int sum(harness_call_ctx *ctx, harness_reader *args, harness_buf *out) noexcept;

// RAW: u32 little-endian length + that many bytes, echoed back.
inline constexpr std::uint32_t kRawEchoMax = 1u << 20;
int raw_echo(harness_call_ctx *ctx, int fd) noexcept;

}  // namespace harness::examples::math
