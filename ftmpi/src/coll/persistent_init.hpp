// The common part of every persistent collective's MPI_*_init
// (api_coll_init.cpp, and the large-count `_init_c` forms): checks the
// handles, then makes the persistent request whose MPI_Start runs `start`
// under the collective tag drawn at init.
#pragma once

#include "internal/comm.hpp"
#include "internal/errors.hpp"
#include "internal/p2p.hpp"
#include "tags.hpp"

namespace ftmpi::coll {

template <class Start>
int make_init(const char *function, MPI_Comm comm, MPI_Info info, MPI_Request *request, Start start) noexcept {
    using ftmpi::comm::raise;
    if (!ftmpi::comm::valid(comm)) return raise(comm, MPI_ERR_COMM, function);
    if (request == nullptr) return raise(comm, MPI_ERR_ARG, function);
    if (info != MPI_INFO_NULL && !ftmpi::comm::valid(info)) return raise(comm, MPI_ERR_INFO, function);
    try {
        // The tag is drawn now: persistent collectives match in the order
        // of their init calls, and ranks may start them in another order.
        const int tag = next_persistent_tag(comm);
        *request = ftmpi::p2p::make_persistent_collective([tag, start](MPI_Request *r) {
            PinnedTag pin(tag);
            return start(r);
        });
    } catch (...) {
        return raise(comm, MPI_ERR_NO_MEM, function);
    }
    return MPI_SUCCESS;
}

}  // namespace ftmpi::coll
