// The flush and purge of an FT-MPI recovery: every message sent before the
// recovery point is delivered or dropped before the new communicator is used
// (FT_CONTRACTS.md "Recovery" step 2).
//
// flush: every survivor sends a `flush` marker for the context to every other
// survivor and waits for theirs. A connection is FIFO, so once a peer's
// marker arrived, everything it sent before is here too: after the flush no
// message between survivors is still in flight. Markers are counted per
// (peer, context): one that arrives before this process calls flush counts.
//
// purge: then drops what must not be matched after the recovery — messages
// from failed processes and the strays of interrupted collectives (context+1).
// A stray's sender is a survivor that may still wait for it (a rendezvous
// waiting for cts, a synchronous send waiting for its ack): it is answered so
// that its send completes, and the data is discarded.
#include "p2p/engine.hpp"

#include "mpi-ext.h"

namespace ftmpi::p2p {

using transport::Frame;

void Engine::on_flush_frame(int peer, uint32_t context) {
    ++flush_arrived_[{peer, context}];
    turn_.wake_followers();
}

int Engine::flush(const std::vector<int> &worlds, uint32_t context) {
    Lock lk(mu_);
    if (!running_ || !networked_) return MPI_SUCCESS;
    apply_injected();
    Frame f{};
    f.kind = transport::FrameKind::flush;
    f.context = context;
    std::vector<int> peers;
    for (int w : worlds) {
        if (w < 0 || w >= size_ || w == rank_ || failures_.failed(w)) continue;
        if (net_->connected(w)) send_control(w, f);
        peers.push_back(w);
    }
    // A marker that arrived, or the peer's failure (a suspect is waited for
    // until the VM decides), or its bye (it finalized: it sent everything).
    auto settled = [&](int p) {
        return failures_.failed(p) || net_->bye_received(p) ||
            flush_arrived_[{p, context}] > flush_waited_[{p, context}];
    };
    wait_locked(lk, [&] {
        for (int p : peers)
            if (!settled(p)) return false;
        return true;
    });
    for (int p : peers)
        if (flush_arrived_[{p, context}] > flush_waited_[{p, context}]) ++flush_waited_[{p, context}];
    return MPI_SUCCESS;
}

void Engine::purge(uint32_t context) {
    Lock lk(mu_);
    if (!running_) return;
    apply_injected();
    for (auto it = match_.unexpected.begin(); it != match_.unexpected.end();) {
        Unexpected &u = *it;
        const bool from_failed = u.source != rank_ && failures_.failed(u.source);
        const bool stray = u.context == context + 1;
        // Still arriving or already claimed by a posted receive: not a stray.
        if (!(from_failed || stray) || !u.complete || u.claimed) {
            ++it;
            continue;
        }
        if (!from_failed) {
            if (u.local_sender) {
                finish(u.local_sender, MPI_SUCCESS);
            } else if (u.rendezvous) {
                Frame cts{};
                cts.kind = transport::FrameKind::cts;
                cts.sender_id = u.sender_id;
                cts.receiver_id = 0;  // names no receive: the data is read and dropped
                send_control(u.source, cts);
            } else if (u.sync) {
                Frame ack{};
                ack.kind = transport::FrameKind::sync_ack;
                ack.sender_id = u.sender_id;
                send_control(u.source, ack);
            }
        }
        it = match_.unexpected.erase(it);
    }
}

// ---- ftmpi::p2p (internal/p2p.hpp) ----------------------------------------

int flush(const std::vector<int> &worlds, uint32_t context) {
    return Engine::get().flush(worlds, context);
}

void purge(uint32_t context) {
    Engine::get().purge(context);
}

}  // namespace ftmpi::p2p
