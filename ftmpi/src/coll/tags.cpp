// The per-communicator collective sequence numbers used as tags (tags.hpp).
#include "tags.hpp"

#include "internal/comm.hpp"

#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <utility>

namespace ftmpi::coll {

namespace {
// Tags stay below 2^27 so any transport's tag field holds them; at most a
// handful of collectives are in flight at once, so wrapping is harmless.
constexpr uint32_t tag_mask = (1u << 27) - 1;

std::mutex counters_mutex;
std::unordered_map<uint32_t, uint32_t> counters;  // context id -> calls so far
thread_local int pinned = -1;                     // PinnedTag's, until next_tag takes it
}  // namespace

PinnedTag::PinnedTag(int tag) {
    pinned = tag;
}
PinnedTag::~PinnedTag() {
    pinned = -1;
}

int next_tag(MPI_Comm comm) {
    if (pinned >= 0) return std::exchange(pinned, -1);
    std::lock_guard lock(counters_mutex);
    return static_cast<int>(counters[comm->context]++ & tag_mask);
}

void reset_tags(uint32_t context) {
    std::lock_guard lock(counters_mutex);
    counters.erase(context);
}

}  // namespace ftmpi::coll
