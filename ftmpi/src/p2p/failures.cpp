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

void Engine::declare_failed(int world) {
    failures_.inject(world);
    Lock lk(mu_);
    if (!running_ || !net_) return;
    net_->wake();  // a poller blocked in epoll applies it too, before its next frame
    apply_injected();
    report(lk);
}

void Engine::apply_injected() {
    if (!failures_.has_injected()) return;
    for (int w : failures_.take_injected()) {
        // The VM may report a spawned process before it connected here: it
        // is a process of the job all the same.
        grow_locked(w + 1);
        declare_failed_locked(w, "reported failed by the VM");
    }
}

void Engine::on_peer_lost(int peer) {
    if (failures_.failed(peer)) return;
    if (ft::confirm() && !is_foreign(peer)) {
        // One broken connection is not a verdict: keep the peer's operations
        // pending until the VM confirms (notify_failed) or ftstate's deadline.
        failures_.mark_suspected(peer);
        return;
    }
    if (const std::string name = foreign_name(peer); !name.empty())
        declare_failed_locked(peer, name + " connected to this job, whose connection broke without MPI_Finalize");
    else
        declare_failed_locked(peer, "its connection broke without MPI_Finalize");
}

void Engine::declare_failed_locked(int world, const std::string &why) {
    if (!running_ || world < 0 || world >= size_ || world == rank_ || failures_.failed(world)) return;
    // What it sent before it failed and already reached us is taken in (a
    // message then _exit), then nothing more is read from or written to it.
    if (!draining_) {
        draining_ = true;
        net_->drain(world);
        draining_ = false;
        if (failures_.failed(world)) return;
    }
    net_->drop(world);
    failures_.mark_failed(world, why);
    const int code = MPIX_ERR_PROC_FAILED;
    if (MPI_Request r = match_.arriving[world]) {
        match_.arriving[world] = nullptr;
        finish(r, code);
    }
    if (Unexpected *u = match_.arriving_unexpected[world]) {
        match_.arriving_unexpected[world] = nullptr;
        if (u->claimed) finish(u->claimed, code);
        match_.erase_unexpected(u);
    }
    for (auto it = match_.posted.begin(); it != match_.posted.end();) {
        MPI_Request r = *it;
        bool needs = r->peer == world ||
            (r->peer == -1 && any_source_ended_by_failure(*r) &&
             comm::comm_rank_of_world(r->comm, world) != MPI_UNDEFINED);
        if (!needs) {
            ++it;
            continue;
        }
        it = match_.posted.erase(it);
        finish(r, code);
    }
    std::vector<MPI_Request> waiting;
    for (auto &[id, r] : match_.by_id)
        if ((r->kind == RequestKind::send && r->peer == world) ||
            (r->kind == RequestKind::recv && r->matched_peer == world))
            waiting.push_back(r);
    for (MPI_Request r : stalled_)
        if (r->peer == world) waiting.push_back(r);
    std::erase_if(stalled_, [world](MPI_Request r) { return r->peer == world; });
    for (MPI_Request r : waiting) finish(r, code);
    // Its announced large messages will never come. Its complete eager
    // messages stay receivable (they were sent before it failed).
    std::erase_if(match_.unexpected, [world](const Unexpected &u) { return u.rendezvous && u.source == world; });
    turn_.wake_followers();
}

void Engine::report(Lock &lk) {
    if (!failures_.has_reports() && to_release_.empty()) return;
    if (!failures_.begin_reporting()) return;
    while (failures_.has_reports() || !to_release_.empty()) {
        std::vector<FailureRecord::Report> batch = failures_.take_reports();
        lk.unlock();
        for (const FailureRecord::Report &r : batch) {
            if (r.suspicion) {
                ft::suspect(r.world);  // may call notify_failed: its report joins this loop
            } else {
                ft::on_failure(r.world, r.why);
                failures_.count_reported();
            }
        }
        lk.lock();
        release_held(lk);
    }
    failures_.end_reporting();
    // Waiters that ask ftstate (ANY_SOURCE receives) look again.
    turn_.wake_followers();
    if (turn_.other_thread_blocked()) net_->wake();
}

void Engine::fail_ops_if(const std::function<bool(const ftmpi_request_s &)> &pred, int code) {
    // A receive whose payload is being read, or a send streaming from the
    // user's buffer, is left alone: the transport still uses its buffer, and
    // it completes by itself in a moment (or with its peer's failure).
    auto busy = [this](MPI_Request r) { return r->streaming || match_.receiving_into(r); };
    std::vector<MPI_Request> doomed;
    for (auto it = match_.posted.begin(); it != match_.posted.end();) {
        if (pred(**it) && !busy(*it)) {
            doomed.push_back(*it);
            it = match_.posted.erase(it);
        } else {
            ++it;
        }
    }
    for (auto &[id, r] : match_.by_id)
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
    // The fault-tolerance machinery's own messages (agreements: strict
    // collectives, MPIX_Comm_agree) handle failures themselves.
    fail_ops_if(
        [comm](const ftmpi_request_s &r) {
            return r.comm == comm && (r.channel == Channel::user || r.tag < ft_tag_base);
        },
        code);
}

void Engine::settle_reports() {
    const uint64_t declared = failure_epoch();
    Lock lk(mu_);
    if (!running_ || !failures_.is_open()) return;
    report(lk);
    // Another thread may be reporting (ftstate is called without the lock).
    wait_locked(lk, [&] { return reported_epoch() >= declared; });
}

bool Engine::said_bye(int world) {
    Lock lk(mu_);
    return running_ && net_ && world >= 0 && world < size_ && world != rank_ && net_->bye_received(world);
}

bool Engine::withdraw(MPI_Request r) {
    Lock lk(mu_);
    if (r->complete) return false;
    auto it = std::find(match_.posted.begin(), match_.posted.end(), r);
    if (it == match_.posted.end()) return false;  // matched: its data is coming
    match_.posted.erase(it);
    finish(r, MPIX_ERR_PROC_FAILED);
    return true;
}

bool Engine::awaiting_match(MPI_Request r) {
    Lock lk(mu_);
    return !r->complete && std::find(match_.posted.begin(), match_.posted.end(), r) != match_.posted.end();
}

// ---- ftmpi::p2p (internal/p2p.hpp) ----------------------------------------

uint64_t failure_epoch() {
    return Engine::get().failure_epoch();
}

uint64_t completions() {
    return Engine::get().completions();
}

void settle_failure_reports() {
    Engine::get().settle_reports();
}

void fail_pending(MPI_Comm comm, int code) {
    Engine::get().fail_pending(comm, code);
}

bool said_bye(int world) {
    return Engine::get().said_bye(world);
}

}  // namespace ftmpi::p2p
