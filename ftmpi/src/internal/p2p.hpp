// Owner: core (mpicore). Point-to-point as the collectives and the
// communicator part use it: the same engine as MPI_Isend/MPI_Irecv, on the
// user or the collective channel of a communicator, returning MPI error codes
// and never calling an error handler (the public binding does that).
//
// Every wait can end with a failure: when a peer is known to have failed,
// operations that need it complete with MPIX_ERR_PROC_FAILED (mpi-ext.h).
#pragma once

#include "mpi.h"

#include <functional>

namespace ftmpi::p2p {
enum class Channel { user, collective };  // collective = context + 1

int isend(const void *buf, int count, MPI_Datatype, int dest, int tag, MPI_Comm, Channel, MPI_Request *);
int irecv(void *buf, int count, MPI_Datatype, int source, int tag, MPI_Comm, Channel, MPI_Request *);
int send(const void *buf, int count, MPI_Datatype, int dest, int tag, MPI_Comm, Channel);
int recv(void *buf, int count, MPI_Datatype, int source, int tag, MPI_Comm, Channel, MPI_Status *);
// MPI_Waitall without error-handler calls; statuses may be MPI_STATUSES_IGNORE.
// Returns MPI_SUCCESS or MPI_ERR_IN_STATUS (per-request codes in statuses,
// or the first failing request's code when statuses are ignored).
int wait_all(int n, MPI_Request *, MPI_Status *);
// MPI_Testall without error-handler calls (same status conventions as
// wait_all); never blocks. *flag is true when all completed (then freed).
int test_all(int n, MPI_Request *, int *flag, MPI_Status *);

// A request completed by a user of the progress engine (non-blocking
// collectives): `advance` is called from Wait/Test and from the progress
// thread until it returns true; it must not block. It is called by one
// thread at a time, without p2p's internal lock held (so it may call isend,
// irecv and test_all). It fills the status
// (MPI_ERROR in particular) when it returns true. Free it with
// MPI_Wait/Test/Request_free like any request.
MPI_Request make_generalized(std::function<bool(MPI_Status *)> advance);

// Failure knowledge (world ranks). notify_failed() is how a failure learned
// elsewhere (a daemon's event, issue 6) enters p2p: the peer's connection is
// dropped and every operation that needs it completes with
// MPIX_ERR_PROC_FAILED, exactly as when the connection breaks by itself.
void notify_failed(int world_rank);
bool is_failed(int world_rank);
}
