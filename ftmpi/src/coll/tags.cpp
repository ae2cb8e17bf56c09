// The per-communicator collective sequence numbers used as tags (tags.hpp).
#include "tags.hpp"

#include "internal/comm.hpp"

#include <cstdint>
#include <utility>

namespace ftmpi::coll {

namespace {
// Tags stay below 2^27 so any transport's tag field holds them: the
// sequence of collective calls below 2^26, persistent collectives' tags
// from 2^26 up (an init that failed at some members only then leaves the
// ordinary sequence alone). At most a handful of collectives are in flight
// at once, so wrapping is harmless.
constexpr uint32_t sequence_mask = (1u << 26) - 1;
constexpr uint32_t persistent_range = 1u << 26;
thread_local int pinned = -1;  // PinnedTag's, until next_tag takes it
}  // namespace

PinnedTag::PinnedTag(int tag) {
    pinned = tag;
}
PinnedTag::~PinnedTag() {
    pinned = -1;
}

int next_tag(MPI_Comm comm) {
    if (pinned >= 0) return std::exchange(pinned, -1);
    return static_cast<int>(comm->collectives_started.fetch_add(1, std::memory_order_relaxed) & sequence_mask);
}

int next_persistent_tag(MPI_Comm comm) {
    return static_cast<int>(persistent_range |
                            (comm->persistent_inits.fetch_add(1, std::memory_order_relaxed) & sequence_mask));
}

void reset_tags(MPI_Comm comm) {
    comm->collectives_started.store(0, std::memory_order_relaxed);
    comm->persistent_inits.store(0, std::memory_order_relaxed);
}

}  // namespace ftmpi::coll
