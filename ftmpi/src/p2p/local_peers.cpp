// What p2p offers a part that waits on shared memory of its own (the
// collectives' segment, internal/p2p.hpp): which peers share this host's
// memory, how a waiting call polls, and a progress step to make meanwhile.
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

void progress(bool blocking_between) {
    if (blocking_between)
        Engine::get().progress_between_sleeps();
    else
        Engine::get().progress();
}

}  // namespace ftmpi::p2p
