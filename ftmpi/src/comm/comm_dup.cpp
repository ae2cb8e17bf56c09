// MPI_Comm_dup (+ _with_info, idup) and MPI_Comm_free.
#include "../internal/errors.hpp"
#include "../internal/ft.hpp"
#include "../internal/p2p.hpp"
#include "../internal/pmpi.hpp"
#include "agree.hpp"
#include "objects.hpp"

using namespace ftmpi::comm;

namespace {
// Same groups, topology and error handler under a fresh context; attributes
// through their copy callbacks.
int dup_comm(MPI_Comm comm, MPI_Comm *newcomm) {
    uint32_t context = 0;
    int err = allocate_context(comm, &context);
    if (err != MPI_SUCCESS) return err;
    retain(comm->group);
    if (comm->remote != nullptr) retain(comm->remote);
    MPI_Comm c = make_comm(comm->group, comm->remote, context, comm);
    c->topology = comm->topology;
    if (comm->local != MPI_COMM_NULL) {
        retain(comm->local);
        c->local = comm->local;
    }
    err = copy_all_attributes(comm, c);
    if (err != MPI_SUCCESS) {
        delete_all_attributes(c);
        release(c);
        return err;
    }
    *newcomm = c;
    return MPI_SUCCESS;
}

ftmpi_info_s *copy_info(MPI_Info info) {
    auto *copy = new ftmpi_info_s;
    copy->entries = info->entries;
    return copy;
}
}  // namespace

extern "C" int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm) noexcept {
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, "MPI_Comm_dup");
    if (newcomm == nullptr) return raise(comm, MPI_ERR_ARG, "MPI_Comm_dup");
    if (int err = MPI_SUCCESS; ftmpi::ft::recover_if_needed(comm, newcomm, &err)) return raise(comm, err, "MPI_Comm_dup");
    int err = dup_comm(comm, newcomm);
    if (err == MPI_SUCCESS && comm->info != nullptr) (*newcomm)->info = copy_info(comm->info);
    return raise(comm, err, "MPI_Comm_dup");
}
FTMPI_PMPI(Comm_dup)

extern "C" int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm) noexcept {
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, "MPI_Comm_dup_with_info");
    if (newcomm == nullptr) return raise(comm, MPI_ERR_ARG, "MPI_Comm_dup_with_info");
    if (info != MPI_INFO_NULL && !valid(info)) return raise(comm, MPI_ERR_INFO, "MPI_Comm_dup_with_info");
    if (int err = MPI_SUCCESS; ftmpi::ft::recover_if_needed(comm, newcomm, &err)) return raise(comm, err, "MPI_Comm_dup_with_info");
    int err = dup_comm(comm, newcomm);
    if (err == MPI_SUCCESS && info != MPI_INFO_NULL) (*newcomm)->info = copy_info(info);
    return raise(comm, err, "MPI_Comm_dup_with_info");
}
FTMPI_PMPI(Comm_dup_with_info)

// Done at once (a dup is one short agreement); the request is already
// complete, as the standard allows.
extern "C" int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request) noexcept {
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, "MPI_Comm_idup");
    if (newcomm == nullptr || request == nullptr) return raise(comm, MPI_ERR_ARG, "MPI_Comm_idup");
    if (int err = MPI_SUCCESS; ftmpi::ft::recover_if_needed(comm, newcomm, &err)) return raise(comm, err, "MPI_Comm_idup");
    int err = dup_comm(comm, newcomm);
    if (err != MPI_SUCCESS) return raise(comm, err, "MPI_Comm_idup");
    *request = ftmpi::p2p::make_generalized([](MPI_Status *status) {
        if (status != MPI_STATUS_IGNORE) {
            status->MPI_SOURCE = MPI_ANY_SOURCE;
            status->MPI_TAG = MPI_ANY_TAG;
            status->MPI_ERROR = MPI_SUCCESS;
        }
        return true;
    });
    return MPI_SUCCESS;
}
FTMPI_PMPI(Comm_idup)

extern "C" int MPI_Comm_free(MPI_Comm *comm) noexcept {
    if (comm == nullptr || !valid(*comm)) return raise(MPI_COMM_NULL, MPI_ERR_COMM, "MPI_Comm_free");
    MPI_Comm c = *comm;
    if (c == MPI_COMM_WORLD || c == MPI_COMM_SELF) return raise(c, MPI_ERR_COMM, "MPI_Comm_free");
    // Delete callbacks run now, while the communicator is still usable.
    int err = delete_all_attributes(c);
    *comm = MPI_COMM_NULL;
    release(c);
    return err == MPI_SUCCESS ? MPI_SUCCESS : raise(MPI_COMM_NULL, err, "MPI_Comm_free");
}
FTMPI_PMPI(Comm_free)
