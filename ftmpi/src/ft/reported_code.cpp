// The error code a program sees for a process failure, by the
// communicator's comm mode (FT_CONTRACTS.md, "Error codes"): FT-MPI's modes
// report MPI_ERR_OTHER as FT-MPI did (its programs test
// `rc == MPI_ERR_OTHER` and read the details from the FT_MPI_* attributes);
// ULFM mode, and the MPIX_ calls in every mode, report ULFM's
// MPIX_ERR_PROC_FAILED.
#include "ft/recovery/recovery.hpp"
#include "internal/comm.hpp"
#include "internal/ft.hpp"

#include <cstring>

namespace ftmpi::ft {

int reported_code(MPI_Comm comm, int code, const char *function) {
    if (code != MPIX_ERR_PROC_FAILED || comm == nullptr) return code;
    if (!recovery::recovering_mode(comm->ft.comm_mode.load())) return code;
    if (function != nullptr && std::strncmp(function, "MPIX_", 5) == 0) return code;
    return MPI_ERR_OTHER;
}

}  // namespace ftmpi::ft
