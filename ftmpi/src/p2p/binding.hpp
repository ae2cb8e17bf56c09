// Owner: core (mpicore). How a p2p binding ends: exceptions never cross the
// C boundary, and a failing code goes through the communicator's error
// handler exactly once (ftmpi::comm::raise).
#pragma once

#include "internal/errors.hpp"
#include "internal/pmpi.hpp"

#include <new>

namespace ftmpi::p2p {

template <typename Body>
int guarded(MPI_Comm comm, const char *function, Body &&body) noexcept {
    int code;
    try {
        code = body();
    } catch (const std::bad_alloc &) {
        code = MPI_ERR_NO_MEM;
    } catch (...) {
        code = MPI_ERR_INTERN;
    }
    return code == MPI_SUCCESS ? MPI_SUCCESS : comm::raise(comm, code, function);
}

}  // namespace ftmpi::p2p
