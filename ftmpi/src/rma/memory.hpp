// Window memory the library allocates: private heap memory
// (MPI_Win_allocate) and a shared segment (MPI_Win_allocate_shared).
#pragma once

#include "window.hpp"

namespace ftmpi::rma {

// win->bytes of zeroed memory at win->base, freed with the window.
int allocate_private(MPI_Win win);
// Collective: one shared segment holding every member's part (win->sizes),
// mapped by all; win->base is this member's part. MPI_ERR_RMA_SHARED when a
// member cannot map it (another host). The same code at every member.
int allocate_shared(MPI_Win win);
void release_memory(MPI_Win win);

}  // namespace ftmpi::rma
