// The per-communicator collective sequence numbers used as tags (tags.hpp).
#include "tags.hpp"

#include "internal/comm.hpp"

#include <cstdint>

namespace ftmpi::coll {

namespace {
// Tags stay below 2^27 so any transport's tag field holds them; at most a
// handful of collectives are in flight at once, so wrapping is harmless.
constexpr uint32_t tag_mask = (1u << 27) - 1;
}  // namespace

int next_tag(MPI_Comm comm) {
    return static_cast<int>(comm->collectives_started.fetch_add(1, std::memory_order_relaxed) & tag_mask);
}

void reset_tags(MPI_Comm comm) {
    comm->collectives_started.store(0, std::memory_order_relaxed);
}

}  // namespace ftmpi::coll
