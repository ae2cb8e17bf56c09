// MPI_Comm_idup_with_info (MPI-4.0 §7.4.2): MPI_Comm_idup with the hints of
// `info` in place of the parent's.
#include "../internal/errors.hpp"
#include "../internal/pmpi.hpp"
#include "objects.hpp"

using namespace ftmpi::comm;

extern "C" int MPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request) noexcept {
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, "MPI_Comm_idup_with_info");
    if (newcomm == nullptr || request == nullptr) return raise(comm, MPI_ERR_ARG, "MPI_Comm_idup_with_info");
    if (info != MPI_INFO_NULL && !valid(info)) return raise(comm, MPI_ERR_INFO, "MPI_Comm_idup_with_info");
    return raise(comm, start_idup(comm, info, newcomm, request), "MPI_Comm_idup_with_info");
}
FTMPI_PMPI(Comm_idup_with_info)
