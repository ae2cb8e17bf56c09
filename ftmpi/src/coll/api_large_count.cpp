// The MPI-4 large-count (`_c`) forms of the collectives in common use:
// counts that fit an int go to the int call; larger ones are refused with
// MPI_ERR_COUNT.
#include "internal/large_count.hpp"
#include "internal/pmpi.hpp"

using ftmpi::large_count::fits;
using ftmpi::large_count::too_large;

extern "C" {

int MPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm) noexcept {
    if (!fits(count)) return too_large(comm, "MPI_Bcast_c");
    return MPI_Bcast(buffer, static_cast<int>(count), datatype, root, comm);
}
FTMPI_PMPI(Bcast_c)

int MPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
                 MPI_Comm comm) noexcept {
    if (!fits(count)) return too_large(comm, "MPI_Reduce_c");
    return MPI_Reduce(sendbuf, recvbuf, static_cast<int>(count), datatype, op, root, comm);
}
FTMPI_PMPI(Reduce_c)

int MPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm) noexcept {
    if (!fits(count)) return too_large(comm, "MPI_Allreduce_c");
    return MPI_Allreduce(sendbuf, recvbuf, static_cast<int>(count), datatype, op, comm);
}
FTMPI_PMPI(Allreduce_c)

int MPI_Gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm) noexcept {
    if (!fits(sendcount) || !fits(recvcount)) return too_large(comm, "MPI_Gather_c");
    return MPI_Gather(sendbuf, static_cast<int>(sendcount), sendtype, recvbuf, static_cast<int>(recvcount), recvtype,
                      root, comm);
}
FTMPI_PMPI(Gather_c)

int MPI_Scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                  MPI_Datatype recvtype, int root, MPI_Comm comm) noexcept {
    if (!fits(sendcount) || !fits(recvcount)) return too_large(comm, "MPI_Scatter_c");
    return MPI_Scatter(sendbuf, static_cast<int>(sendcount), sendtype, recvbuf, static_cast<int>(recvcount), recvtype,
                       root, comm);
}
FTMPI_PMPI(Scatter_c)

int MPI_Allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm) noexcept {
    if (!fits(sendcount) || !fits(recvcount)) return too_large(comm, "MPI_Allgather_c");
    return MPI_Allgather(sendbuf, static_cast<int>(sendcount), sendtype, recvbuf, static_cast<int>(recvcount), recvtype,
                         comm);
}
FTMPI_PMPI(Allgather_c)

int MPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm) noexcept {
    if (!fits(sendcount) || !fits(recvcount)) return too_large(comm, "MPI_Alltoall_c");
    return MPI_Alltoall(sendbuf, static_cast<int>(sendcount), sendtype, recvbuf, static_cast<int>(recvcount), recvtype,
                        comm);
}
FTMPI_PMPI(Alltoall_c)

int MPI_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                 MPI_Request *request) noexcept {
    if (!fits(count)) return too_large(comm, "MPI_Ibcast_c");
    return MPI_Ibcast(buffer, static_cast<int>(count), datatype, root, comm, request);
}
FTMPI_PMPI(Ibcast_c)

int MPI_Iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                     MPI_Comm comm, MPI_Request *request) noexcept {
    if (!fits(count)) return too_large(comm, "MPI_Iallreduce_c");
    return MPI_Iallreduce(sendbuf, recvbuf, static_cast<int>(count), datatype, op, comm, request);
}
FTMPI_PMPI(Iallreduce_c)

}  // extern "C"
