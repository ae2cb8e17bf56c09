// Active-target fence and passive-target synchronisation: MPI_Win_fence,
// lock/unlock, lock_all/unlock_all, the flush family and MPI_Win_sync.
// Every wait here is on messages of the window's private communicator, so a
// failed member or a revoke ends it with an error instead of blocking.
#include "origin.hpp"
#include "window.hpp"

#include "../internal/p2p.hpp"
#include "../internal/pmpi.hpp"

#include <atomic>

namespace ftmpi::rma {
namespace {

Epoch current_epoch(MPI_Win win) {
    std::lock_guard lk(win->origin_mutex);
    return win->epoch;
}

void set_epoch(MPI_Win win, Epoch e) {
    std::lock_guard lk(win->origin_mutex);
    win->epoch = e;
}

int check_rank(MPI_Win win, int rank) {
    return rank >= 0 && rank < win->size ? MPI_SUCCESS : MPI_ERR_RANK;
}

// A BLANK gap (a window made or rebuilt over a communicator recovered in
// BLANK mode): no process there, so nothing to lock for lock_all.
bool gap(MPI_Win win, int rank) {
    return win->worlds[static_cast<size_t>(rank)] < 0;
}

bool passive(Epoch e) {
    return e == Epoch::lock || e == Epoch::lock_all;
}

int fence(MPI_Win win, int assertion) {
    if (int e = check_assertion(assertion, MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED))
        return e;
    const Epoch e = current_epoch(win);
    if (e != Epoch::none && e != Epoch::fence) return MPI_ERR_RMA_SYNC;
    // Every operation this member started has been applied at its target
    // once it is complete here; the barrier then makes that true of every
    // member's operations, including those that target this one. The
    // barrier stays with MPI_MODE_NOPRECEDE too: it is also what keeps the
    // next epoch's operations from reaching a member before its fence.
    int code = complete_operations(win, -1);
    if (int b = PMPI_Barrier(win->comm); code == MPI_SUCCESS) code = b;
    set_epoch(win, (assertion & MPI_MODE_NOSUCCEED) != 0 ? Epoch::none : Epoch::fence);
    return code;
}

// MPI_PROC_NULL is a valid target of lock, unlock and flush: nothing to do.
int lock(MPI_Win win, int type, int rank) {
    if (type != MPI_LOCK_SHARED && type != MPI_LOCK_EXCLUSIVE) return MPI_ERR_LOCKTYPE;
    if (rank == MPI_PROC_NULL) return MPI_SUCCESS;
    if (int e = check_rank(win, rank)) return e;
    {
        std::lock_guard lk(win->origin_mutex);
        if (win->epoch != Epoch::none && win->epoch != Epoch::lock && win->epoch != Epoch::fence)
            return MPI_ERR_RMA_SYNC;
        if (win->locked.count(rank) != 0) return MPI_ERR_RMA_SYNC;  // already locked by this process
    }
    if (int e = lock_request(win, Kind::lock, rank, type)) return e;
    std::lock_guard lk(win->origin_mutex);
    win->locked[rank] = type;
    win->epoch = Epoch::lock;
    return MPI_SUCCESS;
}

int unlock(MPI_Win win, int rank) {
    if (rank == MPI_PROC_NULL) return MPI_SUCCESS;
    if (int e = check_rank(win, rank)) return e;
    {
        std::lock_guard lk(win->origin_mutex);
        if (win->epoch != Epoch::lock || win->locked.count(rank) == 0) return MPI_ERR_RMA_SYNC;
    }
    int code = complete_operations(win, rank);
    // The unlock is sent even after an error, so the target does not keep
    // the lock of a live origin whose operation failed there.
    const int u = lock_request(win, Kind::unlock, rank, 0);
    if (code == MPI_SUCCESS) code = u;
    std::lock_guard lk(win->origin_mutex);
    win->locked.erase(rank);
    if (win->locked.empty()) win->epoch = Epoch::none;
    return code;
}

int lock_all(MPI_Win win) {
    {
        std::lock_guard lk(win->origin_mutex);
        if (win->epoch != Epoch::none && win->epoch != Epoch::fence) return MPI_ERR_RMA_SYNC;
    }
    for (int r = 0; r < win->size; ++r) {
        if (gap(win, r)) continue;
        if (int e = lock_request(win, Kind::lock, r, MPI_LOCK_SHARED)) {
            for (int k = 0; k < r; ++k)
                if (!gap(win, k)) lock_request(win, Kind::unlock, k, 0);  // give back what we got
            return e;
        }
    }
    set_epoch(win, Epoch::lock_all);
    return MPI_SUCCESS;
}

int unlock_all(MPI_Win win) {
    if (current_epoch(win) != Epoch::lock_all) return MPI_ERR_RMA_SYNC;
    int code = complete_operations(win, -1);
    for (int r = 0; r < win->size; ++r)
        if (gap(win, r))
            continue;
        else if (int u = lock_request(win, Kind::unlock, r, 0); code == MPI_SUCCESS)
            code = u;
    set_epoch(win, Epoch::none);
    return code;
}

// True when a target the flush is about (rank, or every target of the
// epoch for rank -1) has failed: the flush reports it even when no
// operation to it was pending.
bool flushed_target_failed(MPI_Win win, int rank) {
    if (rank >= 0) return p2p::is_failed(win->worlds[static_cast<size_t>(rank)]);
    std::vector<int> targets;
    {
        std::lock_guard lk(win->origin_mutex);
        if (rank >= 0)
            targets.push_back(rank);
        else if (win->epoch == Epoch::lock)
            for (const auto &entry : win->locked) targets.push_back(entry.first);
        else
            for (int r = 0; r < win->size; ++r) targets.push_back(r);
    }
    for (int t : targets)
        if (p2p::is_failed(win->worlds[static_cast<size_t>(t)])) return true;
    return false;
}

int flush(MPI_Win win, int rank) {
    if (rank == MPI_PROC_NULL) return MPI_SUCCESS;
    if (rank != -1)
        if (int e = check_rank(win, rank)) return e;
    if (!passive(current_epoch(win))) return MPI_ERR_RMA_SYNC;
    const int code = complete_operations(win, rank);
    if (code == MPI_SUCCESS && flushed_target_failed(win, rank)) return MPIX_ERR_PROC_FAILED;
    return code;
}

// A binding on a live window: the revoke check first, then the body.
template <typename Body>
int sync_call(MPI_Win win, const char *fn, Body &&body) noexcept {
    if (int e = check_window(win)) return raise(win, e, fn);
    return guarded(win, fn, body);
}

}  // namespace
}  // namespace ftmpi::rma

using namespace ftmpi;

extern "C" int MPI_Win_fence(int assert, MPI_Win win) noexcept {
    return rma::sync_call(win, "MPI_Win_fence", [&] { return rma::fence(win, assert); });
}
FTMPI_PMPI(Win_fence)

extern "C" int MPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win) noexcept {
    // MPI_MODE_NOCHECK: the lock is still taken, which is always correct.
    return rma::sync_call(win, "MPI_Win_lock", [&] {
        if (int e = rma::check_assertion(assert, MPI_MODE_NOCHECK)) return e;
        return rma::lock(win, lock_type, rank);
    });
}
FTMPI_PMPI(Win_lock)

extern "C" int MPI_Win_unlock(int rank, MPI_Win win) noexcept {
    return rma::sync_call(win, "MPI_Win_unlock", [&] { return rma::unlock(win, rank); });
}
FTMPI_PMPI(Win_unlock)

extern "C" int MPI_Win_lock_all(int assert, MPI_Win win) noexcept {
    return rma::sync_call(win, "MPI_Win_lock_all", [&] {
        if (int e = rma::check_assertion(assert, MPI_MODE_NOCHECK)) return e;
        return rma::lock_all(win);
    });
}
FTMPI_PMPI(Win_lock_all)

extern "C" int MPI_Win_unlock_all(MPI_Win win) noexcept {
    return rma::sync_call(win, "MPI_Win_unlock_all", [&] { return rma::unlock_all(win); });
}
FTMPI_PMPI(Win_unlock_all)

// Completion here is always at the target (every operation is answered by
// its target), so the local forms are the same as the remote ones.
extern "C" int MPI_Win_flush(int rank, MPI_Win win) noexcept {
    if (rank == -1) return rma::raise(win, MPI_ERR_RANK, "MPI_Win_flush");
    return rma::sync_call(win, "MPI_Win_flush", [&] { return rma::flush(win, rank); });
}
FTMPI_PMPI(Win_flush)

extern "C" int MPI_Win_flush_all(MPI_Win win) noexcept {
    return rma::sync_call(win, "MPI_Win_flush_all", [&] { return rma::flush(win, -1); });
}
FTMPI_PMPI(Win_flush_all)

extern "C" int MPI_Win_flush_local(int rank, MPI_Win win) noexcept {
    if (rank == -1) return rma::raise(win, MPI_ERR_RANK, "MPI_Win_flush_local");
    return rma::sync_call(win, "MPI_Win_flush_local", [&] { return rma::flush(win, rank); });
}
FTMPI_PMPI(Win_flush_local)

extern "C" int MPI_Win_flush_local_all(MPI_Win win) noexcept {
    return rma::sync_call(win, "MPI_Win_flush_local_all", [&] { return rma::flush(win, -1); });
}
FTMPI_PMPI(Win_flush_local_all)

// The unified model: public and private copies are the same memory, so a
// memory barrier is all there is to synchronise.
extern "C" int MPI_Win_sync(MPI_Win win) noexcept {
    if (int e = rma::check_window(win)) return rma::raise(win, e, "MPI_Win_sync");
    std::atomic_thread_fence(std::memory_order_seq_cst);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Win_sync)
