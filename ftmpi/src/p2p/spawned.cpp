// Processes MPI_Comm_spawn added to the job, at the engine: their world
// ranks follow the job's others, so making room is growing every per-peer
// table; they connect to us (Tcp::take_spawned, on_joined) whenever they
// get there, and the spawning ranks wait for that before they talk to them.
#include "p2p/engine.hpp"

#include "internal/p2p.hpp"

namespace ftmpi::p2p {

void Engine::grow_locked(int n) {
    if (n <= size_ || !networked_ || n > transport::max_world_ranks) return;
    failures_.grow(n);
    match_.grow(n);
    net_->grow(n);
    size_ = n;
}

void Engine::wait_connected(const std::vector<int> &worlds, int deadline_ms, const char *why) {
    {
        Lock lk(mu_);
        if (!running_ || !networked_) return;
        for (int w : worlds) grow_locked(w + 1);  // they may connect here only later
    }
    auto settled = [&](int w) {
        return w == rank_ || w < 0 || w >= size_ || failures_.failed(w) || net_->connected(w) || net_->bye_received(w);
    };
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(std::max(deadline_ms, 0));
    wait_until_deadline(deadline, [&] {
        for (int w : worlds)
            if (!settled(w)) return false;
        return true;
    });
    Lock lk(mu_);
    for (int w : worlds)
        if (!settled(w)) declare_failed_locked(w, why);
    report(lk);
}

int known_world_ranks() {
    auto &engine = Engine::get();
    std::lock_guard<std::mutex> lk(engine.mutex());
    return engine.size();
}
void wait_connected(const std::vector<int> &worlds, int deadline_ms, const char *why) {
    Engine::get().wait_connected(worlds, deadline_ms, why);
}

}  // namespace ftmpi::p2p
