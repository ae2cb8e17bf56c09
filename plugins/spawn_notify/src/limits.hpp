// limits.hpp — the bounds one spawn_notify instance enforces.
//
// Read once at init from the daemon's environment, so a test (or an operator)
// can lower them without rebuilding: HARNESS_SPAWN_MAX_PROCS,
// HARNESS_SPAWN_MAX_OUTPUT_BYTES, HARNESS_SPAWN_EXIT_DRAIN_MS.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace harness::vm::spawn {

struct Limits {
    // Processes alive at once (spawned and not yet reaped).
    std::size_t max_running = 256;
    // Output kept per process; older lines are dropped beyond it (a reader that
    // fell behind gets one note line saying how many).
    std::size_t max_output_bytes = 4u << 20;
    // A longer line is cut into pieces of this size (memory stays bounded even
    // for output without newlines).
    std::size_t max_line_bytes = 64u << 10;
    // Finished processes remembered for status/output after they ended.
    std::size_t max_finished_kept = 1024;
    // Exit events remembered for `wait`.
    std::size_t max_exit_events = 65536;
    // Bytes of stdin buffered per process before `stdin` waits for room.
    std::size_t max_stdin_bytes = 1u << 20;
    // After the process exits, how long its pipes are still read when a
    // descendant keeps them open.
    std::chrono::milliseconds exit_drain{2000};
    // Arguments, environment entries and their total size in one request.
    std::size_t max_args = 4096;
    std::size_t max_request_bytes = 1u << 20;

    static Limits from_environment();
};

}  // namespace harness::vm::spawn
