// The target's lock manager for passive-target epochs: one exclusive
// holder or any number of shared holders, and a FIFO of requests that wait
// (a waiting exclusive request keeps later shared ones waiting too, so an
// exclusive locker is not starved). Locks of failed members are dropped.
#include "target.hpp"

#include "../internal/p2p.hpp"

#include <algorithm>

namespace ftmpi::rma {
namespace {

bool grantable(MPI_Win win, int type) {
    if (win->exclusive_holder >= 0) return false;
    return type == MPI_LOCK_SHARED || win->shared_holders.empty();
}

void take(MPI_Win win, int origin, int type) {
    if (type == MPI_LOCK_EXCLUSIVE)
        win->exclusive_holder = origin;
    else
        ++win->shared_holders[origin];
}

void grant_waiting(MPI_Win win, Grant grant, void *ctx) {
    while (!win->lock_queue.empty() && grantable(win, win->lock_queue.front().type)) {
        const LockWaiter w = win->lock_queue.front();
        win->lock_queue.pop_front();
        take(win, w.origin, w.type);
        grant(win, w.origin, w.reply_tag, MPI_SUCCESS, ctx);
    }
}

}  // namespace

void request_lock(MPI_Win win, int origin, int type, int reply_tag, Grant grant, void *ctx) {
    // A request a failed member sent before it died: granting it would keep
    // the lock forever (release_failed already ran for that failure).
    if (p2p::is_failed(win->worlds[static_cast<size_t>(origin)])) return;
    if (win->lock_queue.empty() && grantable(win, type)) {
        take(win, origin, type);
        grant(win, origin, reply_tag, MPI_SUCCESS, ctx);
        return;
    }
    win->lock_queue.push_back(LockWaiter{origin, type, reply_tag});
}

int release_lock(MPI_Win win, int origin, Grant grant, void *ctx) {
    if (win->exclusive_holder == origin) {
        win->exclusive_holder = -1;
    } else {
        auto it = win->shared_holders.find(origin);
        if (it == win->shared_holders.end()) return MPI_ERR_RMA_SYNC;
        if (--it->second == 0) win->shared_holders.erase(it);
    }
    grant_waiting(win, grant, ctx);
    return MPI_SUCCESS;
}

void release_failed(MPI_Win win, Grant grant, void *ctx) {
    const auto failed = [&](int rank) { return p2p::is_failed(win->worlds[static_cast<size_t>(rank)]); };
    if (win->exclusive_holder >= 0 && failed(win->exclusive_holder)) win->exclusive_holder = -1;
    std::erase_if(win->shared_holders, [&](const auto &entry) { return failed(entry.first); });
    std::erase_if(win->lock_queue, [&](const LockWaiter &w) { return failed(w.origin); });
    grant_waiting(win, grant, ctx);
}

}  // namespace ftmpi::rma
