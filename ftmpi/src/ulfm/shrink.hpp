// MPIX_Comm_shrink's work, shared by the blocking and the
// non-blocking binding.
#pragma once

#include "mpi.h"

namespace ftmpi::ulfm {

// A new communicator of comm's survivors in rank order (possibly revoked;
// an intercommunicator gives an intercommunicator of both groups'
// survivors). Returns MPI_SUCCESS despite failures before or during the
// call; every survivor gets a communicator with the same members and
// context id.
int shrink(MPI_Comm comm, MPI_Comm *newcomm);

}  // namespace ftmpi::ulfm
