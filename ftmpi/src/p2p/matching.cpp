// Matching and the eager/rendezvous protocols: what
// the engine does when an operation is posted and when a frame arrives.
#include "p2p/engine.hpp"

#include "internal/comm.hpp"
#include "internal/datatype.hpp"
#include "mpi-ext.h"
#include "runtime/log.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <unistd.h>
#include <utility>

namespace ftmpi::p2p {

using transport::Frame;
using transport::FrameKind;
using transport::Landing;

namespace {

void reset_status(MPI_Status &s) {
    s.MPI_SOURCE = MPI_ANY_SOURCE;
    s.MPI_TAG = MPI_ANY_TAG;
    s.MPI_ERROR = MPI_SUCCESS;
    s.ftmpi_count = 0;
    s.ftmpi_cancelled = 0;
}

// Sizes a receive, holds its datatype and points r->landing where arriving
// bytes go: the user's buffer when the type is contiguous, else r->packed,
// unpacked at completion.
void prepare_landing(MPI_Request r) {
    const size_t bytes = static_cast<size_t>(r->count) * dt::size(r->type);
    dt::retain(r->type);
    r->bytes = bytes;
    if (bytes == 0) {
        r->landing = nullptr;
    } else if (dt::contiguous(r->type)) {
        r->landing = static_cast<char *>(r->buf) + dt::true_lb(r->type);
    } else {
        r->packed.resize(bytes);
        r->landing = r->packed.data();
    }
}

}  // namespace

void Engine::send_control(int peer, Frame f) {
    f.source = rank_;
    net_->send(peer, f, nullptr, 0, true, 0);  // a lost peer is reported by the next poll
}

void Engine::finish(MPI_Request r, int error) {
    if (r->complete) return;
    r->status.MPI_ERROR = error;
    r->complete = true;
    completions_.fetch_add(1, std::memory_order_release);
    match_.forget_id(r);
    if (r->comm_held) {
        r->comm_held = false;
        to_release_.push_back(r->comm);  // released without the lock: a last release takes it
    }
    if (r->bsend_reserved) {
        r->bsend_buffer->used -= r->bsend_reserved;
        r->bsend_reserved = 0;
        r->bsend_buffer.reset();
    }
    if (r->kind != RequestKind::generalized && r->type != MPI_DATATYPE_NULL) dt::release(r->type);
    if (r->user_freed) delete r;
    turn_.wake_followers();
    if (turn_.other_thread_blocked()) net_->wake();
}

void Engine::deliver(MPI_Request r, const char *data, size_t len) {
    size_t n = std::min(len, r->bytes);
    if (n > 0) std::memcpy(r->landing, data, n);
}

void Engine::finish_recv(MPI_Request r, size_t received, int error) {
    size_t kept = std::min(received, r->bytes);
    if (kept > 0 && r->landing == r->packed.data()) dt::unpack(r->packed.data(), kept, 0, r->buf, r->count, r->type);
    r->status.ftmpi_count = kept;
    finish(r, error == MPI_SUCCESS && received > r->bytes ? MPI_ERR_TRUNCATE : error);
}

bool Engine::any_member_failed(MPI_Comm comm) const {
    for (int w = 0; w < size_; ++w)
        if (failures_.failed(w) && comm::comm_rank_of_world(comm, w) != MPI_UNDEFINED) return true;
    return false;
}

int Engine::post(MPI_Request r, int refused, bool *completed) {
    Lock lk(mu_);
    struct ReportCompletion {
        MPI_Request r;
        bool *completed;
        ~ReportCompletion() {
            if (completed) *completed = r->complete;
        }
    } report_completion{r, completed};
    // A user posting keeps the progress thread parked; the engine's own posts
    // (a window's target handler answering, run by whichever thread polls)
    // must not, or the progress thread would park after every operation it
    // serves.
    if (called_by_user()) ++turn_.user_activity;
    r->active = true;
    r->complete = false;
    r->cancelled = false;
    r->streaming = false;
    r->cancel_asked = false;
    r->watch_failures = false;
    reset_status(r->status);
    r->context = r->comm->context + (r->channel == Channel::collective ? 1 : 0);
    int e = revoked_at_post(*r) ? MPIX_ERR_REVOKED : refused;
    if (e != MPI_SUCCESS) {
        // Completed at once with the error (Wait reports it); nothing was
        // retained for the request yet.
        r->status.MPI_ERROR = e;
        r->complete = true;
        return MPI_SUCCESS;
    }
    if (r->rank_arg == MPI_PROC_NULL) {
        r->status.MPI_SOURCE = MPI_PROC_NULL;
        r->complete = true;
        return MPI_SUCCESS;
    }
    if (r->comm != MPI_COMM_WORLD && r->comm != MPI_COMM_SELF) {
        comm::retain(r->comm);
        r->comm_held = true;
    }
    int posted = r->kind == RequestKind::send ? post_send(r) : post_recv(r);
    release_held(lk);  // the references of operations that completed at once
    return posted;
}

int Engine::post_send(MPI_Request r) {
    const size_t bytes = static_cast<size_t>(r->count) * dt::size(r->type);
    r->peer = comm::world_rank_of(r->comm, r->rank_arg);
    r->bytes = bytes;
    r->matched_peer = -1;
    if (r->mode == SendMode::buffered) {
        // The user's request completes now; an internal one carries a copy.
        const size_t need = bytes + MPI_BSEND_OVERHEAD;
        std::shared_ptr<BsendBuffer> room = buffer_for(r->comm);
        if (!room->has_room(need)) {
            // The caller deletes r: its reference on the communicator goes
            // (post's release_held drops it).
            if (std::exchange(r->comm_held, false)) to_release_.push_back(r->comm);
            return MPI_ERR_BUFFER;
        }
        auto *copy = new ftmpi_request_s();
        copy->kind = RequestKind::send;
        copy->comm = r->comm;
        copy->context = r->context;
        copy->tag = r->tag;
        copy->peer = r->peer;
        copy->bytes = bytes;
        copy->active = true;
        copy->user_freed = true;
        copy->packed.resize(bytes);
        if (bytes) dt::pack(r->buf, r->count, r->type, 0, copy->packed.data(), bytes);
        copy->data = copy->packed.data();
        copy->bsend_reserved = need;
        room->used += need;
        copy->bsend_buffer = std::move(room);
        r->complete = true;                                    // its type was not retained: nothing to release
        copy->comm_held = std::exchange(r->comm_held, false);  // the copy is what stays pending
        reset_status(copy->status);
        if (copy->peer == rank_) return send_local(copy);
        r = copy;
    } else {
        dt::retain(r->type);
        if (dt::contiguous(r->type) || bytes == 0) {
            r->data = static_cast<const char *>(r->buf) + (bytes ? dt::true_lb(r->type) : 0);
        } else {
            r->packed.resize(bytes);
            dt::pack(r->buf, r->count, r->type, 0, r->packed.data(), bytes);
            r->data = r->packed.data();
        }
        if (r->peer == rank_) return send_local(r);
    }
    // A world rank not known here (a spawned process that never connected
    // to this one) gets room, and is then not connected: a failure.
    if (r->peer >= size_) grow_locked(r->peer + 1);
    if (r->peer >= size_) {
        finish(r, MPIX_ERR_PROC_FAILED);
        return MPI_SUCCESS;
    }
    if (failures_.suspected(r->peer) && !failed(r->peer)) {
        stalled_.push_back(r);  // its peer's fate is not decided yet: the failure verdict completes it
        return MPI_SUCCESS;
    }
    if (failed(r->peer) || !net_->connected(r->peer)) {
        finish(r, MPIX_ERR_PROC_FAILED);
        return MPI_SUCCESS;
    }
    Frame f{};
    f.context = r->context;
    f.tag = r->tag;
    f.source = rank_;
    f.length = bytes;
    const bool sync = r->mode == SendMode::synchronous;
    transport::SendResult sent;
    if (bytes <= (settings_.eager_limit ? settings_.eager_limit : net_->eager_limit(r->peer))) {
        f.kind = FrameKind::eager;
        if (sync) {
            f.flags = transport::frame_sync;
            f.sender_id = match_.register_id(r);
        }
        // Frames already wait in a driver's queue (a receiver that does not
        // keep up): this one is sent from the caller's buffer and the send
        // completes once it is written, so a stream of eager sends is paced
        // by its receiver instead of being copied without bound. Still
        // eager: the receiver takes it in unmatched, so no send waits for a
        // receive (head-to-head sends do not deadlock). A synchronous send
        // waits for its sync_ack anyway.
        const bool paced = !sync && !net_->flushed();
        sent = net_->send(r->peer, f, r->data, bytes, !paced, paced ? match_.register_id(r) : 0);
        r->streaming = paced && sent == transport::SendResult::pending;
        if (sent == transport::SendResult::done && !sync) finish(r, MPI_SUCCESS);
    } else {
        f.kind = FrameKind::rts;
        f.sender_id = match_.register_id(r);
        sent = net_->send(r->peer, f, nullptr, 0, true, 0);
    }
    if (sent == transport::SendResult::peer_lost) finish(r, MPIX_ERR_PROC_FAILED);
    return MPI_SUCCESS;
}

int Engine::send_local(MPI_Request r) {
    if (MPI_Request m = match_.find_posted(r->context, rank_, r->tag, true)) {
        m->status.MPI_SOURCE = comm::comm_rank_of_world(m->comm, rank_);
        m->status.MPI_TAG = r->tag;
        deliver(m, r->data, r->bytes);
        finish_recv(m, r->bytes, MPI_SUCCESS);
        finish(r, MPI_SUCCESS);
        return MPI_SUCCESS;
    }
    Unexpected u;
    u.context = r->context;
    u.source = rank_;
    u.tag = r->tag;
    u.size = r->bytes;
    u.data.assign(r->data, r->data + r->bytes);
    if (r->mode == SendMode::synchronous) u.local_sender = r;
    match_.unexpected.push_back(std::move(u));
    if (r->mode != SendMode::synchronous) finish(r, MPI_SUCCESS);
    return MPI_SUCCESS;
}

int Engine::post_recv(MPI_Request r) {
    r->matched_peer = -1;
    prepare_landing(r);
    r->peer = r->rank_arg == MPI_ANY_SOURCE ? -1 : comm::world_rank_of(r->comm, r->rank_arg);
    if (auto it = match_.find_unexpected(r->context, r->peer, r->tag); it != match_.unexpected.end()) {
        if (!it->complete) {
            it->claimed = r;  // its payload is still arriving: on_frame delivers it
            r->status.MPI_SOURCE = comm::comm_rank_of_world(r->comm, it->source);
            r->status.MPI_TAG = it->tag;
            return MPI_SUCCESS;
        }
        Unexpected u = std::move(*it);
        match_.unexpected.erase(it);
        take_unexpected(r, std::move(u));
        return MPI_SUCCESS;
    }
    // Nothing arrived: a receive that only a failed process could satisfy
    // ends now instead of blocking forever.
    r->watch_failures = r->peer == -1 && r->channel == Channel::user;
    if ((r->peer >= 0 && failed(r->peer)) ||
        (r->peer == -1 && any_source_ended_by_failure(*r) && any_member_failed(r->comm))) {
        finish(r, MPIX_ERR_PROC_FAILED);
        return MPI_SUCCESS;
    }
    match_.posted.push_back(r);
    return MPI_SUCCESS;
}

void Engine::take_unexpected(MPI_Request r, Unexpected &&u) {
    r->status.MPI_SOURCE = comm::comm_rank_of_world(r->comm, u.source);
    r->status.MPI_TAG = u.tag;
    if (!u.rendezvous) {
        deliver(r, u.data.data(), u.size);
        if (u.local_sender) {
            finish(u.local_sender, MPI_SUCCESS);
        } else if (u.sync) {
            Frame ack{};
            ack.kind = FrameKind::sync_ack;
            ack.sender_id = u.sender_id;
            send_control(u.source, ack);
        }
        finish_recv(r, u.size, MPI_SUCCESS);
        return;
    }
    if (failed(u.source)) {
        finish(r, MPIX_ERR_PROC_FAILED);
        return;
    }
    r->matched_peer = u.source;
    Frame cts{};
    cts.kind = FrameKind::cts;
    cts.sender_id = u.sender_id;
    cts.receiver_id = match_.register_id(r);
    send_control(u.source, cts);
}

int Engine::receive_message(MPI_Request r, std::unique_ptr<Unexpected> message) {
    Lock lk(mu_);
    r->active = true;
    r->complete = false;
    reset_status(r->status);
    prepare_landing(r);
    take_unexpected(r, std::move(*message));
    return MPI_SUCCESS;
}

Landing Engine::on_header(int peer, const Frame &f) {
    apply_injected();
    if (failures_.failed(peer)) return {};  // declared failed just now: its frames are ignored
    if (f.kind == FrameKind::data) {
        auto it = match_.by_id.find(f.receiver_id);
        if (it == match_.by_id.end()) return {};  // its receive is gone: drop the data
        MPI_Request r = it->second;
        match_.arriving[peer] = r;
        return {r->landing, std::min<size_t>(f.length, r->bytes), nullptr};
    }
    if (MPI_Request r = match_.find_posted(f.context, peer, f.tag, true)) {
        r->status.MPI_SOURCE = comm::comm_rank_of_world(r->comm, peer);
        r->status.MPI_TAG = f.tag;
        match_.arriving[peer] = r;
        if (f.flags & transport::frame_sync) {
            Frame ack{};
            ack.kind = FrameKind::sync_ack;
            ack.sender_id = f.sender_id;
            send_control(peer, ack);
        }
        return {r->landing, std::min<size_t>(f.length, r->bytes), nullptr};
    }
    Unexpected &u = match_.unexpected.emplace_back();
    u.context = f.context;
    u.source = peer;
    u.tag = f.tag;
    u.size = f.length;
    u.sync = f.flags & transport::frame_sync;
    u.sender_id = f.sender_id;
    u.complete = false;
    u.data.resize(f.length);
    match_.arriving_unexpected[peer] = &u;
    return {u.data.data(), f.length, nullptr};
}

void Engine::on_frame(int peer, const Frame &f, const Landing &) {
    apply_injected();
    if (failures_.failed(peer)) return;  // declared failed just now: its frames are ignored
    switch (f.kind) {
    case FrameKind::eager:
    case FrameKind::data:
        if (MPI_Request r = match_.arriving[peer]) {
            match_.arriving[peer] = nullptr;
            finish_recv(r, f.length, MPI_SUCCESS);
        } else if (Unexpected *u = match_.arriving_unexpected[peer]) {
            match_.arriving_unexpected[peer] = nullptr;
            u->complete = true;
            if (MPI_Request claimant = u->claimed) {
                auto it = std::find_if(match_.unexpected.begin(), match_.unexpected.end(),
                                       [u](const Unexpected &x) { return &x == u; });
                Unexpected done = std::move(*it);
                match_.unexpected.erase(it);
                take_unexpected(claimant, std::move(done));
            }
        }
        break;
    case FrameKind::rts:
        if (MPI_Request r = match_.find_posted(f.context, peer, f.tag, true)) {
            r->status.MPI_SOURCE = comm::comm_rank_of_world(r->comm, peer);
            r->status.MPI_TAG = f.tag;
            r->matched_peer = peer;
            Frame cts{};
            cts.kind = FrameKind::cts;
            cts.sender_id = f.sender_id;
            cts.receiver_id = match_.register_id(r);
            send_control(peer, cts);
        } else {
            Unexpected u;
            u.context = f.context;
            u.source = peer;
            u.tag = f.tag;
            u.size = f.length;
            u.rendezvous = true;
            u.sender_id = f.sender_id;
            match_.unexpected.push_back(std::move(u));
        }
        break;
    case FrameKind::cts: {
        auto it = match_.by_id.find(f.sender_id);
        if (it == match_.by_id.end()) break;
        MPI_Request r = it->second;
        Frame d{};
        d.kind = FrameKind::data;
        d.context = r->context;
        d.tag = r->tag;
        d.source = rank_;
        d.length = r->bytes;
        d.receiver_id = f.receiver_id;
        auto sent = net_->send(peer, d, r->data, r->bytes, false, r->id);
        r->streaming = sent == transport::SendResult::pending;
        if (sent == transport::SendResult::done)
            finish(r, MPI_SUCCESS);
        else if (sent == transport::SendResult::peer_lost)
            finish(r, MPIX_ERR_PROC_FAILED);
        break;
    }
    case FrameKind::sync_ack: {
        auto it = match_.by_id.find(f.sender_id);
        if (it != match_.by_id.end()) finish(it->second, MPI_SUCCESS);
        break;
    }
    case FrameKind::abort:
        if (is_foreign(peer))
            log::error("a process of another job connected to this one aborted (code %d): ending this process too",
                       static_cast<int>(f.length));
        else
            log::error("the job was aborted by rank %d (code %d)", peer, static_cast<int>(f.length));
        _exit(f.length & 0xff ? static_cast<int>(f.length & 0xff) : 1);
    case FrameKind::revoke: on_revoke_frame(f.context); break;
    case FrameKind::flush: on_flush_frame(peer, f.context); break;
    case FrameKind::cancel:
    case FrameKind::cancel_reply: on_cancel_frame(peer, f); break;
    case FrameKind::bye:
    case FrameKind::hello: break;
    }
}

void Engine::on_sent(uint64_t token) {
    auto it = match_.by_id.find(token);
    if (it != match_.by_id.end()) finish(it->second, MPI_SUCCESS);
}

int Engine::cancel(MPI_Request r) {
    Lock lk(mu_);
    if (r->complete) return MPI_SUCCESS;
    if (r->kind == RequestKind::send) {
        cancel_send(r);
        return MPI_SUCCESS;
    }
    if (r->kind != RequestKind::recv) return MPI_SUCCESS;
    auto it = std::find(match_.posted.begin(), match_.posted.end(), r);
    if (it == match_.posted.end()) return MPI_SUCCESS;  // already matched: it completes normally
    match_.posted.erase(it);
    finish_cancelled(r);
    return MPI_SUCCESS;
}

void Engine::finish_cancelled(MPI_Request r) {
    r->status.ftmpi_cancelled = 1;
    r->cancelled = true;
    finish(r, MPI_SUCCESS);
}

// A send that is not complete waits for its receiver: for a CTS (a large
// message) or a sync_ack (MPI_Ssend). It is cancelled if its message is still
// unmatched there: the receiver takes it back and says so (cancel_reply),
// else the send goes on and completes as usual. Either way MPI_Wait returns.
void Engine::cancel_send(MPI_Request r) {
    if (r->cancel_asked || r->streaming) return;  // asked already, or its data is being written
    if (auto it = std::find(stalled_.begin(), stalled_.end(), r); it != stalled_.end()) {
        stalled_.erase(it);  // nothing was sent yet
        finish_cancelled(r);
        return;
    }
    if (r->peer == rank_) {  // a synchronous send to self, still in this process's unexpected queue
        auto it = std::find_if(match_.unexpected.begin(), match_.unexpected.end(),
                               [r](const Unexpected &u) { return u.local_sender == r && !u.claimed; });
        if (it == match_.unexpected.end()) return;
        match_.unexpected.erase(it);
        finish_cancelled(r);
        return;
    }
    if (!r->id) return;  // it waits for no reply: it completes by itself
    r->cancel_asked = true;
    Frame f{};
    f.kind = FrameKind::cancel;
    f.context = r->context;
    f.tag = r->tag;
    f.sender_id = r->id;
    send_control(r->peer, f);
}

void Engine::on_cancel_frame(int peer, const Frame &f) {
    if (f.kind == FrameKind::cancel_reply) {
        auto it = match_.by_id.find(f.sender_id);
        if (it != match_.by_id.end() && (f.flags & transport::frame_cancelled)) finish_cancelled(it->second);
        return;
    }
    Frame reply{};
    reply.kind = FrameKind::cancel_reply;
    reply.sender_id = f.sender_id;
    auto it = std::find_if(match_.unexpected.begin(), match_.unexpected.end(), [&](const Unexpected &u) {
        return u.source == peer && u.sender_id == f.sender_id && u.complete && !u.claimed;
    });
    if (it != match_.unexpected.end()) {
        match_.unexpected.erase(it);
        reply.flags = transport::frame_cancelled;
    }
    send_control(peer, reply);
}

void Engine::release(MPI_Request r) {
    Lock lk(mu_);
    if (r->complete || !r->active) {
        std::function<int()> on_release = std::move(r->on_release);
        delete r;
        lk.unlock();
        if (on_release) on_release();
    } else {
        r->user_freed = true;
    }
}

int Engine::probe(int source_world, int tag, MPI_Comm comm, uint32_t context, bool block, bool take, int *flag,
                  MPI_Status *status, std::unique_ptr<Unexpected> *out, uint64_t any_source_epoch) {
    Lock lk(mu_);
    std::list<Unexpected>::iterator found;
    int error = MPI_SUCCESS;
    auto look = [&] {
        found = match_.find_unexpected(context, source_world, tag, /*whole=*/true);
        if (found != match_.unexpected.end()) return true;
        if (source_world >= 0 && failed(source_world)) {
            error = MPIX_ERR_PROC_FAILED;
            return true;
        }
        if (comm->ft.revoked.load(std::memory_order_relaxed) || revoked_contexts_.count(comm->context)) {
            error = MPIX_ERR_REVOKED;
            return true;
        }
        // ANY_SOURCE: the caller asks ftstate whether a failure stops it.
        if (source_world == -1 && reported_epoch() != any_source_epoch) {
            error = probe_again;
            return true;
        }
        return false;
    };
    if (block) {
        wait_locked(lk, look);
    } else if (!look() && networked_ && !turn_.polling) {
        if (called_by_user()) ++turn_.user_activity;
        poll_step(lk, false);
        look();
    }
    if (error) return error;
    *flag = found != match_.unexpected.end();
    if (!*flag) return MPI_SUCCESS;
    if (status) {
        status->MPI_SOURCE = comm::comm_rank_of_world(comm, found->source);
        status->MPI_TAG = found->tag;
        status->MPI_ERROR = MPI_SUCCESS;
        status->ftmpi_count = found->size;
        status->ftmpi_cancelled = 0;
    }
    if (take) {
        *out = std::make_unique<Unexpected>(std::move(*found));
        match_.unexpected.erase(found);
    }
    return MPI_SUCCESS;
}

void Engine::complete_now(MPI_Request r, const MPI_Status &status) {
    Lock lk(mu_);
    if (r->complete) return;
    r->status = status;
    finish(r, status.MPI_ERROR);
}

MPI_Request Engine::make_generalized(std::function<bool(MPI_Status *)> advance, bool event_driven) {
    auto *r = new ftmpi_request_s();
    r->kind = RequestKind::generalized;
    r->advance = std::move(advance);
    r->event_driven = event_driven;
    r->active = true;
    reset_status(r->status);
    Lock lk(mu_);
    generalized_.push_back(r);
    if (turn_.blocked) net_->wake();  // its poll should not sleep unboundedly now
    return r;
}

}  // namespace ftmpi::p2p
