// Argument checks shared by the p2p bindings; each
// returns MPI_SUCCESS or the error class the standard names for the mistake.
#pragma once

#include "internal/comm.hpp"
#include "internal/datatype.hpp"
#include "internal/errors.hpp"
#include "internal/p2p.hpp"
#include "internal/runtime.hpp"

namespace ftmpi::p2p {

inline int remote_size(MPI_Comm c) {
    return c->inter && c->remote ? static_cast<int>(c->remote->world.size()) : c->size;
}

inline int check_common(MPI_Comm comm, MPI_Count count, MPI_Datatype type) {
    if (!runtime::initialized() || runtime::finalized()) return MPI_ERR_OTHER;
    if (!comm::valid(comm)) return MPI_ERR_COMM;
    if (count < 0) return MPI_ERR_COUNT;
    if (!dt::valid(type)) return MPI_ERR_TYPE;
    return MPI_SUCCESS;
}

// dest of a send: a rank of comm (its remote group on an intercommunicator) or
// MPI_PROC_NULL. A gap of a BLANK communicator (world rank -1) is no rank.
inline int check_dest(MPI_Comm comm, int rank) {
    if (rank == MPI_PROC_NULL) return MPI_SUCCESS;
    if (rank < 0 || rank >= remote_size(comm)) return MPI_ERR_RANK;
    return comm::world_rank_of(comm, rank) >= 0 ? MPI_SUCCESS : MPI_ERR_RANK;
}

inline int check_source(MPI_Comm comm, int rank) {
    return rank == MPI_ANY_SOURCE ? MPI_SUCCESS : check_dest(comm, rank);
}

// User tags are 0..MPI_TAG_UB (INT_MAX); the collective channel may use any
// tag except MPI_ANY_TAG.
inline int check_send_tag(int tag, Channel channel) {
    if (channel == Channel::collective) return tag == MPI_ANY_TAG ? MPI_ERR_TAG : MPI_SUCCESS;
    return tag >= 0 ? MPI_SUCCESS : MPI_ERR_TAG;
}

inline int check_recv_tag(int tag, Channel channel) {
    return tag == MPI_ANY_TAG ? MPI_SUCCESS : check_send_tag(tag, channel);
}

}  // namespace ftmpi::p2p
