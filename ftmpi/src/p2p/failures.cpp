// How a failure enters the engine and what it completes
// (ftmpi/FT_CONTRACTS.md "One mechanism, two interfaces").
//
// Three ways in: the notifier thread injects a failure the VM reported
// (p2p::notify_failed), or a connection breaks without bye — a failure at
// once when ft::confirm() is false, else only a suspicion that the VM later
// confirms through notify_failed. A declared failure completes every
// operation that needs the process with MPIX_ERR_PROC_FAILED and is then
// reported to ftstate (ft::on_failure) without the engine's lock, in the
// order the engine declared them.
#include "p2p/engine.hpp"

#include "internal/comm.hpp"
#include "internal/ft.hpp"
#include "mpi-ext.h"

#include <algorithm>

namespace ftmpi::p2p {

void Engine::declare_failed(int world) { inject_failure(world); }

void Engine::inject_failure(int world) {
    {
        std::lock_guard<std::mutex> g(inject_mu_);
        injected_.push_back(world);
        injected_pending_.store(true, std::memory_order_release);
    }
    Lock lk(mu_);
    if (!running_ || !net_) return;
    net_->wake();  // a poller blocked in epoll applies it too, before its next frame
    apply_injected();
    report(lk);
}

void Engine::apply_injected() {
    if (!injected_pending_.load(std::memory_order_acquire)) return;
    std::vector<int> worlds;
    {
        std::lock_guard<std::mutex> g(inject_mu_);
        worlds.swap(injected_);
        injected_pending_.store(false, std::memory_order_release);
    }
    for (int w : worlds) declare_failed_locked(w, "reported failed by the VM");
}

void Engine::on_peer_lost(int peer) {
    if (failed_[peer]) return;
    if (ft::confirm()) {
        // One broken connection is not a verdict: keep the peer's operations
        // pending until the VM confirms (notify_failed) or ftstate's deadline.
        if (!suspected_[peer]) {
            suspected_[peer] = 1;
            reports_.push_back({peer, true, {}});
        }
        return;
    }
    declare_failed_locked(peer, "its connection broke without MPI_Finalize");
}

void Engine::declare_failed_locked(int world, const std::string &why) {
    if (!running_ || world < 0 || world >= size_ || world == rank_ || failed_[world]) return;
    // What it sent before it failed and already reached us is taken in (a
    // message then _exit), then nothing more is read from or written to it.
    if (!draining_) {
        draining_ = true;
        net_->drain(world);
        draining_ = false;
        if (failed_[world]) return;
    }
    net_->drop(world);
    failed_[world] = 1;
    suspected_[world] = 0;
    failure_epoch_.fetch_add(1, std::memory_order_acq_rel);
    const int code = MPIX_ERR_PROC_FAILED;
    if (MPI_Request r = arriving_[world]) {
        arriving_[world] = nullptr;
        finish(r, code);
    }
    if (Unexpected *u = arriving_unexpected_[world]) {
        arriving_unexpected_[world] = nullptr;
        if (u->claimed) finish(u->claimed, code);
        std::erase_if(unexpected_, [u](const Unexpected &x) { return &x == u; });
    }
    for (auto it = posted_.begin(); it != posted_.end();) {
        MPI_Request r = *it;
        bool needs = r->peer == world || (r->peer == -1 && any_source_ended_by_failure(*r) &&
                                          comm::comm_rank_of_world(r->comm, world) != MPI_UNDEFINED);
        if (!needs) {
            ++it;
            continue;
        }
        it = posted_.erase(it);
        finish(r, code);
    }
    std::vector<MPI_Request> waiting;
    for (auto &[id, r] : by_id_)
        if ((r->kind == RequestKind::send && r->peer == world) || (r->kind == RequestKind::recv && r->matched_peer == world))
            waiting.push_back(r);
    for (MPI_Request r : stalled_)
        if (r->peer == world) waiting.push_back(r);
    std::erase_if(stalled_, [world](MPI_Request r) { return r->peer == world; });
    for (MPI_Request r : waiting) finish(r, code);
    // Its announced large messages will never come. Its complete eager
    // messages stay receivable (they were sent before it failed).
    std::erase_if(unexpected_, [world](const Unexpected &u) { return u.rendezvous && u.source == world; });
    reports_.push_back({world, false, why});
    if (followers_ > 0) followers_cv_.notify_all();
}

void Engine::report(Lock &lk) {
    if (!reports_open_ || reporting_ || (reports_.empty() && to_release_.empty())) return;
    reporting_ = true;
    while (!reports_.empty() || !to_release_.empty()) {
        std::vector<Report> batch;
        batch.swap(reports_);
        lk.unlock();
        for (const Report &r : batch) {
            if (r.suspicion) {
                ft::suspect(r.world);  // may call notify_failed: its report joins this loop
            } else {
                ft::on_failure(r.world, r.why);
                reported_epoch_.fetch_add(1, std::memory_order_acq_rel);
            }
        }
        lk.lock();
        release_held(lk);
    }
    reporting_ = false;
    // Waiters that ask ftstate (ANY_SOURCE receives) look again.
    if (followers_ > 0) followers_cv_.notify_all();
    if (poller_blocked_ && poller_ != std::this_thread::get_id()) net_->wake();
}

void Engine::fail_ops_if(const std::function<bool(const ftmpi_request_s &)> &pred, int code) {
    // A receive whose payload is being read, or a send streaming from the
    // user's buffer, is left alone: the transport still uses its buffer, and
    // it completes by itself in a moment (or with its peer's failure).
    auto busy = [this](MPI_Request r) {
        if (r->streaming) return true;
        if (std::find(arriving_.begin(), arriving_.end(), r) != arriving_.end()) return true;
        return std::any_of(unexpected_.begin(), unexpected_.end(), [r](const Unexpected &u) { return u.claimed == r; });
    };
    std::vector<MPI_Request> doomed;
    for (auto it = posted_.begin(); it != posted_.end();) {
        if (pred(**it) && !busy(*it)) {
            doomed.push_back(*it);
            it = posted_.erase(it);
        } else {
            ++it;
        }
    }
    for (auto &[id, r] : by_id_)
        if (pred(*r) && !busy(r)) doomed.push_back(r);
    for (auto it = stalled_.begin(); it != stalled_.end();) {
        if (pred(**it)) {
            doomed.push_back(*it);
            it = stalled_.erase(it);
        } else {
            ++it;
        }
    }
    for (MPI_Request r : doomed) finish(r, code);
}

void Engine::fail_pending(MPI_Comm comm, int code) {
    Lock lk(mu_);
    if (!running_) return;
    fail_ops_if([comm](const ftmpi_request_s &r) { return r.comm == comm && r.channel == Channel::user; }, code);
}

bool Engine::said_bye(int world) {
    Lock lk(mu_);
    return running_ && net_ && world >= 0 && world < size_ && world != rank_ && net_->bye_received(world);
}

bool Engine::withdraw(MPI_Request r) {
    Lock lk(mu_);
    if (r->complete) return false;
    auto it = std::find(posted_.begin(), posted_.end(), r);
    if (it == posted_.end()) return false;  // matched: its data is coming
    posted_.erase(it);
    finish(r, MPIX_ERR_PROC_FAILED);
    return true;
}

bool Engine::awaiting_match(MPI_Request r) {
    Lock lk(mu_);
    return !r->complete && std::find(posted_.begin(), posted_.end(), r) != posted_.end();
}

// ---- ftmpi::p2p (internal/p2p.hpp) ----------------------------------------

uint64_t failure_epoch() { return Engine::get().failure_epoch(); }

void fail_pending(MPI_Comm comm, int code) { Engine::get().fail_pending(comm, code); }

bool said_bye(int world) { return Engine::get().said_bye(world); }

}  // namespace ftmpi::p2p
