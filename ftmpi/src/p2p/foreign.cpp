// Processes of another job at the engine (internal/p2p.hpp "Processes of
// another job"): their numbers follow every world rank this process knows,
// so making room is growing the per-peer tables as for spawned processes;
// unlike those, the VM never reports their failure, so a broken connection
// decides (on_peer_lost).
#include "p2p/engine.hpp"

#include <unistd.h>

#include <algorithm>

namespace ftmpi::p2p {

void Engine::mark_foreign_locked(const ForeignPeer &f) {
    grow_locked(f.peer + 1);
    if (foreign_.size() <= static_cast<size_t>(f.peer)) foreign_.resize(static_cast<size_t>(f.peer) + 1, 0);
    foreign_[static_cast<size_t>(f.peer)] = 1;
    std::lock_guard<std::mutex> lk(identity_mu_);
    foreign_identity_[f.peer] = {f.job, f.world, f.job_first};
}

std::string Engine::foreign_name(int peer) {
    std::lock_guard<std::mutex> lk(identity_mu_);
    auto it = foreign_identity_.find(peer);
    if (it == foreign_identity_.end()) return {};
    return "a process of job " + it->second.job + " (its world rank " + std::to_string(it->second.world) + " there)";
}

bool Engine::process_before(int a, int b) {
    std::lock_guard<std::mutex> lk(identity_mu_);
    auto ia = foreign_identity_.find(a), ib = foreign_identity_.find(b);
    const bool fa = a >= 0 && ia != foreign_identity_.end(), fb = b >= 0 && ib != foreign_identity_.end();
    if (!fa && !fb) return a < b;                // one job's world ranks
    if (fa && !fb) return ia->second.job_first;  // the other job's process first if its job sorts first
    if (!fa && fb) return !ib->second.job_first;
    if (ia->second.job != ib->second.job) return ia->second.job < ib->second.job;
    return ia->second.world < ib->second.world;
}

std::string Engine::own_contact() {
    Lock lk(mu_);
    if (!running_ || !networked_) return {};
    return net_->tcp_record();
}

void Engine::expect_foreign(const std::vector<ForeignPeer> &peers) {
    Lock lk(mu_);
    if (!running_ || !networked_) return;
    for (const ForeignPeer &f : peers) {
        if (f.peer < size_ || f.peer >= transport::max_world_ranks) continue;  // a number in use is never given again
        mark_foreign_locked(f);
        net_->expect_foreign(f.peer);
    }
}

void Engine::reach_foreign(const std::vector<ForeignPeer> &peers, std::chrono::steady_clock::time_point deadline) {
    {
        Lock lk(mu_);
        if (!running_ || !networked_) return;
        for (const ForeignPeer &f : peers)
            if (f.peer >= size_ && f.peer < transport::max_world_ranks) mark_foreign_locked(f);
    }
    for (const ForeignPeer &f : peers) {
        // The handshake touches only a new socket: the poller goes on meanwhile.
        int incarnation = 0;
        const int fd = net_->reach_foreign(f.record, f.world, f.alias_there, deadline, &incarnation);
        Lock lk(mu_);
        if (!is_foreign(f.peer)) {
            if (fd >= 0) ::close(fd);
            continue;
        }
        if (fd >= 0 && net_->adopt_foreign(f.peer, fd, incarnation))
            renew_peer(f.peer);
        else
            declare_failed_locked(f.peer, "a process of the other job did not answer its connection");
        report(lk);
    }
}

bool Engine::has_foreign() {
    Lock lk(mu_);
    return std::find(foreign_.begin(), foreign_.end(), 1) != foreign_.end();
}

std::string own_contact() {
    return Engine::get().own_contact();
}
bool process_before(int a, int b) {
    return Engine::get().process_before(a, b);
}
void expect_foreign(const std::vector<ForeignPeer> &peers) {
    Engine::get().expect_foreign(peers);
}
bool has_foreign() {
    return Engine::get().has_foreign();
}
void reach_foreign(const std::vector<ForeignPeer> &peers, int deadline_ms) {
    Engine::get().reach_foreign(peers,
                                std::chrono::steady_clock::now() + std::chrono::milliseconds(std::max(deadline_ms, 0)));
}

}  // namespace ftmpi::p2p
