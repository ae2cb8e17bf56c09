// The origin side of a window: starting operations (each one request
// message and the receive of its reply) and completing them. Shared by the
// communication bindings (data_api.cpp) and the synchronisation calls
// (sync_api.cpp, locks_api.cpp, pscw.cpp).
#pragma once

#include "protocol.hpp"
#include "window.hpp"

#include <memory>

namespace ftmpi::rma {

// One communication call as the bindings see it.
struct Operation {
    Kind kind = Kind::put;
    const void *origin = nullptr;  // put, accumulates, CAS: the data sent
    int origin_count = 0;
    MPI_Datatype origin_type = MPI_DATATYPE_NULL;
    const void *compare = nullptr;  // CAS
    void *result = nullptr;         // get, get_accumulate, fetch_and_op, CAS: where the fetched data goes
    int result_count = 0;
    MPI_Datatype result_type = MPI_DATATYPE_NULL;
    int target = 0;
    MPI_Aint disp = 0;
    int target_count = 0;
    MPI_Datatype target_type = MPI_DATATYPE_NULL;
    MPI_Op op = MPI_OP_NULL;
};

// Checks the call (MPI_ERR_RANK, _COUNT, _TYPE, _OP, _RMA_SYNC outside an
// epoch that covers the target, _RMA_RANGE outside the target's window)
// and starts it. `request` (R* calls) receives a request that completes
// with the operation; otherwise the next synchronisation completes it.
int start_operation(MPI_Win win, const Operation &op, MPI_Request *request);

// Sends a lock or unlock request to `target` and waits for the answer.
int lock_request(MPI_Win win, Kind kind, int target, int lock_type);

// Waits until every operation to `target` (-1: to every target) started
// before the call has completed at its target; returns the worst code of
// those that were not started with a request (a failure of the target:
// MPIX_ERR_PROC_FAILED; a revoke: MPIX_ERR_REVOKED).
int complete_operations(MPI_Win win, int target);

// True when `target` may be accessed in the window's current epoch.
bool in_access_epoch(MPI_Win win, int target);

}  // namespace ftmpi::rma
