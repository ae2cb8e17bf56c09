// The MPI-4 large-count (`_c`) collectives whose counts are scalars
// (the v- and w-forms, whose counts are arrays, are in
// api_large_count_arrays.cpp): non-blocking, persistent, scans,
// Reduce_scatter_block and the neighbourhood forms. Counts that fit an int
// go to the int call; larger ones are refused with MPI_ERR_COUNT.
#include "internal/large_count.hpp"

using ftmpi::large_count::narrow;
using ftmpi::large_count::too_large;

FTMPI_LARGE_COUNT(Allgather_init, comm,
                  (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request),
                  (sendcount, recvcount),
                  (sendbuf, narrow(sendcount), sendtype, recvbuf, narrow(recvcount), recvtype, comm, info, request))

FTMPI_LARGE_COUNT(Allreduce_init, comm,
                  (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Info info, MPI_Request *request),
                  (count), (sendbuf, recvbuf, narrow(count), datatype, op, comm, info, request))

FTMPI_LARGE_COUNT(Alltoall_init, comm,
                  (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request),
                  (sendcount, recvcount),
                  (sendbuf, narrow(sendcount), sendtype, recvbuf, narrow(recvcount), recvtype, comm, info, request))

FTMPI_LARGE_COUNT(Bcast_init, comm,
                  (void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                   MPI_Request *request),
                  (count), (buffer, narrow(count), datatype, root, comm, info, request))

FTMPI_LARGE_COUNT(Exscan, comm,
                  (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm),
                  (count), (sendbuf, recvbuf, narrow(count), datatype, op, comm))

FTMPI_LARGE_COUNT(Exscan_init, comm,
                  (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Info info, MPI_Request *request),
                  (count), (sendbuf, recvbuf, narrow(count), datatype, op, comm, info, request))

FTMPI_LARGE_COUNT(Gather_init, comm,
                  (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request),
                  (sendcount, recvcount),
                  (sendbuf, narrow(sendcount), sendtype, recvbuf, narrow(recvcount), recvtype, root, comm, info,
                   request))

FTMPI_LARGE_COUNT(Iallgather, comm,
                  (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request),
                  (sendcount, recvcount),
                  (sendbuf, narrow(sendcount), sendtype, recvbuf, narrow(recvcount), recvtype, comm, request))

FTMPI_LARGE_COUNT(Ialltoall, comm,
                  (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request),
                  (sendcount, recvcount),
                  (sendbuf, narrow(sendcount), sendtype, recvbuf, narrow(recvcount), recvtype, comm, request))

FTMPI_LARGE_COUNT(Iexscan, comm,
                  (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Request *request),
                  (count), (sendbuf, recvbuf, narrow(count), datatype, op, comm, request))

FTMPI_LARGE_COUNT(Igather, comm,
                  (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request),
                  (sendcount, recvcount),
                  (sendbuf, narrow(sendcount), sendtype, recvbuf, narrow(recvcount), recvtype, root, comm, request))

FTMPI_LARGE_COUNT(Ineighbor_allgather, comm,
                  (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request),
                  (sendcount, recvcount),
                  (sendbuf, narrow(sendcount), sendtype, recvbuf, narrow(recvcount), recvtype, comm, request))

FTMPI_LARGE_COUNT(Ineighbor_alltoall, comm,
                  (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request),
                  (sendcount, recvcount),
                  (sendbuf, narrow(sendcount), sendtype, recvbuf, narrow(recvcount), recvtype, comm, request))

FTMPI_LARGE_COUNT(Ireduce, comm,
                  (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
                   MPI_Comm comm, MPI_Request *request),
                  (count), (sendbuf, recvbuf, narrow(count), datatype, op, root, comm, request))

FTMPI_LARGE_COUNT(Ireduce_scatter_block, comm,
                  (const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm, MPI_Request *request),
                  (recvcount), (sendbuf, recvbuf, narrow(recvcount), datatype, op, comm, request))

FTMPI_LARGE_COUNT(Iscan, comm,
                  (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Request *request),
                  (count), (sendbuf, recvbuf, narrow(count), datatype, op, comm, request))

FTMPI_LARGE_COUNT(Iscatter, comm,
                  (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request),
                  (sendcount, recvcount),
                  (sendbuf, narrow(sendcount), sendtype, recvbuf, narrow(recvcount), recvtype, root, comm, request))

FTMPI_LARGE_COUNT(Neighbor_allgather, comm,
                  (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm),
                  (sendcount, recvcount),
                  (sendbuf, narrow(sendcount), sendtype, recvbuf, narrow(recvcount), recvtype, comm))

FTMPI_LARGE_COUNT(Neighbor_allgather_init, comm,
                  (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request),
                  (sendcount, recvcount),
                  (sendbuf, narrow(sendcount), sendtype, recvbuf, narrow(recvcount), recvtype, comm, info, request))

FTMPI_LARGE_COUNT(Neighbor_alltoall, comm,
                  (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm),
                  (sendcount, recvcount),
                  (sendbuf, narrow(sendcount), sendtype, recvbuf, narrow(recvcount), recvtype, comm))

FTMPI_LARGE_COUNT(Neighbor_alltoall_init, comm,
                  (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request),
                  (sendcount, recvcount),
                  (sendbuf, narrow(sendcount), sendtype, recvbuf, narrow(recvcount), recvtype, comm, info, request))

FTMPI_LARGE_COUNT(Reduce_init, comm,
                  (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
                   MPI_Comm comm, MPI_Info info, MPI_Request *request),
                  (count), (sendbuf, recvbuf, narrow(count), datatype, op, root, comm, info, request))

FTMPI_LARGE_COUNT(Reduce_scatter_block, comm,
                  (const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm),
                  (recvcount), (sendbuf, recvbuf, narrow(recvcount), datatype, op, comm))

FTMPI_LARGE_COUNT(Reduce_scatter_block_init, comm,
                  (const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm, MPI_Info info, MPI_Request *request),
                  (recvcount), (sendbuf, recvbuf, narrow(recvcount), datatype, op, comm, info, request))

FTMPI_LARGE_COUNT(Scan, comm,
                  (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm),
                  (count), (sendbuf, recvbuf, narrow(count), datatype, op, comm))

FTMPI_LARGE_COUNT(Scan_init, comm,
                  (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Info info, MPI_Request *request),
                  (count), (sendbuf, recvbuf, narrow(count), datatype, op, comm, info, request))

FTMPI_LARGE_COUNT(Scatter_init, comm,
                  (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request),
                  (sendcount, recvcount),
                  (sendbuf, narrow(sendcount), sendtype, recvbuf, narrow(recvcount), recvtype, root, comm, info,
                   request))
