// Owner: recovery. The collective recovery point of FT-MPI's communicator
// modes (ftmpi/FT_CONTRACTS.md "Recovery"): every communicator constructor
// calls ft::recover_if_needed first.
#include "../../internal/ft.hpp"

namespace ftmpi::ft {

// First version: no recovery yet (part 1 behaviour: the constructor runs
// and fails with MPIX_ERR_PROC_FAILED when a member has failed).
bool recover_if_needed(MPI_Comm comm, MPI_Comm *newcomm, int *err) {
    (void)comm;
    (void)newcomm;
    (void)err;
    return false;
}

}  // namespace ftmpi::ft
