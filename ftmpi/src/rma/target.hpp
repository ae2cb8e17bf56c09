// The target side's steps, shared by target.cpp (the handler that receives
// requests and sends replies) and its helpers: applying one operation to
// this process's window memory (apply.cpp) and the lock manager (locks.cpp).
// All of them run with the window's target_mutex held.
#pragma once

#include "protocol.hpp"
#include "window.hpp"

#include <pthread.h>

#include <vector>

namespace ftmpi::rma {

// Applies a put, get, accumulate, get_accumulate or compare-and-swap to
// the window's memory. `reply` receives the code (first reply_code_bytes
// bytes, already sized) and appends the fetched data.
void apply_operation(MPI_Win win, const Header &h, const Block *blocks, const char *data, std::vector<char> &reply);
// The same on any member's memory: `memory` is that member's window (a
// static window's; a dynamic one checks win->attached), `segment_lock` its
// segment's cross-process mutex or null.
void apply_to(MPI_Win win, const Region &memory, pthread_mutex_t *segment_lock, const Header &h, const Block *blocks,
              const char *data, std::vector<char> &reply);

// Lock requests. A granted request is answered at once through `grant`;
// one that cannot be granted yet waits in win->lock_queue and is answered
// when a release makes it grantable.
using Grant = void (*)(MPI_Win win, int origin, int reply_tag, int code, void *ctx);
void request_lock(MPI_Win win, int origin, int type, int reply_tag, Grant grant, void *ctx);
// Releases origin's lock; MPI_ERR_RMA_SYNC when it holds none.
int release_lock(MPI_Win win, int origin, Grant grant, void *ctx);
// Drops the locks and queued requests of failed members (their unlock will
// never come), so the survivors' requests are granted.
void release_failed(MPI_Win win, Grant grant, void *ctx);

}  // namespace ftmpi::rma
