// The MPI-4 large-count (`_c`) bindings forward a count that fits an int to
// the int call and refuse a larger one with MPI_ERR_COUNT.
#pragma once

#include "internal/errors.hpp"

#include <climits>

namespace ftmpi::large_count {

// Negative counts are left to the int call's own check.
inline bool fits(MPI_Count n) {
    return n <= INT_MAX;
}

inline int too_large(MPI_Comm comm, const char *function) {
    return comm::raise(comm, MPI_ERR_COUNT, function);
}

}  // namespace ftmpi::large_count
