// How a p2p binding ends: exceptions never cross the
// C boundary, and a failing code goes through the communicator's error
// handler exactly once (ftmpi::comm::raise).
#pragma once

#include "internal/errors.hpp"
#include "internal/pmpi.hpp"

namespace ftmpi::p2p {

using comm::guarded;  // internal/errors.hpp

// Calls that complete one operation leave status.MPI_ERROR as the caller
// set it (the code is the return value; MPI-3.1 §3.2.5), as Open MPI and
// MPICH do: programs set it before the call and test it after. Only the
// array forms (Waitall, Waitsome, ...) write it.
class KeepStatusError {
public:
    explicit KeepStatusError(MPI_Status *status) : status_(status), saved_(status ? status->MPI_ERROR : 0) {}
    ~KeepStatusError() {
        if (status_) status_->MPI_ERROR = saved_;
    }
    KeepStatusError(const KeepStatusError &) = delete;
    KeepStatusError &operator=(const KeepStatusError &) = delete;

private:
    MPI_Status *status_;
    int saved_;
};

}  // namespace ftmpi::p2p
