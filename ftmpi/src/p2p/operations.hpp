// The non-blocking core of every p2p call: build a
// request, post it to the engine, and retire completed requests the way
// MPI_Wait/Test do. The public bindings and ftmpi::p2p:: both use these.
#pragma once

#include "p2p/request.hpp"

namespace ftmpi::p2p {

// Validates and starts a send/receive; on error returns it and *request is
// untouched. *completed (if given): the operation completed while it was
// started (Engine::post), so a blocking call may retire it without waiting.
int start_send(const void *buf, MPI_Count count, MPI_Datatype, int dest, int tag, MPI_Comm, Channel, SendMode,
               MPI_Request *request, bool *completed = nullptr);
int start_recv(void *buf, MPI_Count count, MPI_Datatype, int source, int tag, MPI_Comm, Channel, MPI_Request *request,
               bool *completed = nullptr);
// A persistent request: validated and built, not started.
int make_persistent_send(const void *buf, MPI_Count count, MPI_Datatype, int dest, int tag, MPI_Comm, SendMode,
                         MPI_Request *request);
int make_persistent_recv(void *buf, MPI_Count count, MPI_Datatype, int source, int tag, MPI_Comm, MPI_Request *request);
int start_persistent(MPI_Request);
// MPI_Start of a persistent collective (persistent_collective.cpp).
int start_persistent_collective(MPI_Request);

// True for MPI_REQUEST_NULL and inactive persistent requests (they wait as done).
bool inert(MPI_Request);
// The status MPI gives for a null or inactive request.
void empty_status(MPI_Status *);
// Copies the status out and frees (or deactivates, if persistent) a
// completed request; returns its error code.
int retire(MPI_Request *, MPI_Status *);

int wait_one(MPI_Request *, MPI_Status *);
// The wait of a blocking call (MPI_Recv, MPI_Sendrecv): a user-channel
// MPI_ANY_SOURCE receive stopped by an unacknowledged failure ends with
// MPIX_ERR_PROC_FAILED instead of MPIX_ERR_PROC_FAILED_PENDING.
int wait_one(MPI_Request *, MPI_Status *, bool blocking);
int wait_all(int n, MPI_Request *, MPI_Status *, bool blocking);
int test_one(MPI_Request *, int *flag, MPI_Status *);
int wait_any(int n, MPI_Request *, int *index, MPI_Status *);
int test_any(int n, MPI_Request *, int *index, int *flag, MPI_Status *);
int wait_some(int n, MPI_Request *, int *outcount, int *indices, MPI_Status *);
int test_some(int n, MPI_Request *, int *outcount, int *indices, MPI_Status *);

// MPI_Cancel of a generalized request (MPI_Grequest_start): calls its
// cancel_fn and gives its code; false when `request` is not one.
bool cancel_grequest(MPI_Request request, int *code);

// The communicator an error on this request is raised on.
MPI_Comm error_comm(MPI_Request);

}  // namespace ftmpi::p2p
