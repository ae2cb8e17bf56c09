// REBUILD joining at the engine (ftmpi/FT_CONTRACTS.md "Recovery" step 3): a replacement's connection is
// held by the transport as "joining" until recovery admits it; admitting
// makes it the peer's connection and clears the peer's failed mark, so the
// rank is usable again with its new incarnation.
#include "p2p/engine.hpp"

#include "mpi-ext.h"
#include "settings/values.hpp"

#include <algorithm>
#include <condition_variable>

#include <unistd.h>

namespace ftmpi::p2p {

std::chrono::milliseconds Engine::join_connect_timeout() {
    // How long a replacement tries each rank before it takes it for dead.
    // Live ranks answer in microseconds; a dead host costs this much.
    return std::chrono::milliseconds(ftmpi::settings::current().number(ftmpi::settings::Id::join_connect));
}

void Engine::set_identity(int incarnation, int round) {
    Lock lk(mu_);
    my_incarnation_ = incarnation;
    my_round_ = round;
}

int Engine::peer_incarnation(int world) {
    Lock lk(mu_);
    if (world == rank_ || !net_) return world == rank_ ? my_incarnation_ : 0;
    return net_->incarnation(world);
}

void Engine::renew_peer(int peer) {
    failures_.renew(peer);
    match_.renew_peer(peer);
    // Flush markers counted for the old incarnation say nothing about the new one.
    std::erase_if(flush_arrived_, [peer](const auto &e) { return e.first.first == peer; });
    std::erase_if(flush_waited_, [peer](const auto &e) { return e.first.first == peer; });
}

void Engine::on_joined(int peer) {
    grow_locked(peer + 1);  // a spawned process new here
    if (is_foreign(peer) && failures_.failed(peer)) {
        // Another job's process that connected after its wait gave up on
        // it: it stays failed (a failure is for good).
        net_->drop(peer);
        return;
    }
    renew_peer(peer);
}

void Engine::admit(int world, int incarnation) {
    Lock lk(mu_);
    if (!running_ || world < 0 || world >= size_ || world == rank_) return;
    if (net_->joining_incarnation(world) != incarnation) return;
    if (!failures_.failed(world)) {
        // Admitted while the old incarnation was not declared failed here:
        // its operations end now, as for any failure.
        net_->drop(world);
        declare_failed_locked(world, "replaced by a new incarnation");  // on_peer_lost may only suspect
    }
    if (net_->admit(world, incarnation)) renew_peer(world);
}

void Engine::wake_all() {
    Lock lk(mu_);
    if (net_) net_->wake();
    turn_.followers_cv.notify_all();
}

int Engine::wait_joined(const std::vector<int> &worlds, const std::vector<int> &incarnations, int deadline_ms) {
    if (worlds.size() != incarnations.size()) return MPI_ERR_ARG;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(std::max(deadline_ms, 0));
    auto joined = [&] {
        for (size_t i = 0; i < worlds.size(); ++i) {
            int w = worlds[i];
            if (w < 0 || w >= size_ || w == rank_) continue;
            if (net_->joining_incarnation(w) < incarnations[i] && net_->incarnation(w) < incarnations[i]) return false;
        }
        return true;
    };
    bool ok = wait_until_deadline(deadline, [&] { return !running_ || !networked_ || joined(); });
    return ok ? MPI_SUCCESS : MPIX_ERR_PROC_FAILED;
}

bool Engine::reach_fellow(int world, int incarnation, std::chrono::steady_clock::time_point deadline,
                          const std::function<bool()> &gone) {
    using Clock = std::chrono::steady_clock;
    constexpr auto reread_pause = std::chrono::milliseconds(20);
    auto reached = [&] { return net_->incarnation(world) >= incarnation; };  // lock held
    while (true) {
        {
            Lock lk(mu_);
            if (!running_ || !networked_ || world < 0 || world >= size_ || world == rank_) return false;
            if (reached()) return true;
        }
        if (gone() || Clock::now() >= deadline) return false;
        std::string card;
        try {
            if (reread_card_) card = reread_card_(world);
        } catch (const std::exception &) {
            card.clear();  // the wire-up did not answer this time: read again
        }
        if (!card.empty() && transport::Router::card_incarnation(card) >= incarnation) {
            // Without the lock: the poller goes on accepting meanwhile, so
            // the fellow's own connection (it connects when ours does not
            // come) is taken, and refuses ours, rather than both waiting.
            int answered = -1;
            const int fd =
                net_->reach_fellow(world, card, std::min(deadline, Clock::now() + join_connect_timeout()), &answered);
            Lock lk(mu_);
            if (fd >= 0 && answered >= incarnation) {
                if (net_->adopt_fellow(world, fd, answered)) renew_peer(world);
            } else if (fd >= 0) {
                ::close(fd);  // an older incarnation answered: not the fellow we expect
            }
            return reached();  // false: its new address did not answer (it is gone)
        }
        // Its new card is not there yet; its own connection may come meanwhile.
        wait_until_deadline(std::min(deadline, Clock::now() + reread_pause), [&] { return !running_ || reached(); });
    }
}

bool Engine::wait_until_deadline(std::chrono::steady_clock::time_point deadline, const std::function<bool()> &done) {
    // The engine's waits have no deadline of their own: a timer wakes every
    // waiter when ours passes, so the wait below re-checks the clock.
    std::mutex timer_mu;
    std::condition_variable timer_cv;
    bool over = false;
    std::thread timer([&] {
        std::unique_lock<std::mutex> tl(timer_mu);
        if (!timer_cv.wait_until(tl, deadline, [&] { return over; })) {
            tl.unlock();
            wake_all();
        }
    });
    bool ok = false;
    wait_until([&] {
        ok = done();
        return ok || std::chrono::steady_clock::now() >= deadline;
    });
    {
        std::lock_guard<std::mutex> tl(timer_mu);
        over = true;
    }
    timer_cv.notify_all();
    timer.join();
    return ok;
}

int wait_joined(const std::vector<int> &worlds, const std::vector<int> &incarnations, int deadline_ms) {
    return Engine::get().wait_joined(worlds, incarnations, deadline_ms);
}
bool reach_fellow(int world, int incarnation, int deadline_ms, const std::function<bool()> &gone) {
    return Engine::get().reach_fellow(
        world, incarnation, std::chrono::steady_clock::now() + std::chrono::milliseconds(std::max(deadline_ms, 0)),
        gone);
}
void admit(int world, int incarnation) {
    Engine::get().admit(world, incarnation);
}
int peer_incarnation(int world) {
    return Engine::get().peer_incarnation(world);
}

}  // namespace ftmpi::p2p
