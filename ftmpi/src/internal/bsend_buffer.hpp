// A buffer for buffered sends (MPI_Bsend and friends), as MPI-4.1 has them:
// one for the process (MPI_Buffer_attach), one a communicator may have
// (MPI_Comm_attach_buffer) and one a session may have
// (MPI_Session_attach_buffer). A buffered send takes room in its
// communicator's buffer if one is attached, else in its session's, else in
// the process's (p2p::Engine::post_send).
//
// The room is bookkeeping only: each message's copy lives in the engine's
// internal send request, which holds a reference to the buffer it counts
// against until the message has left. All fields are guarded by the p2p
// engine's lock.
#pragma once

#include "mpi.h"

#include <climits>
#include <cstddef>

namespace ftmpi::p2p {

struct BsendBuffer {
    void *base = nullptr;  // the user's memory, or MPI_BUFFER_AUTOMATIC (the library takes what it needs)
    size_t capacity = 0;   // bytes; unused when automatic
    size_t used = 0;       // packed size + MPI_BSEND_OVERHEAD of each message not yet sent
    bool attached = false;

    bool automatic() const { return base == MPI_BUFFER_AUTOMATIC; }
    bool has_room(size_t need) const { return attached && (automatic() || used + need <= capacity); }
};

// The arguments of an attach call (process, communicator or session) that
// are wrong: a negative size, or a size without memory. MPI_BUFFER_AUTOMATIC
// takes no size.
inline bool bad_attach(const void *buffer, int size) {
    if (buffer == MPI_BUFFER_AUTOMATIC) return false;
    return size < 0 || (size > 0 && buffer == nullptr);
}

// A detached buffer's size for the int forms of the detach calls.
inline int detached_size(size_t size) {
    return size > static_cast<size_t>(INT_MAX) ? INT_MAX : static_cast<int>(size);
}

}  // namespace ftmpi::p2p
