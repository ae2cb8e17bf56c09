// The MPI-4 large-count (`_c`) reduction calls: MPI_Reduce_local_c (a count
// that fits an int goes to MPI_Reduce_local, a larger one is refused with
// MPI_ERR_COUNT) and MPI_Op_create_c.
#include "internal/large_count.hpp"
#include "op.hpp"

using ftmpi::large_count::narrow;
using ftmpi::large_count::too_large;

FTMPI_LARGE_COUNT(Reduce_local, MPI_COMM_NULL,
                  (const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op), (count),
                  (inbuf, inoutbuf, narrow(count), datatype, op))

// The reduction calls the function with an MPI_Count length (apply.cpp).
extern "C" int MPI_Op_create_c(MPI_User_function_c *user_fn, int commute, MPI_Op *op) noexcept {
    return ftmpi::op::create_user(nullptr, user_fn, commute, op, "MPI_Op_create_c");
}
FTMPI_PMPI(Op_create_c)
