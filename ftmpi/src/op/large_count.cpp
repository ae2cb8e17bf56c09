// MPI_Reduce_local_c (MPI-4 large count): a count that fits an int goes to
// MPI_Reduce_local, a larger one is refused with MPI_ERR_COUNT.
#include "internal/large_count.hpp"

using ftmpi::large_count::narrow;
using ftmpi::large_count::too_large;

FTMPI_LARGE_COUNT(Reduce_local, MPI_COMM_NULL,
                  (const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op), (count),
                  (inbuf, inoutbuf, narrow(count), datatype, op))
