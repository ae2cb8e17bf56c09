// The MPI-4 large-count (`_c`) v- and w-collectives, blocking and
// non-blocking (the persistent ones are in api_large_count_arrays_init.cpp):
// the count and displacement arrays are narrowed to ints (the schedule is
// built inside the int call, so the narrowed arrays need to live only as
// long as the call); a count, displacement or array entry past INT_MAX is
// refused with MPI_ERR_COUNT.
#include "large_count_arrays.hpp"

using ftmpi::coll::NarrowedArrays;
using ftmpi::large_count::narrow;
using ftmpi::large_count::too_large;

extern "C" int MPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                MPI_Comm comm) noexcept {
    NarrowedArrays n(comm);
    const int *recvcounts_int = n(recvcounts, n.peers());
    const int *displs_int = n(displs, n.peers());
    if (!n.ok() || !ftmpi::large_count::all_fit(sendcount)) return too_large(comm, "MPI_Allgatherv_c");
    return MPI_Allgatherv(sendbuf, narrow(sendcount), sendtype, recvbuf, recvcounts_int, displs_int, recvtype, comm);
}
FTMPI_PMPI(Allgatherv_c)

extern "C" int MPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                               MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm) noexcept {
    NarrowedArrays n(comm);
    const int *sendcounts_int = n(sendcounts, n.peers());
    const int *sdispls_int = n(sdispls, n.peers());
    const int *recvcounts_int = n(recvcounts, n.peers());
    const int *rdispls_int = n(rdispls, n.peers());
    if (!n.ok()) return too_large(comm, "MPI_Alltoallv_c");
    return MPI_Alltoallv(sendbuf, sendcounts_int, sdispls_int, sendtype, recvbuf, recvcounts_int, rdispls_int, recvtype,
                         comm);
}
FTMPI_PMPI(Alltoallv_c)

extern "C" int MPI_Alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                               const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) noexcept {
    NarrowedArrays n(comm);
    const int *sendcounts_int = n(sendcounts, n.peers());
    const int *sdispls_int = n(sdispls, n.peers());
    const int *recvcounts_int = n(recvcounts, n.peers());
    const int *rdispls_int = n(rdispls, n.peers());
    if (!n.ok()) return too_large(comm, "MPI_Alltoallw_c");
    return MPI_Alltoallw(sendbuf, sendcounts_int, sdispls_int, sendtypes, recvbuf, recvcounts_int, rdispls_int,
                         recvtypes, comm);
}
FTMPI_PMPI(Alltoallw_c)

extern "C" int MPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                             const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                             MPI_Comm comm) noexcept {
    NarrowedArrays n(comm);
    const int *recvcounts_int = n(recvcounts, n.at_root(root));
    const int *displs_int = n(displs, n.at_root(root));
    if (!n.ok() || !ftmpi::large_count::all_fit(sendcount)) return too_large(comm, "MPI_Gatherv_c");
    return MPI_Gatherv(sendbuf, narrow(sendcount), sendtype, recvbuf, recvcounts_int, displs_int, recvtype, root, comm);
}
FTMPI_PMPI(Gatherv_c)

extern "C" int MPI_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                 const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                 MPI_Comm comm, MPI_Request *request) noexcept {
    NarrowedArrays n(comm);
    const int *recvcounts_int = n(recvcounts, n.peers());
    const int *displs_int = n(displs, n.peers());
    if (!n.ok() || !ftmpi::large_count::all_fit(sendcount)) return too_large(comm, "MPI_Iallgatherv_c");
    return MPI_Iallgatherv(sendbuf, narrow(sendcount), sendtype, recvbuf, recvcounts_int, displs_int, recvtype, comm,
                           request);
}
FTMPI_PMPI(Iallgatherv_c)

extern "C" int MPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                                const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Request *request) noexcept {
    NarrowedArrays n(comm);
    const int *sendcounts_int = n(sendcounts, n.peers());
    const int *sdispls_int = n(sdispls, n.peers());
    const int *recvcounts_int = n(recvcounts, n.peers());
    const int *rdispls_int = n(rdispls, n.peers());
    if (!n.ok()) return too_large(comm, "MPI_Ialltoallv_c");
    return MPI_Ialltoallv(sendbuf, sendcounts_int, sdispls_int, sendtype, recvbuf, recvcounts_int, rdispls_int,
                          recvtype, comm, request);
}
FTMPI_PMPI(Ialltoallv_c)

extern "C" int MPI_Ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                                const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                MPI_Request *request) noexcept {
    NarrowedArrays n(comm);
    const int *sendcounts_int = n(sendcounts, n.peers());
    const int *sdispls_int = n(sdispls, n.peers());
    const int *recvcounts_int = n(recvcounts, n.peers());
    const int *rdispls_int = n(rdispls, n.peers());
    if (!n.ok()) return too_large(comm, "MPI_Ialltoallw_c");
    return MPI_Ialltoallw(sendbuf, sendcounts_int, sdispls_int, sendtypes, recvbuf, recvcounts_int, rdispls_int,
                          recvtypes, comm, request);
}
FTMPI_PMPI(Ialltoallw_c)

extern "C" int MPI_Igatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                              const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                              MPI_Comm comm, MPI_Request *request) noexcept {
    NarrowedArrays n(comm);
    const int *recvcounts_int = n(recvcounts, n.at_root(root));
    const int *displs_int = n(displs, n.at_root(root));
    if (!n.ok() || !ftmpi::large_count::all_fit(sendcount)) return too_large(comm, "MPI_Igatherv_c");
    return MPI_Igatherv(sendbuf, narrow(sendcount), sendtype, recvbuf, recvcounts_int, displs_int, recvtype, root, comm,
                        request);
}
FTMPI_PMPI(Igatherv_c)

extern "C" int MPI_Ineighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                          void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) noexcept {
    NarrowedArrays n(comm);
    const int *recvcounts_int = n(recvcounts, n.in_degree());
    const int *displs_int = n(displs, n.in_degree());
    if (!n.ok() || !ftmpi::large_count::all_fit(sendcount)) return too_large(comm, "MPI_Ineighbor_allgatherv_c");
    return MPI_Ineighbor_allgatherv(sendbuf, narrow(sendcount), sendtype, recvbuf, recvcounts_int, displs_int, recvtype,
                                    comm, request);
}
FTMPI_PMPI(Ineighbor_allgatherv_c)

extern "C" int MPI_Ineighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                         MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                                         const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                         MPI_Request *request) noexcept {
    NarrowedArrays n(comm);
    const int *sendcounts_int = n(sendcounts, n.out_degree());
    const int *sdispls_int = n(sdispls, n.out_degree());
    const int *recvcounts_int = n(recvcounts, n.in_degree());
    const int *rdispls_int = n(rdispls, n.in_degree());
    if (!n.ok()) return too_large(comm, "MPI_Ineighbor_alltoallv_c");
    return MPI_Ineighbor_alltoallv(sendbuf, sendcounts_int, sdispls_int, sendtype, recvbuf, recvcounts_int, rdispls_int,
                                   recvtype, comm, request);
}
FTMPI_PMPI(Ineighbor_alltoallv_c)

extern "C" int MPI_Ineighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                         const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                                         const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                         MPI_Request *request) noexcept {
    NarrowedArrays n(comm);
    const int *sendcounts_int = n(sendcounts, n.out_degree());
    const int *recvcounts_int = n(recvcounts, n.in_degree());
    if (!n.ok()) return too_large(comm, "MPI_Ineighbor_alltoallw_c");
    return MPI_Ineighbor_alltoallw(sendbuf, sendcounts_int, sdispls, sendtypes, recvbuf, recvcounts_int, rdispls,
                                   recvtypes, comm, request);
}
FTMPI_PMPI(Ineighbor_alltoallw_c)

extern "C" int MPI_Ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request) noexcept {
    NarrowedArrays n(comm);
    const int *recvcounts_int = n(recvcounts, n.local());
    if (!n.ok()) return too_large(comm, "MPI_Ireduce_scatter_c");
    return MPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts_int, datatype, op, comm, request);
}
FTMPI_PMPI(Ireduce_scatter_c)

extern "C" int MPI_Iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                               MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                               int root, MPI_Comm comm, MPI_Request *request) noexcept {
    NarrowedArrays n(comm);
    const int *sendcounts_int = n(sendcounts, n.at_root(root));
    const int *displs_int = n(displs, n.at_root(root));
    if (!n.ok() || !ftmpi::large_count::all_fit(recvcount)) return too_large(comm, "MPI_Iscatterv_c");
    return MPI_Iscatterv(sendbuf, sendcounts_int, displs_int, sendtype, recvbuf, narrow(recvcount), recvtype, root,
                         comm, request);
}
FTMPI_PMPI(Iscatterv_c)

extern "C" int MPI_Neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                         const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                         MPI_Comm comm) noexcept {
    NarrowedArrays n(comm);
    const int *recvcounts_int = n(recvcounts, n.in_degree());
    const int *displs_int = n(displs, n.in_degree());
    if (!n.ok() || !ftmpi::large_count::all_fit(sendcount)) return too_large(comm, "MPI_Neighbor_allgatherv_c");
    return MPI_Neighbor_allgatherv(sendbuf, narrow(sendcount), sendtype, recvbuf, recvcounts_int, displs_int, recvtype,
                                   comm);
}
FTMPI_PMPI(Neighbor_allgatherv_c)

extern "C" int MPI_Neighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                        MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                                        const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm) noexcept {
    NarrowedArrays n(comm);
    const int *sendcounts_int = n(sendcounts, n.out_degree());
    const int *sdispls_int = n(sdispls, n.out_degree());
    const int *recvcounts_int = n(recvcounts, n.in_degree());
    const int *rdispls_int = n(rdispls, n.in_degree());
    if (!n.ok()) return too_large(comm, "MPI_Neighbor_alltoallv_c");
    return MPI_Neighbor_alltoallv(sendbuf, sendcounts_int, sdispls_int, sendtype, recvbuf, recvcounts_int, rdispls_int,
                                  recvtype, comm);
}
FTMPI_PMPI(Neighbor_alltoallv_c)

extern "C" int MPI_Neighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                        const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                                        const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                        MPI_Comm comm) noexcept {
    NarrowedArrays n(comm);
    const int *sendcounts_int = n(sendcounts, n.out_degree());
    const int *recvcounts_int = n(recvcounts, n.in_degree());
    if (!n.ok()) return too_large(comm, "MPI_Neighbor_alltoallw_c");
    return MPI_Neighbor_alltoallw(sendbuf, sendcounts_int, sdispls, sendtypes, recvbuf, recvcounts_int, rdispls,
                                  recvtypes, comm);
}
FTMPI_PMPI(Neighbor_alltoallw_c)

extern "C" int MPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                                    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) noexcept {
    NarrowedArrays n(comm);
    const int *recvcounts_int = n(recvcounts, n.local());
    if (!n.ok()) return too_large(comm, "MPI_Reduce_scatter_c");
    return MPI_Reduce_scatter(sendbuf, recvbuf, recvcounts_int, datatype, op, comm);
}
FTMPI_PMPI(Reduce_scatter_c)

extern "C" int MPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                              MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                              int root, MPI_Comm comm) noexcept {
    NarrowedArrays n(comm);
    const int *sendcounts_int = n(sendcounts, n.at_root(root));
    const int *displs_int = n(displs, n.at_root(root));
    if (!n.ok() || !ftmpi::large_count::all_fit(recvcount)) return too_large(comm, "MPI_Scatterv_c");
    return MPI_Scatterv(sendbuf, sendcounts_int, displs_int, sendtype, recvbuf, narrow(recvcount), recvtype, root,
                        comm);
}
FTMPI_PMPI(Scatterv_c)
