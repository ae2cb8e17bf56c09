// What p2p tells other parts about the peers on this host and how a waiting
// call behaves (internal/p2p.hpp): the collectives' shared-memory path waits
// on its own flags but by the same policy, and only among such peers.
#include "internal/p2p.hpp"
#include "p2p/engine.hpp"

namespace ftmpi::p2p {

bool shares_memory_with(int world_rank) {
    return Engine::get().shares_memory_with(world_rank);
}

WaitPolicy wait_policy() {
    const Settings &s = Engine::get().settings();
    return {s.spin, s.yield_when_idle};
}

}  // namespace ftmpi::p2p
