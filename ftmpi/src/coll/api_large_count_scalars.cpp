// The MPI-4 large-count (`_c`) collectives whose counts are scalars
// (the v- and w-forms, whose counts are arrays, are in
// api_large_count_arrays.cpp): non-blocking, persistent, scans,
// Reduce_scatter_block and the neighbourhood forms. Counts that fit an int
// go to the int call; larger ones are refused with MPI_ERR_COUNT.
//
// One macro per signature; Kind says which parameters follow the
// communicator: none (BLOCKING), a request (NONBLOCKING), or info and a
// request (PERSISTENT).
#include "internal/large_count.hpp"

using ftmpi::large_count::narrow;
using ftmpi::large_count::too_large;

#define FTMPI_BLOCKING_PARAMS
#define FTMPI_BLOCKING_ARGS
#define FTMPI_NONBLOCKING_PARAMS , MPI_Request *request
#define FTMPI_NONBLOCKING_ARGS   , request
#define FTMPI_PERSISTENT_PARAMS  , MPI_Info info, MPI_Request *request
#define FTMPI_PERSISTENT_ARGS    , info, request

// Allgather, Alltoall and their neighbourhood forms.
#define FTMPI_ALLGATHER_C(Name, Kind)                                                                                  \
    FTMPI_LARGE_COUNT(                                                                                                 \
        Name, comm,                                                                                                    \
        (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,          \
         MPI_Datatype recvtype, MPI_Comm comm FTMPI_##Kind##_PARAMS),                                                  \
        (sendcount, recvcount),                                                                                        \
        (sendbuf, narrow(sendcount), sendtype, recvbuf, narrow(recvcount), recvtype, comm FTMPI_##Kind##_ARGS))

FTMPI_ALLGATHER_C(Iallgather, NONBLOCKING)
FTMPI_ALLGATHER_C(Allgather_init, PERSISTENT)
FTMPI_ALLGATHER_C(Ialltoall, NONBLOCKING)
FTMPI_ALLGATHER_C(Alltoall_init, PERSISTENT)
FTMPI_ALLGATHER_C(Neighbor_allgather, BLOCKING)
FTMPI_ALLGATHER_C(Ineighbor_allgather, NONBLOCKING)
FTMPI_ALLGATHER_C(Neighbor_allgather_init, PERSISTENT)
FTMPI_ALLGATHER_C(Neighbor_alltoall, BLOCKING)
FTMPI_ALLGATHER_C(Ineighbor_alltoall, NONBLOCKING)
FTMPI_ALLGATHER_C(Neighbor_alltoall_init, PERSISTENT)

// Gather and Scatter: the same with a root.
#define FTMPI_ROOTED_C(Name, Kind)                                                                                     \
    FTMPI_LARGE_COUNT(                                                                                                 \
        Name, comm,                                                                                                    \
        (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,          \
         MPI_Datatype recvtype, int root, MPI_Comm comm FTMPI_##Kind##_PARAMS),                                        \
        (sendcount, recvcount),                                                                                        \
        (sendbuf, narrow(sendcount), sendtype, recvbuf, narrow(recvcount), recvtype, root, comm FTMPI_##Kind##_ARGS))

FTMPI_ROOTED_C(Igather, NONBLOCKING)
FTMPI_ROOTED_C(Gather_init, PERSISTENT)
FTMPI_ROOTED_C(Iscatter, NONBLOCKING)
FTMPI_ROOTED_C(Scatter_init, PERSISTENT)

// Allreduce, Scan, Exscan, Reduce_scatter_block: one count and an op.
#define FTMPI_REDUCTION_C(Name, Kind)                                                                                  \
    FTMPI_LARGE_COUNT(Name, comm,                                                                                      \
                      (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,          \
                       MPI_Comm comm FTMPI_##Kind##_PARAMS),                                                           \
                      (count), (sendbuf, recvbuf, narrow(count), datatype, op, comm FTMPI_##Kind##_ARGS))

FTMPI_REDUCTION_C(Allreduce_init, PERSISTENT)
FTMPI_REDUCTION_C(Scan, BLOCKING)
FTMPI_REDUCTION_C(Iscan, NONBLOCKING)
FTMPI_REDUCTION_C(Scan_init, PERSISTENT)
FTMPI_REDUCTION_C(Exscan, BLOCKING)
FTMPI_REDUCTION_C(Iexscan, NONBLOCKING)
FTMPI_REDUCTION_C(Exscan_init, PERSISTENT)
FTMPI_REDUCTION_C(Reduce_scatter_block, BLOCKING)
FTMPI_REDUCTION_C(Ireduce_scatter_block, NONBLOCKING)
FTMPI_REDUCTION_C(Reduce_scatter_block_init, PERSISTENT)

// Reduce: the same with a root.
#define FTMPI_REDUCE_C(Name, Kind)                                                                                     \
    FTMPI_LARGE_COUNT(Name, comm,                                                                                      \
                      (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,          \
                       int root, MPI_Comm comm FTMPI_##Kind##_PARAMS),                                                 \
                      (count), (sendbuf, recvbuf, narrow(count), datatype, op, root, comm FTMPI_##Kind##_ARGS))

FTMPI_REDUCE_C(Ireduce, NONBLOCKING)
FTMPI_REDUCE_C(Reduce_init, PERSISTENT)

FTMPI_LARGE_COUNT(Bcast_init, comm,
                  (void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                   MPI_Request *request),
                  (count), (buffer, narrow(count), datatype, root, comm, info, request))
