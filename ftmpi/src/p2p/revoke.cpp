// ULFM revocation (MPIX_Comm_revoke; FT_CONTRACTS.md "ULFM
// semantics"). A flood: the process that revokes, and every process that
// learns of it from a `revoke` frame, marks the context, completes the
// pending operations on it (both channels, except the fault-tolerance
// machinery's ft tags) with MPIX_ERR_REVOKED, and sends the frame to every
// live member once. So the mark reaches every live member even when the
// initiator dies half way through its sends.
//
// Known limit: a forwarded frame still in flight when the communicator is
// freed here and its id reused would mark the new one (ids are reused).
//
// The revoked contexts are kept by id (revoked_contexts_): a frame can come
// before this process made the communicator, and the comm part calls
// forget_context when a communicator is freed (its id may be reused).
#include "p2p/engine.hpp"

#include "internal/cominfo.hpp"
#include "internal/comm.hpp"
#include "mpi-ext.h"

namespace ftmpi::p2p {

using transport::Frame;

namespace {

// The operation belongs to the revoked communicator and is not part of the
// agreement/shrink/recovery protocols, which must run on a revoked comm.
bool stopped_by_revoke(const ftmpi_request_s &r, uint32_t context) {
    if (r.context == context) return true;
    return r.context == context + 1 && r.tag < ft_tag_base;
}

}  // namespace

bool Engine::revoked_at_post(const ftmpi_request_s &r) const {
    if (r.channel == Channel::collective && r.tag >= ft_tag_base) return false;
    if (r.comm->ft.revoked.load(std::memory_order_relaxed)) return true;
    return !revoked_contexts_.empty() && revoked_contexts_.count(r.comm->context) > 0;
}

void Engine::send_revoke(MPI_Comm comm) {
    Frame f{};
    f.kind = transport::FrameKind::revoke;
    f.context = comm->context;
    auto flood = [&](MPI_Group g) {
        if (!g) return;
        for (int w : g->world)
            if (w >= 0 && w < size_ && w != rank_ && !failures_.failed(w) && net_->connected(w)) send_control(w, f);
    };
    flood(comm->group);
    flood(comm->remote);
}

int Engine::revoke(MPI_Comm comm) {
    Lock lk(mu_);
    comm->ft.revoked.store(true, std::memory_order_release);
    if (!running_ || !revoked_contexts_.insert(comm->context).second) return MPI_SUCCESS;  // already flooded
    revoked_count_.store(revoked_contexts_.size(), std::memory_order_release);
    cominfo::revoked(comm);
    const uint32_t context = comm->context;
    fail_ops_if([context](const ftmpi_request_s &r) { return stopped_by_revoke(r, context); }, MPIX_ERR_REVOKED);
    if (networked_) send_revoke(comm);
    return MPI_SUCCESS;
}

void Engine::on_revoke_frame(uint32_t context) {
    if (!revoked_contexts_.insert(context).second) return;  // seen: forwarded already
    revoked_count_.store(revoked_contexts_.size(), std::memory_order_release);
    fail_ops_if([context](const ftmpi_request_s &r) { return stopped_by_revoke(r, context); }, MPIX_ERR_REVOKED);
    // Forwarded now, under the lock, so the frame leaves ahead of anything
    // this process sends later. The registry's lock nests inside the
    // engine's (the comm part never calls p2p holding it); the reference
    // find_by_context takes is dropped outside the lock (report()), since
    // dropping the last one frees the comm, which calls forget_context.
    MPI_Comm comm = comm::find_by_context(context);
    if (comm == MPI_COMM_NULL) return;  // not made here yet: is_revoked finds the context
    comm->ft.revoked.store(true, std::memory_order_release);
    cominfo::revoked(comm);
    send_revoke(comm);
    to_release_.push_back(comm);
}

void Engine::release_held(Lock &lk) {
    while (!to_release_.empty()) {
        std::vector<MPI_Comm> held;
        held.swap(to_release_);
        lk.unlock();
        for (MPI_Comm c : held) comm::release(c);
        lk.lock();
    }
}

bool Engine::revoked_locked(MPI_Comm comm) const {
    return comm->ft.revoked.load(std::memory_order_acquire) || revoked_contexts_.count(comm->context) > 0;
}

bool Engine::context_revoked(uint32_t context) {
    if (revoked_count_.load(std::memory_order_acquire) == 0) return false;
    Lock lk(mu_);
    return revoked_contexts_.count(context) > 0;
}

void Engine::forget_context(uint32_t context) {
    Lock lk(mu_);
    revoked_contexts_.erase(context);
    revoked_count_.store(revoked_contexts_.size(), std::memory_order_release);
    std::erase_if(flush_arrived_, [context](const auto &e) { return e.first.second == context; });
    std::erase_if(flush_waited_, [context](const auto &e) { return e.first.second == context; });
}

// ---- ftmpi::p2p (internal/p2p.hpp) ----------------------------------------

int revoke(MPI_Comm comm) {
    if (!comm::valid(comm)) return MPI_ERR_COMM;
    return Engine::get().revoke(comm);
}

bool is_revoked(MPI_Comm comm) {
    if (comm->ft.revoked.load(std::memory_order_acquire)) return true;
    if (!Engine::get().context_revoked(comm->context)) return false;
    comm->ft.revoked.store(true, std::memory_order_release);  // the frame came before the comm was made
    cominfo::changed();
    return true;
}

void forget_context(uint32_t context) {
    Engine::get().forget_context(context);
}

}  // namespace ftmpi::p2p
