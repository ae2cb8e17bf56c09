// The matching queues' lengths (internal/p2p.hpp), read under the engine's
// lock only when a tool asks (MPI_T's performance variables): nothing on the
// send or receive path counts anything for them.
#include "internal/p2p.hpp"
#include "p2p/engine.hpp"

namespace ftmpi::p2p {

std::pair<std::size_t, std::size_t> Engine::queue_lengths() {
    std::lock_guard lock(mu_);
    return {match_.posted.size(), match_.unexpected.size()};
}

QueueLengths queue_lengths() {
    const auto [posted, unexpected] = Engine::get().queue_lengths();
    return {posted, unexpected};
}

}  // namespace ftmpi::p2p
