// Persistent collectives (MPI-4.0 §6.13, and the neighbourhood ones of
// §8.8): MPI_Barrier_init, MPI_Bcast_init, MPI_Neighbor_alltoall_init, …
// make an inactive request; each MPI_Start runs the matching
// non-blocking collective with the arguments given at init (buffers and
// arrays must stay as they were, as the standard requires), and the
// request completes when that collective does. Errors found at init (the
// communicator, the request or info handle) go through the communicator's
// error handler; the collective's own argument checks run at MPI_Start and
// are reported there and by MPI_Wait.
#include "api_common.hpp"
#include "persistent_init.hpp"

using ftmpi::coll::make_init;

extern "C" {

int MPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request) noexcept {
    return make_init("MPI_Barrier_init", comm, info, request, [=](MPI_Request *r) { return PMPI_Ibarrier(comm, r); });
}
FTMPI_PMPI(Barrier_init)

int MPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                   MPI_Request *request) noexcept {
    return make_init("MPI_Bcast_init", comm, info, request,
                     [=](MPI_Request *r) { return PMPI_Ibcast(buffer, count, datatype, root, comm, r); });
}
FTMPI_PMPI(Bcast_init)

int MPI_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                    MPI_Comm comm, MPI_Info info, MPI_Request *request) noexcept {
    return make_init("MPI_Reduce_init", comm, info, request, [=](MPI_Request *r) {
        return PMPI_Ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, r);
    });
}
FTMPI_PMPI(Reduce_init)

int MPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                       MPI_Info info, MPI_Request *request) noexcept {
    return make_init("MPI_Allreduce_init", comm, info, request,
                     [=](MPI_Request *r) { return PMPI_Iallreduce(sendbuf, recvbuf, count, datatype, op, comm, r); });
}
FTMPI_PMPI(Allreduce_init)

int MPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request) noexcept {
    return make_init("MPI_Gather_init", comm, info, request, [=](MPI_Request *r) {
        return PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, r);
    });
}
FTMPI_PMPI(Gather_init)

int MPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                     const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                     MPI_Request *request) noexcept {
    return make_init("MPI_Gatherv_init", comm, info, request, [=](MPI_Request *r) {
        return PMPI_Igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, r);
    });
}
FTMPI_PMPI(Gatherv_init)

int MPI_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request) noexcept {
    return make_init("MPI_Scatter_init", comm, info, request, [=](MPI_Request *r) {
        return PMPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, r);
    });
}
FTMPI_PMPI(Scatter_init)

int MPI_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                      void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                      MPI_Request *request) noexcept {
    return make_init("MPI_Scatterv_init", comm, info, request, [=](MPI_Request *r) {
        return PMPI_Iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, r);
    });
}
FTMPI_PMPI(Scatterv_init)

int MPI_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request) noexcept {
    return make_init("MPI_Allgather_init", comm, info, request, [=](MPI_Request *r) {
        return PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, r);
    });
}
FTMPI_PMPI(Allgather_init)

int MPI_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request) noexcept {
    return make_init("MPI_Allgatherv_init", comm, info, request, [=](MPI_Request *r) {
        return PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, r);
    });
}
FTMPI_PMPI(Allgatherv_init)

int MPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                      MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request) noexcept {
    return make_init("MPI_Alltoall_init", comm, info, request, [=](MPI_Request *r) {
        return PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, r);
    });
}
FTMPI_PMPI(Alltoall_init)

int MPI_Alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                       void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                       MPI_Info info, MPI_Request *request) noexcept {
    return make_init("MPI_Alltoallv_init", comm, info, request, [=](MPI_Request *r) {
        return PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, r);
    });
}
FTMPI_PMPI(Alltoallv_init)

int MPI_Alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                       void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                       MPI_Comm comm, MPI_Info info, MPI_Request *request) noexcept {
    return make_init("MPI_Alltoallw_init", comm, info, request, [=](MPI_Request *r) {
        return PMPI_Ialltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm,
                               r);
    });
}
FTMPI_PMPI(Alltoallw_init)

int MPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype,
                            MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request) noexcept {
    return make_init("MPI_Reduce_scatter_init", comm, info, request, [=](MPI_Request *r) {
        return PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, r);
    });
}
FTMPI_PMPI(Reduce_scatter_init)

int MPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                                  MPI_Comm comm, MPI_Info info, MPI_Request *request) noexcept {
    return make_init("MPI_Reduce_scatter_block_init", comm, info, request, [=](MPI_Request *r) {
        return PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, r);
    });
}
FTMPI_PMPI(Reduce_scatter_block_init)

int MPI_Scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                  MPI_Info info, MPI_Request *request) noexcept {
    return make_init("MPI_Scan_init", comm, info, request,
                     [=](MPI_Request *r) { return PMPI_Iscan(sendbuf, recvbuf, count, datatype, op, comm, r); });
}
FTMPI_PMPI(Scan_init)

int MPI_Exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                    MPI_Info info, MPI_Request *request) noexcept {
    return make_init("MPI_Exscan_init", comm, info, request,
                     [=](MPI_Request *r) { return PMPI_Iexscan(sendbuf, recvbuf, count, datatype, op, comm, r); });
}
FTMPI_PMPI(Exscan_init)

int MPI_Neighbor_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request) noexcept {
    return make_init("MPI_Neighbor_allgather_init", comm, info, request, [=](MPI_Request *r) {
        return PMPI_Ineighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, r);
    });
}
FTMPI_PMPI(Neighbor_allgather_init)

int MPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                 MPI_Info info, MPI_Request *request) noexcept {
    return make_init("MPI_Neighbor_allgatherv_init", comm, info, request, [=](MPI_Request *r) {
        return PMPI_Ineighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, r);
    });
}
FTMPI_PMPI(Neighbor_allgatherv_init)

int MPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request) noexcept {
    return make_init("MPI_Neighbor_alltoall_init", comm, info, request, [=](MPI_Request *r) {
        return PMPI_Ineighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, r);
    });
}
FTMPI_PMPI(Neighbor_alltoall_init)

int MPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                                void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Info info, MPI_Request *request) noexcept {
    return make_init("MPI_Neighbor_alltoallv_init", comm, info, request, [=](MPI_Request *r) {
        return PMPI_Ineighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                                        comm, r);
    });
}
FTMPI_PMPI(Neighbor_alltoallv_init)

int MPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                                MPI_Request *request) noexcept {
    return make_init("MPI_Neighbor_alltoallw_init", comm, info, request, [=](MPI_Request *r) {
        return PMPI_Ineighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                                        recvtypes, comm, r);
    });
}
FTMPI_PMPI(Neighbor_alltoallw_init)

}  // extern "C"
