// Calls that ride out a VM service's short "busy" answers.
//
// A replicated service (the DRD, and the services that keep their state in
// it) answers HARNESS_ERR_BUSY while it has no leader: for a moment after a
// member failed, which is exactly when failure notices and start-up records
// are written. The service retries inside one call for as long as Hlib's
// call timeout allows; an election can take longer, so a caller with a
// deadline of its own asks again, with a pause that doubles up to 500 ms.
#pragma once

#include <harness/hlib/hlib.hpp>

#include <algorithm>
#include <thread>

namespace harness::hlib {

// Daemon::call, again while the answer is HARNESS_ERR_BUSY and the next try
// can start before the deadline. Use it only for calls that may run twice:
// a busy answer can come after the call took effect.
inline Result<Bytes> call_while_busy(Daemon &daemon, const ComponentName &name, std::string_view function,
                                     std::span<const std::uint8_t> packed_args, Deadline deadline) {
    auto pause = std::chrono::milliseconds(50);
    for (;;) {
        auto reply = daemon.call(name, function, packed_args, HARNESS_CALL_PACKED, HARNESS_MODE_DEFAULT, deadline);
        if (reply || reply.error().status != HARNESS_ERR_BUSY || Clock::now() + pause >= deadline) return reply;
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::milliseconds(500));
    }
}

}  // namespace harness::hlib
