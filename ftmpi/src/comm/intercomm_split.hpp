// The intercommunicator forms of MPI_Comm_split and MPI_Comm_create.
#pragma once

#include "../internal/comm.hpp"

namespace ftmpi::comm {

// Collective over both groups of `ic`; MPI_COMM_NULL where a colour has no
// member on one side. MPI_ERR_ARG on every process if one passed an invalid
// colour.
int split_intercomm(MPI_Comm ic, int color, int key, MPI_Comm *newcomm);
// `group` holds members of this side's group (MPI_ERR_GROUP otherwise, and
// MPI_ERR_ARG on the other side).
int create_intercomm(MPI_Comm ic, MPI_Group group, MPI_Comm *newcomm);

}  // namespace ftmpi::comm
