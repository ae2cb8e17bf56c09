// MPIX_Comm_revoke and MPIX_Comm_is_revoked over core's flood
// (p2p::revoke): intra- and intercommunicators alike.
#include "binding.hpp"

#include "../internal/p2p.hpp"

using namespace ftmpi;

extern "C" int MPIX_Comm_revoke(MPI_Comm comm) {
    if (!ulfm::usable(comm)) return comm::raise(MPI_COMM_NULL, MPI_ERR_COMM, "MPIX_Comm_revoke");
    return ulfm::guarded(comm, "MPIX_Comm_revoke", [&] { return p2p::revoke(comm); });
}
FTMPI_PMPIX(Comm_revoke)

extern "C" int MPIX_Comm_is_revoked(MPI_Comm comm, int *flag) {
    if (!ulfm::usable(comm)) return comm::raise(MPI_COMM_NULL, MPI_ERR_COMM, "MPIX_Comm_is_revoked");
    if (flag == nullptr) return comm::raise(comm, MPI_ERR_ARG, "MPIX_Comm_is_revoked");
    return ulfm::guarded(comm, "MPIX_Comm_is_revoked", [&] {
        *flag = p2p::is_revoked(comm) ? 1 : 0;
        return MPI_SUCCESS;
    });
}
FTMPI_PMPIX(Comm_is_revoked)
