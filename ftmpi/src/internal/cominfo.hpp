// COMINFO, the rank side: what this process tells the VM about its
// communicators and the failures it sees, so that the `cominfo` tool can show
// a running job (docs/cominfo.md has the record's format).
//
// The other parts call these at the moments something changed — a
// communicator made, freed, named or revoked, a failure declared, a recovery
// started or ended — never per message. Each call only notes the change
// (an atomic flag, or a short lock around an append to a bounded log) and
// returns: a reporter thread publishes the newest snapshot to the DRD on its
// own connection, coalescing changes that come faster than it publishes, and
// drops them while the VM does not answer. Nothing here waits on the VM
// except stop(), for a bounded moment.
#pragma once

#include "mpi.h"

#include <string>

namespace ftmpi::cominfo {

// MPI_Init, once the world communicator and the fault-tolerance state exist:
// starts the reporter when the job runs under a VM (FTMPI_JOB and
// HARNESS_HCORE set) and FTMPI_COMINFO is on.
void start();
// MPI_Finalize, before the communicators go: publishes the final snapshot
// (this rank finalized) within a short deadline, then stops the thread.
void stop();

// A communicator was made, freed or revoked, or its state changed.
void changed();
// MPI_Comm_set_name: names are kept here, so the reporter never reads a
// string the program may be writing.
void named(MPI_Comm comm, const std::string &name);
// The communicator is being freed (the comm part's release).
void freed(MPI_Comm comm);
// comm was revoked (here or by a peer's revoke frame).
void revoked(MPI_Comm comm);
// A failure was declared here (ft::on_failure).
void failure_detected(int world, int incarnation, const std::string &why);
// A recovery of comm starts / ends. `how` is the mode that recovers it
// ("shrink", "blank", "rebuild", "rebuild-append", or "ulfm-shrink" for
// MPIX_Comm_shrink); `result` is the communicator the recovery gave
// (comm itself for the FT-MPI modes, the new one for a ULFM shrink, or
// MPI_COMM_NULL), `err` its MPI error code.
void recovery_started(MPI_Comm comm, const char *how);
void recovery_ended(MPI_Comm comm, const char *how, MPI_Comm result, int err);

}  // namespace ftmpi::cominfo
