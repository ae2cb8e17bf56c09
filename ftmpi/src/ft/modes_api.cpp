// The FTMPI_ interface of mpi-ext.h: a communicator's comm
// and message modes, its state, its members' process states, and strict
// collectives. Local calls; errors go through the communicator's handler.
#include "ft/comm_state.hpp"
#include "ft/failure_list.hpp"
#include "ft/notifier.hpp"

#include "internal/comm.hpp"
#include "internal/errors.hpp"
#include "internal/ft.hpp"

// PFTMPI_X is a weak alias of FTMPI_X, as FTMPI_PMPI does for MPI_ names.
#define FTMPI_PFTMPI(name)                                                                                             \
    extern "C" __typeof__(FTMPI_##name) PFTMPI_##name __attribute__((weak, alias("FTMPI_" #name)));

using ftmpi::comm::raise;
using ftmpi::comm::valid;

namespace {
bool known_comm_mode(int m) {
    return m >= FTMPI_COMM_MODE_ULFM && m <= FTMPI_COMM_MODE_REBUILD_APPEND;
}
bool known_msg_mode(int m) {
    return m == FTMPI_MSG_MODE_NOP || m == FTMPI_MSG_MODE_CONT;
}

}  // namespace

extern "C" int FTMPI_Comm_set_mode(MPI_Comm comm, int comm_mode, int msg_mode) {
    constexpr const char *fn = "FTMPI_Comm_set_mode";
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, fn);
    if (!known_comm_mode(comm_mode) || !known_msg_mode(msg_mode)) return raise(comm, MPI_ERR_ARG, fn);
    comm->ft.comm_mode = comm_mode;
    comm->ft.msg_mode = msg_mode;
    return MPI_SUCCESS;
}
FTMPI_PFTMPI(Comm_set_mode)

extern "C" int FTMPI_Comm_get_mode(MPI_Comm comm, int *comm_mode, int *msg_mode) {
    constexpr const char *fn = "FTMPI_Comm_get_mode";
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, fn);
    if (comm_mode == nullptr || msg_mode == nullptr) return raise(comm, MPI_ERR_ARG, fn);
    *comm_mode = comm->ft.comm_mode.load();
    *msg_mode = comm->ft.msg_mode.load();
    return MPI_SUCCESS;
}
FTMPI_PFTMPI(Comm_get_mode)

extern "C" int FTMPI_Comm_get_state(MPI_Comm comm, int *state) {
    constexpr const char *fn = "FTMPI_Comm_get_state";
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, fn);
    if (state == nullptr) return raise(comm, MPI_ERR_ARG, fn);
    ftmpi::ft::sync_with_p2p();
    *state = ftmpi::ft::comm_state(comm);
    return MPI_SUCCESS;
}
FTMPI_PFTMPI(Comm_get_state)

extern "C" int FTMPI_Comm_get_proc_state(MPI_Comm comm, int rank, int *state) {
    constexpr const char *fn = "FTMPI_Comm_get_proc_state";
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, fn);
    if (state == nullptr) return raise(comm, MPI_ERR_ARG, fn);
    MPI_Group peers = comm->inter ? comm->remote : comm->group;
    if (peers == nullptr || rank < 0 || rank >= static_cast<int>(peers->world.size()))
        return raise(comm, MPI_ERR_RANK, fn);
    ftmpi::ft::sync_with_p2p();
    *state = ftmpi::ft::proc_state(comm, peers->world[static_cast<size_t>(rank)]);
    return MPI_SUCCESS;
}
FTMPI_PFTMPI(Comm_get_proc_state)

extern "C" int FTMPI_Comm_set_strict(MPI_Comm comm, int strict) {
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, "FTMPI_Comm_set_strict");
    comm->ft.strict = strict != 0;
    return MPI_SUCCESS;
}
FTMPI_PFTMPI(Comm_set_strict)

extern "C" int FTMPI_Comm_get_strict(MPI_Comm comm, int *strict) {
    constexpr const char *fn = "FTMPI_Comm_get_strict";
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, fn);
    if (strict == nullptr) return raise(comm, MPI_ERR_ARG, fn);
    *strict = comm->ft.strict.load() ? 1 : 0;
    return MPI_SUCCESS;
}
FTMPI_PFTMPI(Comm_get_strict)
