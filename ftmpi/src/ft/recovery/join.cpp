// Owner: recovery. A replacement process's part in the recovery that
// started it (REBUILD modes): MPI_Init calls ft::join_as_replacement.
#include "../../internal/ft.hpp"

namespace ftmpi::ft {

// First version: nothing to install yet.
int join_as_replacement() { return MPI_SUCCESS; }

}  // namespace ftmpi::ft
